"""Webhook receivers that never answer, against the mail queued beside them: how soon does the
mail arrive, and how long do the tarpit rows hold the worker?

    .venv/bin/python bench/bench_webhook_tarpit.py [--tarpits 32] [--timeout 3] [--mails 5]

K seats have webhook URLs on K tarpits (loopback sockets that accept and never answer, each on its
own port: distinct destinations, so no circuit breaker helps; the attacker's best case). Their K
calls are queued first, then the mails, so a worker taking rows one by one (the code before this
benchmark) would reach the mails only after K x timeout. A real SMTP server (aiosmtpd) stamps
each mail's arrival. Then the same K calls to one destination, over a few retry rounds, to count
the calls the breaker lets through. SQLite in a scratch directory; the worker runs in process.
"""
from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import tempfile
import threading
import time
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import flask_migrate  # noqa: E402
from aiosmtpd.controller import Controller  # noqa: E402

from service import create_app  # noqa: E402
from service.core.extensions import db  # noqa: E402
from service.notify import outbox  # noqa: E402
from service.notify.mail.channel import MAIL  # noqa: E402
from service.notify.models import OutboxMessage  # noqa: E402
from service.notify.worker import Worker  # noqa: E402
from tests.conftest import free_port  # noqa: E402
from tests.notify.conftest import FakeClock, Tarpit  # noqa: E402


class StampingCatcher:
    def __init__(self):
        self.arrivals: list[float] = []

    async def handle_DATA(self, server, session, envelope):
        self.arrivals.append(time.monotonic())
        return "250 OK"


def seat_webhooks(client, urls: list[str]) -> None:
    for first, second in zip(urls[::2], urls[1::2]):
        created = client.post("/games", json={"name": "Ann", "move_time_hours": None,
                                              "webhook_url": first}).get_json()
        client.post(f"/games/{created['game_id']}/join",
                    json={"invite_code": created["invite_code"], "name": "Bob", "webhook_url": second})


def queue_mails(count: int) -> None:
    for n in range(count):
        message_id = make_msgid(domain="bench.test")
        outbox.enqueue(MAIL, "turn", f"p{n}@example.org",
                       f"To: p{n}@example.org\r\nSubject: hi\r\nMessage-ID: {message_id}\r\n\r\nhi\r\n", message_id)
    db.session.commit()


queued_late: list[float] = []


def queue_late_mail(app, after: float) -> None:
    """One more mail, queued while the batch's calls are out (as a move would queue it)."""
    time.sleep(after)
    with app.app_context():
        queued_late.append(time.monotonic())
        queue_mails(1)


def clear() -> None:
    db.session.query(OutboxMessage).delete()
    db.session.commit()


def mail_beside_tarpits(app, catcher, options) -> None:
    pits = [Tarpit() for _ in range(options.tarpits)]
    try:
        with app.app_context():
            seat_webhooks(app.test_client(), [pit.url for pit in pits])
            queue_mails(options.mails)
            worker = Worker("bench")
            catcher.arrivals.clear()
            late = threading.Thread(target=queue_late_mail, args=(app, options.timeout / 3))
            started = time.monotonic()
            late.start()
            worker.deliver_due()
            first_batch = time.monotonic() - started
            late.join()
            batches = 1
            while worker.deliver_due():
                batches += 1
            drained = time.monotonic() - started
            mails = sorted(catcher.arrivals)
            last_mail = mails[options.mails - 1] - started if len(mails) > options.mails else float("nan")
            late_mail = mails[-1] - queued_late[0] if len(mails) > options.mails else float("nan")
            calls = sum(pit.holding() for pit in pits)
            clear()
    finally:
        for pit in pits:
            pit.release()
    k, t = options.tarpits, options.timeout
    print(f"{k} tarpit receivers (distinct destinations), {options.mails} mails queued after them, "
          f"WEBHOOK_TIMEOUT {t:g} s, WEBHOOK_CONCURRENCY {app.config['WEBHOOK_CONCURRENCY']}:")
    print(f"  last mail delivered after      {1000 * last_mail:8.1f} ms")
    print(f"  a mail queued {t / 3:.1f} s into the batch, delivered {1000 * late_mail:.1f} ms after it was queued")
    print(f"  first batch returned after     {first_batch:8.2f} s")
    print(f"  every tarpit row tried after   {drained:8.2f} s   ({batches} batches, {calls} calls)")
    print(f"  one row at a time (before):    mail after about {k * t:.0f} s (K x timeout)")


def breaker_rounds(app, clock, options, rounds: int = 6) -> None:
    pit = Tarpit()
    try:
        with app.app_context():
            seat_webhooks(app.test_client(), [pit.url] * options.tarpits)
            worker = Worker("bench")  # one worker: the breaker is its memory
            per_round, spent = [], []
            for _ in range(rounds):
                before, started = pit.holding(), time.monotonic()
                while worker.deliver_due():
                    pass
                per_round.append(pit.holding() - before)
                spent.append(time.monotonic() - started)
                clock.advance(minutes=5)  # past the rows' backoff, within the breaker's cool-down
            clear()
    finally:
        pit.release()
    print(f"{options.tarpits} rows for one tarpit destination, {rounds} retry rounds 5 minutes apart "
          f"(breaker: {app.config['WEBHOOK_BREAKER_FAILURES']} failures, cool-down doubling from "
          f"{app.config['WEBHOOK_BREAKER_COOLDOWN_SECONDS']:g} s):")
    print("  calls per round:   " + " ".join(f"{n:5d}" for n in per_round))
    print("  seconds per round: " + " ".join(f"{s:5.1f}" for s in spent))
    print(f"  one row at a time (before): {options.tarpits} calls and about "
          f"{options.tarpits * options.timeout:.0f} s in every round")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tarpits", type=int, default=32)
    parser.add_argument("--timeout", type=float, default=3.0, help="WEBHOOK_TIMEOUT (the default is 10)")
    parser.add_argument("--mails", type=int, default=5)
    options = parser.parse_args()
    logging.getLogger("service.notify").setLevel(logging.CRITICAL)  # a failed call logs a line per row
    print("$ .venv/bin/python bench/bench_webhook_tarpit.py " + shlex.join(sys.argv[1:]))
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    catcher = StampingCatcher()
    mail = Controller(catcher, hostname="127.0.0.1", port=free_port())
    mail.start()
    clock = FakeClock()
    with tempfile.TemporaryDirectory() as directory:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{directory}/bench.sqlite3", "TESTING": True,
                          "RATELIMIT_ENABLED": False, "CLOCK": clock, "SMTP_HOST": "127.0.0.1",
                          "SMTP_PORT": mail.port, "WEBHOOK_ALLOW_PRIVATE": True,
                          "WEBHOOK_TIMEOUT": options.timeout, "WEBHOOK_CONCURRENCY": 8,
                          "WEBHOOK_BREAKER_FAILURES": 3, "WEBHOOK_BREAKER_COOLDOWN_SECONDS": 60.0})
        with app.app_context():
            flask_migrate.upgrade(directory=str(ROOT / "migrations"))
        try:
            mail_beside_tarpits(app, catcher, options)
            breaker_rounds(app, clock, options)
        finally:
            mail.stop()
            with app.app_context():
                db.engine.dispose()


if __name__ == "__main__":
    main()
