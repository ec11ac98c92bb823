"""Hints (issue 41): the best option at the seat's decision now, in unrated games against the house
bot; refused with a clear code in rated games, in games between people, in tournaments, and when the
seat has no decision to make; each hint asked is counted on the game."""
from __future__ import annotations

import pytest

from service.coach.models import HintAsked
from service.core.extensions import db

from ..api.helpers import auth
from ..players.support import accepted_game, new_player


@pytest.fixture
def cheap(app, monkeypatch):
    monkeypatch.setitem(app.config, "COACH_DEALS", 4)
    return app


def _hint(client, game, seat):
    return client.get(f"/games/{game['id']}/hint", headers=auth(game["tokens"][seat]))


def _to_move(client, game):
    return client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["to_move"]


def test_an_unrated_game_against_the_house_bot_gets_the_best_option_from_the_seats_view(client, cheap):
    ann, house = new_player(client, "Ann"), new_player(client, "House", bot=True)
    game = accepted_game(client, ann, house, level=3, rated=False, rules={"target": 25})
    seat = _to_move(client, game)
    answer = _hint(client, game, seat)
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    view = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).get_json()
    assert body["best"] in view["legal_actions"] and body["best"] == body["options"][0]["action"]
    assert body["deals"] == 4 and body["seat"] == seat
    idle = _hint(client, game, 1 - seat)
    assert idle.status_code == 409 and idle.get_json()["code"] == "no-decision-now"
    with cheap.app_context():
        assert db.session.get(HintAsked, (game["id"], seat)).count == 1  # the game records hints were on


def test_no_hint_in_a_rated_game(client, cheap):
    ann, house = new_player(client, "Ann"), new_player(client, "House", bot=True)
    game = accepted_game(client, ann, house, level=3, rules={"target": 25})
    refused = _hint(client, game, _to_move(client, game))
    assert refused.status_code == 403 and refused.get_json()["code"] == "hints-in-rated-game"


def test_no_hint_between_people_nor_with_a_wrong_token(client, cheap):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob, rated=False, rules={"target": 25})
    refused = _hint(client, game, _to_move(client, game))
    assert refused.status_code == 403 and refused.get_json()["code"] == "hints-off"
    wrong = client.get(f"/games/{game['id']}/hint", headers=auth("x" * 43))
    assert wrong.status_code == 401 and wrong.get_json()["code"] == "invalid-token"


def test_tournaments_refuse_hints_through_the_coachs_hook(app):
    from service.coach.hints import hint_refusers
    from service.tournaments.describe import refuse_hints
    assert refuse_hints in hint_refusers()
    with app.app_context():
        assert refuse_hints("no-such-game") is None


def _game_with_hints(client, creator: bool, joiner: bool) -> dict:
    created = client.post("/games", json={"name": "Ann", "rules": {"target": 25}, "hints": creator}).get_json()
    joined = client.post(f"/games/{created['game_id']}/join",
                         json={"invite_code": created["invite_code"], "name": "Bob", "hints": joiner})
    assert joined.status_code == 201, joined.get_json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined.get_json()["token"]}}


def test_hints_are_on_where_both_seats_asked_for_them_as_they_sat_down(client, cheap):
    game = _game_with_hints(client, True, True)
    answer = _hint(client, game, _to_move(client, game))
    assert answer.status_code == 200 and answer.get_json()["best"]["type"] in ("take_upcard", "pass")
    one = _game_with_hints(client, True, False)
    refused = _hint(client, one, _to_move(client, one))
    assert refused.status_code == 403 and refused.get_json()["code"] == "hints-off"
