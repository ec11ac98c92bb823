"""No webhook is given up while its receiver answers: a seat's calls go in order, a failed call is
retried with backoff until WEBHOOK_RETRY_HOURS after it was queued and only then marked dead,
saying why; a call postponed without being made counts no attempt. A real receiver on loopback."""
from __future__ import annotations

from service.notify import outbox
from service.notify.webhooks.channel import WEBHOOK
from service.notify.worker import Worker

from .conftest import Receiver, outbox_rows, start_game


def drain(app, worker: Worker) -> None:
    with app.app_context():
        while worker.deliver_due():
            pass


def seated_at(client, app, *receivers) -> dict:
    """A started game whose seats' webhooks are at the receivers (one for both, or one each), its
    first calls delivered and forgotten."""
    urls = [r.url for r in receivers] * (3 - len(receivers))
    game = start_game(client, move_time_hours=None, contact0={"webhook_url": urls[0]},
                      contact1={"webhook_url": urls[1]})
    drain(app, Worker("w-start"))
    for receiver in receivers:
        with receiver.lock:
            receiver.requests.clear()
    from service.core.extensions import db
    from service.notify.models import OutboxMessage
    with app.app_context():
        db.session.query(OutboxMessage).delete()
        db.session.commit()
    return game


def queue(app, game_id: str, seat: int, url: str, *kinds: str) -> list[str]:
    from service.core.extensions import db
    ids = []
    with app.app_context():
        for number, kind in enumerate(kinds):
            ids.append(f"msg_{seat}_{number}_{kind}")
            outbox.enqueue(WEBHOOK, kind, url, "{}", ids[-1], game_id=game_id, seat=seat)
        db.session.commit()
    return ids


def test_a_seats_calls_wait_in_order_behind_its_failed_call(nclient, notify_app, receiver, clock, configure):
    """While seat 0's first call waits for its retry, its later calls are not made (no hand's end
    overtakes the turn before it); seat 1's calls, to another receiver, go on meanwhile."""
    configure(NOTIFY_RETRY_BASE_SECONDS=60.0)
    other_receiver = Receiver()
    other_receiver.start()
    try:
        game = seated_at(nclient, notify_app, receiver, other_receiver)
        first = queue(notify_app, game["id"], 0, receiver.url, "turn.started", "hand.ended", "match.ended")
        other = queue(notify_app, game["id"], 1, other_receiver.url, "turn.started", "hand.ended")
        receiver.fail_next = 1  # the first call is answered 503
        worker = Worker("w")
        drain(notify_app, worker)
        assert [r["headers"]["webhook-id"] for r in receiver.requests] == [first[0]], "the rest waited"
        assert [r["headers"]["webhook-id"] for r in other_receiver.delivered()] == other
        [waiting] = [row for row in outbox_rows(notify_app) if row.message_id == first[0]]
        assert waiting.status == "pending" and waiting.response_code == 503 and waiting.attempts == 1
        clock.advance(minutes=5)  # past the retry's backoff
        drain(notify_app, worker)
    finally:
        other_receiver.stop()
    delivered = [r["headers"]["webhook-id"] for r in receiver.delivered()]
    assert delivered == first, "seat 0's calls arrive in the order queued, each once"
    rows = {row.message_id: row for row in outbox_rows(notify_app)}
    assert all(rows[i].status == "sent" for i in first + other)
    assert rows[first[0]].attempts == 2 and rows[first[0]].response_code == 204


def test_a_failing_receiver_is_retried_until_the_horizon_then_dead_saying_why(nclient, notify_app, receiver,
                                                                             clock, configure):
    configure(WEBHOOK_RETRY_HOURS=24.0, WEBHOOK_BREAKER_FAILURES=1000)
    game = seated_at(nclient, notify_app, receiver)
    queue(notify_app, game["id"], 0, receiver.url, "hand.ended")
    receiver.fail_next = 10_000  # 503 to everything, for more than a day
    worker = Worker("w")
    for _ in range(200):  # every retry as it falls due, to the last
        drain(notify_app, worker)
        [row] = outbox_rows(notify_app)
        if row.status != "pending":
            break
        assert row.last_error == "HTTP 503 from the receiver" and row.response_code == 503
        clock.now = row.next_attempt_at
    [row] = outbox_rows(notify_app)
    assert row.status == "dead"
    assert row.last_error.startswith("given up after 24 h of retries") and "HTTP 503" in row.last_error
    assert row.attempts == len(receiver.requests) > 20  # a call each time, none skipped
    queued, last = outbox.as_utc(row.created_at), outbox.as_utc(row.attempted_at)
    assert (last - queued).total_seconds() == 24 * 3600, "the last try falls on the horizon"


def two_calls_to(pit, nclient, notify_app) -> None:
    """A game whose two seats' webhooks are `pit`, with only two calls queued: a hand.ended each."""
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": pit.url},
                      contact1={"webhook_url": pit.url})
    from service.core.extensions import db
    from service.notify.models import OutboxMessage
    with notify_app.app_context():  # not the game's first calls: the two queued below
        db.session.query(OutboxMessage).delete()
        db.session.commit()
    queue(notify_app, game["id"], 0, pit.url, "hand.ended")
    queue(notify_app, game["id"], 1, pit.url, "hand.ended")


def test_a_call_postponed_by_the_breaker_counts_no_attempt(nclient, notify_app, tarpits, configure, caplog):
    configure(WEBHOOK_BREAKER_FAILURES=1, WEBHOOK_TIMEOUT=0.3, WEBHOOK_CONNECT_TIMEOUT=0.3)
    pit = tarpits()
    two_calls_to(pit, nclient, notify_app)
    drain(notify_app, Worker("w"))
    rows = outbox_rows(notify_app)
    assert sorted(r.attempts for r in rows) == [0, 1] and pit.holding() == 1
    assert all(r.status == "pending" for r in rows)
    postponed = next(r for r in rows if r.attempts == 0)
    assert postponed.last_error.startswith("not attempted") and postponed.attempted_at is None
    told = [r.getMessage() for r in caplog.records if r.name == "service.notify.worker"]
    assert f"outbox {postponed.id} (webhook hand.ended) put off without a call: not attempted" in "\n".join(told)
    assert not [m for m in told if m.startswith(f"outbox {postponed.id} ") and "attempt 1" in m], told


def test_a_410_is_dead_at_once_saying_so_and_the_seats_next_call_still_goes(nclient, notify_app, receiver):
    """410 Gone is the receiver saying stop: that call is dead at once, with its status and why; it
    holds back none of the seat's later calls."""
    from .live import SlowReceiver
    gone = SlowReceiver(delay=0, status=410)
    try:
        game = seated_at(nclient, notify_app, receiver)
        from service.core.extensions import db
        from service.notify.models import Contact
        first = "msg_gone"
        with notify_app.app_context():
            db.session.query(Contact).filter_by(game_id=game["id"], seat=0).update({"webhook_url": gone.url})
            outbox.enqueue(WEBHOOK, "hand.ended", gone.url, '{"type": "hand.ended"}', first,
                           game_id=game["id"], seat=0)
            db.session.commit()
        worker = Worker("w")
        drain(notify_app, worker)
        [row] = outbox_rows(notify_app)
        assert row.status == "dead" and row.attempts == 1 and row.response_code == 410
        assert row.last_error == "given up: HTTP 410 from the receiver"
        gone.status = 204
        with notify_app.app_context():
            outbox.enqueue(WEBHOOK, "match.ended", gone.url, '{"type": "match.ended"}', "msg_after",
                           game_id=game["id"], seat=0)
            db.session.commit()
        drain(notify_app, worker)
    finally:
        gone.stop()
    assert [c["id"] for c in gone.calls] == [first, "msg_after"]
    assert {r.message_id: r.status for r in outbox_rows(notify_app)} == {first: "dead", "msg_after": "sent"}


def test_a_tarpit_held_off_by_the_breaker_ends_dead_at_the_horizon_saying_why(nclient, notify_app, tarpits, clock,
                                                                             configure):
    """A receiver that never answers costs a call only when its breaker lets one through; its calls
    wait (postponed, no attempt) and end dead at WEBHOOK_RETRY_HOURS, each saying why."""
    configure(WEBHOOK_BREAKER_FAILURES=1, WEBHOOK_TIMEOUT=0.3, WEBHOOK_CONNECT_TIMEOUT=0.3, WEBHOOK_RETRY_HOURS=24.0)
    pit = tarpits()
    two_calls_to(pit, nclient, notify_app)
    worker, rounds = Worker("w"), 0
    while rounds < 300:
        with notify_app.app_context():  # bounded: a row put off forever at the horizon must fail, not hang
            for _ in range(10):
                if not worker.deliver_due():
                    break
        waiting = [r for r in outbox_rows(notify_app) if r.status == "pending"]
        if not waiting:
            break
        rounds += 1
        clock.now = min(outbox.as_utc(r.next_attempt_at) for r in waiting)
    rows = outbox_rows(notify_app)
    assert [r.status for r in rows] == ["dead", "dead"]
    for row in rows:
        assert row.last_error.startswith("given up after 24 h of retries"), row.last_error
        assert "no answer within the total timeout" in row.last_error or "not attempted" in row.last_error
        assert (outbox.as_utc(row.next_attempt_at) - outbox.as_utc(row.created_at)).total_seconds() == 24 * 3600
    calls = sum(r.attempts for r in rows)
    assert calls == pit.holding() and 2 <= calls < 40, (calls, rounds)  # the breaker held off most tries


def test_a_given_up_calls_log_line_holds_no_path_or_query(nclient, notify_app, receiver, caplog):
    """Issue 38, item 12: Slack and Discord put the secret in the URL's path, others in its query:
    the operator's log line of a call given up names the scheme and host only."""
    import logging

    from .live import SlowReceiver
    gone = SlowReceiver(delay=0, status=410)
    secret_url = f"{gone.url.rstrip('/')}/services/T0SECRETPATH/B0SECRET?token=QUERYSECRET"
    try:
        game = seated_at(nclient, notify_app, receiver)
        from service.core.extensions import db
        from service.notify.models import Contact
        with notify_app.app_context():
            db.session.query(Contact).filter_by(game_id=game["id"], seat=0).update({"webhook_url": secret_url})
            outbox.enqueue(WEBHOOK, "hand.ended", secret_url, '{"type": "hand.ended"}', "msg_secret",
                           game_id=game["id"], seat=0)
            db.session.commit()
        with caplog.at_level(logging.INFO):
            drain(notify_app, Worker("w"))
        [row] = outbox_rows(notify_app)
        assert row.status == "dead"
        given_up = [r.getMessage() for r in caplog.records if "given up" in r.getMessage()]
        assert given_up and "127.0.0.1" in given_up[0], given_up
        assert not any(s in caplog.text for s in ("T0SECRETPATH", "B0SECRET", "QUERYSECRET", "token="))
    finally:
        gone.stop()
