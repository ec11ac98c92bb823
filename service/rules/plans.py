"""A plan: a whole turn said in advance (issue 39, docs/plans.md), the value and its two notations.

    >>> plan = Plan.parse("draw stock, discard drawn unless it melds, else 7H")
    >>> str(plan)
    'draw stock, discard drawn unless it melds, else discard 7H'
    >>> Plan.from_dict(plan.to_dict()) == plan == Plan.parse(str(plan))
    True

A plan is the draw (`draw stock`, `take`, `take 7H`, `take 3`, `pass`, or nothing when the card is
drawn already), then Mahjong gin's table moves (`meld 5H 6H 7H`, `add 6H to 2`), then the discard
rules (plan_rules.py) tried in order, each after the first joined by `else`. The words are the mail
commands' (service/notify/inbound/commands.py), on one line separated by commas or semicolons, or on
several lines. A plan that does not say one thing is refused here, whatever the match:
`ambiguous-plan`; unreadable words are `invalid-plan`. Whether it can be played now is
plan_settle.py's to judge.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .actions import Action, AddOn, LayMeld, action_from_dict
from .cards import Card
from .errors import IllegalAction
from .plan_rules import DiscardDrawn, Rule, parse_rule, rule_from_dict

DRAWS = ("stock", "pile", "pass")
_STOCK = ([], ["stock"], ["from", "stock"], ["from", "the", "stock"])
_PILE = (["discard"], ["pile"], ["from", "discard"], ["from", "pile"], ["from", "the", "pile"],
         ["from", "the", "discard", "pile"], ["discard", "pile"])
_TAKE = ([], ["upcard"], ["the", "upcard"], ["discard"], ["it"])
_KEYS = {"type", "draw", "count", "card", "table", "then"}


def _ambiguous(message: str) -> IllegalAction:
    return IllegalAction("ambiguous-plan", message)


@dataclass(frozen=True)
class Plan:
    """`draw`: "stock", "pile" (the upcard in the upcard offer, the pile's top later), "pass", or
    None (the plan begins after the draw). `count`: a Mahjong take of several; `top`: the card the
    pile must show ("take 7H"). `table`: Mahjong gin's LayMeld / AddOn moves, in order. `rules`:
    the discard rules, tried in order."""

    draw: str | None = None
    count: int = 1
    top: Card | None = None
    table: tuple[Action, ...] = ()
    rules: tuple[Rule, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "table", tuple(self.table))
        object.__setattr__(self, "rules", tuple(self.rules))
        if self.draw is not None and self.draw not in DRAWS:
            raise IllegalAction("invalid-plan", f"draw is 'stock', 'pile' or 'pass', not {self.draw!r}")
        if type(self.count) is not int or self.count < 1:
            raise IllegalAction("invalid-plan", f"count must be a whole number from 1, not {self.count!r}")
        if (self.count > 1 or self.top is not None) and self.draw != "pile":
            raise IllegalAction("invalid-plan", "a count or a card goes only with a draw from the pile")
        if self.count > 1 and self.top is not None:
            raise IllegalAction("invalid-plan", "take a number of cards or name the top card, not both")
        if self.top is not None and not isinstance(self.top, Card):
            raise IllegalAction("invalid-plan", f"not a card: {self.top!r}")
        if not all(isinstance(a, (LayMeld, AddOn)) for a in self.table):
            raise IllegalAction("invalid-plan", "the table moves are meld and add (Mahjong gin)")
        if any(isinstance(a, AddOn) and a.meld < 0 for a in self.table):
            raise IllegalAction("invalid-plan", "add names a meld on the table by its number, from 0 in JSON")
        if not all(isinstance(r, Rule) for r in self.rules):
            raise IllegalAction("invalid-plan", "the rules must be rules (discard, knock, gin, big gin)")
        if self.draw is None and not self.table and not self.rules:
            raise IllegalAction("invalid-plan", "an empty plan: say the draw, the discard or both")
        self._check_shape()

    def _check_shape(self) -> None:
        if self.draw == "pass" and (self.table or self.rules):
            raise _ambiguous("a pass ends your turn here: nothing may follow it in the plan")
        for rule in self.rules[:-1]:
            if not rule.conditional:
                raise _ambiguous(f"'{rule}' always decides, so nothing may follow it")
        if self.rules and self.rules[-1].conditional:
            raise _ambiguous(f"'{self.rules[-1]}' needs an else: say what to do when it does not decide "
                             f"(like '{self.rules[-1]}, else discard worst')")
        drawn = [r for r in self.rules if isinstance(r, DiscardDrawn)]
        if len(drawn) > 1:
            raise _ambiguous("'discard drawn' may come once: after 'discard drawn unless it melds', else says "
                             "what to throw when you keep the drawn card")
        if drawn and self.draw != "stock":
            raise _ambiguous("'discard drawn' needs 'draw stock' first in the same plan (a card taken from the "
                             "pile may not go back this turn)")

    # -- text -----------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> "Plan":
        """Read a plan from its words: parts separated by commas, semicolons or new lines."""
        if not isinstance(text, str):
            raise IllegalAction("invalid-plan", f"a plan is text, not {text!r}")
        draw, count, top, table, rules = None, 1, None, [], []
        for piece in (p.strip().rstrip(".!").strip() for p in re.split(r"[,;\n]", text)):
            if not piece:
                continue
            words = piece.lower().split()
            if words[0] in ("else", "otherwise"):
                if not rules:
                    raise _ambiguous(f"'{piece}': else needs a rule before it to hand over from")
                rules.append(parse_rule(" ".join(words[1:]), after_else=True))
                continue
            drawn = _draw_words(piece, words)
            if drawn is not None:
                if draw is not None or table or rules:
                    raise _ambiguous(f"'{piece}': the draw comes first in a plan, and once")
                draw, count, top = drawn
                continue
            step = _table_words(piece, words)
            if step is not None:
                if rules:
                    raise _ambiguous(f"'{piece}': meld and add come before the discard rules")
                table.append(step)
                continue
            rule = parse_rule(piece)
            if rules:
                last = rules[-1]
                raise _ambiguous(f"'{piece}' follows '{last}' without else: write '{last}, else {rule}'"
                                 if last.conditional else f"'{last}' always decides, so nothing may follow it")
            rules.append(rule)
        return cls(draw, count, top, tuple(table), tuple(rules))

    def __str__(self) -> str:
        parts = []
        if self.draw == "stock":
            parts.append("draw stock")
        elif self.draw == "pass":
            parts.append("pass")
        elif self.draw == "pile":
            parts.append(f"take {self.top}" if self.top else f"take {self.count}" if self.count > 1 else "take")
        for step in self.table:
            parts.append(f"meld {' '.join(map(str, step.cards))}" if isinstance(step, LayMeld)
                         else f"add {step.card} to {step.meld + 1}")
        parts += [("else " if i else "") + str(rule) for i, rule in enumerate(self.rules)]
        return ", ".join(parts)

    # -- JSON -----------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        data: dict[str, Any] = {"type": "plan", "draw": self.draw}
        if self.count != 1:
            data["count"] = self.count
        if self.top is not None:
            data["card"] = str(self.top)
        if self.table:
            data["table"] = [step.to_dict() for step in self.table]
        data["then"] = [rule.to_dict() for rule in self.rules]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> "Plan":
        """Read a plan's JSON form; anything malformed is an `invalid-plan`."""
        if not isinstance(data, dict):
            raise IllegalAction("invalid-plan", "a plan is a JSON object: {\"draw\": ..., \"then\": [...]}")
        extra = set(data) - _KEYS
        if extra:
            raise IllegalAction("invalid-plan", f"a plan takes no field {sorted(extra)[0]!r}")
        if data.get("type", "plan") != "plan":
            raise IllegalAction("invalid-plan", f"a plan's type is 'plan', not {data['type']!r}")
        count = data.get("count", 1)
        count = int(count) if isinstance(count, float) and count.is_integer() else count
        top = data.get("card")
        if top is not None:
            try:
                top = Card.parse(top)
            except ValueError as exc:
                raise IllegalAction("invalid-plan", f"card: {exc}") from None
        table, then = data.get("table", []), data.get("then", [])
        if not isinstance(table, list) or not isinstance(then, list):
            raise IllegalAction("invalid-plan", "'table' and 'then' are lists")
        steps = []
        for step in table:
            try:
                steps.append(action_from_dict(step))
            except IllegalAction as exc:
                raise IllegalAction("invalid-plan", f"table: {exc.message}") from None
        return cls(data.get("draw"), count, top, tuple(steps), tuple(rule_from_dict(r) for r in then))

    # -- what it names --------------------------------------------------------------------------

    def cards_named(self) -> list[Card]:
        """Every card the table moves and the rules name, in order (the top card is the pile's)."""
        named: list[Card] = []
        for step in self.table:
            named += list(step.cards) if isinstance(step, LayMeld) else [step.card]
        named += [rule.card for rule in self.rules if getattr(rule, "card", None) is not None]
        return named


def _draw_words(piece: str, words: list[str]) -> tuple[str, int, Card | None] | None:
    """The draw a piece says, as (draw, count, top), or None when it is no draw."""
    verb, rest = words[0], words[1:]
    if (verb == "draw" and rest in _STOCK) or (verb == "stock" and not rest):
        return "stock", 1, None
    if (verb == "draw" and rest in _PILE) or (verb == "take" and rest in _TAKE):
        return "pile", 1, None
    if verb == "take" and rest and rest[0].isdigit():  # take 3: the top three (Mahjong gin)
        count = int(rest[0])
        if rest[1:] not in ([], ["cards"], ["from", "the", "pile"], ["from", "pile"]) or not 1 <= count <= 52:
            raise IllegalAction("invalid-plan", f"{piece!r}: take a number of cards from the pile, like take 3")
        return "pile", count, None
    if verb == "take" and len(rest) == 1:  # take 7H: the named card must be the pile's top
        try:
            return "pile", 1, Card.parse(rest[0])
        except ValueError:
            raise IllegalAction("invalid-plan", f"{piece!r}: take needs a card like 7H, or a number") from None
    if verb == "pass" and not rest:
        return "pass", 1, None
    return None


def _table_words(piece: str, words: list[str]) -> Action | None:
    """`meld 5H 6H 7H` or `add 6H to 2` (the table's melds numbered from 1, as people count)."""
    verb, rest = words[0], words[1:]
    if verb in ("meld", "lay"):
        try:
            cards = tuple(sorted(Card.parse(w) for w in rest))
        except ValueError:
            cards = ()
        if len(cards) < 3 or len(set(cards)) != len(cards):
            raise IllegalAction("invalid-plan", f"{piece!r}: {verb} needs three or more cards, like meld 3H 4H 5H")
        return LayMeld(cards)
    if verb == "add":
        kept = [w for w in rest if w not in ("to", "meld", "onto", "on")]
        number = kept[1].lstrip("#") if len(kept) == 2 else ""
        try:
            card = Card.parse(kept[0]) if kept else None
        except ValueError:
            card = None
        if card is None or not number.isdigit() or int(number) < 1:
            raise IllegalAction("invalid-plan", f"{piece!r}: add needs a card and a meld number, like add 6H to 2")
        return AddOn(card, int(number) - 1)
    return None
