"""POST /games/{id}/actions: the engine decides; preconditions, idempotency, rule errors."""
from __future__ import annotations

from service.core.extensions import db
from service.games.models import Event, IdempotencyRecord

from .helpers import act, auth, create, mover, new_game, stored_game, view


def to_discard_phase(client, game):
    """Play the upcard offer so that a seat is to discard; returns (seat, view)."""
    seat, seen = mover(client, game)
    response = act(client, game, seat, {"type": "take_upcard"})
    assert response.status_code == 200, response.get_json()
    return seat, response.get_json()


def test_an_action_answers_the_new_view_with_its_etag(client, app):
    game = new_game(client)
    seat, before = mover(client, game)
    response = act(client, game, seat, {"type": "take_upcard"})
    assert response.status_code == 200
    after = response.get_json()
    assert after["version"] == before["version"] + 1
    assert response.headers["ETag"] == f'"{after["version"]}"'
    assert after["phase"] == "discard" and len(after["hand"]) == 11
    assert before["discard_pile"][-1] in after["hand"]
    assert stored_game(app, game["id"]).version == after["version"]
    # The arrangement helps: with 11 cards the view suggests the best discard.
    assert after["arrangement"]["best_discard"] in after["hand"]


def test_every_listed_legal_action_is_accepted_as_is(client):
    for index in range(2):  # take the upcard, or pass it
        game = new_game(client)
        seat, seen = mover(client, game)
        assert act(client, game, seat, seen["legal_actions"][index]).status_code == 200
    game = new_game(client)
    seat, seen = to_discard_phase(client, game)
    for action in seen["legal_actions"]:
        assert action["type"] in ("discard", "knock", "big_gin")
    discard = next(a for a in seen["legal_actions"] if a["type"] == "discard")
    assert act(client, game, seat, discard).status_code == 200


def test_not_your_turn_is_409_and_changes_nothing(client, app):
    game = new_game(client)
    seat, seen = mover(client, game)
    response = act(client, game, 1 - seat, {"type": "take_upcard"})
    assert response.status_code == 409
    problem = response.get_json()
    assert problem["code"] == "not-your-turn" and "upcard" in problem["detail"]
    assert stored_game(app, game["id"]).version == seen["version"]


def test_rule_errors_are_422_naming_card_and_phase(client, app):
    game = new_game(client)
    seat, seen = to_discard_phase(client, game)
    opponent_view = view(client, game, 1 - seat)
    not_mine = opponent_view["hand"][0]
    cases = [
        ({"type": "discard", "card": not_mine}, "card-not-in-hand", not_mine),
        ({"type": "draw", "from": "stock"}, "wrong-phase", "discard"),
    ]
    taken_card = next(c for c in seen["hand"] if {"type": "discard", "card": c} not in seen["legal_actions"])
    cases.append(({"type": "discard", "card": taken_card}, "cannot-discard-taken-card", taken_card))
    if seen["arrangement"]["deadwood_points"] > 0:  # else the 11 cards are a Big Gin
        cases.append(({"type": "big_gin"}, "big-gin-not-allowed", "Big Gin"))
    for action, code, named in cases:
        response = act(client, game, seat, action)
        assert response.status_code == 422, (action, response.get_json())
        problem = response.get_json()
        assert problem["code"] == code and named in problem["detail"], problem
    assert stored_game(app, game["id"]).version == seen["version"]


def test_knock_over_the_limit_and_bad_melds_are_refused(client):
    game = new_game(client, rules={"knock_limit": 0})  # only gin may knock
    seat, seen = to_discard_phase(client, game)
    card = next(a["card"] for a in seen["legal_actions"] if a["type"] == "discard")  # not the taken card
    if seen["arrangement"]["deadwood_after_discard"] > 0:  # else the dealt hand is gin already
        response = act(client, game, seat, {"type": "knock", "discard": card})
        assert response.status_code == 422 and response.get_json()["code"] == "deadwood-over-limit"
        assert card in response.get_json()["detail"]
    others = [c for c in seen["hand"] if c != card]
    response = act(client, game, seat, {"type": "knock", "discard": card, "melds": [others[:2]]})
    assert response.status_code == 422 and response.get_json()["code"] == "invalid-meld"


def test_straight_gin_refuses_knocking(client):
    game = new_game(client, rules={"preset": "straight"})
    seat, seen = to_discard_phase(client, game)
    card = next(a["card"] for a in seen["legal_actions"] if a["type"] == "discard")
    if seen["arrangement"]["deadwood_after_discard"] > 0:  # else the dealt hand is gin already
        assert not any(a["type"] == "knock" for a in seen["legal_actions"])
        response = act(client, game, seat, {"type": "knock", "discard": card})
        assert response.status_code == 422
        assert response.get_json()["code"] == "knocking-not-allowed"
        assert card in response.get_json()["detail"]


def test_malformed_actions_are_400_invalid_action(client, app):
    game = new_game(client)
    seat, seen = mover(client, game)
    for body in ({"type": "fly"}, {}, {"type": "discard"}, {"type": "discard", "card": "ZZ"},
                 {"type": "draw", "from": "sky"}, {"type": "pass", "extra": 1}, ["pass"], "pass"):
        response = act(client, game, seat, body)
        assert response.status_code == 400, body
        assert response.get_json()["code"] == "invalid-action"
    assert stored_game(app, game["id"]).version == seen["version"]


def test_actions_before_the_opponent_joins_are_409(client):
    created = create(client)
    response = client.post(f"/games/{created['game_id']}/actions", json={"type": "pass"},
                           headers=auth(created["token"]))
    assert response.status_code == 409 and response.get_json()["code"] == "game-not-started"


def test_if_match_stale_is_412_and_current_is_applied(client, app):
    game = new_game(client)
    seat, seen = mover(client, game)
    stale = act(client, game, seat, {"type": "pass"}, **{"If-Match": '"1"'})
    assert stale.status_code == 412 and stale.get_json()["code"] == "version-mismatch"
    assert stored_game(app, game["id"]).version == seen["version"]
    fresh = act(client, game, seat, {"type": "pass"}, **{"If-Match": f'"{seen["version"]}"'})
    assert fresh.status_code == 200 and fresh.get_json()["version"] == seen["version"] + 1
    # If-Match is optional: without it the move is judged on the current state.
    seat, seen = mover(client, game)
    assert act(client, game, seat, seen["legal_actions"][0]).status_code == 200


def test_idempotency_key_replays_the_first_answer_and_applies_once(client, app):
    game = new_game(client)
    seat, seen = mover(client, game)
    key = {"Idempotency-Key": "move-1"}
    first = act(client, game, seat, {"type": "take_upcard"}, **key)
    again = act(client, game, seat, {"type": "take_upcard"}, **key)
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json() and again.headers["ETag"] == first.headers["ETag"]
    assert stored_game(app, game["id"]).version == seen["version"] + 1
    with app.app_context():
        taken = db.session.query(Event).filter_by(game_id=game["id"], type="take_upcard").count()
        assert taken == 1
    # A retry with a stale If-Match still gets its first answer: it was applied.
    replay = act(client, game, seat, {"type": "take_upcard"}, **key, **{"If-Match": f'"{seen["version"]}"'})
    assert replay.status_code == 200 and replay.get_json() == first.get_json()
    # The same key with another body is refused and changes nothing.
    other = act(client, game, seat, {"type": "discard", "card": first.get_json()["hand"][0]}, **key)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency-key-reused"
    assert stored_game(app, game["id"]).version == seen["version"] + 1


def test_idempotency_keys_are_per_seat(client, app):
    game = new_game(client)
    seat, _ = mover(client, game)
    assert act(client, game, seat, {"type": "pass"}, **{"Idempotency-Key": "k"}).status_code == 200
    other = act(client, game, 1 - seat, {"type": "pass"}, **{"Idempotency-Key": "k"})
    assert other.status_code == 200 and other.get_json()["seat"] == 1 - seat
    with app.app_context():
        assert db.session.query(IdempotencyRecord).filter_by(game_id=game["id"]).count() == 2


def test_failed_requests_are_not_remembered_and_may_be_retried(client):
    game = new_game(client)
    seat, _ = mover(client, game)
    key = {"Idempotency-Key": "try"}
    assert act(client, game, 1 - seat, {"type": "pass"}, **key).status_code == 409
    assert act(client, game, seat, {"type": "pass"}, **key).status_code == 200


def test_bad_idempotency_key_is_a_validation_error(client):
    game = new_game(client)
    seat, _ = mover(client, game)
    response = act(client, game, seat, {"type": "pass"}, **{"Idempotency-Key": "x" * 201})
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"
    assert "Idempotency-Key" in response.get_json()["errors"]


def test_resign_ends_the_match_and_then_game_over(client, app):
    game = new_game(client)
    seat, _ = mover(client, game)
    response = act(client, game, 1 - seat, {"type": "resign"})  # either seat, any time
    assert response.status_code == 200
    final = response.get_json()
    assert final["status"] == "finished" and final["result"]["winner"] == seat
    assert final["revealed_deals"][0]["hand"] == 1  # the hand is over: its deck is public
    late = act(client, game, seat, {"type": "pass"})
    assert late.status_code == 409 and late.get_json()["code"] == "game-over"
    assert stored_game(app, game["id"]).status == "finished"
