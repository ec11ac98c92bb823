"""marshmallow fields of the games' schemas: cards, seats, per-seat pairs, and the engine's own
records (open to fields a later engine adds) and JSON (dumped unchanged, documented precisely)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import doc
from ..core.openapi import DOC_KEY

CARD_PATTERN = "^[A2-9TJQK][CDHS]$"  # rank (A 2-9 T J Q K) then suit (C D H S), as the views write them
CARD = {"description": "A card: rank (A 2-9 T J Q K) then suit (C D H S)", "example": "7H"}


class Card(f.String):
    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {}).setdefault("description", CARD["description"])
        kwargs["metadata"].setdefault("example", CARD["example"])
        super().__init__(validate=v.Regexp(CARD_PATTERN, error="not a card: write rank then suit, like 7H or TD"),
                         **kwargs)


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
