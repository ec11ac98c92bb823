"""Browser tests: Chromium from the distribution (driven by Playwright for Python) against a real
gunicorn serving a migrated SQLite file, with turn mails delivered to a real SMTP catcher.

Without Playwright or a `chromium` on PATH the browser tests are skipped, saying why; .ci/run
installs chromium, so CI runs them. Playwright's own browser download is not used."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest
import requests

from tests.conftest import ROOT, free_port, stop_gunicorn
from tests.notify.conftest import MailServer

MAIL_DOMAIN = "play.test"


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests skipped: Playwright for Python is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        why = "no chromium on PATH (apt-get install -y chromium; .ci/run does it)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser tests: {why}")
        pytest.skip(f"browser tests skipped: {why}")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@dataclass
class Site:
    base_url: str
    app: object  # the service's app on the same database, for the notify worker
    mail: MailServer

    def deliver(self) -> None:
        """Run the real outbox worker until nothing is due: the mails reach the catcher."""
        from service.notify.worker import Worker
        with self.app.app_context():
            Worker("web-tests").run(until_idle=True)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The service under gunicorn (2 workers x 32 threads, so held long-polls, a closed page's too
    until its stream's next keep-alive, never block a move) on a loopback port; BASE_URL is its own
    address, so mails link back to it."""
    with serving(tmp_path_factory.mktemp("web")) as running:
        yield running


@contextlib.contextmanager
def serving(folder, settings: dict[str, str] | None = None, workers: int = 2):
    """A site in `folder`: its own database, mail catcher and gunicorn. `settings` go to the
    environment (RATELIMIT_ENABLED "true" with one worker: the limits count as in production,
    in one process's memory)."""
    settings = {"RATELIMIT_ENABLED": "false", **(settings or {})}
    database_url = f"sqlite:///{folder / 'web.sqlite3'}"
    mail = MailServer()
    mail.start()
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": database_url, "BASE_URL": base_url, "MAIL_DOMAIN": MAIL_DOMAIN,
           "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(mail.port),
           "WEBHOOK_ALLOW_PRIVATE": "true",  # webhook receivers on loopback
           "PUSH_ALLOW_PRIVATE": "true", "VAPID_KEY_FILE": str(folder / "vapid_private.pem"),  # a push service too
           **settings}
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    with open(folder / "gunicorn.log", "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "gthread", "--threads", "32",
             "--bind", f"127.0.0.1:{port}", "service:create_app()"], cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        _wait_until_up(process, base_url)
        from service import create_app
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "BASE_URL": base_url,
                          "MAIL_DOMAIN": MAIL_DOMAIN, "SMTP_HOST": "127.0.0.1", "SMTP_PORT": mail.port,
                          "SMTP_TIMEOUT": 5.0, "RATELIMIT_ENABLED": False,
                          "WEBHOOK_ALLOW_PRIVATE": True, "PUSH_ALLOW_PRIVATE": True,
                          "VAPID_KEY_FILE": str(folder / "vapid_private.pem")})
        yield Site(base_url, app, mail)
    finally:
        stop_gunicorn(process)
        mail.stop()


def _wait_until_up(process, base_url: str) -> None:
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            if requests.get(base_url + "/health", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError("gunicorn did not answer within 60 s")


PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}


@pytest.fixture
def new_context(browser):
    """Browser contexts (each a separate person: its own storage), closed after the test."""
    made = []

    def make(viewport=DESKTOP, **options):
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(15000)
        made.append(context)
        return context
    yield make
    for context in made:
        context.close()
