"""Outages: the mail server or the webhook receiver down while moves are made, then up again.
Nothing is lost and nothing is sent twice, also with two workers delivering at once."""
from __future__ import annotations

from collections import Counter

from service.notify import outbox
from service.notify.mail.smtp import Mailer
from service.notify.webhooks.signatures import verify
from tests.api.helpers import choose

from .conftest import act, deliver, outbox_rows, payload, start_game, view

ANN, BOB = "ann@example.org", "bob@example.org"


def play_moves(client, game, count: int) -> None:
    for _ in range(count):
        seat = view(client, game, 0)["to_move"]
        if seat is None:
            return
        response = act(client, game, seat, choose(view(client, game, seat)))
        assert response.status_code == 200, response.get_json()


def small_batches(app):
    """Workers claim a few rows at a time, so two of them really interleave."""
    app.config["NOTIFY_BATCH"] = 2


def test_mail_server_down_then_up_every_mail_arrives_exactly_once(nclient, notify_app, mail_server, clock):
    mail_server.stop()
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    play_moves(nclient, game, 30)
    deliver(notify_app)  # the server is down: every attempt fails and is rescheduled
    rows = outbox_rows(notify_app)
    assert len(rows) >= 10 and all(r.status == "pending" and r.attempts == 1 and r.last_error for r in rows)
    assert all(r.next_attempt_at.replace(tzinfo=None) > clock.now.replace(tzinfo=None) for r in rows)
    deliver(notify_app)  # nothing is due yet: no second attempt before the backoff
    assert all(r.attempts == 1 for r in outbox_rows(notify_app))

    mail_server.start()
    clock.advance(minutes=5)
    try:
        small_batches(notify_app)
        deliver(notify_app, workers=2)
    finally:
        notify_app.config.pop("NOTIFY_BATCH")
    rows = outbox_rows(notify_app)
    assert all(r.status == "sent" and r.attempts == 2 for r in rows)
    received = Counter(m["Message-ID"] for _, m in mail_server.catcher.messages)
    assert received == Counter({r.message_id: 1 for r in rows}), "each mail once, none lost"


def test_two_workers_share_a_backlog_without_sending_twice(nclient, notify_app, mail_server):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    play_moves(nclient, game, 40)
    try:
        small_batches(notify_app)
        deliver(notify_app, workers=2)
    finally:
        notify_app.config.pop("NOTIFY_BATCH")
    rows = outbox_rows(notify_app)
    received = Counter(m["Message-ID"] for _, m in mail_server.catcher.messages)
    assert received == Counter({r.message_id: 1 for r in rows})
    assert len({r.claimed_by for r in rows}) == 1 and rows[0].claimed_by is None  # claims released


def test_a_crash_between_send_and_mark_resends_the_same_message_id(nclient, notify_app, mail_server, clock):
    start_game(nclient, contact0={"email": ANN})
    with notify_app.app_context():
        [row] = outbox.claim("crashing-worker", 10)
        Mailer().send(row.recipient, row.payload)  # sent, then the worker "dies" before marking
        assert outbox.claim("other-worker", 10) == []  # the claim holds while its lease runs
    clock.advance(minutes=6)  # past NOTIFY_LEASE_SECONDS
    deliver(notify_app)
    copies = [m for _, m in mail_server.catcher.messages]
    assert len(copies) == 2 and copies[0]["Message-ID"] == copies[1]["Message-ID"] == row.message_id
    [stored] = outbox_rows(notify_app)
    assert stored.status == "sent"
    with notify_app.app_context():  # the dead worker's late mark cannot undo or double anything
        assert outbox.mark_sent(row, "crashing-worker") is False


def test_refused_recipient_is_given_up_and_retries_back_off(nclient, notify_app, mail_server):
    start_game(nclient, contact0={"email": "refused@example.org"})
    deliver(notify_app)
    [row] = outbox_rows(notify_app)
    assert row.status == "dead" and row.attempts == 1 and "550" in row.last_error
    with notify_app.app_context():
        delays = [outbox.backoff(n).total_seconds() for n in (1, 2, 3, 6, 20)]
    assert 30 <= delays[0] <= 33 and 60 <= delays[1] <= 66 and 120 <= delays[2] <= 132
    assert 960 <= delays[3] <= 1056 and 3600 <= delays[4] <= 3960  # doubling, capped at an hour


def test_webhook_receiver_down_then_up_each_event_once_and_signed(nclient, notify_app, receiver, clock):
    receiver.stop()  # connection refused
    game = start_game(nclient, contact0={"webhook_url": receiver.url}, contact1={"webhook_url": receiver.url})
    secrets = {0: game["created"]["contact"]["webhook_secret"], 1: game["joined"]["contact"]["webhook_secret"]}
    assert secrets[0] != secrets[1] and all(s.startswith("whsec_") for s in secrets.values())
    play_moves(nclient, game, 20)
    deliver(notify_app)
    rows = outbox_rows(notify_app)
    # One call was refused; the other seat's first call, to the same receiver, waited without a
    # call (no attempt), and every later call of a seat waits behind the seat's first; a waiting
    # turn.started followed by a newer one of its seat was replaced by it.
    assert {r.status for r in rows} == {"pending", "replaced"}
    assert sorted(r.attempts for r in rows)[-2:] == [0, 1]
    assert all(r.kind == "turn.started" for r in rows if r.status == "replaced")

    receiver.start()
    receiver.fail_next = 3  # then answering 503 a few times
    for _ in range(20):
        clock.advance(hours=2)
        try:
            small_batches(notify_app)
            deliver(notify_app, workers=2)
        finally:
            notify_app.config.pop("NOTIFY_BATCH")
        if all(r.status != "pending" for r in outbox_rows(notify_app)):
            break
    rows = [r for r in outbox_rows(notify_app) if r.status != "replaced"]
    assert rows and all(r.status == "sent" for r in rows)
    assert len([r for r in receiver.requests if r["failed"]]) == 3
    assert sum(r.attempts for r in rows) == len(receiver.requests) + 1, "an attempt per call made, the refused one too"
    assert len(receiver.requests) == len(rows) + 3, "no call beyond the failed ones and one per row"
    delivered = receiver.delivered()
    assert Counter(r["headers"]["webhook-id"] for r in delivered) == Counter({r.message_id: 1 for r in rows})
    failed_ids = {r["headers"]["webhook-id"] for r in receiver.requests if r["failed"]}
    assert failed_ids <= {r["headers"]["webhook-id"] for r in delivered}  # a retry keeps its id
    for request in delivered:
        body = payload(request)
        seat = body["data"]["seat"]
        # Received "now" in the test clock's terms: the time of the attempt the header names.
        received_at = int(request["headers"]["webhook-timestamp"])
        assert received_at <= int(clock.now.timestamp())
        assert verify(secrets[seat], request["headers"], request["body"], now=received_at)
        assert not verify(secrets[1 - seat], request["headers"], request["body"], now=received_at)
        assert body["type"] in ("game.started", "turn.started", "hand.ended", "match.ended")
        assert body["data"]["game_id"] == game["id"] and isinstance(body["data"]["version"], int)
        assert body["data"]["your_turn"] == (body["data"]["to_move"] == seat)
        assert body["data"]["view"]["seat"] == seat
    turns = [payload(r)["data"] for r in delivered if payload(r)["type"] == "turn.started"]
    assert turns and all(t["your_turn"] and t["deadline"] for t in turns)


def docs_verify():
    """The webhook verification snippet of docs/api.md, as a function (its clock is given)."""
    from ..doc_blocks import block
    snippet = block("webhook-verify")
    namespace: dict = {}
    exec(snippet, namespace)  # noqa: S102 - our own documentation, checked to work
    return namespace


def test_the_docs_snippet_verifies_a_delivered_webhook(nclient, notify_app, receiver):
    game = start_game(nclient, contact0={"webhook_url": receiver.url})
    secret = game["created"]["contact"]["webhook_secret"]
    deliver(notify_app)
    [request] = receiver.delivered()
    namespace = docs_verify()
    stamp = int(request["headers"]["webhook-timestamp"])
    namespace["time"] = type("Clock", (), {"time": staticmethod(lambda: stamp + 60)})
    headers = {k.lower(): v for k, v in request["headers"].items()}
    body = request["body"].encode()
    assert namespace["verify"](secret, headers, body)
    tampered = body.replace(b'"seat":0', b'"seat":1')
    assert tampered != body and not namespace["verify"](secret, headers, tampered)
    assert not namespace["verify"]("whsec_" + "B" * 32, headers, body)
    namespace["time"] = type("Clock", (), {"time": staticmethod(lambda: stamp + 3600)})
    assert not namespace["verify"](secret, headers, body)


def test_old_delivered_rows_and_secrets_are_forgotten_pending_ones_kept(nclient, notify_app, mail_server, clock):
    start_game(nclient, move_time_hours=None, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(notify_app)
    mail_server.stop()
    start_game(nclient, move_time_hours=None, contact0={"email": ANN})  # not deliverable: stays pending
    clock.advance(days=15)
    deliver(notify_app)
    rows = outbox_rows(notify_app)
    assert [r.status for r in rows] == ["pending"] and rows[0].attempts >= 1
    from service.core.extensions import db
    from service.notify.models import MailToken
    with notify_app.app_context():
        assert db.session.query(MailToken).count() == 6  # reply secrets and unsubscribe keys live twice as long
    clock.advance(days=15)
    deliver(notify_app)
    with notify_app.app_context():
        assert db.session.query(MailToken).count() == 0
    assert len(outbox_rows(notify_app)) == 1


def test_a_row_whose_claim_was_taken_over_is_not_sent_by_the_first_worker(nclient, notify_app, mail_server, clock):
    from service.notify.worker import Worker
    start_game(nclient, contact0={"email": ANN})
    with notify_app.app_context():
        [row] = outbox.claim("slow-worker", 10)
        clock.advance(minutes=6)  # its lease ran out before it got to the row ...
        [taken] = outbox.claim("other-worker", 10)  # ... and another worker took the row over
        Worker("slow-worker").deliver(row)
        assert mail_server.catcher.messages == []  # the compare-and-set failed: not sent
        [stored] = outbox_rows(notify_app)
        assert stored.status == "pending" and stored.claimed_by == "other-worker" and stored.attempts == 0
        Worker("other-worker").deliver(taken)
    assert [m["Message-ID"] for _, m in mail_server.catcher.messages] == [row.message_id]
    [stored] = outbox_rows(notify_app)
    assert stored.status == "sent" and stored.attempts == 1


def test_a_batch_longer_than_one_lease_is_not_taken_over_while_it_is_sent(nclient, notify_app, mail_server, clock):
    """Each send takes 60% of a lease (on the app's clock), and while it runs a second worker
    looks for expired claims. The renewal before each send keeps the rows still to come out of
    its reach; each mail arrives once."""
    import threading

    from service.core.settings import setting
    from service.notify.worker import Worker
    with notify_app.app_context():
        lease = setting("NOTIFY_LEASE_SECONDS")

    def other_worker():
        with notify_app.app_context():
            Worker("other-worker").deliver_due()

    class SlowMailer(Mailer):
        def send(self, recipient, payload):
            clock.advance(seconds=0.6 * lease)
            thread = threading.Thread(target=other_worker)
            thread.start()
            thread.join(30)
            super().send(recipient, payload)

    start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    assert len(outbox_rows(notify_app)) >= 2
    with notify_app.app_context():
        worker = Worker("slow-worker")
        worker.couriers["mail"] = SlowMailer()
        assert worker.deliver_due() == len(outbox_rows(notify_app))
    rows = outbox_rows(notify_app)
    received = Counter(m["Message-ID"] for _, m in mail_server.catcher.messages)
    assert received == Counter({r.message_id: 1 for r in rows}), "each mail once"
    assert all(r.status == "sent" and r.attempts == 1 for r in rows)


def test_network_timeouts_are_capped_so_one_delivery_fits_in_its_hold(nclient, notify_app, mail_server):
    """A claim is renewed for at most NOTIFY_HOLD_SECONDS: a delivery's every network wait is capped
    at a tenth of it, so that the delivery ends before its row can be taken over."""
    saved = {name: notify_app.config.get(name) for name in ("NOTIFY_HOLD_SECONDS", "SMTP_TIMEOUT")}
    notify_app.config.update(NOTIFY_HOLD_SECONDS=20.0, SMTP_TIMEOUT=30.0)
    try:
        with notify_app.app_context():
            mailer = Mailer()
            mailer.send(ANN, "Subject: hi\r\n\r\nhello\r\n")
            assert mailer.connection.timeout == 2.0  # a tenth of the hold, not the 30 s asked
            mailer.close()
            assert outbox.within_lease(1.0) == 1.0
    finally:
        for name, value in saved.items():
            notify_app.config.pop(name) if value is None else notify_app.config.update({name: value})
