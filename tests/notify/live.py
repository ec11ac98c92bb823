"""The live webhook set-up, shared by tests and bench/: a receiver that answers slowly (a real HTTP
server on loopback), the real notify worker as its own process, and a match played quickly over HTTP."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.api.helpers import choose
from tests.conftest import ROOT, free_port
from tests.hardening.torture import call


class SlowReceiver:
    """Answers every webhook call after `delay` seconds (a bot that does some work first), with
    `status` (204 unless told); records each call's webhook-id, type, body, the status it answered
    and `arrived`, its place in the order the calls came in (before the delay)."""

    def __init__(self, delay: float = 0.25, status: int = 204):
        self.delay, self.status = delay, status
        self.calls: list[dict] = []
        self.arrivals = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    arrived, receiver.arrivals = receiver.arrivals, receiver.arrivals + 1
                time.sleep(receiver.delay)  # the receiver's own work, before it answers
                status = receiver.status
                with receiver.lock:
                    receiver.calls.append({"id": self.headers["webhook-id"], "status": status,
                                           "type": json.loads(body)["type"], "body": body,
                                           "arrived": arrived})
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass
        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def delivered(self) -> Counter:
        """webhook-id -> how many calls with it were answered 2xx."""
        with self.lock:
            return Counter(c["id"] for c in self.calls if 200 <= c["status"] < 300)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def service_env(database_url: str, **extra: str) -> dict:
    return {**os.environ, "DATABASE_URL": database_url, "RATELIMIT_ENABLED": "false",
            "WEBHOOK_ALLOW_PRIVATE": "1", **extra}


def start_worker(database_url: str, log_path, **extra: str) -> subprocess.Popen:
    """`flask notify worker`, as the Procfile's worker: line runs it, logging to `log_path`."""
    with open(log_path, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "flask", "--app", "service", "notify", "worker",
                                 "--interval", "1"], cwd=ROOT, env=service_env(database_url, **extra),
                                stdout=log, stderr=log)


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def play_match(base: str, target: int, webhook_url: str | None = None, each_move=None) -> dict:
    """A two-seat match played to its end as fast as the service answers, both seats' webhooks at
    `webhook_url`; `each_move(game)` is called before every move. Returns the game."""
    contact = {"webhook_url": webhook_url} if webhook_url else {}
    status, created = call(base, "POST", "/games", {"name": "Ann", "rules": {"target": target},
                                                    "move_time_hours": None, **contact})
    assert status == 201, created
    status, joined = call(base, "POST", f"/games/{created['game_id']}/join",
                          {"invite_code": created["invite_code"], "name": "Bob", **contact})
    assert status == 201, joined
    game = {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]},
            "secrets": [created["token"], joined["token"], created["invite_code"]]
            + [c["contact"]["webhook_secret"] for c in (created, joined) if c.get("contact", {}).get("webhook_secret")]}
    path = f"/games/{game['id']}"
    for _ in range(5000):
        if each_move is not None:
            each_move(game)
        status, seen = call(base, "GET", path, headers={"Authorization": f"Bearer {game['tokens'][0]}"})
        assert status == 200, seen
        if seen["status"] == "finished":
            return game
        headers = {"Authorization": f"Bearer {game['tokens'][seen['to_move']]}"}
        status, mine = call(base, "GET", path, headers=headers)
        assert status == 200, mine
        status, answer = call(base, "POST", path + "/actions", choose(mine), headers)
        assert status == 200, answer
    raise AssertionError("the match did not end")


def outbox_of(app, game_id: str | None = None) -> list:
    from service.core.extensions import db
    from service.notify.models import OutboxMessage
    with app.app_context():
        query = db.session.query(OutboxMessage).filter_by(channel="webhook")
        if game_id is not None:
            query = query.filter_by(game_id=game_id)
        rows = query.order_by(OutboxMessage.id).all()
        db.session.expunge_all()
        db.session.rollback()
        return rows


def settled(app, game_id: str | None = None, timeout: float = 120.0) -> list:
    """The game's webhook rows once none is pending (polled; never a fixed wait)."""
    give_up = time.monotonic() + timeout
    while True:
        rows = outbox_of(app, game_id)
        if rows and all(r.status != "pending" for r in rows) or time.monotonic() > give_up:
            return rows
        time.sleep(0.1)
