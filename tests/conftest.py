"""Shared fixtures: migrated databases (SQLite always, PostgreSQL when TEST_DATABASE_URL is set),
an app and test client per database, and `live_server`, a real gunicorn on a loopback port."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PG_SKIP = ("PostgreSQL tests skipped: set TEST_DATABASE_URL "
           "(e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test) to run them")
# Rate limits off in tests (apps and the gunicorn they start inherit this), except in
# tests/hardening/test_rate_limits.py, which turns them on in its own apps.
os.environ.setdefault("RATELIMIT_ENABLED", "false")
# The rating's guards against farming (players/ratings.py) off too, so that tests rate short matches of
# fresh accounts; tests/players/test_rating_farm.py turns them on at their production values.
for _name, _value in (("RATED_MIN_TARGET", "10"), ("RATED_PAIR_PER_DAY", "100000"), ("LEADERBOARD_MIN_AGE_DAYS", "0")):
    os.environ.setdefault(_name, _value)


def migrate(config: dict) -> None:
    """Bring the database named by `config` to the code's migration head (flask db upgrade)."""
    import flask_migrate
    from service import create_app
    app = create_app(config)
    with app.app_context():
        flask_migrate.upgrade()
        from service.core.extensions import db
        db.engine.dispose()


def _postgres_schema(url: str):
    """A fresh schema for this test run, so runs never see each other's tables; dropped after."""
    import sqlalchemy as sa
    schema = f"test_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    config = {"SQLALCHEMY_DATABASE_URI": url,
              "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}}}

    def drop():
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
    return config, drop


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def db_config(request, tmp_path_factory) -> dict:
    """Config overrides naming a freshly migrated database (picklable, for other processes too)."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("sqlite") / "test.sqlite3"
        config, drop = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}, None
    else:
        url = os.environ.get("TEST_DATABASE_URL")
        if not url:
            pytest.skip(PG_SKIP)
        config, drop = _postgres_schema(url)
    migrate(config)
    yield config
    if drop:
        drop()



@pytest.fixture(params=["sqlite", "postgresql"])
def own_database(request, tmp_path):
    """A database of this test's own, for a migration test: it goes down and up revisions, which no
    shared one may."""
    if request.param == "sqlite":
        yield {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'own.sqlite3'}"}
        return
    if not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    config, drop = _postgres_schema(os.environ["TEST_DATABASE_URL"])
    yield config
    drop()

@pytest.fixture(scope="session")
def app(db_config):
    from service import create_app
    return create_app({"TESTING": True, **db_config})


@pytest.fixture
def client(app):
    """A test client on an empty (but migrated) database."""
    from service.core.extensions import db
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    return app.test_client()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


WORKER_CLASSES = {  # what `--worker-class` each name stands for; "gevent" is the Procfile's
    "gevent": ["-c", "python:service.core.server"],
    "sync": ["--worker-class", "sync"],
    "gthread": ["--worker-class", "gthread", "--threads", "8"],
}


def worker_options(worker_class: str, cwd) -> list[str]:
    """WORKER_CLASSES' options for the tree gunicorn runs in: bench/bench_load.py's ratio also
    serves an older tree, which kept the gevent worker's config in service/server.py."""
    if worker_class == "gevent" and (Path(cwd) / "service" / "server.py").exists():
        return ["-c", "python:service.server"]
    return WORKER_CLASSES[worker_class]


def launch_gunicorn(app_spec: str, env: dict, ready, workers: int = 2, log_path=None, cwd=ROOT,
                    worker_class: str = "gevent", port: int | None = None, own_session: bool = False):
    """Run `gunicorn app_spec` on a loopback port (`port`, else a free one), by default as the
    Procfile runs it (service/core/server.py: gevent workers); return (process, base_url) once
    ready(base_url) is true. `own_session`: in a process group of its own, which a test may kill
    whole (os.killpg), master and workers at once, as a machine's death does."""
    import requests
    port = port or free_port()
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *worker_options(worker_class, cwd), "--workers", str(workers),
         "--bind", f"127.0.0.1:{port}", app_spec],
        cwd=cwd, env={**os.environ, **env}, stdout=log, stderr=log, start_new_session=own_session)
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            if ready(base_url):
                return process, base_url
        except requests.RequestException:  # not listening yet, or a worker still booting
            pass
        time.sleep(0.05)
    stop_gunicorn(process)
    raise RuntimeError("gunicorn did not answer within 30 s")


def start_gunicorn(database_url: str, workers: int = 2, log_path=None, worker_class: str = "gevent",
                   env: dict | None = None, **launch):
    """Migrate the database with the real CLI, then serve the service on it with gunicorn
    (`launch`: launch_gunicorn's port and own_session)."""
    import requests
    env = {**os.environ, **(env or {}), "DATABASE_URL": database_url}
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    return launch_gunicorn("service:create_app()", env,
                           lambda url: requests.get(url + "/health", timeout=5).status_code == 200,
                           workers=workers, log_path=log_path, worker_class=worker_class, **launch)


def stop_gunicorn(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """Base URL of a real gunicorn (2 workers, as the Procfile runs it) serving a fresh SQLite file."""
    directory = tmp_path_factory.mktemp("live")
    process, base_url = start_gunicorn(f"sqlite:///{directory / 'live.sqlite3'}",
                                       log_path=directory / "gunicorn.log")
    yield base_url
    stop_gunicorn(process)
