"""Does long-polling (GET /games/{id}?wait=N) starve the other requests, per gunicorn worker class?

    .venv/bin/python bench/bench_longpoll.py [--clients 4] [--seconds 8] [--waiters 4] [--workers 2]

For each worker class (sync; gthread with --threads 8) it serves a fresh SQLite database and
measures the actions per second of `--clients` processes playing games (as bench_api.py does,
with the `requests` library), first alone, then while `--waiters` other clients each hold a long-poll on an idle game
(?wait=60, so each waits the whole run). Prints the four figures and the command.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_api import call, run_clients  # noqa: E402
from tests.api.helpers import choose  # noqa: E402
from tests.conftest import free_port, stop_gunicorn  # noqa: E402

CLASSES = {"sync": ["--worker-class", "sync"], "gthread": ["--worker-class", "gthread", "--threads", "8"]}


def serve(database: Path, worker_args: list[str], workers: int, log: Path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "RATELIMIT_ENABLED": "false"}
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", str(workers), *worker_args,
                                "--bind", f"127.0.0.1:{port}", "service:create_app()"],
                               cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            if requests.get(url + "/health", timeout=2).status_code == 200:
                return process, url
        except requests.RequestException:
            time.sleep(0.05)
    stop_gunicorn(process)
    raise RuntimeError("gunicorn did not start")


def play(url: str, seconds: float, result) -> None:
    """Play games until time is up, as bench_api.py does; a request that gets no answer within
    the run's length counts as starved and ends this client's run."""
    session, moves = requests.Session(), 0
    started = time.perf_counter()
    deadline = started + seconds
    try:
        while time.perf_counter() < deadline:
            created = session.post(url + "/games", json={"name": "Ann"}, timeout=seconds).json()
            game = f"{url}/games/{created['game_id']}"
            joined = session.post(game + "/join", json={"invite_code": created["invite_code"], "name": "Bob"},
                                  timeout=seconds).json()
            tokens, view = {0: created["token"], 1: joined["token"]}, joined["game"]
            while view["status"] != "finished" and time.perf_counter() < deadline:
                headers = {"Authorization": f"Bearer {tokens[view['to_move']]}"}
                mine = session.get(game, headers=headers, timeout=seconds).json()
                view = session.post(game + "/actions", json=choose(mine), headers=headers, timeout=seconds).json()
                moves += 1
    except requests.Timeout:
        pass
    result.put((moves / (time.perf_counter() - started), 0.0))


def hold_long_polls(url: str, count: int, stop: threading.Event) -> list[threading.Thread]:
    """`count` clients, each waiting on its own idle game until `stop`."""
    def waiter():
        created = call(url, "POST", "/games", {"name": "Ann"}, expect=201)
        game = f"/games/{created['game_id']}"
        call(url, "POST", f"{game}/join", {"invite_code": created["invite_code"], "name": "Bob"}, expect=201)
        version = call(url, "GET", game, token=created["token"])["version"]
        while not stop.is_set():
            requests.get(f"{url}{game}?wait=60&version={version}", timeout=90,
                         headers={"Authorization": f"Bearer {created['token']}"})
    threads = [threading.Thread(target=waiter, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # let them reach the server and start waiting
    return threads


def measure(kind: str, options, directory: Path) -> tuple[float, float]:
    database = directory / f"{kind}.sqlite3"
    process, url = serve(database, CLASSES[kind], options.workers, directory / f"{kind}.log")
    try:
        alone, _ = run_clients(play, lambda n: (url, options.seconds), options.clients, options.seconds)
        stop = threading.Event()
        hold_long_polls(url, options.waiters, stop)
        waiting, _ = run_clients(play, lambda n: (url, options.seconds), options.clients, options.seconds)
        stop.set()
    finally:
        stop_gunicorn(process)
    return alone, waiting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--waiters", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as directory:
        for kind in CLASSES:
            results[kind] = measure(kind, options, Path(directory))
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"setup: gunicorn {options.workers} workers, SQLite, {options.clients} playing client processes, "
          f"{options.seconds:g} s per run; then again with {options.waiters} long-polls (?wait=60) held open")
    for kind, (alone, waiting) in results.items():
        print(f"{kind:8} {' '.join(CLASSES[kind]):40} alone {alone:7.1f} actions/s   "
              f"with long-polls {waiting:7.1f} actions/s")


if __name__ == "__main__":
    main()
