"""Standing orders (issue 39, docs/plans.md): a seat's answers to the dull decisions, set for the
rest of the hand or until cancelled, as a value with a text and a JSON form, and `order_move`,
the move they decide now, or None where they do not settle the decision (the player is asked).

    >>> orders = Orders.parse("pass unless it melds; always go gin")
    >>> str(orders)
    'pass unless it melds; always go gin; until cancelled'

- `pass unless it melds` (the upcard offer): take the upcard when it melds (judgments.py: once
  taken, and your worst other card thrown, it lies in a meld and your deadwood is strictly lower),
  else pass.
- `take the pile's top if it melds, else draw stock` (the draw): the same judgment on the pile's
  top; the stock whenever the pile may not be taken (both passed the upcard, an empty pile).
- `always go gin` (the discard): the gin there is (Big Gin first), never any other knock; in the
  last-discard offer, take the last discard when it gives a gin.
- `knock if deadwood at most N` / `knock if possible`: the only order that knocks with deadwood;
  N never goes over the hand's own limit (Oklahoma's changes every hand).
Orders never discard: once a card is taken, the discard is the player's unless gin or a knock order
settles it. They judge only from what the seat sees, and play ordinary moves.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from .actions import Action, Draw, Pass, TakeUpcard
from .errors import IllegalAction
from .judgments import Turn, gin_move, keeping_top, knock_move
from .match import Match
from .plan_rules import KnockIf, parse_rule, rule_from_dict
from .plan_settle import board_of

UPCARD = "pass unless it melds"
DRAW = "take the pile's top if it melds, else draw stock"
GIN = "always go gin"
UNTIL = {"hand_end": "for this hand", "cancelled": "until cancelled"}
_DRAW_WORDS = re.compile(r"^take (?:the )?(?:pile'?s top|top of (?:the )?(?:discard )?pile|top|pile) if it melds,? "
                         r"(?:else|otherwise) draw (?:from )?(?:the )?stock$")
_KEYS = {"type", "upcard", "draw", "gin", "knock", "until"}
WORDS = f"{UPCARD}; {DRAW}; {GIN}; knock if deadwood at most 5 (or knock if possible); for this hand (or until cancelled)"


def _bad(message: str) -> IllegalAction:
    return IllegalAction("invalid-orders", message)


@dataclass(frozen=True)
class Orders:
    """Which orders a seat set. `knock`: a KnockIf, or None (orders then never knock with
    deadwood). `until`: "hand_end" or "cancelled"."""

    upcard: bool = False
    draw: bool = False
    gin: bool = False
    knock: KnockIf | None = None
    until: str = "cancelled"

    def __post_init__(self):
        if not all(type(flag) is bool for flag in (self.upcard, self.draw, self.gin)):
            raise _bad("upcard, draw and gin orders are set or not (true or false)")
        if self.knock is not None and not isinstance(self.knock, KnockIf):
            raise _bad("the knock order is 'knock if deadwood at most N' or 'knock if possible'")
        if not isinstance(self.until, str) or self.until not in UNTIL:  # (a JSON object is no key)
            raise _bad(f"orders last until 'hand_end' or 'cancelled', not {self.until!r}")

    @property
    def empty(self) -> bool:
        return not (self.upcard or self.draw or self.gin or self.knock)

    # -- text -----------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> "Orders":
        """Read orders: one a line or separated by semicolons (the draw order holds a comma)."""
        if not isinstance(text, str):
            raise _bad(f"orders are text, not {text!r}")
        found: dict[str, Any] = {}
        for piece in re.split(r"[;\n]", text.replace("\u2019", "'")):
            words = " ".join(piece.lower().split()).rstrip(".!")
            if not words:
                continue
            kind, value = _order(words, piece)
            if kind in found:
                raise _bad(f"{piece.strip()!r}: a second order for the {kind}")
            found[kind] = value
        if found.pop("none", False) and found.keys() - {"until"}:
            raise _bad("'no orders' and an order together")
        return cls(**found)

    def __str__(self) -> str:
        parts = [text for flag, text in ((self.upcard, UPCARD), (self.draw, DRAW), (self.gin, GIN)) if flag]
        if self.knock is not None:
            parts.append(str(self.knock))
        return "; ".join((parts or ["no orders"]) + [UNTIL[self.until]])

    # -- JSON -----------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {"type": "orders", "upcard": "pass_unless_it_melds" if self.upcard else None,
                "draw": "pile_if_it_melds" if self.draw else None, "gin": "always" if self.gin else None,
                "knock": self.knock.condition() if self.knock else None, "until": self.until}

    @classmethod
    def from_dict(cls, data: Any) -> "Orders":
        if not isinstance(data, dict):
            raise _bad("orders are a JSON object: {\"upcard\": ..., \"draw\": ..., \"gin\": ..., \"knock\": ...}")
        extra = set(data) - _KEYS
        if extra:
            raise _bad(f"orders take no field {sorted(extra)[0]!r}")
        if data.get("type", "orders") != "orders":
            raise _bad(f"the type of orders is 'orders', not {data['type']!r}")
        flags = {}
        for key, token in (("upcard", "pass_unless_it_melds"), ("draw", "pile_if_it_melds"), ("gin", "always")):
            if data.get(key) not in (None, token):
                raise _bad(f"{key} is {token!r} or null, not {data[key]!r}")
            flags[key] = data.get(key) == token
        knock = data.get("knock")
        if knock is not None:
            if not isinstance(knock, dict):
                raise _bad("knock is {\"if\": \"possible\"}, {\"if_deadwood_at_most\": N} or null")
            try:
                knock = rule_from_dict({"do": "knock", **knock})
            except IllegalAction as exc:
                raise _bad(f"knock: {exc.message}") from None
            if not isinstance(knock, KnockIf):
                raise _bad("knock is {\"if\": \"possible\"}, {\"if_deadwood_at_most\": N} or null")
        return cls(**flags, knock=knock, until=data.get("until", "cancelled"))

    # -- while playing --------------------------------------------------------------------------

    def ended_by(self, events: list[dict], seat: int | None = None) -> bool:
        """Whether orders set for this hand end with these events (a hand decided or void; at a
        table, on the seat's own board)."""
        return self.until == "hand_end" and any(
            e.get("type") in ("hand_end", "hand_void") and (seat is None or seat in e.get("seats", [seat]))
            for e in events)


def _order(words: str, piece: str) -> tuple[str, Any]:
    if words in (UPCARD, "upcard: " + UPCARD):
        return "upcard", True
    if _DRAW_WORDS.match(words.removeprefix("draw: ")):
        return "draw", True
    if words in (GIN, "always gin"):
        return "gin", True
    if words in ("no orders", "none", "cancel orders"):
        return "none", True
    if words in ("for this hand", "for the rest of the hand", "until the hand ends"):
        return "until", "hand_end"
    if words in ("until cancelled", "until canceled"):
        return "until", "cancelled"
    if words.startswith("knock"):
        try:
            rule = parse_rule(words)
        except IllegalAction:
            rule = None
        if isinstance(rule, KnockIf):
            return "knock", rule
    raise _bad(f"could not read {piece.strip()!r}; orders are: {WORDS}")


def check_orders(game, orders: Orders) -> None:
    """Refuse orders the game's rules cannot use: a knock order where only gin ends a hand."""
    if not isinstance(orders, Orders):
        raise _bad(f"not orders: {orders!r}")
    if orders.knock is not None and not game.rules.knocking_allowed:
        raise IllegalAction("knocking-not-allowed", "only gin ends a hand in these rules: set 'always go gin' "
                            "instead of a knock order")


@dataclass(frozen=True)
class Ordered:
    """A move the orders decided, the order that decided it, and why (for the seat only)."""
    action: Action
    order: str
    why: str

    def to_dict(self) -> dict:
        return {"action": self.action.to_dict(), "order": self.order, "why": self.why}


def order_move(game, seat: int, orders: Orders) -> Ordered | None:
    """The move `orders` make for `seat` now, or None: not its turn, or a decision they leave to
    the player. Never changes `game`."""
    try:
        match, local = board_of(game, seat)
    except IllegalAction:
        return None
    if match.to_move != local or orders.empty:
        return None
    phase = match.phase
    if phase == "upcard_offer" and orders.upcard:
        verdict = keeping_top(match, local, match.discard_pile[-1])
        return Ordered(TakeUpcard() if verdict.melds else Pass(), UPCARD,
                       verdict.why(meld_needed=True) + (", so you took it" if verdict.melds else ", so you passed"))
    if phase == "draw" and orders.draw:
        if not match.allows(local, Draw("discard")):
            return Ordered(Draw("stock"), DRAW, "the discard pile may not be taken now, so you drew from the stock")
        verdict = keeping_top(match, local, match.discard_pile[-1])
        return Ordered(Draw("discard") if verdict.melds else Draw("stock"), DRAW, verdict.why(meld_needed=True) + (
            ", so you took it" if verdict.melds else ", so you drew from the stock"))
    if phase == "discard":
        return _finish(match, local, orders)
    if phase == "last_discard_offer" and match.allows(local, Draw("discard")):
        after = Match.from_dict(match.to_dict())  # the last discard is face up: nothing hidden is used
        after.apply(local, Draw("discard"))
        finish = _finish(after, local, orders)
        if finish is not None:
            return replace(finish, action=Draw("discard"), why=f"taking the last discard "
                           f"{match.discard_pile[-1]}, {finish.why}, so you took it")
    return None


def _finish(match: Match, seat: int, orders: Orders) -> Ordered | None:
    if not (orders.gin or orders.knock):
        return None
    turn = Turn(match, seat)
    if orders.gin:
        action = gin_move(turn)
        if action is not None:
            return Ordered(action, GIN, "you can go gin")
    if orders.knock is not None:
        action, why = knock_move(turn, orders.knock.at_most)
        if action is not None:
            return Ordered(action, str(orders.knock), why)
    return None
