"""Helpers for the API tests: start games, pick moves, and check what a seat must not see."""
from __future__ import annotations

import json
import re

from service.rules import Match, Rules, action_from_dict

CARD_TEXT = re.compile(r"^[A2-9TJQK][CDHS]$")


def auth(token: str, **headers) -> dict:
    return {"Authorization": f"Bearer {token}", **headers}


def create(client, name="Ann", rules=None):
    body = {"name": name} if rules is None else {"name": name, "rules": rules}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def new_game(client, rules=None, names=("Ann", "Bob")) -> dict:
    """A started game: {"id", "tokens": {0: ..., 1: ...}, "view": seat 1's first view}. `names`: the
    seats' (an anonymous seat may not take a registered player's)."""
    created = create(client, names[0], rules=rules)
    response = client.post(f"/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": names[1]})
    assert response.status_code == 201, response.get_json()
    joined = response.get_json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]},
            "view": joined["game"]}


def view(client, game, seat) -> dict:
    response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def act(client, game, seat, action, **headers):
    return client.post(f"/games/{game['id']}/actions", json=action,
                       headers=auth(game["tokens"][seat], **headers))


def mover(client, game) -> tuple[int, dict]:
    """The seat to move and its view."""
    seat0 = view(client, game, 0)
    seat = seat0["to_move"]
    return seat, (seat0 if seat == 0 else view(client, game, 1))


def choose(view_: dict) -> dict:
    """A simple policy over the listed legal actions: Big Gin, else knock (least deadwood left),
    else pass the upcard, else draw from the stock, else discard the highest deadwood card."""
    legal = view_["legal_actions"]
    by_type = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "big_gin" in by_type:
        return by_type["big_gin"][0]
    if "knock" in by_type:
        return by_type["knock"][0]
    if "pass" in by_type:
        return by_type["pass"][0]
    for action in by_type.get("draw", []):
        if action["from"] == "stock":
            return action
    if "discard" in by_type:
        deadwood = set(view_["arrangement"]["deadwood"]) if view_.get("arrangement") else set()
        points = {c: min(10, "A23456789TJQK".index(c[0]) + 1) for c in view_["hand"]}
        return max(by_type["discard"], key=lambda a: (a["card"] in deadwood, points[a["card"]], a["card"]))
    return legal[0]


def stored_game(app, game_id):
    """The server-side row, for comparing what a seat was shown with what the server knows."""
    from service.core.extensions import db
    from service.games.models import Game
    with app.app_context():
        game = db.session.get(Game, game_id)
        db.session.expunge(game)
        return game


def secret_cards(state: dict, seat: int) -> set[str]:
    """Cards `seat` must not be shown now: the stock, and the opponent's hand except the cards
    the opponent is known to hold (taken from the discard pile)."""
    other = 1 - seat
    return set(state["stock"]) | (set(state["hands"][other]) - set(state["known"][other]))


def cards_in(data) -> set[str]:
    found = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= cards_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= cards_in(value)
    elif isinstance(data, str) and CARD_TEXT.match(data):
        found.add(data)
    return found


def assert_hides_secrets(view_: dict, state: dict, seat: int) -> None:
    """No card the seat may not see appears in its view of the current hand. Finished hands
    (last_hand, revealed_deals) are fully public and use the same 52 cards, so they are left out."""
    if state["phase"] == "match_over":
        return
    current = {k: v for k, v in view_.items() if k not in ("last_hand", "revealed_deals")}
    leaked = cards_in(current) & secret_cards(state, seat)
    assert not leaked, f"seat {seat} was shown {sorted(leaked)}"
    assert sorted(view_["hand"]) == sorted(state["hands"][seat])
    assert all(d["hand"] < state["hand_number"] for d in view_["revealed_deals"])


def replay(rules: dict, first_dealer: int, decks: dict[int, list[str]],
           actions: list[tuple[int, dict]]) -> Match:
    """Rebuild a match from its decks (by hand number) and its actions, as an auditor would."""
    match = Match.new(Rules.from_dict(rules), first_dealer)
    pending = list(actions)
    while True:
        if match.needs_deal and not match.is_over:
            match.deal(decks[match.hand_number + 1])
            continue
        if not pending:
            return match
        seat, action = pending.pop(0)
        match.apply(seat, action_from_dict(action))


def canonical(data) -> str:
    return json.dumps(data, sort_keys=True)
