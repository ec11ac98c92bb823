"""Issue 38, item 5 (the server's part): one account held all of the house bot's games, none with a
move deadline, for ever. Now a player holds at most HOUSE_BOT_GAMES_PER_PLAYER games and challenges
with it at once, and every game with it has a move deadline, so a game left alone ends on time."""
from __future__ import annotations

from ..api.helpers import auth
from .support import new_player


def house_and(client, *names: str) -> tuple[dict, list[dict]]:
    house = new_player(client, "House", bot=True)  # from loopback: the house bot's own process
    return house, [new_player(client, name) for name in names]


def test_one_player_cannot_hold_all_of_the_house_bots_games(client, app, monkeypatch):
    monkeypatch.setitem(app.config, "HOUSE_BOT_GAMES_PER_PLAYER", 2)
    house, (eve, ann) = house_and(client, "Eve", "Ann")
    offers = [client.post("/challenges", json={"to": "House", "move_time_hours": None}, headers=auth(eve["token"]))
              for _ in range(3)]
    assert [o.status_code for o in offers] == [201, 201, 409]
    assert offers[2].get_json()["code"] == "house-bot-games-max"
    # The first one accepted: a game in play counts as the pending challenge did.
    accepted = client.post(f"/challenges/{offers[0].get_json()['challenge_id']}/accept", headers=auth(house["token"]))
    assert accepted.status_code == 201, accepted.get_json()
    again = client.post("/challenges", json={"to": "House"}, headers=auth(eve["token"]))
    assert again.status_code == 409 and again.get_json()["code"] == "house-bot-games-max"
    # Another player is served; cancelling frees a share.
    assert client.post("/challenges", json={"to": "House"}, headers=auth(ann["token"])).status_code == 201
    cancelled = client.post(f"/challenges/{offers[1].get_json()['challenge_id']}/cancel", headers=auth(eve["token"]))
    assert cancelled.status_code == 200
    assert client.post("/challenges", json={"to": "House"}, headers=auth(eve["token"])).status_code == 201
    # An open challenge the house bot takes counts too.
    opened = client.post("/challenges", json={"opponent": "bot"}, headers=auth(eve["token"])).get_json()
    taken = client.post(f"/challenges/{opened['challenge_id']}/accept", headers=auth(house["token"]))
    assert taken.status_code == 409 and taken.get_json()["code"] == "house-bot-games-max"


def test_a_game_with_the_house_bot_always_has_a_move_deadline(client, app):
    house, (eve,) = house_and(client, "Eve")
    offer = client.post("/challenges", json={"to": "House", "move_time_hours": None}, headers=auth(eve["token"]))
    assert offer.status_code == 201 and offer.get_json()["move_time_hours"] == 24
    game = client.post(f"/challenges/{offer.get_json()['challenge_id']}/accept", headers=auth(house["token"]))
    assert game.get_json()["game"]["deadline"] is not None
    # An open challenge without deadlines, taken by the house bot: the game gets one too.
    opened = client.post("/challenges", json={"opponent": "bot", "move_time_hours": None},
                         headers=auth(eve["token"])).get_json()
    taken = client.post(f"/challenges/{opened['challenge_id']}/accept", headers=auth(house["token"]))
    assert taken.status_code == 201 and taken.get_json()["challenge"]["move_time_hours"] == 24
    assert taken.get_json()["game"]["deadline"] is not None
    # Between people, no deadline stays no deadline.
    bob = new_player(client, "Bob")
    plain = client.post("/challenges", json={"to": "Eve", "move_time_hours": None}, headers=auth(bob["token"]))
    assert plain.get_json()["move_time_hours"] is None
