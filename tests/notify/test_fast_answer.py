"""Fast answers (issue 13): a running outbox worker with a long idle interval is woken by the
commit of a reply's move, so the answer and the opponent's turn mail reach the SMTP catcher
without waiting for the interval. The latency is printed (run with -s), never asserted."""
from __future__ import annotations

import threading
import time

from tests.api.helpers import stored_game

from .conftest import reply, reply_address, start_game, wait_for

ANN, BOB = "ann@example.org", "bob@example.org"
EMAILS = {0: ANN, 1: BOB}
INTERVAL = 120.0  # the worker's idle sleep: far longer than the test waits for anything


def test_the_answer_to_a_reply_leaves_without_waiting_for_the_worker_interval(
        nclient, notify_app, mail_server, listener):
    from service.notify.worker import Worker
    stop = threading.Event()

    def work():
        with notify_app.app_context():
            Worker("fast").run(stop=stop, interval=INTERVAL)
    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
        catcher = mail_server.catcher
        assert wait_for(lambda: catcher.to(ANN) and catcher.to(BOB), timeout=30)
        latencies = []

        def play(seat: int, command: str) -> None:
            """Reply, then wait for the answer and, when the turn passed, the opponent's mail."""
            mine, theirs = len(catcher.to(EMAILS[seat])), len(catcher.to(EMAILS[1 - seat]))
            reply(listener, reply_address(catcher.to(EMAILS[seat])[-1]), command, sender=EMAILS[seat])
            accepted = time.perf_counter()  # the listener answered 250: the move is committed
            passed = stored_game(notify_app, game["id"]).to_move != seat
            arrived = wait_for(lambda: len(catcher.to(EMAILS[seat])) > mine and
                               (not passed or len(catcher.to(EMAILS[1 - seat])) > theirs), timeout=30)
            assert arrived, "the answer waited for the worker's interval (or never came)"
            latencies.append(max(catcher.arrived[-2:]) - accepted)  # the later of the two mails

        for _ in range(6):
            seat = stored_game(notify_app, game["id"]).to_move
            body = catcher.to(EMAILS[seat])[-1].get_body(("plain",)).get_content()
            play(seat, "pass" if "\n  pass" in body else "draw stock")
            if stored_game(notify_app, game["id"]).to_move == seat:  # drew: discard to end the turn
                body = catcher.to(EMAILS[seat])[-1].get_body(("plain",)).get_content()
                play(seat, "discard " + body.split("best discard ")[1].split()[0])
        latencies.sort()
        from service.core.extensions import db
        with notify_app.app_context():
            database = db.engine.dialect.name
        print(f"\n{database}: reply accepted -> answer and opponent's turn mail caught, worker --interval {INTERVAL:g}: "
              f"median {latencies[len(latencies) // 2] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms "
              f"over {len(latencies)} replies")
    finally:
        stop.set()
        worker.join(10)
