"""A rematch between seats that are not both players' (issue 24: the end of every match offers the
next one): offered by one seat, which takes the new game's seat 0; accepted by the other with its
token of the finished game, which takes seat 1 and deals, the first deal to the other side."""
from __future__ import annotations

from ..api.helpers import auth, new_game
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
    assert before == {"available": True, "game_id": None, "offered_by": None, "accepted": False}

    offered = client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0]))
    assert offered.status_code == 201, offered.get_json()
    ann = offered.get_json()
    assert ann["seat"] == 0 and ann["game"]["status"] == "waiting_for_opponent" and ann["game"]["players"][0]["name"] == "Ann"
    again = client.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1]))
    assert again.status_code == 409 and again.get_json()["code"] == "rematch-unavailable"  # one per game
    own = client.post(f"/games/{game['id']}/seat-rematch/accept", headers=auth(game["tokens"][0]))
    assert own.status_code == 409  # the offering seat cannot accept its own offer
    seen = client.get(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][1])).get_json()
    assert seen == {"available": True, "game_id": ann["game_id"], "offered_by": 0, "accepted": False}

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
