"""Helpers for the players' tests: accounts, challenges accepted into games, moves by player token."""
from __future__ import annotations

from ..api.helpers import auth, choose


def new_player(client, name: str, bot: bool = False) -> dict:
    """{"name", "token", "id"} of a new player."""
    response = client.post("/players", json={"name": name, "bot": bot})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return {"name": name, "token": body["token"], "id": body["player"]["id"]}


def challenge(client, challenger: dict, to: str | None, **fields) -> dict:
    response = client.post("/challenges", json={"to": to, **fields}, headers=auth(challenger["token"]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def accepted_game(client, ann: dict, bob: dict, **fields) -> dict:
    """A game made by Bob accepting Ann's challenge: {"id", "seats": {player name: seat}, "tokens": {seat: token}}."""
    offer = challenge(client, ann, bob["name"], **fields)
    response = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"]))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    seats = {bob["name"]: body["seat"], ann["name"]: 1 - body["seat"]}
    return {"id": body["game_id"], "seats": seats,
            "tokens": {seats[ann["name"]]: ann["token"], seats[bob["name"]]: bob["token"]}, "answer": body}


def play_one(client, game: dict) -> dict:
    """The seat to move plays the simple policy's choice, by player token; returns the new view."""
    seat0 = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()
    seat = seat0["to_move"]
    view = seat0 if seat == 0 else client.get(f"/games/{game['id']}", headers=auth(game["tokens"][1])).get_json()
    response = client.post(f"/games/{game['id']}/actions", json=choose(view), headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play_to_the_end(client, game: dict, limit: int = 3000) -> dict:
    for _ in range(limit):
        view = play_one(client, game)
        if view["status"] == "finished":
            return view
    raise AssertionError("the match did not end")


def events_of(app, player: dict) -> list[dict]:
    """The player's stream as stored, in order."""
    from service.core.extensions import db
    from service.players import feed
    with app.app_context():
        return feed.events_after(db.session.connection(), player["id"], 0, 10_000)
