"""A webhook receiver that takes 0.25 s a call, beside a match played as fast as the service
answers (issue 28): does every event arrive, and how late?

    .venv/bin/python bench/bench_webhook_slow.py [--delay 0.25] [--target 100] [--matches 1] [--database URL]

Real gunicorn (2 gevent workers, as the Procfile) and the real notify worker (`flask notify worker`)
on a scratch SQLite file (or a fresh schema of --database, a PostgreSQL URL); both seats' webhooks at
one receiver on loopback that sleeps `delay` before each 204. Prints what was queued, sent,
replaced (a waiting turn.started a newer one of the seat stood for) and dead, the hand ends
delivered, and how long after being queued each call arrived.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import start_gunicorn, stop_gunicorn  # noqa: E402
from tests.hardening.torture import database_url, reader_app  # noqa: E402
from tests.notify.live import SlowReceiver, play_match, settled, start_worker, stop_worker  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.25, help="seconds the receiver takes per call")
    parser.add_argument("--target", type=int, default=100, help="the match's target score")
    parser.add_argument("--matches", type=int, default=1, help="matches played one after another")
    parser.add_argument("--database", help="a PostgreSQL URL (a fresh schema is made in it); default SQLite")
    options = parser.parse_args()
    print("$ .venv/bin/python bench/bench_webhook_slow.py " + shlex.join(sys.argv[1:]))
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if options.database:
        os.environ["TEST_DATABASE_URL"] = options.database
    receiver = SlowReceiver(delay=options.delay)
    with tempfile.TemporaryDirectory() as directory, \
            database_url("postgresql" if options.database else "sqlite", Path(directory)) as url:
        server, base = start_gunicorn(url, log_path=Path(directory) / "gunicorn.log",
                                      env={"WEBHOOK_ALLOW_PRIVATE": "1"})
        worker = start_worker(url, Path(directory) / "worker.log")
        app = reader_app(url)
        try:
            started = time.monotonic()
            games = [play_match(base, options.target, receiver.url)["id"] for _ in range(options.matches)]
            played = time.monotonic() - started
            rows = [row for game in games for row in settled(app, game, timeout=600)]
            drained = time.monotonic() - started
        finally:
            stop_worker(worker)
            stop_gunicorn(server)
            receiver.stop()
            from service.core.extensions import db
            with app.app_context():
                db.engine.dispose()
    report(options, rows, receiver, played, drained)


def report(options, rows, receiver, played: float, drained: float) -> None:
    statuses = Counter(row.status for row in rows)
    sent = [row for row in rows if row.status == "sent"]
    received = receiver.delivered()
    hands = Counter(row.kind for row in rows)
    lateness = sorted((row.sent_at - row.created_at).total_seconds() for row in sent)
    database = "PostgreSQL" if options.database else "SQLite"
    print(f"{options.matches} match(es) to {options.target}, both seats' webhooks at one receiver taking "
          f"{options.delay:g} s a call ({database}):")
    print(f"  match played in                 {played:8.1f} s")
    print(f"  every call settled after        {drained:8.1f} s")
    print(f"  calls queued                    {len(rows):8d}")
    print(f"  sent (answered 204)             {statuses['sent']:8d}   received by the receiver: {sum(received.values())}, "
          f"distinct webhook-ids {len(received)}")
    print(f"  replaced by a newer turn        {statuses['replaced']:8d}   (turn.started only)")
    print(f"  dead                            {statuses['dead']:8d}")
    print(f"  pending at the end              {statuses['pending']:8d}")
    ends = sum(1 for row in sent if row.kind == "hand.ended")
    print(f"  hand.ended delivered / queued   {ends:4d} / {hands['hand.ended']}")
    if lateness:
        middle, last = lateness[len(lateness) // 2], lateness[-1]
        print(f"  queued to delivered             median {middle:.2f} s, max {last:.2f} s")


if __name__ == "__main__":
    main()
