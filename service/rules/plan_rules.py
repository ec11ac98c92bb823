"""The discard rules of a plan (docs/plans.md): what to do once the card is drawn, as frozen values
with a text form (the words of a mail reply) and a JSON form (the API's), each reading back equal.

A plan's rules are tried in order and the first that decides plays: a conditional rule (`gin if
possible`, `knock if deadwood at most 5`, `discard drawn unless it melds`) either decides or hands
over to the rule after its `else`; an unconditional one (`discard 7H`, `discard worst`) always
decides, so it comes last. Judging them is plan_settle.py's; this module only names them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import IllegalAction

MAX_KNOCK = 10  # no rules allow a knock over 10 (RULES.md: knock_limit 0..10, Oklahoma's card at most 10)


class Rule:
    """One rule of a plan's chain. `conditional` rules may hand over to the next."""

    conditional = False

    def to_dict(self) -> dict:
        raise NotImplementedError


@dataclass(frozen=True)
class DiscardCard(Rule):
    """`discard 7H`: throw that card."""
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"

    def to_dict(self) -> dict:
        return {"do": "discard", "card": str(self.card)}


@dataclass(frozen=True)
class DiscardDrawn(Rule):
    """`discard drawn`: throw the card the stock gave. With `unless_melds` (`discard drawn unless
    it melds`): keep it instead when keeping it, and doing what the rules after `else` say, leaves
    strictly less deadwood than throwing it."""
    unless_melds: bool = False

    @property
    def conditional(self) -> bool:  # type: ignore[override]
        return self.unless_melds

    def __str__(self) -> str:
        return "discard drawn unless it melds" if self.unless_melds else "discard drawn"

    def to_dict(self) -> dict:
        return {"do": "discard", "card": "drawn", **({"unless": "it_melds"} if self.unless_melds else {})}


@dataclass(frozen=True)
class DiscardWorst(Rule):
    """`discard worst`: the card whose loss leaves the least deadwood (ties: judgments.py)."""

    def __str__(self) -> str:
        return "discard worst"

    def to_dict(self) -> dict:
        return {"do": "discard", "card": "worst"}


@dataclass(frozen=True)
class KnockWith(Rule):
    """`knock 7H`: knock, discarding that card face down (the engine lays out the melds)."""
    card: Card

    def __str__(self) -> str:
        return f"knock {self.card}"

    def to_dict(self) -> dict:
        return {"do": "knock", "card": str(self.card)}


@dataclass(frozen=True)
class KnockIf(Rule):
    """`knock if deadwood at most N` / `knock if possible` (N None: the hand's knock limit)."""
    at_most: int | None = None
    conditional = True

    def __post_init__(self):
        if self.at_most is not None and (type(self.at_most) is not int or not 0 <= self.at_most <= MAX_KNOCK):
            raise IllegalAction("invalid-plan", f"knock if deadwood at most N takes a whole number from 0 to "
                                f"{MAX_KNOCK}, not {self.at_most!r}")

    def __str__(self) -> str:
        return "knock if possible" if self.at_most is None else f"knock if deadwood at most {self.at_most}"

    def condition(self) -> dict:
        """The condition alone, as orders.py's knock order writes it too."""
        return {"if": "possible"} if self.at_most is None else {"if_deadwood_at_most": self.at_most}

    def to_dict(self) -> dict:
        return {"do": "knock", **self.condition()}


@dataclass(frozen=True)
class GoGin(Rule):
    """`gin` (the best gin there is: Big Gin, else a knock leaving no deadwood) or `gin 7H` (a knock
    with that card, which must leave no deadwood)."""
    card: Card | None = None

    def __str__(self) -> str:
        return f"gin {self.card}" if self.card else "gin"

    def to_dict(self) -> dict:
        return {"do": "gin", **({"card": str(self.card)} if self.card else {})}


@dataclass(frozen=True)
class GinIfPossible(Rule):
    """`gin if possible`: `gin` when there is one, else hand over."""
    conditional = True

    def __str__(self) -> str:
        return "gin if possible"

    def to_dict(self) -> dict:
        return {"do": "gin", "if": "possible"}


@dataclass(frozen=True)
class DeclareBigGin(Rule):
    """`big gin`: all 11 cards in melds, no discard."""

    def __str__(self) -> str:
        return "big gin"

    def to_dict(self) -> dict:
        return {"do": "big_gin"}


RULE_WORDS = ("discard 7H, discard worst, discard drawn, discard drawn unless it melds, knock 7H, "
              "knock if possible, knock if deadwood at most 5, gin, gin 7H, gin if possible, big gin")
_KNOCK_IF = re.compile(r"^if (?:deadwood|my deadwood|the deadwood) (?:is )?(?:at most|<=|up to) (\d+)$")


def _bad(text: str, why: str = "") -> IllegalAction:
    return IllegalAction("invalid-plan", f"could not read {text!r}{': ' + why if why else ''}; "
                         f"a rule is one of: {RULE_WORDS}")


def _card(word: str, text: str) -> Card:
    try:
        return Card.parse(word)
    except ValueError:
        raise _bad(text, f"{word!r} is no card (write rank then suit, like 7H, TD or 10D)") from None


def parse_rule(text: str, after_else: bool = False) -> Rule:
    """One rule from its words (lower or upper case). After `else` a bare card is `discard` it,
    and `worst` / `drawn` are `discard worst` / `discard drawn`."""
    words = text.lower().split()
    if not words:
        raise _bad(text, "an empty rule")
    if after_else and len(words) == 1 and words[0] in ("worst", "drawn"):
        words = ["discard"] + words
    elif after_else and len(words) == 1 and words[0] not in ("gin", "biggin"):
        return DiscardCard(_card(words[0], text))
    verb, rest = words[0], " ".join(words[1:])
    if verb == "discard":
        if rest == "worst":
            return DiscardWorst()
        if rest in ("drawn", "drawn card", "the drawn card"):
            return DiscardDrawn()
        if rest in ("drawn unless it melds", "the drawn card unless it melds", "drawn unless it meld"):
            return DiscardDrawn(unless_melds=True)
        if len(words) == 2:
            return DiscardCard(_card(words[1], text))
    if verb == "knock":
        if rest == "if possible":
            return KnockIf()
        found = _KNOCK_IF.match(rest)
        if found:
            return KnockIf(int(found.group(1)))
        if len(words) == 2:
            return KnockWith(_card(words[1], text))
    if verb == "gin":
        if not rest:
            return GoGin()
        if rest == "if possible":
            return GinIfPossible()
        if len(words) == 2:
            return GoGin(_card(words[1], text))
    if (verb, rest) in (("big", "gin"), ("biggin", "")):
        return DeclareBigGin()
    raise _bad(text)


_RULE_KEYS = {"do", "card", "unless", "if", "if_deadwood_at_most"}


def rule_from_dict(data: Any) -> Rule:
    """One rule from its JSON form; anything malformed is an `invalid-plan`."""
    if not isinstance(data, dict) or not isinstance(data.get("do"), str):
        raise IllegalAction("invalid-plan", f"a rule is an object with 'do' (discard, knock, gin, big_gin), "
                            f"not {data!r}")
    extra = set(data) - _RULE_KEYS
    if extra:
        raise IllegalAction("invalid-plan", f"a rule takes no field {sorted(extra)[0]!r}")
    do, card, unless, cond = data["do"], data.get("card"), data.get("unless"), data.get("if")
    at_most = data.get("if_deadwood_at_most")
    if isinstance(at_most, float) and at_most.is_integer():  # JSON makes no difference between 5 and 5.0
        at_most = int(at_most)
    fields = {k for k in ("card", "unless", "if", "if_deadwood_at_most") if k in data}

    def only(*allowed: str) -> None:
        if fields - set(allowed):
            raise IllegalAction("invalid-plan", f"{do} takes no field {sorted(fields - set(allowed))[0]!r} here")

    def read_card() -> Card:
        if not isinstance(card, str):
            raise IllegalAction("invalid-plan", f"{do} needs 'card': a card like 7H, not {card!r}")
        return _card(card, card)

    if do == "discard":
        only("card", "unless") if card == "drawn" else only("card")
        if unless is not None and unless != "it_melds":
            raise IllegalAction("invalid-plan", f"'unless' takes only 'it_melds', not {unless!r}")
        if card == "worst":
            return DiscardWorst()
        if card == "drawn":
            return DiscardDrawn(unless_melds=unless == "it_melds")
        return DiscardCard(read_card())
    if do == "knock":
        if "card" in data:
            only("card")
            return KnockWith(read_card())
        if cond == "possible":
            only("if")
            return KnockIf()
        if "if_deadwood_at_most" in data:
            only("if_deadwood_at_most")
            if at_most is None:
                raise IllegalAction("invalid-plan", "if_deadwood_at_most takes a whole number from 0 to 10")
            return KnockIf(at_most)
        raise IllegalAction("invalid-plan", "knock needs 'card', 'if': 'possible' or 'if_deadwood_at_most': N")
    if do == "gin":
        if cond is not None:
            only("if")
            if cond != "possible":
                raise IllegalAction("invalid-plan", f"gin's 'if' takes only 'possible', not {cond!r}")
            return GinIfPossible()
        only("card")
        return GoGin(read_card() if "card" in data else None)
    if do == "big_gin":
        only()
        return DeclareBigGin()
    raise IllegalAction("invalid-plan", f"unknown rule {do!r}; 'do' is one of discard, knock, gin, big_gin")
