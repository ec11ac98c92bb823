"""The replay of a finished match (replay.py, table_replay.py) as the API documents it: a
`GameReplay` (two seats) or a `TableReplay` (3 to 8), told apart by `kind` as the views are."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import doc
from ..core.openapi import ref
from .fields import EngineRecord, cards, seat_field
from .table_schemas import (
    FORMATS,
    PHASES,
    TABLE_SEAT_COUNTS,
    TablePlayerSchema,
    TableResultSchema,
    TableScoresSchema,
    seat_list,
    table_seat,
)
from .view_schemas import BothHandsSchema, MatchResultSchema, PlayerSchema, SheetLineSchema


def replay_kind(kind: str) -> f.String:
    other = {"game": "table", "table": "game"}[kind]
    return f.String(required=True, validate=v.OneOf((kind,)), **doc(
        f"Always `{kind}` here (`{other}` in the other kind of replay): switch on it"))


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


class GameReplaySchema(ma.Schema):
    """A finished two-seat match move by move, replayed through the rules engine from its decks."""
    kind = replay_kind("game")
    game_id = f.String(required=True)
    players = f.List(f.Nested(PlayerSchema), required=True, **doc(
        "The seats, seat 0's first, as GameView names them (the house bot's seat with its `level`)"))
    rules = f.Dict(required=True, **doc("The game's rules, as in GameView"))
    first_dealer = seat_field("Who dealt the first hand", required=True)
    steps = f.List(f.Nested(ReplayStepSchema), required=True, **doc("Every deal and move, in order"))
    result = f.Nested(MatchResultSchema, required=True, **doc("How the match ended"))


class ReplayBoardSchema(ma.Schema):
    """One board of a table as it stood after a step, in table seats."""
    board = f.Integer(required=True, **doc("Its index"))
    seats = seat_list("The two table seats playing on it", required=True)
    deal = f.Integer(required=True, allow_none=True, **doc("The deal in play on it (as revealed_deals number "
                                                           "them); null while it waits for its deal"))
    phase = f.String(required=True, validate=v.OneOf(PHASES))
    dealer = table_seat("Who deals (dealt) its hand", required=True)
    to_move = table_seat("Who is to move on it; null when nobody is", required=True, allow_none=True)
    hands = f.Dict(keys=f.String(), values=f.List(f.String()), required=True, **doc(
        "Both players' cards, keyed by table seat as a string"))
    discard_pile = cards("The discard pile, bottom first")
    stock_count = f.Integer(required=True, **doc("Cards left in its stock"))


class TableReplayStepSchema(ma.Schema):
    """One deal or one move at a table, and where every board stood after it."""
    deal = f.Integer(required=True, **doc("The last deal made so far (deals are numbered across the table)"))
    seat = table_seat("Who moved (a timeout: whose time ran out); null for a deal", required=True, allow_none=True)
    action = f.Dict(required=True, allow_none=True, **doc("The move as it was sent (an Action); null for a deal"))
    events = f.List(f.Dict(), required=True, **doc(
        "The events the step made, as GET /games/{game_id}/events gives them, with every seat's private "
        "part in the open: a board's `hand_end` shows both hands and the melds laid down"))
    boards = f.List(f.Nested(ReplayBoardSchema, allow_none=True), required=True, **doc(
        "Every board; null for one that waits for the round (a partnership's board whose hand is decided)"))
    sitting_out = table_seat("Three seats: who sits this hand out; null otherwise", required=True, allow_none=True)
    scores = f.Nested(TableScoresSchema, required=True, **doc("The table's scores and sheet as they stood"))


class TableReplaySchema(ma.Schema):
    """A finished table (3, 4, 6 or 8 seats) move by move, replayed through the rules engine from its decks."""
    kind = replay_kind("table")
    game_id = f.String(required=True)
    players = f.List(f.Nested(TablePlayerSchema), required=True, **doc("Every seat, in order, as TableView names them"))
    rules = f.Dict(required=True, **doc("The game's rules, as in TableView"))
    format = f.String(required=True, validate=v.OneOf(FORMATS))
    seats = f.Integer(required=True, validate=v.OneOf(TABLE_SEAT_COUNTS))
    sides = f.List(f.List(f.Integer()), required=True, **doc("The seats of each side, as in TableView"))
    steps = f.List(f.Nested(TableReplayStepSchema), required=True, **doc("Every deal and move, in order"))
    result = f.Nested(TableResultSchema, required=True, **doc("How the match ended"))


REPLAY_DOC = {"description": "GameReplay for a two-seat match (`kind`: game), TableReplay for 3, 4, 6 or 8 "
                             "seats (`kind`: table)",
              "oneOf": [ref("GameReplay"), ref("TableReplay")],
              "discriminator": {"propertyName": "kind", "mapping": {"game": ref("GameReplay")["$ref"],
                                                                    "table": ref("TableReplay")["$ref"]}}}
