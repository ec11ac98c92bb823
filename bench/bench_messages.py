"""Messages in a game: how long a POST /games/{id}/messages takes, and how long until the other seat
holds it, by its game stream and by its long-poll of GET /games/{id}/messages, with the writer and
the reader on two single-worker servers (the Procfile's gevent web line) over one database.

    .venv/bin/python bench/bench_messages.py [--db sqlite|postgresql|both] [--messages 200] [--pg-url URL]

Each message is written on one server by one seat of one of 20 games, while the other seat of that
game reads its stream on the other server (and, in the second part, long-polls the messages there);
printed: the POST's p50/p99 and the delivery's p50/p99 (from sending the POST to the frame or the
long-poll's answer). MESSAGES_PER_SEAT is raised for the run: the point is the path, not the limit.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import shlex
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import start_gunicorn, stop_gunicorn  # noqa: E402
from tests.hardening.torture import database_url  # noqa: E402

ENV = {"RATELIMIT_ENABLED": "false", "MESSAGES_PER_SEAT": "100000 per minute", "WAIT_PER_TOKEN": "1000",
       "WAIT_ADDRESS_SHARE": "1"}
GAMES = 20


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100 * len(values)))] if values else float("nan")


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(base: str) -> dict:
    created = requests.post(f"{base}/games", json={"name": "Ann"}, timeout=30).json()
    joined = requests.post(f"{base}/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": "Bob"}, timeout=30).json()
    return {"id": created["game_id"], "writer": created["token"], "reader": joined["token"]}


def read_stream(base: str, game: dict, arrived: queue.Queue, ready: threading.Event, stop: threading.Event):
    """The reader's game stream: each `message` frame's text and the moment it arrived."""
    with requests.get(f"{base}/games/{game['id']}/stream", headers=bearer(game["reader"]), stream=True,
                      timeout=(5, 120)) as response:
        for line in response.iter_lines(decode_unicode=True):
            if line.startswith("data: ") and '"event":"view"' in line:
                ready.set()
            if line.startswith("data: ") and '"event":"message"' in line:
                arrived.put((json.loads(line[6:])["text"], time.perf_counter()))
            if stop.is_set():
                return


def part_stream(writer_side: str, reader_side: str, games: list[dict], count: int) -> tuple[list, list]:
    arrived: dict[str, queue.Queue] = {game["id"]: queue.Queue() for game in games}
    stop = threading.Event()
    for game in games:
        ready = threading.Event()
        threading.Thread(target=read_stream, args=(reader_side, game, arrived[game["id"]], ready, stop),
                         daemon=True).start()
        ready.wait(30)
    posts, deliveries = [], []
    for number in range(count):
        game = games[number % len(games)]
        started = time.perf_counter()
        answer = requests.post(f"{writer_side}/games/{game['id']}/messages", json={"text": f"m{number}"},
                               headers=bearer(game["writer"]), timeout=30)
        posts.append(time.perf_counter() - started)
        assert answer.status_code == 201, answer.text
        text, moment = arrived[game["id"]].get(timeout=30)
        assert text == f"m{number}", text
        deliveries.append(moment - started)
    stop.set()
    return posts, deliveries


def long_poll(base: str, game: dict, after: int, answers: queue.Queue) -> None:
    response = requests.get(f"{base}/games/{game['id']}/messages", params={"after": after, "wait": 30},
                            headers=bearer(game["reader"]), timeout=60)
    answers.put((response, time.perf_counter()))


def part_long_poll(writer_side: str, reader_side: str, games: list[dict], count: int) -> list:
    deliveries = []
    for number in range(count):
        game = games[number % len(games)]
        newest = requests.get(f"{reader_side}/games/{game['id']}/messages", params={"limit": 200},
                              headers=bearer(game["reader"]), timeout=30).json()
        after = newest["messages"][-1]["id"] if newest["messages"] else 0
        answers = queue.Queue()
        threading.Thread(target=long_poll, args=(reader_side, game, after, answers), daemon=True).start()
        time.sleep(0.05)  # the long-poll is waiting on the other server by now
        started = time.perf_counter()
        requests.post(f"{writer_side}/games/{game['id']}/messages", json={"text": f"p{number}"},
                      headers=bearer(game["writer"]), timeout=30)
        response, moment = answers.get(timeout=60)
        assert response.json()["messages"][0]["text"] == f"p{number}"
        deliveries.append(moment - started)
    return deliveries


def run(kind: str, count: int) -> None:
    with tempfile.TemporaryDirectory() as folder, database_url(kind, Path(folder)) as url:
        servers = [start_gunicorn(url, workers=1, log_path=Path(folder) / f"s{n}.log", env=ENV) for n in range(2)]
        try:
            (_, writer_side), (_, reader_side) = servers
            games = [new_game(writer_side) for _ in range(GAMES)]
            posts, streamed = part_stream(writer_side, reader_side, games, count)
            polled = part_long_poll(writer_side, reader_side, games, max(20, count // 4))
        finally:
            for process, _ in servers:
                stop_gunicorn(process)
    ms = 1000
    print(f"{kind:10} POST message p50/p99 {pct(posts, 50) * ms:6.1f} / {pct(posts, 99) * ms:6.1f} ms   "
          f"to the other server's stream p50/p99 {pct(streamed, 50) * ms:6.1f} / {pct(streamed, 99) * ms:6.1f} ms   "
          f"to its long-poll p50/p99 {pct(polled, 50) * ms:6.1f} / {pct(polled, 99) * ms:6.1f} ms "
          f"({count} + {len(polled)} messages)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL"))
    args = parser.parse_args()
    if args.pg_url:
        os.environ["TEST_DATABASE_URL"] = args.pg_url
    print("$ " + shlex.join([sys.executable, *sys.argv]))
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for kind in (("sqlite", "postgresql") if args.db == "both" else (args.db,)):
        if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
            print("postgresql: skipped (set TEST_DATABASE_URL or --pg-url)")
            continue
        run(kind, args.messages)


if __name__ == "__main__":
    main()
