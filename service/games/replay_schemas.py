"""The replay of a finished match (replay.py) as the API documents it."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f

from ..core.fields import doc
from .fields import EngineRecord, cards, seat_field
from .view_schemas import BothHandsSchema, MatchResultSchema, SheetLineSchema


class ReplayStepSchema(EngineRecord):
    """One deal or one move, and where the match stood after it."""
    hand = f.Integer(required=True, **doc("The hand the step belongs to: a deal begins it"))
    seat = seat_field("Who moved; null for a deal", required=True, allow_none=True)
    action = f.Dict(required=True, allow_none=True, **doc("The move as it was sent (an Action); null for a deal"))
    events = f.List(f.Dict(), required=True, **doc(
        "The events the step made, as GET /games/{game_id}/events gives them, with every seat's private "
        "part in the open: the match is over"))
    hands = f.Nested(BothHandsSchema, required=True, **doc("Both hands after the step"))
    discard_pile = cards("The discard pile after the step, bottom first")
    stock_count = f.Integer(required=True, **doc("Cards left in the stock"))
    sheet = f.List(f.Nested(SheetLineSchema), required=True, **doc("The score sheet as it stood"))


class ReplaySchema(ma.Schema):
    """A finished two-seat match move by move, replayed through the rules engine from its decks."""
    game_id = f.String(required=True)
    players = f.List(f.String(allow_none=True), required=True, **doc("The seats' names, seat 0's first"))
    rules = f.Dict(required=True, **doc("The game's rules, as in GameView"))
    first_dealer = seat_field("Who dealt the first hand", required=True)
    steps = f.List(f.Nested(ReplayStepSchema), required=True, **doc("Every deal and move, in order"))
    result = f.Nested(MatchResultSchema, required=True, **doc("How the match ended"))
