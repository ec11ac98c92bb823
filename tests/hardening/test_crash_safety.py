"""Crash safety: gunicorn workers are killed with SIGKILL in the middle of the torture load.

A killed worker dies mid-transaction or just after a commit, before its answer left. The clients
retry every move with its Idempotency-Key until answered. Afterwards every game must still be
consistent (no gap, no double application, the log replays to the stored state), every applied
move must have been answered (by the retry, from the stored first answer), and the service, its
workers replaced by the master, must go on answering.
"""
from __future__ import annotations

import http.client
import os
import signal
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from ..conftest import PG_SKIP, start_gunicorn, stop_gunicorn
from .support import scaled
from .torture import call, check_games, database_url, reader_app, run_clients, start_games

CLIENTS, GAMES, ROUNDS, WORKERS, KILLS = 4, scaled(3, 8), scaled(8, 60), 3, scaled(3, 10)


def worker_pids(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


def busy_worker(master: int, patience: float = 2.0) -> int | None:
    """A worker caught running (state R: serving a request; an idle sync worker sleeps in accept)."""
    give_up = time.monotonic() + patience
    while time.monotonic() < give_up:
        for pid in worker_pids(master):
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state == "R":
                return pid
        time.sleep(0.001)
    pids = worker_pids(master)
    return pids[0] if pids else None


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sigkilled_workers_leave_every_game_consistent(kind, tmp_path):
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    kills = []

    def killer(_clients):
        """While the clients play: now and then SIGKILL a worker caught serving a request."""
        time.sleep(1.0)
        for _ in range(KILLS):
            victim = busy_worker(process.pid)
            if victim is not None:
                os.kill(victim, signal.SIGKILL)
                kills.append((victim, time.monotonic()))
            time.sleep(0.6)

    with database_url(kind, tmp_path) as url:
        process, base_url = start_gunicorn(url, workers=WORKERS, log_path=tmp_path / "gunicorn.log")
        try:
            games = start_games(base_url, GAMES)
            logs = run_clients(base_url, games, CLIENTS, ROUNDS, tmp_path, always_keyed=True, during=killer)
            # The master replaced the dead workers and the service answers, reads and writes,
            # under the same load again.
            assert len(kills) == KILLS
            (tmp_path / "after").mkdir()
            logs += run_clients(base_url, games, 2, 4, tmp_path / "after", always_keyed=True)
            assert call(base_url, "GET", "/health")[0] == 200
            assert not set(worker_pids(process.pid)) & {pid for pid, _ in kills}
            fresh = start_games(base_url, 1)[0]
            status, view = call(base_url, "GET", f"/games/{fresh['id']}",
                                headers={"Authorization": f"Bearer {fresh['tokens']['0']}"})
            assert status == 200 and view["version"] == 2
        finally:
            stop_gunicorn(process)
        app = reader_app(url)
        counts = check_games(app, games, logs)
        from service.core.extensions import db
        with app.app_context():
            db.engine.dispose()
    log_text = (tmp_path / "gunicorn.log").read_text(errors="replace")
    assert log_text.count("SIGKILL") >= KILLS, log_text[-2000:]  # the master saw each worker die
    assert counts["applied"] >= GAMES * 2, counts
    last_kill = kills[-1][1]
    answered_after = [e for log in logs for e in log if e.get("status") == 200 and e.get("time", 0) > last_kill]
    assert answered_after, "no move was answered after the last kill"
    retried = sum(e.get("retries", 0) > 0 for log in logs for e in log)
    print(f"crash safety ({kind}): {KILLS} workers killed, {retried} moves retried after a dropped "
          f"connection, {counts['applied']} applied")


@contextmanager
def game_row_locked(url: str, game_id: str):
    """Hold the lock a move needs, from outside the service: SQLite's write lock, or the game's
    row lock on PostgreSQL."""
    if url.startswith("sqlite"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.execute("ROLLBACK")
            connection.close()
        return
    import sqlalchemy as sa
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(sa.text("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": game_id})
            yield
            connection.rollback()
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_worker_killed_inside_a_transaction_leaves_nothing_and_the_retry_applies_once(kind, tmp_path):
    """Deterministic: the move's request is made to wait for the lock inside its transaction, and
    its worker is SIGKILLed right there."""
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    from tests.api.helpers import choose
    with database_url(kind, tmp_path) as url:
        process, base_url = start_gunicorn(url, workers=1, log_path=tmp_path / "gunicorn.log")
        try:
            game = start_games(base_url, 1)[0]
            path = f"/games/{game['id']}"
            reader = {"Authorization": f"Bearer {game['tokens']['0']}"}
            before = call(base_url, "GET", path, headers=reader)[1]
            seat = str(before["to_move"])
            mover = call(base_url, "GET", path, headers={"Authorization": f"Bearer {game['tokens'][seat]}"})[1]
            action = choose(mover)
            headers = {"Authorization": f"Bearer {game['tokens'][seat]}", "Idempotency-Key": "killed-once"}
            outcome = {}

            def doomed_move():
                try:
                    outcome["answer"] = call(base_url, "POST", path + "/actions", action, headers)
                except (ConnectionError, http.client.HTTPException, OSError) as exc:
                    outcome["error"] = exc

            with game_row_locked(url, game["id"]):
                thread = threading.Thread(target=doomed_move)
                thread.start()
                time.sleep(0.7)  # let it reach the lock (the worker then waits inside its transaction)
                (victim,) = worker_pids(process.pid)
                os.kill(victim, signal.SIGKILL)
                thread.join(timeout=30)
            assert "error" in outcome, outcome  # the request died with its worker
            # The dead transaction left nothing behind ...
            wait_for_health(base_url)
            assert call(base_url, "GET", path, headers=reader)[1]["version"] == before["version"]
            # ... and the retry applies the move exactly once; a second retry is the same answer.
            first = call(base_url, "POST", path + "/actions", action, headers)
            again = call(base_url, "POST", path + "/actions", action, headers)
            assert first[0] == 200 and first[1]["version"] == before["version"] + 1
            assert again == first
            assert call(base_url, "GET", path, headers=reader)[1]["version"] == before["version"] + 1
        finally:
            stop_gunicorn(process)
        app = reader_app(url)
        check_games(app, [game], [[{"game": game["id"], "seat": int(seat), "action": action, "headers": headers,
                                    "kind": "race", "replay": False, "status": 200, "body": first[1]}]])
        from service.core.extensions import db
        with app.app_context():
            db.engine.dispose()


def wait_for_health(base_url: str) -> None:
    """Until the master's replacement worker answers (bounded: 30 s)."""
    give_up = time.monotonic() + 30
    while True:
        try:
            if call(base_url, "GET", "/health")[0] == 200:
                return
        except OSError:
            pass
        assert time.monotonic() < give_up, "no worker came back"
        time.sleep(0.1)
