"""Backups as docs/operations.md describes them, taken from a live database while a thread plays
moves through a real server: SQLite with `flask admin backup` (the online backup API), PostgreSQL
with pg_dump -Fc. Each is restored into a scratch database (a new SQLite file, a new PostgreSQL
database) behind a second server, which shows every game finished before the backup, and every
other one at a version it really had between the backup's start and end, with the very views the
first server answered at that version."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import uuid
from contextlib import contextmanager

import pytest
import requests

from ..api.helpers import choose
from ..conftest import PG_SKIP, ROOT, start_gunicorn, stop_gunicorn
from ..hardening.torture import database_url

RULES = {"preset": "standard", "target": 10}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(base: str) -> dict:
    created = requests.post(f"{base}/games", json={"name": "Ann", "rules": RULES}, timeout=30).json()
    joined = requests.post(f"{base}/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": "Bob"}, timeout=30).json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]}}


def views(base: str, game: dict) -> dict[int, dict]:
    return {seat: requests.get(f"{base}/games/{game['id']}", headers=bearer(token), timeout=30).json()
            for seat, token in game["tokens"].items()}


def play_one(base: str, game: dict) -> dict[int, dict]:
    """The seat to move plays the simple policy's choice; both seats' views after it."""
    now = views(base, game)
    seat = now[0]["to_move"]
    answer = requests.post(f"{base}/games/{game['id']}/actions", json=choose(now[seat]),
                           headers=bearer(game["tokens"][seat]), timeout=30)
    assert answer.status_code == 200, answer.text
    return views(base, game)


class Mover(threading.Thread):
    """Plays the games in turn, one move at a time, recording both seats' views at every version
    (it is the only writer, so nothing changes between its move and its reads)."""

    def __init__(self, base: str, games: list[dict]):
        super().__init__(daemon=True)
        self.base, self.games = base, games
        self.seen = {g["id"]: {} for g in games}  # game -> version -> {seat: view}
        self.lock, self.stop, self.moved = threading.Lock(), threading.Event(), threading.Condition()
        self.moves, self.error = 0, None
        for game in games:
            self.record(game, views(base, game))

    def record(self, game: dict, seen: dict[int, dict]) -> None:
        with self.lock:
            self.seen[game["id"]][seen[0]["version"]] = seen

    def latest(self) -> dict[str, int]:
        with self.lock:
            return {game: max(versions) for game, versions in self.seen.items()}

    def run(self):
        try:
            while not self.stop.is_set():
                live = [g for g in self.games if self.seen[g["id"]][self.latest()[g["id"]]][0]["status"] == "active"]
                if not live:
                    return
                for game in live:
                    self.record(game, play_one(self.base, game))
                    with self.moved:
                        self.moves += 1
                        self.moved.notify_all()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
        finally:
            with self.moved:
                self.moved.notify_all()

    def wait_for_moves(self, count: int) -> None:
        with self.moved:
            target = self.moves + count
            self.moved.wait_for(lambda: self.moves >= target or self.error or not self.is_alive(), timeout=120)
        assert self.error is None, self.error


@contextmanager
def restored_postgres(url: str, tmp_path):
    """pg_dump -Fc of the live schema, pg_restore into a new database; its URL for a server."""
    schema = re.search(r"search_path%3D(\w+)", url).group(1)
    libpq = os.environ["TEST_DATABASE_URL"].replace("postgresql+psycopg://", "postgresql://")
    dump = tmp_path / "gin.dump"
    subprocess.run(["pg_dump", "--format=custom", f"--schema={schema}", f"--file={dump}", libpq],
                   check=True, capture_output=True)
    scratch = f"restore_{uuid.uuid4().hex[:10]}"
    subprocess.run(["psql", libpq, "-c", f'CREATE DATABASE "{scratch}"'], check=True, capture_output=True)
    target = libpq.rsplit("/", 1)[0] + f"/{scratch}"
    try:
        subprocess.run(["pg_restore", "--no-owner", f"--dbname={target}", str(dump)], check=True, capture_output=True)
        yield target.replace("postgresql://", "postgresql+psycopg://") + f"?options=-csearch_path%3D{schema}"
    finally:
        subprocess.run(["psql", libpq, "-c", f'DROP DATABASE "{scratch}" WITH (FORCE)'], check=True,
                       capture_output=True)


@contextmanager
def backed_up(kind: str, url: str, tmp_path):
    """Back up the live database as docs/operations.md says; the restored copy's URL."""
    if kind == "sqlite":
        copy = tmp_path / "backup.sqlite3"
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "service", "admin", "backup", str(copy),
                               "--by", "tests"], cwd=ROOT, env={**os.environ, "DATABASE_URL": url},
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        yield f"sqlite:///{copy}"
    else:
        if shutil.which("pg_dump") is None:
            pytest.skip("pg_dump is not installed: the PostgreSQL backup test is skipped")
        with restored_postgres(url, tmp_path) as restored:
            yield restored


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_backup_taken_while_moves_are_made_restores_every_game_as_it_was(kind, tmp_path):
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    with database_url(kind, tmp_path) as url:
        live, base = start_gunicorn(url, workers=2, log_path=tmp_path / "live.log")
        try:
            finished = new_game(base)
            for _ in range(4):
                play_one(base, finished)
            resigned = requests.post(f"{base}/games/{finished['id']}/actions", json={"type": "resign"},
                                     headers=bearer(finished["tokens"][0]), timeout=30)
            assert resigned.status_code == 200 and resigned.json()["status"] == "finished", resigned.text
            final = views(base, finished)
            mover = Mover(base, [new_game(base) for _ in range(3)])
            mover.start()
            mover.wait_for_moves(6)
            before = mover.latest()
            with backed_up(kind, url, tmp_path) as restored:
                # The live database moves on past the backup. A move in flight as it ended may be in
                # it: it is recorded by the time every game has moved once more.
                mover.wait_for_moves(len(mover.games))
                after = mover.latest()
                mover.stop.set()
                mover.join(60)
                assert mover.error is None, mover.error
                second, second_base = start_gunicorn(restored, workers=1, log_path=tmp_path / "restored.log")
                try:
                    assert views(second_base, finished) == final
                    for game in mover.games:
                        there = views(second_base, game)
                        version = there[0]["version"]
                        assert before[game["id"]] <= version <= after[game["id"]], (before, version, after)
                        assert there == mover.seen[game["id"]][version]
                finally:
                    stop_gunicorn(second)
        finally:
            stop_gunicorn(live)
