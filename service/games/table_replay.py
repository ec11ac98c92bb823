"""A finished table (3, 4, 6 or 8 seats), move by move (issue 24), as replay.py does for two seats:
the stored actions replayed through the engine's TableGame from the stored decks, each deal in the
order the service dealt it (the first board waiting, deal numbers across the whole table), checked
to end in the state the game stored. A step shows every board as the engine held it: both hands,
the pile, the stock; a board waiting for the round (a partnership's) or for its deal shows so."""
from __future__ import annotations

from ..core.errors import Problem
from ..rules import Rules, action_from_dict
from ..rules.plain import plain_copy
from .table_game import TableGame, in_the_open


def replay_table(game, decks: dict[int, list[str]], rows: list) -> dict:
    """The table's steps from its events' rows (seq order) and decks by deal number."""
    match = TableGame.new(Rules.from_dict(game.rules), len(game.seats), _first_dealer(game, rows))
    steps: list[dict] = []
    for row in rows:
        if row.action is None:
            continue  # made with the action before it (a deal, a hand's end, the match's end)
        _deal_if_due(match, decks, steps)
        kind, event = row.action.get("type"), row.payload
        if kind == "claim_timeout":
            seat, events = event["seat"], match.forfeit(event["seat"], "timeout")  # the seat whose time ran out
        elif kind == "resign":
            seat, events = event["seat"], match.forfeit(event["seat"], "resign")
        else:  # a board's event: its seat is the board's local one
            seat = event["seats"][event["seat"]]
            events = match.apply(seat, action_from_dict(row.action))
        steps.append(_step(match, seat, row.action, events))
    _deal_if_due(match, decks, steps)
    if match.to_dict() != game.state:
        raise Problem("replay-not-available", "this game's stored moves do not replay to its end")
    table = match.table
    return {"kind": "table", "format": table.format, "seats": table.seats,
            "sides": [list(side) for side in table.sides], "steps": steps, "result": match.result}


def _first_dealer(game, rows: list) -> int | None:
    """Three seats: who dealt the first hand (drawn at the join), read from the first deal's event.
    A partnership's dealers follow from its rounds."""
    if len(game.seats) != 3:
        return None
    first = next(row.payload for row in rows if row.payload.get("type") == "deal")
    return first["seats"][first["dealer"]]


def _deal_if_due(match: TableGame, decks: dict, steps: list[dict]) -> None:
    while match.needs_deal:
        _, events = match.deal_next(decks[match.deals + 1])
        steps.append(_step(match, None, None, events))


def _step(match: TableGame, seat: int | None, action: dict | None, events: list[dict]) -> dict:
    table = match.table
    return {"deal": match.deals, "seat": seat, "action": action, "events": [in_the_open(e) for e in events],
            "boards": [_board(match, i) for i in range(len(table.boards))],
            "sitting_out": getattr(table, "sitting_out", None),
            "scores": {"games": plain_copy(table.games), "hands_won": list(table.wins), "sheet": plain_copy(table.sheet)}}


def _board(match: TableGame, i: int) -> dict | None:
    """A board as it stood, in table seats: None while it waits for the round."""
    board = match.table.boards[i]
    if board is None:
        return None
    inner, seats = board["match"], board["seats"]
    return {"board": i, "seats": list(seats), "deal": match.board_hands[i] if i < len(match.board_hands) else None,
            "phase": inner.phase, "dealer": seats[inner.dealer],
            "to_move": seats[inner.to_move] if inner.to_move is not None else None,
            "hands": {str(seats[s]): [str(card) for card in inner.hands[s]] for s in (0, 1)},
            "discard_pile": [str(card) for card in inner.discard_pile], "stock_count": len(inner.stock)}

