"""A notify worker's claims are renewed while it lives and taken over soon after it dies.

In-process, on the app's clock: renewed claims stay the worker's past any number of leases, and
are given up once held NOTIFY_HOLD_SECONDS. Live, as the Procfile runs it (`flask notify worker`, the
default 20 s lease), on both databases: worker A claims a game's mail and webhook calls, and both
receivers hold what it sends unanswered; worker B, started beside it, takes nothing over for longer than a
lease; A is killed (SIGKILL); B delivers both within 30 s of its death, with the same Message-ID
and webhook-id as A's attempts, each answered once."""
from __future__ import annotations

import asyncio
import email
import email.policy
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from aiosmtpd.controller import Controller

from service.notify import outbox

from ..conftest import ROOT, free_port
from ..hardening.torture import database_url
from .conftest import confirm_addresses, outbox_rows, start_game

ANN = "ann@example.org"
TAKEOVER_WITHIN = 30  # seconds after the death: issue 37's bound (a lease, 20 s, and the poll)


def test_renewed_claims_outlive_many_leases_but_not_the_hold(nclient, notify_app, clock):
    from service.core.settings import setting
    start_game(nclient, contact0={"email": ANN})
    with notify_app.app_context():
        lease, hold = setting("NOTIFY_LEASE_SECONDS"), setting("NOTIFY_HOLD_SECONDS")
        [row] = outbox.claim("busy-worker", 10)
        for _ in range(6):  # three leases in all, renewed every half lease
            clock.advance(seconds=lease / 2)
            assert outbox.renew_held("busy-worker", [row.id]) == 1
            assert outbox.claim("other-worker", 10) == []
        assert outbox.renew_held("other-worker", [row.id]) == 0  # (a worker renews its own claims only)
        assert outbox.renew_held("busy-worker", []) == 0  # (and only those of the batch in hand)
        clock.advance(seconds=hold)  # stuck that long: no longer renewed ...
        assert outbox.renew_held("busy-worker", [row.id]) == 0
        clock.advance(seconds=lease)  # ... and once its lease runs out, taken over
        [taken] = outbox.claim("other-worker", 10)
        assert taken.id == row.id and taken.message_id == row.message_id
    [stored] = outbox_rows(notify_app)
    assert stored.claimed_by == "other-worker"


class HoldingReceiver:
    """Webhook calls: held unanswered while `holding` is set, else answered 204; every call's
    webhook-id as it arrived, and those answered."""

    def __init__(self):
        self.holding = threading.Event()
        self.release = threading.Event()
        self.arrived, self.answered = [], []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("content-length", 0)))
                held = receiver.holding.is_set()
                receiver.arrived.append((self.headers["webhook-id"], held))
                if held:
                    receiver.release.wait(120)
                    return  # never answered: the caller is dead by now
                receiver.answered.append(self.headers["webhook-id"])
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass
        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class HoldingMailServer:
    """SMTP: the message's DATA held unanswered while `holding` is set (and dropped if its client
    hung up meanwhile, as a server does that never said 250), else taken; Message-IDs of both."""

    def __init__(self):
        self.holding = threading.Event()
        self.release = threading.Event()
        self.arrived, self.taken = [], []
        server = self

        class Handler:
            async def handle_DATA(self, smtp, session, envelope):
                message = email.message_from_bytes(envelope.original_content or envelope.content,
                                                   policy=email.policy.default)
                held = server.holding.is_set()
                message_id = str(message["Message-ID"]).strip()  # (a long one comes folded)
                server.arrived.append((message_id, held))
                if held:
                    while not server.release.is_set():
                        await asyncio.sleep(0.1)
                    return "451 4.3.0 too late"
                server.taken.append(message_id)
                return "250 OK"
        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        self.release.set()
        self.controller.stop()


def worker(url: str, mail_port: int, log_path) -> subprocess.Popen:
    """`flask notify worker`, as the Procfile's worker: line runs it."""
    env = {**os.environ, "DATABASE_URL": url, "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(mail_port),
           "WEBHOOK_ALLOW_PRIVATE": "1", "WEBHOOK_TIMEOUT": "120", "SMTP_TIMEOUT": "120",
           "DB_POOL_SIZE": "2", "DB_MAX_OVERFLOW": "4"}
    with open(log_path, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "flask", "--app", "service", "notify", "worker",
                                 "--interval", "1"], cwd=ROOT, env=env, stdout=log, stderr=log)


def until(condition, seconds: float, what: str) -> float:
    """Seconds it took `condition` to hold (polled), failing after `seconds`."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < seconds, f"not within {seconds} s: {what}"
        time.sleep(0.1)
    return time.monotonic() - started


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_killed_workers_claims_are_delivered_by_another_within_30_s_once(kind, tmp_path):
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("PostgreSQL: set TEST_DATABASE_URL")
    from service import create_app
    receiver, mail = HoldingReceiver(), HoldingMailServer()
    workers = []
    with database_url(kind, tmp_path) as url:
        try:
            subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"], cwd=ROOT,
                           env={**os.environ, "DATABASE_URL": url}, check=True, capture_output=True)
            app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "WEBHOOK_ALLOW_PRIVATE": True,
                              "DB_POOL_SIZE": 1, "DB_MAX_OVERFLOW": 1})
            confirm_addresses(app, ANN)
            receiver.holding.set()
            mail.holding.set()
            game = start_game(app.test_client(), contact0={"email": ANN, "webhook_url": receiver.url},
                              contact1={"webhook_url": receiver.url})
            rows = {(row.channel, row.message_id) for row in outbox_rows(app) if row.status == "pending"}
            assert {channel for channel, _ in rows} == {"mail", "webhook"}, rows

            first = worker(url, mail.port, tmp_path / "a.log")
            workers.append(first)
            # A claims every row at once; a destination's calls go one at a time, so one call is out.
            until(lambda: receiver.arrived and mail.arrived, 60, "worker A's attempts")
            attempts = len(receiver.arrived) + len(mail.arrived)
            second = worker(url, mail.port, tmp_path / "b.log")
            workers.append(second)
            lease = 20
            time.sleep(lease * 1.25)  # worker A's claims are renewed: B takes nothing over meanwhile
            assert len(receiver.arrived) + len(mail.arrived) == attempts
            held = [row for row in outbox_rows(app) if row.status == "pending"]
            assert len(held) == len(rows)
            assert all(row.claimed_by.startswith(f"{socket.gethostname()}:{first.pid}:") for row in held)

            receiver.holding.clear()
            mail.holding.clear()
            first.send_signal(signal.SIGKILL)
            first.wait(10)
            took = until(lambda: len(receiver.answered) + len(mail.taken) == len(rows), TAKEOVER_WITHIN,
                         "worker B's deliveries after worker A's death")
            until(lambda: all(row.status == "sent" for row in outbox_rows(app) if row.game_id == game["id"]),
                  10, "the rows marked sent")
            time.sleep(2)  # (nothing more comes)
            stored = outbox_rows(app)
        finally:
            for each in workers:  # before the database goes
                if each.poll() is None:
                    each.terminate()
                    each.wait(30)
            receiver.stop()
            mail.stop()
    print(f"{kind}: worker A killed; worker B delivered its {len(rows)} claimed rows {took:.1f} s later")
    # Each row delivered once, those A had out with the same Message-ID and webhook-id.
    assert sorted(receiver.answered + mail.taken) == sorted(message_id for _, message_id in rows)
    assert {i for i, held in receiver.arrived if held} <= set(receiver.answered)
    assert {i for i, held in mail.arrived if held} <= set(mail.taken)
    assert len(receiver.arrived) + len(mail.arrived) == attempts + len(rows)
    assert all(row.status == "sent" and row.attempts == 1 for row in stored if row.game_id == game["id"])
    log = (tmp_path / "b.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
