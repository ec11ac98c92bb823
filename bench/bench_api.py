"""Actions per second through gunicorn on SQLite, against the floor of a bare Flask endpoint
doing one locked read and one write on the same database file.

    .venv/bin/python bench/bench_api.py [--clients 4] [--seconds 10] [--workers 2]

Several client processes play real games (create, join, then each move: GET the mover's view,
POST the move it chooses) for a fixed time; then the same number of processes hammer the floor
app for the same time. Prints both figures, their ratio and the command.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.api.helpers import choose  # noqa: E402  (the tests' simple legal-move policy)
from tests.conftest import launch_gunicorn, start_gunicorn, stop_gunicorn  # noqa: E402


def call(base_url: str, method: str, path: str, body=None, token=None, expect=200):
    """One request with the standard library's http.client: a lighter client than requests leaves
    more of the machine's two cores to the server being measured."""
    host, port = base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    assert response.status == expect, (response.status, data[:300])
    return json.loads(data)


def play_games(base_url: str, seconds: float, result) -> None:
    """Play whole games back to back until time is up; count moves and requests."""
    moves, requests_made = 0, 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        created = call(base_url, "POST", "/games", {"name": "Ann"}, expect=201)
        game = f"/games/{created['game_id']}"
        joined = call(base_url, "POST", f"{game}/join", {"invite_code": created["invite_code"], "name": "Bob"},
                      expect=201)
        requests_made += 2
        tokens = {0: created["token"], 1: joined["token"]}
        view = joined["game"]
        while view["status"] != "finished" and time.perf_counter() < deadline:
            token = tokens[view["to_move"]]
            mine = call(base_url, "GET", game, token=token)
            view = call(base_url, "POST", f"{game}/actions", choose(mine), token=token)
            moves, requests_made = moves + 1, requests_made + 2
    elapsed = time.perf_counter() - started
    result.put((moves / elapsed, requests_made / elapsed))


def hammer_floor(base_url: str, seconds: float, row: int, result) -> None:
    count = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        call(base_url, "POST", f"/bump/{row}")
        count += 1
    elapsed = time.perf_counter() - started
    result.put((count / elapsed, count / elapsed))


def run_clients(target, args_for, clients: int, seconds: float) -> tuple[float, float]:
    """Run the client processes at once; each times itself (after its start-up) and reports its
    rates, which add up to the server's throughput."""
    context = multiprocessing.get_context("spawn")
    result = context.Queue()
    processes = [context.Process(target=target, args=(*args_for(n), result)) for n in range(clients)]
    for process in processes:
        process.start()
    rates = [result.get(timeout=seconds + 120) for _ in processes]
    for process in processes:
        process.join()
    return sum(r[0] for r in rates), sum(r[1] for r in rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    os.environ["RATELIMIT_ENABLED"] = "false"  # the bench measures the game path, not the limiter

    with tempfile.TemporaryDirectory() as directory:
        database = Path(directory) / "bench.sqlite3"
        process, base_url = start_gunicorn(f"sqlite:///{database}", workers=options.workers,
                                           log_path=Path(directory) / "service.log")
        try:
            moves, service_requests = run_clients(play_games, lambda n: (base_url, options.seconds),
                                                  options.clients, options.seconds)
        finally:
            stop_gunicorn(process)

        floor, floor_url = launch_gunicorn(
            "floor_app:app", {"FLOOR_DATABASE": str(database)}, cwd=ROOT / "bench", workers=options.workers,
            ready=lambda url: requests.post(url + "/bump/0", timeout=5).status_code == 200,
            log_path=Path(directory) / "floor.log")
        try:
            writes, _ = run_clients(hammer_floor, lambda n: (floor_url, options.seconds, n),
                                    options.clients, options.seconds)
        finally:
            stop_gunicorn(floor)

    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"setup: gunicorn {options.workers} sync workers, SQLite (WAL, BEGIN IMMEDIATE), "
          f"{options.clients} client processes, {options.seconds:g} s each run, rate limits off")
    print(f"service: {moves:8.1f} actions/s  ({service_requests:.1f} requests/s: GET view + POST action per move)")
    print(f"floor:   {writes:8.1f} locked read+write requests/s (bench/floor_app.py, same database file)")
    print(f"ratio:   actions/s / floor = {moves / writes:.2f};  requests/s / floor = {service_requests / writes:.2f}")


if __name__ == "__main__":
    main()
