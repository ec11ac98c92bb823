"""Challenges: to a named player or open, accepted into a dealt game with both seats bound,
declined with a reason, cancelled, expired; to oneself and to unknown names refused; bad input
on every field a problem that changes nothing. Each step is on the players' streams."""
from __future__ import annotations

from datetime import timedelta

import pytest

from ..api.helpers import auth
from .support import accepted_game, challenge, events_of, new_player
from .test_players import count


def test_accepting_makes_a_dealt_game_with_both_seats_bound(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    offer = challenge(client, ann, "Bob", rules={"preset": "oklahoma", "target": 150}, move_time_hours=24)
    assert offer["status"] == "pending" and offer["to"] == "Bob" and offer["from"] == "Ann"
    listed = client.get("/challenges", headers=auth(bob["token"])).get_json()
    assert [c["challenge_id"] for c in listed["to_me"]] == [offer["challenge_id"]]
    assert client.get("/challenges", headers=auth(ann["token"])).get_json()["mine"][0]["challenge_id"] == \
        offer["challenge_id"]
    accepted = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"]))
    assert accepted.status_code == 201
    body = accepted.get_json()
    assert body["challenge"]["status"] == "accepted" and body["challenge"]["game_id"] == body["game_id"]
    assert body["game"]["status"] == "active" and len(body["game"]["hand"]) == 10
    assert body["game"]["rules"]["preset"] == "oklahoma"
    for player, seat in ((bob, body["seat"]), (ann, 1 - body["seat"])):
        view = client.get(f"/games/{body['game_id']}", headers=auth(player["token"])).get_json()
        assert view["seat"] == seat
    assert {p["name"] for p in body["game"]["players"]} == {"Ann", "Bob"}
    assert client.get("/challenges", headers=auth(bob["token"])).get_json()["to_me"] == []
    ann_events = [e["type"] for e in events_of(app, ann)]
    bob_events = [e["type"] for e in events_of(app, bob)]
    assert ann_events[:2] == ["challenge_accepted", "game_started"]
    assert bob_events[:2] == ["challenge_received", "game_started"]
    to_move = body["game"]["to_move"]
    mover = bob if to_move == body["seat"] else ann
    turn = [e for e in events_of(app, mover) if e["type"] == "your_turn"]
    assert len(turn) == 1 and turn[0]["view"]["hand"] == client.get(
        f"/games/{body['game_id']}", headers=auth(mover["token"])).get_json()["hand"]


def test_accepting_twice_is_refused(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    again = client.post(f"/challenges/{game['answer']['challenge']['challenge_id']}/accept",
                        headers=auth(bob["token"]))
    assert again.status_code == 409 and again.get_json()["code"] == "challenge-closed"


def test_an_open_challenge_is_taken_by_anyone_but_its_maker(client):
    ann, bob, cat = (new_player(client, name) for name in ("Ann", "Bob", "Cat"))
    offer = challenge(client, ann, None)
    assert offer["to"] is None
    assert [c["challenge_id"] for c in client.get("/challenges", headers=auth(cat["token"])).get_json()["open"]] == \
        [offer["challenge_id"]]
    own = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(ann["token"]))
    assert own.status_code == 422 and own.get_json()["code"] == "challenge-to-self"
    assert client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(cat["token"])).status_code == 201
    late = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"]))
    assert late.status_code == 409 and late.get_json()["code"] == "challenge-closed"


def test_bots_only_and_humans_only(client, app):
    ann, bot, bob = new_player(client, "Ann"), new_player(client, "Robot", bot=True), new_player(client, "Bob")
    bots_only = challenge(client, ann, None, opponent="bot")
    assert client.get("/challenges", headers=auth(bob["token"])).get_json()["open"] == []
    refused = client.post(f"/challenges/{bots_only['challenge_id']}/accept", headers=auth(bob["token"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "opponent-kind-mismatch"
    assert client.post(f"/challenges/{bots_only['challenge_id']}/accept", headers=auth(bot["token"])).status_code == 201
    named = client.post("/challenges", json={"to": "Robot", "opponent": "human"}, headers=auth(ann["token"]))
    assert named.status_code == 422 and named.get_json()["code"] == "unknown-player"  # as for an unknown name


def test_declining_tells_the_challenger_the_reason(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    offer = challenge(client, ann, "Bob")
    declined = client.post(f"/challenges/{offer['challenge_id']}/decline", json={"reason": "busy"},
                           headers=auth(bob["token"]))
    assert declined.status_code == 200 and declined.get_json()["status"] == "declined"
    assert declined.get_json()["reason"] == "busy"
    assert [(e["type"], e.get("reason")) for e in events_of(app, ann)] == [("challenge_declined", "busy")]
    accept = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"]))
    assert accept.get_json()["code"] == "challenge-closed" and count(app, "games") == 0


def test_only_the_challenged_declines_and_only_the_challenger_cancels(client, app):
    ann, bob, cat = (new_player(client, name) for name in ("Ann", "Bob", "Cat"))
    offer = challenge(client, ann, "Bob")
    for who in (ann, cat):
        response = client.post(f"/challenges/{offer['challenge_id']}/decline", json={"reason": "busy"},
                               headers=auth(who["token"]))
        assert response.status_code == 404 and response.get_json()["code"] == "challenge-not-found"
    for who in (bob, cat):
        response = client.post(f"/challenges/{offer['challenge_id']}/cancel", headers=auth(who["token"]))
        assert response.status_code == 404 and response.get_json()["code"] == "challenge-not-found"
    # someone else's challenge to a third player is not there at all for Cat
    assert client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(cat["token"])).status_code == 404
    cancelled = client.post(f"/challenges/{offer['challenge_id']}/cancel", headers=auth(ann["token"]))
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"
    assert [e["type"] for e in events_of(app, bob)] == ["challenge_received", "challenge_cancelled"]
    accept = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"]))
    assert accept.status_code == 409 and accept.get_json()["code"] == "challenge-closed"


def test_challenges_expire(client, app):
    from service.core.extensions import db
    from service.players.models import Challenge
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    offer = challenge(client, ann, "Bob", expires_in_hours=1)
    with app.app_context():  # an hour and a second later
        row = db.session.get(Challenge, offer["challenge_id"])
        row.expires_at = row.created_at - timedelta(seconds=1)
        db.session.commit()
    assert client.get("/challenges", headers=auth(bob["token"])).get_json()["to_me"] == []
    for action, body in (("accept", None), ("decline", {"reason": "busy"})):
        response = client.post(f"/challenges/{offer['challenge_id']}/{action}", json=body, headers=auth(bob["token"]))
        assert response.status_code == 410 and response.get_json()["code"] == "challenge-expired", action
    response = client.post(f"/challenges/{offer['challenge_id']}/cancel", headers=auth(ann["token"]))
    assert response.status_code == 410
    assert count(app, "games") == 0


def test_to_oneself_and_to_an_unknown_name(client, app):
    ann = new_player(client, "Ann")
    own = client.post("/challenges", json={"to": "ANN"}, headers=auth(ann["token"]))
    assert own.status_code == 422 and own.get_json()["code"] == "challenge-to-self"
    unknown = client.post("/challenges", json={"to": "Nobody"}, headers=auth(ann["token"]))
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "unknown-player"
    assert count(app, "challenges") == 0


@pytest.mark.parametrize("body,code", [
    ({"to": ""}, "validation-error"), ({"to": 5}, "validation-error"), ({"to": "x" * 41}, "validation-error"),
    ({"to": "a\x00b"}, "validation-error"), ({"rules": "standard"}, "validation-error"),
    ({"rules": {"preset": "nope"}}, "invalid-option"), ({"rules": {"knock_limit": 99}}, "invalid-option"),
    ({"move_time_hours": 0}, "validation-error"), ({"move_time_hours": "3"}, "validation-error"),
    ({"opponent": "alien"}, "validation-error"), ({"expires_in_hours": 0}, "validation-error"),
    ({"expires_in_hours": 10_000}, "validation-error"), ({"expires_in_hours": 1.5}, "validation-error"),
    ({"colour": "red"}, "validation-error"),
])
def test_bad_challenge_input_is_a_problem_and_changes_nothing(client, app, body, code):
    ann = new_player(client, "Ann")
    new_player(client, "Bob")
    response = client.post("/challenges", json=body, headers=auth(ann["token"]))
    assert response.get_json()["code"] == code and response.mimetype == "application/problem+json"
    assert count(app, "challenges") == 0 and count(app, "player_events") == 0


@pytest.mark.parametrize("body", [{}, {"reason": "bored"}, {"reason": 1}, {"reason": "busy", "more": 1}])
def test_bad_decline_input_is_a_problem_and_changes_nothing(client, app, body):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    offer = challenge(client, ann, "Bob")
    response = client.post(f"/challenges/{offer['challenge_id']}/decline", json=body, headers=auth(bob["token"]))
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"
    assert client.get("/challenges", headers=auth(bob["token"])).get_json()["to_me"][0]["status"] == "pending"


@pytest.mark.parametrize("challenge_id", ["nope", "a" * 65, "%00", "x y"])
def test_unknown_challenge_ids(client, challenge_id):
    ann = new_player(client, "Ann")
    response = client.post(f"/challenges/{challenge_id}/accept", headers=auth(ann["token"]))
    assert response.status_code == 404 and response.get_json()["code"] == "challenge-not-found"


def test_challenges_need_a_player_token(client):
    for path in ("/challenges", "/challenges/x/accept", "/challenges/x/cancel"):
        response = client.post(path, json={})
        assert response.status_code == 401 and response.get_json()["code"] == "invalid-token", path
