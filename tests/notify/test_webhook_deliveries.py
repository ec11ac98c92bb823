"""A seat's webhook deliveries log (GET /games/{id}/webhook-deliveries) and redelivery (POST
.../{webhook_id}/redeliver): each row as the receiver saw it, paged, the seat's own only; a
redelivery sends the very same bytes with the same webhook-id. A real receiver on loopback."""
from __future__ import annotations

from service.notify.worker import Worker

from .conftest import auth, outbox_rows, start_game
from .test_outage import play_moves


def drain(app) -> None:
    with app.app_context():
        worker = Worker("w")
        while worker.deliver_due():
            pass


def deliveries(client, game, seat, **query) -> dict:
    response = client.get(f"/games/{game['id']}/webhook-deliveries", query_string=query,
                          headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_log_lists_each_call_as_the_receiver_answered_it_paged_newest_first(nclient, notify_app, receiver):
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": receiver.url},
                      contact1={"webhook_url": receiver.url})
    play_moves(nclient, game, 8)
    drain(notify_app)
    rows = [r for r in outbox_rows(notify_app) if r.seat == 0]
    assert len(rows) >= 3
    seen, cursor = [], None
    while True:
        page = deliveries(nclient, game, 0, limit=2, **({"cursor": cursor} if cursor else {}))
        assert len(page["deliveries"]) <= 2
        seen += page["deliveries"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [d["webhook_id"] for d in seen] == [r.message_id for r in reversed(rows)], "the seat's own, newest first"
    received = {r["headers"]["webhook-id"] for r in receiver.delivered()}
    assert {d["status"] for d in seen} <= {"sent", "replaced"} and any(d["status"] == "sent" for d in seen)
    for delivery in seen:  # as the receiver saw it: a sent call arrived, a replaced one never
        assert (delivery["webhook_id"] in received) == (delivery["status"] == "sent")
        if delivery["status"] == "sent":
            assert delivery["attempts"] == 1 and delivery["response_code"] == 204
            assert delivery["sent_at"] and delivery["attempted_at"] and delivery["next_attempt_at"] is None
        else:
            assert delivery["event"] == "turn.started" and delivery["attempts"] == 0
            assert delivery["response_code"] is None and delivery["last_error"].startswith("replaced by msg_")
        assert delivery["event"] in ("game.started", "turn.started", "hand.ended")
    other = {d["webhook_id"] for d in deliveries(nclient, game, 1, limit=100)["deliveries"]}
    assert other and not other & {d["webhook_id"] for d in seen}


def test_a_failed_call_shows_the_receivers_answer_and_its_next_try(nclient, notify_app, receiver):
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": receiver.url})
    receiver.fail_next = 1
    drain(notify_app)
    [delivery] = deliveries(nclient, game, 0)["deliveries"]
    assert delivery["status"] == "pending" and delivery["response_code"] == 503 and delivery["attempts"] == 1
    assert delivery["last_error"] == "HTTP 503 from the receiver" and delivery["next_attempt_at"]


def test_redelivery_sends_the_same_bytes_with_the_same_webhook_id(nclient, notify_app, receiver):
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": receiver.url})
    drain(notify_app)
    [first] = receiver.delivered()
    webhook_id = first["headers"]["webhook-id"]
    path = f"/games/{game['id']}/webhook-deliveries/{webhook_id}/redeliver"
    answer = nclient.post(path, headers=auth(game["tokens"][0]))
    assert answer.status_code == 202, answer.get_json()
    assert answer.get_json()["status"] == "pending" and answer.get_json()["redelivered_at"]
    drain(notify_app)
    again = receiver.delivered()[1]
    assert again["headers"]["webhook-id"] == webhook_id and again["body"] == first["body"]
    [delivery] = deliveries(nclient, game, 0)["deliveries"]
    assert delivery["status"] == "sent" and delivery["attempts"] == 2


def test_redelivery_refusals(nclient, notify_app, receiver):
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": receiver.url})
    drain(notify_app)
    [row] = outbox_rows(notify_app)
    base = f"/games/{game['id']}/webhook-deliveries"
    other_seat = nclient.post(f"{base}/{row.message_id}/redeliver", headers=auth(game["tokens"][1]))
    assert other_seat.status_code == 404 and other_seat.get_json()["code"] == "delivery-not-found"
    assert nclient.post(f"{base}/{row.message_id}/redeliver").status_code == 401
    bad = nclient.get(base, query_string={"cursor": "x1"}, headers=auth(game["tokens"][0]))
    assert bad.status_code == 422 and bad.get_json()["code"] == "validation-error"
    # A cursor past the ids' integer range (the spec allows ten digits) is older than no row: every
    # delivery is listed, where PostgreSQL once refused the comparison (a 500).
    for cursor in ("9999999999", str(2**31), str(2**31 - 1)):
        page = nclient.get(base, query_string={"cursor": cursor}, headers=auth(game["tokens"][0]))
        assert page.status_code == 200, cursor
        assert [d["webhook_id"] for d in page.get_json()["deliveries"]] == [row.message_id], cursor
    cleared = nclient.patch(f"/games/{game['id']}/contact", json={"webhook_url": None}, headers=auth(game["tokens"][0]))
    assert cleared.status_code == 200
    refused = nclient.post(f"{base}/{row.message_id}/redeliver", headers=auth(game["tokens"][0]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "delivery-not-sendable"
    assert [r.status for r in outbox_rows(notify_app)] == ["sent"], "nothing changed"


def test_a_turn_call_that_failed_then_was_replaced_still_shows_the_call_it_made(nclient, notify_app, receiver,
                                                                               clock, configure):
    """`replaced` says the call will not be made (again), not that the receiver never saw it: a
    turn.started answered 503, then stood for by a newer one, keeps its attempt and that 503."""
    from service.notify import outbox
    from service.notify.webhooks.channel import WEBHOOK

    from .test_webhook_retries import drain as drain_with
    from .test_webhook_retries import queue, seated_at
    configure(NOTIFY_RETRY_BASE_SECONDS=60.0)
    game = seated_at(nclient, notify_app, receiver)
    [older] = queue(notify_app, game["id"], 0, receiver.url, "turn.started")
    receiver.fail_next = 1
    worker = Worker("w")
    drain_with(notify_app, worker)
    from service.core.extensions import db
    with notify_app.app_context():
        outbox.enqueue(WEBHOOK, "turn.started", receiver.url, "{}", "msg_newer", game_id=game["id"], seat=0)
        db.session.commit()
    drain_with(notify_app, worker)
    listed = {d["webhook_id"]: d for d in deliveries(nclient, game, 0)["deliveries"]}
    assert listed[older]["status"] == "replaced" and listed[older]["last_error"].startswith("replaced by msg_newer")
    assert listed[older]["attempts"] == 1 and listed[older]["response_code"] == 503 and listed[older]["attempted_at"]
    assert listed[older]["next_attempt_at"] is None
    assert listed["msg_newer"]["status"] == "sent" and listed["msg_newer"]["response_code"] == 204
    assert [r["headers"]["webhook-id"] for r in receiver.requests] == [older, "msg_newer"], "the 503, then the newer"


def test_a_webhook_id_no_database_can_hold_is_not_found(nclient, notify_app, receiver):
    """Issue 38, item 12: a NUL in the id was a 500 on PostgreSQL (a string literal cannot hold one)."""
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": receiver.url})
    drain(notify_app)
    base = f"/games/{game['id']}/webhook-deliveries"
    for webhook_id in ("%00", "msg_%00x", "%C3%A9", "x" * 300):
        answer = nclient.post(f"{base}/{webhook_id}/redeliver", headers=auth(game["tokens"][0]))
        assert answer.status_code == 404 and answer.get_json()["code"] == "delivery-not-found", webhook_id
        assert "\x00" not in answer.get_data(as_text=True)
    assert [r.status for r in outbox_rows(notify_app)] == ["sent"], "nothing changed"
