"""Helpers for tables of three and four seats: start one, choose a move, and check that no seat is
shown a card it may not see (another seat's hand in play, a partner's included, or a stock)."""
from __future__ import annotations

from .helpers import cards_in, choose, secret_cards


def start_table(post, seats: int, rules: dict | None = None, host: str = "Ann") -> dict:
    """`post(path, body) -> (status, json)`. A table with every seat taken: {"id", "tokens", "seats"}.
    `host`: seat 0's name (an anonymous seat may not take a registered player's)."""
    status, created = post("/games", {"name": host, "seats": seats, "rules": rules or {"target": 40}})
    assert status == 201, created
    assert [i["seat"] for i in created["invites"]] == list(range(1, seats))
    assert created["invites"][0]["invite_code"] == created["invite_code"]
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        status, joined = post(f"/games/{created['game_id']}/join",
                              {"invite_code": invite["invite_code"], "name": f"P{invite['seat']}"})
        assert status == 201 and joined["seat"] == invite["seat"], joined
        tokens[joined["seat"]] = joined["token"]
        last = invite["seat"] == seats - 1
        assert joined["game"]["status"] == ("active" if last else "waiting_for_opponent")
    return {"id": created["game_id"], "tokens": tokens, "seats": seats}


def mover_and_action(views: dict[int, dict]) -> tuple[int, dict]:
    """The first seat to move (boards of a partnership take turns by the order listed) and a
    move for it from its own board's view."""
    seat = views[0]["to_move"][0]
    own = views[seat]["my_board"]
    assert own is not None and own["view"]["to_move"] == own["local_seat"]
    action = choose(own["view"])
    assert action in views[seat]["legal_actions"]
    return seat, action


def board_secrets(state: dict, seat: int, index: int) -> set[str]:
    """Cards `seat` must not see on board `index` (each board has a deck of its own, so a card's
    name says nothing of another board): its stock and the hands of its players other than
    `seat`, except cards known to be there (taken from the pile)."""
    board = state["table"]["boards"][index] if index < len(state["table"]["boards"]) else None
    if board is None or board["match"]["phase"] in ("awaiting_deal", "match_over"):
        return set()
    match, seats = board["match"], board["seats"]
    if seat in seats:
        return secret_cards(match, seats.index(seat))
    return set(match["stock"]) | {card for local in (0, 1)
                                  for card in set(match["hands"][local]) - set(match["known"][local])}


def open_deals(state: dict) -> set[int]:
    return {deal for deal in state["board_hands"] if deal is not None}


def assert_table_hides_secrets(view: dict, events: list[dict], state: dict, seat: int) -> None:
    """The seat's view and events show no secret card of a hand in play (board by board: its own
    board's part, every board's public part, each board's events), and no deck of one."""
    boards = range(len(state["table"]["boards"]))
    own = view["my_board"]
    # A board's own last_hand (a hand voided on it) is over and public, and from another deck.
    mine = {k: v for k, v in own["view"].items() if k != "last_hand"} if own else None
    parts = [(own["board"], {"own": mine, "legal": view["legal_actions"]})] if own else []
    parts += [(b["board"], b) for b in view["boards"] if b is not None]
    rest = {k: v for k, v in view.items() if k not in ("my_board", "boards", "legal_actions", "last_hand",
                                                        "revealed_deals")}
    parts += [(i, rest) for i in boards]  # the table's own parts: no card of any board in play
    for index, part in parts:
        leaked = cards_in(part) & board_secrets(state, seat, index)
        assert not leaked, f"seat {seat}'s view shows {sorted(leaked)} of board {index}"
    in_play = open_deals(state)
    assert not in_play & {d["hand"] for d in view["revealed_deals"]}, "a deck in play was revealed"
    for event in events:
        if event["hand"] in in_play and "board" in event:
            leaked = cards_in(event) & board_secrets(state, seat, event["board"])
            assert not leaked, f"seat {seat}'s event {event['seq']} ({event['type']}) shows {sorted(leaked)}"
    if own is not None:
        board = state["table"]["boards"][own["board"]]
        assert sorted(own["view"]["hand"]) == sorted(board["match"]["hands"][own["local_seat"]])


# Tedesco's teams (six and eight seats) to a low target, so that a whole match stays short.
TEDESCO_TEAMS = {"preset": "tedesco_gin_teams_of_three", "target": 50}


def losing_move(view: dict) -> dict:
    """A move that keeps deadwood high: never knock, pass the upcard, discard a meld's card before
    any deadwood and the lowest card first. A team playing so loses nearly every hand (no undercut
    against a knocker), so the other team wins whole rounds: its team bonus."""
    legal = [a for a in view["legal_actions"] if a["type"] not in ("knock", "big_gin")] or view["legal_actions"]
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return choose({**view, "legal_actions": legal})
    deadwood = set(view["arrangement"]["deadwood"]) if view.get("arrangement") else set()
    points = {c: min(10, "A23456789TJQK".index(c[0]) + 1) for c in view["hand"]}
    return min(discards, key=lambda a: (a["card"] in deadwood, points[a["card"]], a["card"]))


def team_zero_wins_move(views: dict[int, dict]) -> tuple[int, dict]:
    """As mover_and_action, but the odd seats (team 1) play `losing_move`."""
    seat, action = mover_and_action(views)
    if seat % 2:
        action = losing_move(views[seat]["my_board"]["view"])
        assert action in views[seat]["legal_actions"]
    return seat, action
