"""marshmallow fields of the games' schemas: cards, seats, per-seat pairs, and the engine's own
records (open to fields a later engine adds) and JSON (dumped unchanged, documented precisely)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import doc, whole_number
from ..core.openapi import DOC_KEY
from ..rules import InvalidRules
from ..rules.options import ALL_OPTION_SPECS

CARD_PATTERN = "^[A2-9TJQK][CDHS]$"  # rank (A 2-9 T J Q K) then suit (C D H S), as the views write them
CARD = {"description": "A card: rank (A 2-9 T J Q K) then suit (C D H S)", "example": "7H"}


class Card(f.String):
    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {}).setdefault("description", CARD["description"])
        kwargs["metadata"].setdefault("example", CARD["example"])
        super().__init__(validate=v.Regexp(CARD_PATTERN, error="not a card: write rank then suit, like 7H or TD"),
                         **kwargs)


def view_kind(kind: str) -> f.String:
    """The property a view's union is discriminated on: "game" (two seats) or "table" (3 to 8)."""
    other = {"game": "table", "table": "game"}[kind]
    return f.String(required=True, validate=v.OneOf((kind,)), **doc(
        f"Always `{kind}` here (`{other}` in the other kind of view): switch on it to tell a two-seat "
        "game's view from a table's"))


def cards(description: str, **kwargs) -> f.List:
    return f.List(Card(), required=True, **doc(description), **kwargs)


def seat_field(description: str = "A seat: 0 (who created the game) or 1", **kwargs) -> f.Integer:
    return f.Integer(validate=v.Range(0, 1), **doc(description), **kwargs)


def pair(description: str) -> f.List:
    """A number per seat: [seat 0's, seat 1's]."""
    return f.List(f.Integer(), required=True, validate=v.Length(2, 2), **doc(description))


class EngineRecord(ma.Schema):
    """A record the rules engine writes (scores, hand and match results, events): open to fields a
    later engine adds (additionalProperties), which clients should ignore."""

    class Meta:
        unknown = ma.INCLUDE


class Documented(f.Raw):
    """Dumped unchanged (the engine's JSON is already the answer), documented as `schema`."""

    def __init__(self, schema, **kwargs):
        metadata = kwargs.pop("metadata", {})
        super().__init__(metadata={**metadata, DOC_KEY: schema}, **kwargs)


class RulesChoiceField(f.Dict):
    """A preset and the options to change, loaded loosely and judged by the engine, which names the
    option it refuses (invalid-option). A whole-number option is read as every integer field of a
    request is (core.fields.whole_number): 100.0 reaches the engine as 100, 100.5 is refused."""

    def _deserialize(self, value, attr, data, **kwargs):
        rules = super()._deserialize(value, attr, data, **kwargs)
        return {name: _option_value(name, given) for name, given in rules.items()}


def _option_value(name: str, value):
    if ALL_OPTION_SPECS.get(name, (None,))[0] is not int:
        return value  # the engine names an unknown option, and judges every other kind
    try:
        return whole_number(value)
    except ValueError as exc:
        raise InvalidRules(name, f"option {name!r} {exc}") from None
