"""What the browser tests do over the API beside the pages: a call, a started two-seat game or
table, and moves by the tests' simple policy."""
from __future__ import annotations

import requests

from tests.api.helpers import choose
from tests.api.table_helpers import mover_and_action


def api(site, method: str, path: str, token: str | None = None, body=None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.request(method, site.base_url + path, json=body, headers=headers, timeout=30)
    assert response.status_code in (200, 201), response.text
    return response.json()


def two_seats(site, rules: dict | None = None) -> tuple[str, dict[int, str]]:
    """A game Ann created and Bob joined (so dealt): its id and the seats' tokens."""
    created = api(site, "POST", "/games", body={"name": "Ann", **({"rules": rules} if rules else {})})
    joined = api(site, "POST", f"/games/{created['game_id']}/join",
                 body={"name": "Bob", "invite_code": created["invite_code"]})
    return created["game_id"], {0: created["token"], 1: joined["token"]}


def play_until(site, game_id: str, tokens: dict[int, str], done) -> dict:
    """Moves by the tests' simple policy until done(seat 0's view); returns that view."""
    for _ in range(3000):
        view = api(site, "GET", f"/games/{game_id}", tokens[0])
        if done(view):
            return view
        seat = view["to_move"]
        mine = view if seat == 0 else api(site, "GET", f"/games/{game_id}", tokens[1])
        api(site, "POST", f"/games/{game_id}/actions", tokens[seat], choose(mine))
    raise AssertionError("the match did not get there")


def new_player(site, name: str, bot: bool = False) -> dict:
    """{"name", "token"} of a new player account."""
    return {"name": name, "token": api(site, "POST", "/players", body={"name": name, "bot": bot})["token"]}


def rated_match(site, winner: dict, loser: dict) -> str:
    """A rated match between two players (a challenge accepted), which the loser resigns once the first
    hand has ended: rated as a loss. Returns the game's id."""
    offer = api(site, "POST", "/challenges", winner["token"], {"to": loser["name"], "rules": {"target": 500}})
    accepted = api(site, "POST", f"/challenges/{offer['challenge_id']}/accept", loser["token"])
    game_id, loser_seat = accepted["game_id"], accepted["seat"]
    tokens = {loser_seat: loser["token"], 1 - loser_seat: winner["token"]}
    play_until(site, game_id, tokens, lambda view: view["last_hand"] is not None)
    api(site, "POST", f"/games/{game_id}/actions", loser["token"], {"type": "resign"})
    return game_id


def settle_rating(site, name: str, value: float, games: int = 12) -> None:
    """Put a player on the leaderboard at once (enough rated matches, a settled deviation)."""
    from service.core.extensions import db
    from service.players import accounts
    with site.app.app_context():
        player = accounts.by_name(name)
        player.rating, player.rating_deviation, player.rated_games = value, 60.0, games
        db.session.commit()
def full_table(site, seats: int, rules: dict | None = None) -> tuple[str, dict[int, str]]:
    """A table Ann created and P1, P2.. joined (so dealt): its id and every seat's token."""
    created = api(site, "POST", "/games", body={"name": "Ann", "seats": seats, **({"rules": rules} if rules else {})})
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        tokens[invite["seat"]] = api(site, "POST", f"/games/{created['game_id']}/join", body={
            "invite_code": invite["invite_code"], "name": f"P{invite['seat']}"})["token"]
    return created["game_id"], tokens


def play_table_out(site, game_id: str, tokens: dict[int, str]) -> dict:
    """A table's moves by the tests' policy to the match's end; returns seat 0's final view."""
    for _ in range(6000):
        views = {seat: api(site, "GET", f"/games/{game_id}", token) for seat, token in tokens.items()}
        if views[0]["status"] == "finished":
            return views[0]
        seat, action = mover_and_action(views)
        api(site, "POST", f"/games/{game_id}/actions", tokens[seat], action)
    raise AssertionError("the table's match did not end")
