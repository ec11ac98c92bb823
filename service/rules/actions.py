"""Actions as frozen dataclasses, with the JSON form the API accepts and lists."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, parse_cards
from .errors import IllegalAction
from .melds import Meld


class Action:
    type: str = ""

    def to_dict(self) -> dict:
        return {"type": self.type}


@dataclass(frozen=True)
class TakeUpcard(Action):
    type = "take_upcard"


@dataclass(frozen=True)
class Pass(Action):
    type = "pass"


@dataclass(frozen=True)
class Draw(Action):
    source: str  # "stock" or "discard"
    count: int = 1  # Mahjong gin: several cards from the top of the discard pile
    type = "draw"

    def __post_init__(self):
        if self.source not in ("stock", "discard"):
            raise IllegalAction("invalid-action", f"draw from 'stock' or 'discard', not {self.source!r}")
        if type(self.count) is not int or self.count < 1:
            raise IllegalAction("invalid-action", f"draw count must be a whole number from 1, not {self.count!r}")

    def to_dict(self) -> dict:
        data = {"type": self.type, "from": self.source}
        if self.count != 1:
            data["count"] = self.count
        return data


@dataclass(frozen=True)
class Discard(Action):
    card: Card
    type = "discard"

    def to_dict(self) -> dict:
        return {"type": self.type, "card": str(self.card)}


@dataclass(frozen=True)
class Knock(Action):
    discard: Card
    melds: tuple[Meld, ...] | None = None  # None: the engine lays out the best arrangement
    type = "knock"

    def to_dict(self) -> dict:
        data: dict[str, Any] = {"type": self.type, "discard": str(self.discard)}
        if self.melds is not None:
            data["melds"] = [m.to_list() for m in self.melds]
        return data


@dataclass(frozen=True)
class LayMeld(Action):
    """Mahjong gin: put a meld from the hand on the table."""
    cards: tuple[Card, ...]
    type = "meld"

    def to_dict(self) -> dict:
        return {"type": self.type, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True)
class AddOn(Action):
    """Mahjong gin: add a card from the hand to a meld on the table (anyone's), by its index."""
    card: Card
    meld: int
    type = "add_on"

    def to_dict(self) -> dict:
        return {"type": self.type, "card": str(self.card), "meld": self.meld}


@dataclass(frozen=True)
class BigGin(Action):
    type = "big_gin"


@dataclass(frozen=True)
class Resign(Action):
    type = "resign"


@dataclass(frozen=True)
class ChooseDealer(Action):
    """002's cut: the higher card's player deals first (`deal` true) or lets the other deal."""
    deal: bool
    type = "choose_dealer"

    def __post_init__(self):
        if type(self.deal) is not bool:
            raise IllegalAction("invalid-action", f"choose_dealer needs 'deal': true or false, not {self.deal!r}")

    def to_dict(self) -> dict:
        return {"type": self.type, "deal": self.deal}


_FIELDS = {
    "take_upcard": set(), "pass": set(), "big_gin": set(), "resign": set(),
    "draw": {"from", "count"}, "discard": {"card"}, "knock": {"discard", "melds"},
    "meld": {"cards"}, "add_on": {"card", "meld"}, "choose_dealer": {"deal"},
}


def _card(data: dict, key: str) -> Card:
    if key not in data:
        raise IllegalAction("invalid-action", f"{data.get('type')} needs a {key!r} card")
    try:
        return Card.parse(data[key])
    except ValueError as exc:
        raise IllegalAction("invalid-action", f"{key}: {exc}") from None


def _melds(raw: Any) -> tuple[Meld, ...]:
    if not isinstance(raw, list) or not all(isinstance(m, list) for m in raw):
        raise IllegalAction("invalid-action", "melds must be a list of lists of cards")
    melds = []
    for group in raw:
        try:
            cards = parse_cards(group)
        except ValueError as exc:  # not a card at all: malformed, not against the rules
            raise IllegalAction("invalid-action", f"melds: {exc}") from None
        try:
            # The most lenient runs here; the match checks each meld against its own rules.
            melds.append(Meld(cards, "round_the_corner"))
        except ValueError as exc:
            raise IllegalAction("invalid-meld", str(exc)) from None
    return tuple(melds)


def _whole(value: Any) -> Any:
    """A JSON number with no fractional part as an int (JSON, and JSON Schema's `integer`, make
    no difference between 3 and 3.0); anything else unchanged, for the caller to refuse."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def action_from_dict(data: Any) -> Action:
    """Read an action from its JSON form; anything malformed is an `invalid-action`."""
    if not isinstance(data, dict):
        raise IllegalAction("invalid-action", "an action must be a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise IllegalAction("invalid-action", f"unknown action type {kind!r}; one of {', '.join(_FIELDS)}")
    extra = set(data) - {"type"} - _FIELDS[kind]
    if extra:
        raise IllegalAction("invalid-action", f"{kind} takes no field {sorted(extra)[0]!r}")
    if kind == "draw":
        if not isinstance(data.get("from"), str):
            raise IllegalAction("invalid-action", "draw needs 'from': 'stock' or 'discard'")
        return Draw(data["from"], _whole(data.get("count", 1)))
    if kind == "discard":
        return Discard(_card(data, "card"))
    if kind == "meld":
        if not isinstance(data.get("cards"), list):
            raise IllegalAction("invalid-action", "meld needs 'cards': a list of cards")
        try:
            return LayMeld(tuple(sorted(parse_cards(data["cards"]))))
        except ValueError as exc:
            raise IllegalAction("invalid-action", f"cards: {exc}") from None
    if kind == "add_on":
        meld = _whole(data.get("meld"))
        if type(meld) is not int:
            raise IllegalAction("invalid-action", "add_on needs 'meld': the index of a meld on the table")
        return AddOn(_card(data, "card"), meld)
    if kind == "choose_dealer":
        return ChooseDealer(data.get("deal"))
    if kind == "knock":
        melds = _melds(data["melds"]) if data.get("melds") is not None else None
        return Knock(_card(data, "discard"), melds)
    return {"take_upcard": TakeUpcard, "pass": Pass, "big_gin": BigGin, "resign": Resign}[kind]()
