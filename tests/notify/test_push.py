"""Web Push (issue 39): a seat's (or a player's) browser is told of its turn through a real push
service on loopback (push_service.py, RFC 8030), which checks the VAPID JWT (RFC 8292) against the
service's published key and decrypts each push (RFC 8291) with the browser's own private key: the
notification names the players and the deadline, and nothing a stranger could use."""
from __future__ import annotations

import json

import pytest

from service.notify.sweeps import sweep_clocks
from tests.api.helpers import choose
from tests.players.support import accepted_game, new_player

from .conftest import act, auth, deliver, outbox_rows, start_game, view
from .push_service import PushService, check_vapid


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.stop()


def subscribe(client, game, seat, browser) -> dict:
    response = client.post(f"/games/{game['id']}/push-subscriptions", json=browser.subscription(),
                           headers=auth(game["tokens"][seat]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def move(client, game) -> int:
    """The seat to move plays (a simple policy); returns that seat."""
    seat = view(client, game, 0)["to_move"]
    response = act(client, game, seat, choose(view(client, game, seat)))
    assert response.status_code == 200, response.get_json()
    return seat


def until_turn_of(client, game, seat: int) -> None:
    """Moves until a new turn of `seat`'s begins (its own moves first, if it is to move now)."""
    while view(client, game, 0)["to_move"] == seat:
        move(client, game)
    for _ in range(10):
        move(client, game)
        if view(client, game, 0)["to_move"] == seat:
            return
    raise AssertionError("the turn never came")


def public_key(client) -> str:
    response = client.get("/push/key")
    assert response.status_code == 200
    return response.get_json()["public_key"]


def test_a_turn_is_pushed_signed_encrypted_and_says_nothing_a_stranger_could_use(nclient, notify_app, push_service):
    game = start_game(nclient, move_time_hours=24)
    phones = {seat: push_service.browser() for seat in (0, 1)}
    for seat, phone in phones.items():
        subscribe(nclient, game, seat, phone)
    mover = move(nclient, game)
    waiting = 1 - mover if view(nclient, game, 0)["to_move"] != mover else None
    deliver(notify_app)
    to_move = view(nclient, game, 0)["to_move"]
    assert waiting is None or to_move == waiting
    [push] = push_service.to(phones[to_move])
    assert not push_service.to(phones[1 - to_move]), "the seat that is not to move hears nothing"

    claims = check_vapid(push["headers"]["authorization"], push_service.origin, public_key(nclient))
    assert claims["sub"] == "mailto:gin@play.test"
    headers = push["headers"]
    assert headers["content-encoding"] == "aes128gcm" and headers["urgency"] == "normal"
    assert headers["ttl"] == str(24 * 3600), "kept until the deadline (the test's clock stands still)"
    assert len(headers["topic"]) <= 32 and game["id"] not in headers["topic"]

    shown = phones[to_move].read(push["body"])
    names = {0: "Ann", 1: "Bob"}
    assert shown == {"title": f"Your turn: {names[to_move]} v {names[1 - to_move]}", "kind": "turn",
                     "game": game["id"], "version": view(nclient, game, to_move)["version"], "your_turn": True,
                     "deadline": view(nclient, game, to_move)["deadline"], "url": f"/play/{game['id']}",
                     "tag": f"gin-{game['id']}-{to_move}"}
    text = json.dumps(shown)
    for secret in game["tokens"].values():
        assert secret not in text
    for seat in (0, 1):  # no card of either hand, nor the pile's
        seen = view(nclient, game, seat)
        for card in seen["hand"] + seen.get("discard_pile", []):
            assert f'"{card}"' not in text and f" {card}" not in text
    assert push["body"].find(b"Your turn") == -1, "the push service carries ciphertext only"


def test_a_newer_turn_carries_the_same_topic_and_a_waiting_one_is_replaced(nclient, notify_app, push_service):
    game = start_game(nclient, move_time_hours=None)
    phone = push_service.browser()
    seat = view(nclient, game, 0)["to_move"]
    subscribe(nclient, game, 1 - seat, phone)
    until_turn_of(nclient, game, 1 - seat)
    deliver(notify_app)
    until_turn_of(nclient, game, 1 - seat)
    deliver(notify_app)
    first, second = push_service.to(phone)
    assert first["headers"]["topic"] == second["headers"]["topic"]
    assert phone.read(first["body"])["version"] < phone.read(second["body"])["version"]
    assert first["headers"]["ttl"] == second["headers"]["ttl"] == str(72 * 3600), "no deadline: PUSH_TTL_HOURS"

    # Two turns queued while the worker is away: the phone is sent the newest only.
    until_turn_of(nclient, game, 1 - seat)
    until_turn_of(nclient, game, 1 - seat)
    deliver(notify_app)
    assert len(push_service.to(phone)) == 3
    rows = outbox_rows(notify_app, channel="push")
    assert [row.status for row in rows[-2:]] == ["replaced", "sent"]
    newest = phone.read(push_service.to(phone)[-1]["body"])
    assert newest["version"] == view(nclient, game, 0)["version"]


def test_a_410_deletes_the_subscription_and_the_log_says_so(nclient, notify_app, push_service):
    game = start_game(nclient, move_time_hours=None)
    phone, laptop = push_service.browser(), push_service.browser()
    seat = view(nclient, game, 0)["to_move"]
    for browser in (phone, laptop):
        subscribe(nclient, game, 1 - seat, browser)
    push_service.gone.add(phone.endpoint)
    until_turn_of(nclient, game, 1 - seat)
    deliver(notify_app)
    assert len(push_service.to(phone)) == len(push_service.to(laptop)) == 1
    listed = nclient.get(f"/games/{game['id']}/push-subscriptions", headers=auth(game["tokens"][1 - seat]))
    assert [s["endpoint"] for s in listed.get_json()["subscriptions"]] == [laptop.endpoint]
    log = nclient.get(f"/games/{game['id']}/push-deliveries", headers=auth(game["tokens"][1 - seat])).get_json()
    by_status = {d["status"]: d for d in log["deliveries"]}
    assert by_status["dead"]["response_code"] == 410 and "deleted" in by_status["dead"]["last_error"]
    assert by_status["sent"]["response_code"] == 201 and by_status["sent"]["event"] == "turn"
    assert {d["push_service"] for d in log["deliveries"]} == {"127.0.0.1"}
    other = nclient.get(f"/games/{game['id']}/push-deliveries", headers=auth(game["tokens"][seat])).get_json()
    assert other["deliveries"] == []
    until_turn_of(nclient, game, 1 - seat)
    deliver(notify_app)
    assert len(push_service.to(phone)) == 1 and len(push_service.to(laptop)) == 2


def test_a_failing_push_service_is_retried(nclient, notify_app, push_service, clock):
    game = start_game(nclient, move_time_hours=None)
    phone = push_service.browser()
    seat = view(nclient, game, 0)["to_move"]
    subscribe(nclient, game, 1 - seat, phone)
    push_service.failing.add(phone.endpoint)
    until_turn_of(nclient, game, 1 - seat)
    deliver(notify_app)
    [row] = outbox_rows(notify_app, channel="push")
    assert row.status == "pending" and row.response_code == 503 and row.attempts == 1
    push_service.failing.clear()
    clock.advance(hours=1)
    deliver(notify_app)
    [row] = outbox_rows(notify_app, channel="push")
    assert row.status == "sent" and row.attempts == 2 and len(push_service.to(phone)) == 2


def test_push_mode_off_tells_the_seat_nothing_and_mail_still_goes(nclient, notify_app, push_service, mail_server):
    game = start_game(nclient, move_time_hours=None, contact0={"email": "ann@example.org"},
                      contact1={"email": "bob@example.org"})
    phones = {seat: push_service.browser() for seat in (0, 1)}
    for seat, phone in phones.items():
        subscribe(nclient, game, seat, phone)
        response = nclient.patch(f"/games/{game['id']}/contact", json={"push_mode": "off"},
                                 headers=auth(game["tokens"][seat]))
        assert response.status_code == 200 and response.get_json()["push_mode"] == "off"
    mail_server.catcher.clear()
    for _ in range(4):
        move(nclient, game)
    deliver(notify_app)
    assert push_service.received == [] and outbox_rows(notify_app, channel="push") == []
    assert mail_server.catcher.messages, "mail still goes: the two settings are apart (mail, push, both, none)"


def test_a_reminder_goes_by_push_with_high_urgency(nclient, notify_app, push_service, clock):
    game = start_game(nclient, move_time_hours=24)
    seat = view(nclient, game, 0)["to_move"]
    phone = push_service.browser()
    subscribe(nclient, game, seat, phone)
    clock.advance(hours=19)  # the reminder falls due at three quarters of the time
    with notify_app.app_context():
        assert sweep_clocks() == 1
    deliver(notify_app)
    [push] = push_service.to(phone)
    shown = phone.read(push["body"])
    assert shown["kind"] == "reminder" and shown["title"].startswith("Your turn, the deadline is near:")
    assert push["headers"]["urgency"] == "high" and push["headers"]["ttl"] == str(5 * 3600)


def test_a_players_browser_hears_every_seat_it_holds(nclient, notify_app, push_service):
    ann, bob = new_player(nclient, "Ann"), new_player(nclient, "Bob")
    phone = push_service.browser()
    response = nclient.post("/me/push-subscriptions", json=phone.subscription(), headers=auth(ann["token"]))
    assert response.status_code == 201, response.get_json()
    again = nclient.post("/me/push-subscriptions", json=phone.subscription(), headers=auth(ann["token"]))
    assert again.status_code == 200  # the same browser: known, its keys taken again
    game = accepted_game(nclient, ann, bob)  # a game made after the subscription
    ann_seat = game["seats"]["Ann"]
    for _ in range(6):
        if view(nclient, game, 0)["to_move"] == ann_seat and push_service.to(phone):
            break
        move(nclient, game)
        deliver(notify_app)
    [push, *_] = push_service.to(phone)
    shown = phone.read(push["body"])
    assert shown["title"] == "Your turn: Ann v Bob" and shown["url"] == f"/play/{game['id']}"
    listed = nclient.get("/me/push-subscriptions", headers=auth(ann["token"])).get_json()
    assert [s["endpoint"] for s in listed["subscriptions"]] == [phone.endpoint]
    # Rotating the token forgets the browsers it subscribed (a leaked token may have subscribed a stranger's).
    rotated = nclient.post("/me/token", headers=auth(ann["token"]))
    assert rotated.status_code == 200
    listed = nclient.get("/me/push-subscriptions", headers=auth(rotated.get_json()["token"])).get_json()
    assert listed["subscriptions"] == []


def test_unsubscribing_stops_the_pushes(nclient, notify_app, push_service):
    game = start_game(nclient, move_time_hours=None)
    phone = push_service.browser()
    seat = view(nclient, game, 0)["to_move"]
    subscribe(nclient, game, 1 - seat, phone)
    gone = nclient.delete(f"/games/{game['id']}/push-subscriptions", json={"endpoint": phone.endpoint},
                          headers=auth(game["tokens"][1 - seat]))
    assert gone.status_code == 204
    until_turn_of(nclient, game, 1 - seat)
    deliver(notify_app)
    assert push_service.received == []


