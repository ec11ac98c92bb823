"""One webhook receiver cannot slow the others: calls go out in parallel, one thread per
destination, beside the mail; each ends within its total timeout, even against a receiver that
answers one byte at a time; a destination that keeps failing is skipped by its circuit breaker
until a cool-down has passed; and a seat has a bounded number of calls waiting. Real receivers
on loopback (tarpits that accept and never answer, a dripping one, an HTTP server)."""
from __future__ import annotations

import threading
from email.utils import make_msgid

import pytest

from service.core.extensions import db
from service.notify import outbox
from service.notify.mail.channel import MAIL
from service.notify.webhooks.channel import WEBHOOK
from service.notify.webhooks import calls, signatures
from service.notify.models import OutboxMessage
from service.notify.worker import Worker

from .conftest import DOMAIN, Receiver, outbox_rows, start_game, wait_for


def queue_mail(app, to: str) -> str:
    message_id = make_msgid(domain=DOMAIN)
    with app.app_context():
        outbox.enqueue(MAIL, "turn", to, f"To: {to}\r\nSubject: hi\r\nMessage-ID: {message_id}\r\n\r\nhi\r\n",
                       message_id)
        db.session.commit()
    return message_id


def seats_calling(client, urls: list[str]) -> None:
    """A started game per two URLs, each seat's webhook one of them: one call queued per seat."""
    for first, second in zip(urls[::2], urls[1::2]):
        start_game(client, move_time_hours=None, contact0={"webhook_url": first}, contact1={"webhook_url": second})


def test_a_mail_goes_out_while_tarpit_receivers_hold_their_calls(nclient, notify_app, mail_server, tarpits,
                                                                 configure):
    """K receivers that never answer, queued before a mail: every call is open at once and the
    mail is delivered while they are all still waiting (the old worker called them one by one,
    the mail last)."""
    configure(WEBHOOK_TIMEOUT=60.0)  # longer than the test: the tarpits are released by hand
    pits = [tarpits() for _ in range(4)]
    seats_calling(nclient, [pit.url for pit in pits])
    mail = queue_mail(notify_app, "ann@example.org")

    def batch():
        with notify_app.app_context():
            Worker("w").deliver_due()
    running = threading.Thread(target=batch)
    running.start()
    try:
        assert wait_for(lambda: all(pit.holding() == 1 for pit in pits)), "the calls are made in parallel"
        assert wait_for(lambda: mail_server.catcher.to("ann@example.org")), "the mail is not held up"
        later = queue_mail(notify_app, "bob@example.org")  # falls due while the calls are out
        assert wait_for(lambda: mail_server.catcher.to("bob@example.org")), "nor is mail queued meanwhile"
        assert running.is_alive(), "... while every tarpit still holds its call"
    finally:
        for pit in pits:
            pit.release()
        running.join(60)
    assert not running.is_alive()
    rows = outbox_rows(notify_app)
    assert [r.status for r in rows if r.message_id in (mail, later)] == ["sent", "sent"]
    hooks = [r for r in rows if r.channel == "webhook"]
    assert len(hooks) == 4 and all(r.status == "pending" and r.attempts == 1 and r.last_error for r in hooks)


def test_a_receiver_answering_one_byte_at_a_time_is_cut_off_at_the_total_timeout(tarpits):
    """No single read waits long, so a per-read timeout never fires; the total one does."""
    pit = tarpits(drip=0.2)  # the whole 200 answer would take about 15 s
    outcome = {}

    def call():
        try:
            outcome["status"] = calls.post(pit.url, signatures.new_secret(), "msg_1", "{}", 0, timeout=1.0,
                                              allow_private=True, connect_timeout=1.0)
        except calls.WebhookError as exc:
            outcome["error"] = exc
    thread = threading.Thread(target=call)
    thread.start()
    thread.join(60)
    assert not thread.is_alive() and "status" not in outcome
    assert "total timeout" in str(outcome["error"]) and outcome["error"].destination_down
    assert not outcome["error"].permanent


def drain(app, worker: Worker) -> None:
    with app.app_context():
        while worker.deliver_due():
            pass


def test_a_failing_destination_is_skipped_without_calls_until_its_cool_down(nclient, notify_app, clock, configure):
    """Three failed calls in a row open the breaker: the destination's rows then wait without
    a call while another destination is served; after the cool-down one call probes it, and
    its success lets the rest through."""
    configure(WEBHOOK_BREAKER_FAILURES=3, WEBHOOK_BREAKER_COOLDOWN_SECONDS=3600.0, NOTIFY_RETRY_BASE_SECONDS=1.0)
    failing, healthy = Receiver(), Receiver()
    failing.start(), healthy.start()
    try:
        failing.fail_next = 1000  # 503 to everything
        seats_calling(nclient, [failing.url] * 6)
        worker = Worker("w")  # the breaker is the worker's own memory: one worker throughout
        for _ in range(3):
            drain(notify_app, worker)
            clock.advance(minutes=10)  # past each row's backoff, well within the cool-down
        assert len(failing.requests) == 3, "one call per batch: the rest waited behind the failed one"

        seats_calling(nclient, [healthy.url] * 2)
        drain(notify_app, worker)
        assert len(failing.requests) == 3, "breaker open: no call to the failing destination"
        assert len(healthy.delivered()) == 2, "another destination is served meanwhile"
        waiting = outbox_rows(notify_app, status="pending")
        assert len(waiting) == 6 and all("failed repeatedly" in r.last_error for r in waiting)

        failing.fail_next = 0
        clock.advance(minutes=61)
        drain(notify_app, worker)
        assert len(failing.delivered()) == 6 and len(failing.requests) == 3 + 6
        assert all(r.status == "sent" for r in outbox_rows(notify_app))
    finally:
        failing.stop(), healthy.stop()


def test_only_runs_of_turn_calls_of_a_seat_collapse_into_the_newest(nclient, notify_app):
    """A backlog sheds only what nothing needs: a waiting turn.started followed directly by a newer
    one of the same seat (which carries the whole view). A hand's end is never shed, nor a call a
    worker holds, nor another seat's."""
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": "http://127.0.0.1:9/a"},
                      contact1={"webhook_url": "http://127.0.0.1:9/b"})
    with notify_app.app_context():
        [in_flight] = [row for row in outbox.claim("w", 10) if row.seat == 0]  # a worker holds seat 0's first
        for message_id, kind in [("t0", "turn.started"), ("t1", "turn.started"), ("h", "hand.ended"),
                                 ("t2", "turn.started"), ("t3", "turn.started"), ("t4", "turn.started")]:
            outbox.enqueue(WEBHOOK, kind, "http://127.0.0.1:9/a", "{}", message_id, game_id=game["id"], seat=0)
            db.session.commit()
    seat0 = [row for row in outbox_rows(notify_app) if row.seat == 0]
    assert [row.message_id for row in seat0 if row.status == "pending"] == [in_flight.message_id, "t1", "h", "t4"]
    replaced = {row.message_id: row.last_error for row in seat0 if row.status == "replaced"}
    assert list(replaced) == ["t0", "t2", "t3"]
    assert replaced["t0"].startswith("replaced by t1") and replaced["t2"].startswith("replaced by t3")
    assert not [row for row in seat0 if row.status == "dead"]
    assert [row.status for row in outbox_rows(notify_app) if row.seat == 1] == ["pending"], "other seats untouched"


def test_a_row_claimed_while_a_move_waits_for_its_lock_is_left_to_the_worker(nclient, notify_app, db_config):
    """PostgreSQL, READ COMMITTED: the move's UPDATE that replaces waiting turns finds the row
    unclaimed, waits for the worker's uncommitted claim on it, and then must look at the row again.
    Its conditions stand in its own WHERE, so it does, and leaves the claimed row alone; with them
    in a subquery (as the per-seat cap had them) the row was marked while the worker delivered it,
    and the delivered call read dead."""
    url = db_config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("postgresql"):
        pytest.skip("SQLite serialises writers (BEGIN IMMEDIATE): the move cannot read before the claim commits")
    import sqlalchemy as sa
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": "http://127.0.0.1:9/a"},
                      contact1={"webhook_url": "http://127.0.0.1:9/b"})
    with notify_app.app_context():  # seat 0's one waiting call: a turn.started, which a newer one replaces
        db.session.query(OutboxMessage).delete()
        outbox.enqueue(WEBHOOK, "turn.started", "http://127.0.0.1:9/a", "{}", "msg_waiting", game_id=game["id"],
                       seat=0)
        db.session.commit()
    [waiting] = outbox_rows(notify_app)
    engine = sa.create_engine(url, **db_config.get("SQLALCHEMY_ENGINE_OPTIONS", {}))
    worker = engine.connect()
    try:
        worker.execute(sa.text("UPDATE outbox SET claimed_by = 'w', claimed_until = now() + interval '5 minutes' "
                               "WHERE id = :id"), {"id": waiting.id})  # the claim, not committed yet
        move_pid = []
        moved = threading.Thread(target=queue_turn, args=(notify_app, game["id"], move_pid))
        moved.start()
        with engine.connect() as watcher:  # the move's connection is waiting for the claim's row lock
            assert wait_for(lambda: move_pid and watcher.execute(sa.text(
                "SELECT count(*) FROM pg_locks WHERE pid = :pid AND NOT granted"), {"pid": move_pid[0]}).scalar(),
                timeout=120), "the move waits for the row"
        worker.commit()
        moved.join(120)
    finally:
        worker.close()
        engine.dispose()
    claimed, newer = outbox_rows(notify_app)
    assert claimed.status == "pending" and claimed.claimed_by == "w", "the worker's row, untouched"
    assert newer.message_id == "msg_newer" and newer.status == "pending"


def queue_turn(app, game_id: str, pid: list) -> None:
    """A move queuing a turn.started for seat 0, on a connection whose backend id it tells first."""
    from sqlalchemy import text
    with app.app_context():
        pid.append(db.session.execute(text("SELECT pg_backend_pid()")).scalar())
        outbox.enqueue(WEBHOOK, "turn.started", "http://127.0.0.1:9/a", "{}", "msg_newer", game_id=game_id, seat=0)
        db.session.commit()
