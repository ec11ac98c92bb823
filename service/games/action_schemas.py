"""The actions a seat posts (POST /games/{id}/actions), one schema per type: the `Action` union of
openapi.yaml, and the one judge of an action's form (`action_errors`)."""
from __future__ import annotations

import functools
import re

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import StrictSchema, WholeNumber, doc
from .fields import CARD_PATTERN, Card


def action_type(name: str) -> f.String:
    return f.String(required=True, validate=v.OneOf((name,)), **doc("The kind of action"))


class TakeUpcardActionSchema(StrictSchema):
    """Take the upcard (the first turn's offer)."""
    type = action_type("take_upcard")


class PassActionSchema(StrictSchema):
    """Pass the upcard, or the last discard when the stock has run down."""
    type = action_type("pass")


class DrawActionSchema(StrictSchema):
    """Draw the top card of the stock or of the discard pile."""
    type = action_type("draw")
    from_ = f.String(data_key="from", attribute="from", required=True, validate=v.OneOf(("stock", "discard")),
                     **doc("Where to draw from"))
    count = WholeNumber(validate=v.Range(1, 52), **doc(
        "Mahjong gin only: how many cards to take from the top of the discard pile (default 1)"))


class DiscardActionSchema(StrictSchema):
    """Discard a card, ending the turn."""
    type = action_type("discard")
    card = Card(required=True, metadata={"description": "The card to discard"})


class KnockActionSchema(StrictSchema):
    """Knock (or go gin), discarding a card face down."""
    type = action_type("knock")
    discard = Card(required=True, metadata={"description": "The card discarded face down", "example": "KD"})
    melds = f.List(f.List(Card()), allow_none=True, **doc(
        "Optional: the knocker's melds; left out (or null), the engine lays out the best",
        example=[["7C", "8C", "9C"]]))


class MeldActionSchema(StrictSchema):
    """Mahjong gin: put a meld from the hand on the table."""
    type = action_type("meld")
    cards = f.List(Card(), required=True, validate=v.Length(3, 11), **doc("The meld's cards",
                                                                          example=["7C", "8C", "9C"]))


class AddOnActionSchema(StrictSchema):
    """Mahjong gin: add a card to one of your melds on the table."""
    type = action_type("add_on")
    card = Card(required=True, metadata={"description": "The card to add"})
    meld = WholeNumber(required=True, validate=v.Range(0, 20),
                     **doc("Which meld on the table (an index into the view's `table`, 0 first)"))


class BigGinActionSchema(StrictSchema):
    """Declare Big Gin: all 11 cards meld."""
    type = action_type("big_gin")


class ResignActionSchema(StrictSchema):
    """Give up the match (the opponent wins); allowed whenever the match goes on."""
    type = action_type("resign")


class ChooseDealerActionSchema(StrictSchema):
    """Rules first_dealer_by cut_higher_chooses (002): the higher card of the cut deals first or not."""
    type = action_type("choose_dealer")
    deal = f.Boolean(required=True, truthy={True}, falsy={False}, **doc("true: I deal the first hand; false: the other seat does"))


class ClaimTimeoutActionSchema(StrictSchema):
    """The waiting seat claims the match once the opponent's deadline has passed."""
    type = action_type("claim_timeout")


ACTION_SCHEMAS = {"take_upcard": TakeUpcardActionSchema, "pass": PassActionSchema, "draw": DrawActionSchema,
                  "discard": DiscardActionSchema, "knock": KnockActionSchema, "big_gin": BigGinActionSchema,
                  "resign": ResignActionSchema, "claim_timeout": ClaimTimeoutActionSchema,
                  "meld": MeldActionSchema, "add_on": AddOnActionSchema, "choose_dealer": ChooseDealerActionSchema}
ACTION_TYPES = tuple(ACTION_SCHEMAS)


def action_errors(body) -> str | None:
    """What is wrong with an action's form (None when it is well formed), judged by the very
    schemas openapi.yaml documents: the HTTP API takes exactly the actions its spec describes."""
    if not isinstance(body, dict):
        return "an action must be a JSON object with a 'type'"
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in ACTION_SCHEMAS:
        return f"unknown action type {kind!r}; one of {', '.join(ACTION_TYPES)}"
    if _plainly_well_formed(kind, body):
        return None
    try:
        _action_schema(kind).load(body)
    except ma.ValidationError as exc:
        return f"{kind}: " + "; ".join(f"{field}: {' '.join(map(str, _flat(messages)))}"
                                       for field, messages in exc.normalized_messages().items())
    return None


_CARD_MATCH = re.compile(CARD_PATTERN).match  # as v.Regexp matches it


def _plainly_well_formed(kind: str, body: dict) -> bool:
    """The moves of almost every turn, in exactly the form their schemas accept, seen without
    loading them (a tenth of a move's request path); any other body is judged by the schema."""
    if kind == "draw":
        return len(body) == 2 and body.get("from") in ("stock", "discard")
    if kind == "discard":
        card = body.get("card")
        return len(body) == 2 and isinstance(card, str) and _CARD_MATCH(card) is not None
    return kind == "pass" and len(body) == 1


@functools.cache
def _action_schema(kind: str) -> ma.Schema:
    """One instance per action type for the process (a marshmallow Schema costs more to build
    than to load with; its load keeps no state between calls)."""
    return ACTION_SCHEMAS[kind]()


def _flat(messages):
    if isinstance(messages, dict):
        for value in messages.values():
            yield from _flat(value)
    elif isinstance(messages, list):
        for value in messages:
            yield from _flat(value)
    else:
        yield messages
