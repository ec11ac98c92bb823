"""Standing orders at the move path (issue 39, docs/plans.md): the seats' orders as stored
(seats.orders, read with every move by move_reads.py), and the moves they make once a change
leaves a seat with orders to move, played in that same change as the seat's own moves
(moves._hands), until the first decision the orders leave to the player. The engine judges
(rules/orders.py); this module only reads the stored orders and keeps what they played.
"""
from __future__ import annotations

from ..core import fastjson
from ..rules import IllegalAction
from ..rules.orders import Ordered, Orders, order_move
from .table_game import TableGame

MOST_MOVES = 12  # orders make at most a few moves in a row (an upcard, a draw, a gin): a guard, never met


def stored(orders: Orders, hand: int) -> dict | None:
    """What seats.orders holds for `orders` set during hand `hand` (None: no orders)."""
    return None if orders.empty else {"orders": orders.to_dict(), "hand": hand}


def active(value, match) -> Orders | None:
    """The orders a stored value holds that still stand in `match` (set for a hand that ended: none)."""
    if isinstance(value, str):
        value = fastjson.deserialize(value)
    if not value:
        return None
    try:
        orders = Orders.from_dict(value["orders"])
    except (IllegalAction, KeyError, TypeError):
        return None  # (never written so: a stored value is always Orders.to_dict's)
    if orders.until == "hand_end" and value.get("hand") != getattr(match, "hand_number", None):
        return None
    return None if orders.empty else orders


class Standing:
    """Both seats' stored orders for one change, and the moves they made in it."""

    def __init__(self, values: dict[int, object]):
        self.values = {seat: value for seat, value in values.items() if value}
        self.played: list[tuple[int, Ordered]] = []

    def __bool__(self) -> bool:
        return bool(self.values)

    def told(self) -> dict[int, tuple[str, ...]]:
        """What the orders played, by seat, in words for that seat alone ("always go gin: you can
        go gin"): its mail says so (Change.ordered)."""
        found: dict[int, list[str]] = {}
        for seat, ordered in self.played:
            found.setdefault(seat, []).append(f"{ordered.order}: {ordered.why}")
        return {seat: tuple(lines) for seat, lines in found.items()}

    def next_move(self, match) -> tuple[int, dict, list[dict]] | None:
        """The move the orders of the seat to move make now, applied to `match`: (seat, the
        action's JSON, its events), or None (no orders, a decision they leave, the match over)."""
        if not self.values or isinstance(match, TableGame) or len(self.played) >= MOST_MOVES:
            return None
        seat = match.to_move
        if seat is None or match.is_over or match.needs_deal:
            return None
        orders = active(self.values.get(seat), match)
        ordered = order_move(match, seat, orders) if orders else None
        if ordered is None:
            return None
        events = match.apply(seat, ordered.action)
        self.played.append((seat, ordered))
        return seat, ordered.action.to_dict(), events
