"""The history (GET /games/{id}/events): one schema per event type, as this seat may see it. A
table's own events are in table_schemas.py; the app joins both in the `Event` union."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import doc
from ..core.openapi import ref
from .fields import Card, Documented, EngineRecord, seat_field
from .table_game import MAX_SEAT
from .view_schemas import CutCardsSchema, HandRecordSchema, SeatCardsSchema


class EventBase(EngineRecord):
    seq = f.Integer(required=True, **doc("Sequence number, from 1, unique within the game"))
    hand = f.Integer(required=True, **doc("The hand it belongs to (at a table: the deal's number; "
                                           "for an event of the whole table, the latest deal)"))
    board = f.Integer(**doc("Tables only: the board the event happened on. A board's events "
                             "name its players by their local seats 0 and 1 (`seat`, the keys of `cards`, "
                             "the hand record), which `seats` maps to table seats"))
    seats = f.List(f.Integer(validate=v.Range(0, MAX_SEAT)), validate=v.Length(2, 2),
                   **doc("Tables only: the table seats of the board's local seats 0 and 1"))


def event_type(name: str) -> f.String:
    return f.String(required=True, validate=v.OneOf((name,)))


class SeatEventBase(EventBase):
    seat = f.Integer(required=True, validate=v.Range(0, MAX_SEAT), **doc(
        "The seat that acted: 0 or 1 (on a table's board, the local seat; a table's resign or timeout "
        "names the table seat, 0 to 7)"))


class DealEventSchema(EventBase):
    """A hand was dealt."""
    type = event_type("deal")
    dealer = seat_field(required=True)
    upcard = Card(required=True, allow_none=True, metadata={
        "description": "The first card of the discard pile; null with a second-deck knock card (no upcard)"})
    knock_card = Card(metadata={"description": "knock_card second_deck only: the card turned from the second deck"})
    stock_count = f.Integer(required=True)
    knock_limit = f.Integer(required=True, **doc("This hand's (Oklahoma: the upcard's value, or the knock card's)"))
    cards = f.Nested(SeatCardsSchema, required=True,
                     **doc("The cards dealt: your own; the opponent's once the hand is over"))


class CutEventSchema(EventBase):
    """One try of the cut for the first dealer (rules first_dealer_by), before the first deal
    (`hand` 0): the card each seat drew, shown to both."""
    type = event_type("cut")
    cards = f.Nested(CutCardsSchema, required=True, **doc("Each seat's card, by seat"))
    outcome = f.String(required=True, validate=v.OneOf(("deals", "chooses", "tie")), **doc(
        "deals: `dealer` deals first (001, the lower card); chooses: `chooser` chooses who deals (002, the "
        "higher card); tie: cards of one rank under 001, cut again"))
    dealer = seat_field("With outcome deals", required=True, allow_none=True)
    chooser = seat_field("With outcome chooses", required=True, allow_none=True)


class ChooseDealerEventSchema(SeatEventBase):
    """The higher card of 002's cut chose who deals first."""
    type = event_type("choose_dealer")
    deal = f.Boolean(required=True, **doc("Whether the chooser deals"))
    dealer = seat_field("Who deals the first hand", required=True)


class TakeUpcardEventSchema(SeatEventBase):
    type = event_type("take_upcard")
    card = Card(required=True)


class PassEventSchema(SeatEventBase):
    type = event_type("pass")


class DrawEventSchema(SeatEventBase):
    type = event_type("draw")
    from_ = f.String(data_key="from", attribute="from", required=True, validate=v.OneOf(("stock", "discard")))
    card = Card(metadata={"description": "Always from the discard pile; from the stock only for the "
                                         "drawer, or once the hand is over"})
    stock_count = f.Integer(**doc("From the stock only: the cards left in it"))
    count = f.Integer(**doc("Mahjong gin: how many cards were taken from the discard pile"))
    cards = f.List(Card(), **doc("Mahjong gin: the cards taken from the discard pile"))


class DiscardEventSchema(SeatEventBase):
    type = event_type("discard")
    card = Card(required=True)


class MeldEventSchema(SeatEventBase):
    """Mahjong gin: a meld put on the table."""
    type = event_type("meld")
    cards = f.List(Card(), required=True)


class AddOnEventSchema(SeatEventBase):
    """Mahjong gin: a card added to a meld on the table."""
    type = event_type("add_on")
    card = Card(required=True)
    meld = f.Integer(required=True, **doc("Which meld on the table (0 first)"))


class KnockEventSchema(SeatEventBase):
    type = event_type("knock")
    discard = Card(metadata={"description": "The face-down discard: the knocker's own, everyone's once the "
                                            "hand is over"})


class BigGinEventSchema(SeatEventBase):
    type = event_type("big_gin")


class HandEndEventSchema(EventBase):
    type = event_type("hand_end")
    record = f.Nested(HandRecordSchema, required=True)


class HandVoidEventSchema(EventBase):
    type = event_type("hand_void")
    record = f.Nested(HandRecordSchema, required=True)


class ResignEventSchema(SeatEventBase):
    type = event_type("resign")


class TimeoutEventSchema(SeatEventBase):
    """The seat named ran out of time and its opponent claimed the match."""
    type = event_type("timeout")


class MatchEndEventSchema(EventBase):
    type = event_type("match_end")
    result = Documented({"anyOf": [ref("MatchResult"), ref("TableResult")]}, required=True, metadata={
        "description": "The match's result (a table's: TableResult, by side)"})


EVENT_SCHEMAS = {"deal": DealEventSchema, "take_upcard": TakeUpcardEventSchema, "pass": PassEventSchema,
                 "draw": DrawEventSchema, "discard": DiscardEventSchema, "knock": KnockEventSchema,
                 "big_gin": BigGinEventSchema, "hand_end": HandEndEventSchema, "hand_void": HandVoidEventSchema,
                 "resign": ResignEventSchema, "timeout": TimeoutEventSchema, "match_end": MatchEndEventSchema,
                 "meld": MeldEventSchema, "add_on": AddOnEventSchema, "cut": CutEventSchema,
                 "choose_dealer": ChooseDealerEventSchema}


class EventsPageSchema(ma.Schema):
    events = Documented({"type": "array", "items": ref("Event")}, required=True,
                        metadata={"description": "Events in order, as this seat may see them"})
    next_after = f.Integer(required=True, allow_none=True,
                           **doc("Pass as ?after= for the next page; null when none is left"))
