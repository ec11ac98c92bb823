"""The house bot's level (issue 29): asked for in the challenge (1-5, default 3), kept with it and
with the game, shown on the house bot's seat in every view (the your_turn event's too, which is how
the account bot learns it); a level for anyone but the house bot, or out of range, is refused
and changes nothing."""
from __future__ import annotations

import pytest

from ..api.helpers import auth
from .support import accepted_game, challenge, events_of, new_player, play_one, play_to_the_end
from .test_players import count


def _players_of(client, game: dict, seat: int) -> list[dict]:
    return client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).get_json()["players"]


def test_the_level_goes_from_the_challenge_to_both_seats_views_and_the_bots_stream(client, app):
    ann, house = new_player(client, "Ann"), new_player(client, "House", bot=True)
    game = accepted_game(client, ann, house, level=4, rules={"target": 25})
    assert game["answer"]["challenge"]["level"] == 4
    bot_seat = game["seats"]["House"]
    expected = [{"seat": s, "name": n, **({"level": 4} if s == bot_seat else {})}
                for s, n in sorted((seat, name) for name, seat in game["seats"].items())]
    assert _players_of(client, game, 0) == expected and _players_of(client, game, 1) == expected
    play_one(client, game)  # the move path builds the views itself: the level is there too
    assert _players_of(client, game, 1 - bot_seat) == expected
    turns = [e for e in events_of(app, house) if e["type"] == "your_turn"]
    assert turns and all(e["view"]["players"][bot_seat]["level"] == 4 for e in turns)
    mine = client.get("/challenges", headers=auth(ann["token"])).get_json()
    assert mine["mine"] == []  # accepted: no longer pending


def test_the_level_is_3_unless_asked_and_only_the_house_bots_seat_has_one(client):
    ann, house = new_player(client, "Ann"), new_player(client, "House", bot=True)
    offer = challenge(client, ann, "House")
    assert offer["level"] == 3
    bob = new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    assert game["answer"]["challenge"]["level"] is None
    assert all("level" not in p for p in _players_of(client, game, 0))


def test_a_rematch_with_the_house_bot_keeps_its_level(client):
    ann, house = new_player(client, "Ann"), new_player(client, "House", bot=True)
    game = accepted_game(client, ann, house, level=5, rules={"target": 10})
    play_to_the_end(client, game)
    seat = game["seats"]["Ann"]
    offer = client.post(f"/games/{game['id']}/rematch", headers=auth(ann["token"]))
    assert offer.status_code == 201, offer.get_json()
    assert offer.get_json()["level"] == 5


@pytest.mark.parametrize("to,level,code", [
    ("Bob", 2, "level-not-house-bot"),  # a person
    ("Robo", 2, "level-not-house-bot"),  # a bot, but not the house bot
    (None, 4, "level-not-house-bot"),  # an open challenge
    ("House", 0, "validation-error"),
    ("House", 6, "validation-error"),
    ("House", "4", "validation-error"),
    ("House", True, "validation-error"),
])
def test_a_level_out_of_place_or_range_is_refused_and_changes_nothing(client, app, to, level, code):
    ann = new_player(client, "Ann")
    new_player(client, "Bob"), new_player(client, "Robo", bot=True), new_player(client, "House", bot=True)
    response = client.post("/challenges", json={"to": to, "level": level}, headers=auth(ann["token"]))
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["code"] == code and response.mimetype == "application/problem+json"
    assert count(app, "challenges") == 0


def test_the_replay_names_the_house_bots_seat_with_its_level(client):
    """Issue 38: the replay names the seats as the views do, so its page can say "House (level 2)"."""
    ann, house = new_player(client, "Ann"), new_player(client, "House", bot=True)
    game = accepted_game(client, ann, house, level=2, rules={"target": 10})
    play_to_the_end(client, game)
    bot_seat = game["seats"]["House"]
    replay = client.get(f"/games/{game['id']}/replay", headers=auth(game["tokens"][1 - bot_seat]))
    assert replay.status_code == 200, replay.get_json()
    assert replay.get_json()["players"] == _players_of(client, game, 1 - bot_seat)
    assert replay.get_json()["players"][bot_seat] == {"seat": bot_seat, "name": "House", "level": 2}
    assert "level" not in replay.get_json()["players"][1 - bot_seat]
