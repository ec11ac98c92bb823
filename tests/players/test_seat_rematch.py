"""A rematch between seats that are not both players' (issue 24: the end of every match offers the
next one): offered by one seat, which takes the new game's seat 0; accepted by the other with its
token of the finished game, which takes seat 1 and deals, the first deal to the other side."""
from __future__ import annotations

import yaml

from ..api.helpers import auth, new_game
from ..api.test_openapi import generated, spec_app, validator_for  # noqa: F401 (fixtures)
from .support import accepted_game, new_player


def resign(client, game: dict, seat: int) -> None:
    response = client.post(f"/games/{game['id']}/actions", json={"type": "resign"}, headers=auth(game["tokens"][seat]))
    assert response.status_code == 200 and response.get_json()["status"] == "finished", response.get_json()


def test_a_seat_offers_a_rematch_and_the_other_takes_it(client):
    game = new_game(client)
    early = client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0]))
    assert early.status_code == 409 and early.get_json()["code"] == "rematch-unavailable"  # not over yet
    resign(client, game, 1)
    before = client.get(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1])).get_json()
    assert before == {"available": True, "game_id": None, "offered_by": None, "accepted": False, "declined": False,
                      "reason": None}

    offered = client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0]))
    assert offered.status_code == 201, offered.get_json()
    ann = offered.get_json()
    assert ann["seat"] == 0 and ann["game"]["status"] == "waiting_for_opponent" and ann["game"]["players"][0]["name"] == "Ann"
    again = client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1]))
    assert again.status_code == 409 and again.get_json()["code"] == "rematch-unavailable"  # one per game
    own = client.post(f"/games/{game['id']}/seat-rematch/accept", headers=auth(game["tokens"][0]))
    assert own.status_code == 409  # the offering seat cannot accept its own offer
    seen = client.get(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1])).get_json()
    assert seen == {"available": True, "game_id": ann["game_id"], "offered_by": 0, "accepted": False, "declined": False,
                    "reason": None}

    accepted = client.post(f"/games/{game['id']}/seat-rematch/accept", headers=auth(game["tokens"][1]))
    assert accepted.status_code == 201, accepted.get_json()
    bob = accepted.get_json()
    assert bob["game_id"] == ann["game_id"] and bob["seat"] == 1 and bob["game"]["status"] == "active"
    assert [p["name"] for p in bob["game"]["players"]] == ["Ann", "Bob"]
    mine = client.get(f"/games/{ann['game_id']}", headers=auth(ann["token"])).get_json()
    assert mine["status"] == "active" and mine["hand_number"] == 1 and len(mine["hand"]) == 10
    twice = client.post(f"/games/{game['id']}/seat-rematch/accept", headers=auth(game["tokens"][1]))
    assert twice.status_code == 409 and twice.get_json()["code"] == "rematch-unavailable"
    done = client.get(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0])).get_json()
    assert done["accepted"] is True


def test_the_first_deal_goes_to_the_other_side(client, app):
    from service.core.extensions import db
    from service.games.models import Game
    game = new_game(client)
    resign(client, game, 0)
    with app.app_context():
        old_dealer = db.session.get(Game, game["id"]).first_dealer
    ann = client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1])).get_json()  # Bob offers
    client.post(f"/games/{game['id']}/seat-rematch/accept", headers=auth(game["tokens"][0]))
    with app.app_context():
        new_dealer = db.session.get(Game, ann["game_id"]).first_dealer
    # Bob is seat 0 of the rematch, Ann seat 1: the one who did not deal first before deals now.
    person_before = ["Ann", "Bob"][old_dealer]
    person_now = ["Bob", "Ann"][new_dealer]
    assert person_now != person_before


def test_between_players_the_rematch_is_a_challenge(client):
    game = accepted_game(client, new_player(client, "Ann"), new_player(client, "Bob"))
    resign(client, {"id": game["id"], "tokens": game["tokens"]}, 0)
    status = client.get(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1])).get_json()
    assert status["available"] is False
    refused = client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "rematch-unavailable"
    assert "/rematch" in refused.get_json()["detail"]  # it says where the players' rematch is


def test_the_other_seat_declines_a_seat_rematch_with_or_without_a_reason(client, generated):  # noqa: F811
    """Issue 38: a seat rematch can be declined (a reason code optional, as a challenge's): then neither
    seat takes it up, and every wrong decline is a problem+json saying which."""
    game = new_game(client)
    resign(client, game, 1)
    path = f"/games/{game['id']}/seat-rematch/decline"
    none = client.post(path, headers=auth(game["tokens"][1]))
    assert none.status_code == 409 and none.get_json()["code"] == "rematch-not-offered"
    assert none.mimetype == "application/problem+json"
    client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0]))
    own = client.post(path, headers=auth(game["tokens"][0]))
    assert own.status_code == 409 and own.get_json()["code"] == "rematch-own-offer"
    bad = client.post(path, json={"reason": "bored"}, headers=auth(game["tokens"][1]))
    assert bad.status_code == 422 and bad.get_json()["code"] == "validation-error"
    assert client.post(path, headers=auth("x" * 43)).get_json()["code"] == "invalid-token"

    declined = client.post(path, json={"reason": "busy"}, headers=auth(game["tokens"][1]))
    assert declined.status_code == 200, declined.get_json()
    body = declined.get_json()
    validator_for(yaml.safe_load(generated), "SeatRematch").validate(body)
    assert body["declined"] is True and body["reason"] == "busy" and body["accepted"] is False
    seen = client.get(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0])).get_json()
    assert seen == body
    again = client.post(path, headers=auth(game["tokens"][1]))
    assert again.status_code == 409 and again.get_json()["code"] == "rematch-answered"
    taken = client.post(f"/games/{game['id']}/seat-rematch/accept", headers=auth(game["tokens"][1]))
    assert taken.status_code == 409 and taken.get_json()["code"] == "rematch-unavailable"  # declined: gone

    other = new_game(client)  # no body at all: declined without a reason; after an acceptance: answered
    resign(client, other, 0)
    client.post(f"/games/{other['id']}/seat-rematch", headers=auth(other["tokens"][1]))
    bare = client.post(f"/games/{other['id']}/seat-rematch/decline", headers=auth(other["tokens"][0]))
    assert bare.status_code == 200 and bare.get_json()["reason"] is None and bare.get_json()["declined"] is True
    third = new_game(client)
    resign(client, third, 0)
    client.post(f"/games/{third['id']}/seat-rematch", headers=auth(third["tokens"][1]))
    assert client.post(f"/games/{third['id']}/seat-rematch/accept", headers=auth(third["tokens"][0])).status_code == 201
    late = client.post(f"/games/{third['id']}/seat-rematch/decline", headers=auth(third["tokens"][0]))
    assert late.status_code == 409 and late.get_json()["code"] == "rematch-answered"
