"""The view of a game of 3, 4, 6 or 8 seats (service/games/table_game.py), for the contract.

A table's view is the engine's `Table.view` (docs/engine-api.md, "Tables") plus the game's envelope
(as a two-seat view's) and what the service numbers: each board's deal and its commitment, and
`on_clock`. Seats are table seats (0..n-1) everywhere but inside `my_board.view`, which is the
two-player view of the caller's own board in that board's local seats 0 and 1 (`my_board.seats`
maps them back). Documented as the `TableView` component; responses that carry a view are
`GameView` (two seats) or `TableView` (told apart by `kind`: `game` or `table`).
"""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import doc
from ..core.openapi import ref
from .event_schemas import EventBase, event_type
from .fields import Card, Documented, EngineRecord, cards, view_kind
from .table_game import MAX_SEAT, SEAT_COUNTS
from .view_schemas import (
    HAND_RESULTS,
    PHASES,
    STATUSES,
    ArrangementSchema,
    OpponentSchema,
    RevealedDealSchema,
)

FORMATS = ("rotation", "partnership")
SEATS = v.Range(0, MAX_SEAT)
TABLE_SEAT_COUNTS = tuple(n for n in SEAT_COUNTS if n > 2)


def table_seat(description: str, **kwargs) -> f.Integer:
    return f.Integer(validate=SEATS, **doc(description), **kwargs)


def seat_list(description: str, **kwargs) -> f.List:
    return f.List(f.Integer(validate=SEATS), **doc(description), **kwargs)


def per_side(description: str) -> f.List:
    """A number per side: [side 0's, side 1's, ...] (three sides in a rotation, two in a partnership)."""
    return f.List(f.Integer(), required=True, validate=v.Length(2, 3), **doc(description))


class TablePlayerSchema(ma.Schema):
    seat = table_seat("The seat", required=True)
    name = f.String(required=True, allow_none=True, **doc("null until the seat is taken"))


class BoardSeatViewSchema(EngineRecord):
    """The caller's own board as a two-player view, in the board's local seats 0 and 1: the caller's
    own hand only (never the opponent's, never a partner's)."""
    seat = f.Integer(required=True, validate=v.Range(0, 1), **doc("The caller's local seat on the board"))
    phase = f.String(required=True, validate=v.OneOf(PHASES))
    to_move = f.Integer(required=True, allow_none=True, validate=v.Range(0, 1), **doc("Local seat to move"))
    dealer = f.Integer(required=True, allow_none=True, validate=v.Range(0, 1), **doc("Local seat dealing"))
    hand_number = f.Integer(required=True, **doc("The board's own count: see the board's `deal` for the game's"))
    hand = cards("The caller's own cards, sorted")
    arrangement = f.Nested(ArrangementSchema, required=True, allow_none=True)
    opponent = f.Nested(OpponentSchema, required=True, **doc("The board opponent: a count and the cards "
                                                                  "seen taken from the pile"))
    discard_pile = cards("Bottom to top")
    stock_count = f.Integer(required=True)
    knock_limit = f.Integer(required=True)
    legal_actions = Documented({"type": "array", "items": ref("Action")}, required=True)
    can_resign = f.Boolean(required=True)


class MyBoardSchema(ma.Schema):
    board = f.Integer(required=True, **doc("Index into `boards`"))
    seats = seat_list("The table seats of the board's local seats 0 and 1", required=True,
                      validate=v.Length(2, 2))
    local_seat = f.Integer(required=True, validate=v.Range(0, 1))
    view = f.Nested(BoardSeatViewSchema, required=True)


class PublicBoardSchema(ma.Schema):
    """What everyone at the table sees of a board in play (the sitting-out player too)."""
    board = f.Integer(required=True)
    seats = seat_list("The two table seats playing on it", required=True, validate=v.Length(2, 2))
    phase = f.String(required=True, validate=v.OneOf(PHASES))
    to_move = table_seat("The table seat to move on this board; null when nobody is", required=True,
                         allow_none=True)
    dealer = table_seat("The table seat that dealt", required=True)
    hand_number = f.Integer(required=True, **doc("The board's own count of its hands"))
    card_counts = f.Dict(keys=f.String(), values=f.Integer(), required=True,
                         **doc("Cards held per table seat (keys are seat numbers as text)"))
    discard_pile = cards("Bottom to top")
    stock_count = f.Integer(required=True)
    knock_limit = f.Integer(required=True)
    deal = f.Integer(required=True, allow_none=True,
                     **doc("The game's number of this board's deal (as in revealed_deals and events' `hand`); "
                            "null until dealt"))
    deal_commitment = f.String(required=True, allow_none=True, validate=v.Regexp("^[0-9a-f]{64}$"),
                               **doc("SHA-256 commitment to this deal's deck order (as deal_commitment in "
                                      "a two-seat view); null until dealt"))
    deadline = f.String(allow_none=True, **doc(
        "When `to_move` must act: its own move clock, running since its own turn began and paused only by "
        "its own vacations; null when nobody is to move or the game has no move time"))


class TableGameFinalSchema(EngineRecord):
    """A closed game's score with its bonuses, a number per side."""
    winner = f.Integer(required=True, **doc("The side that won this game"))
    hand_points = per_side("Points from hands won")
    shutout_bonus = per_side("The shutout bonus (rules.shutout)")
    game_bonus = per_side("rules.game_bonus, to the winner")
    box_bonus = per_side("rules.box_bonus per hand won")
    totals = per_side("The sum of the above")
    margin = f.Integer(required=True)


class TableScoreGameSchema(EngineRecord):
    totals = per_side("Hand points so far, per side")
    hands_won = per_side("Hands won in this game, per side")
    closed = f.Boolean(required=True)
    final = f.Nested(TableGameFinalSchema, required=True, allow_none=True, **doc("Once closed"))


class TableHandRecordSchema(EngineRecord):
    """How a board's hand ended, in table seats, both hands shown (it is over)."""
    hand = f.Integer(required=True, **doc("The deal's number"))
    board = f.Integer(required=True)
    seats = seat_list("The two table seats that played it", required=True)
    dealer = table_seat("", required=True)
    result = f.String(required=True, validate=v.OneOf(HAND_RESULTS))
    winner = table_seat("null: a tie", required=True, allow_none=True)
    knocker = table_seat("", required=True, allow_none=True)
    points = f.Integer(required=True)
    hands = f.Dict(keys=f.String(), values=f.List(Card()), required=True,
                   **doc("Both hands as they ended, keyed by table seat (as text)"))


class TableSheetLineSchema(EngineRecord):
    """One decided hand (or, in teams of three or more, a round's team bonus: `hand` null)."""
    hand = f.Integer(required=True, allow_none=True, **doc("The n-th decided hand of the table"))
    board = f.Integer(**doc("The board it was played on"))
    seats = seat_list("The two table seats that played it")
    winner = table_seat("null: a tie", allow_none=True)
    side = f.Integer(required=True, allow_none=True, **doc("The side credited; null: nobody"))
    points = f.Integer(**doc("What the hand's winner scored"))
    games_credited = f.List(f.Integer(), required=True)
    round = f.Integer(**doc("A team bonus line only: the round it was won in (from 0)"))
    team_bonus = f.Integer(**doc("A team bonus line only: the points credited to `side` (team_bonus x "
                                  "(team_size - 2), when every member of the team won the round)"))


class TableScoresSchema(EngineRecord):
    games = f.List(f.Nested(TableScoreGameSchema), required=True, **doc("One game (three with Hollywood)"))
    hands_won = per_side("Hands won in the match, per side")
    sheet = f.List(f.Nested(TableSheetLineSchema), required=True)


class SettlementSchema(ma.Schema):
    payer = f.Integer(required=True, **doc("A side"))
    payee = f.Integer(required=True, **doc("A side"))
    points = f.Integer(required=True)


class TableResultSchema(EngineRecord):
    winner = f.Integer(required=True, allow_none=True, **doc("The winning side (index into `sides`)"))
    winner_seats = seat_list("The winning side's seats", required=True)
    reason = f.String(required=True, validate=v.OneOf(("target", "resign", "timeout")))
    totals = per_side("Final totals per side, bonuses included")
    hands_won = per_side("Hands won per side")
    target_reached_by = f.Integer(required=True, allow_none=True, **doc("The side that reached the target"))
    settlement = f.List(f.Nested(SettlementSchema), required=True, **doc("Every pair of sides: the lower pays"))


class TableViewSchema(ma.Schema):
    """The caller's view of a game of 3, 4, 6 or 8 seats (see the module's description)."""

    kind = view_kind("table")
    game_id = f.String(required=True)
    version = f.Integer(required=True, **doc("Increases with every change; also the ETag"))
    status = f.String(required=True, validate=v.OneOf(STATUSES))
    players = f.List(f.Nested(TablePlayerSchema), required=True, **doc("Every seat, in order"))
    deadline = f.String(required=True, allow_none=True, **doc(
        "The earliest deadline at the table: the seat `on_clock`'s, or null (each board's is `boards[].deadline`)"))
    my_deadline = f.String(required=True, allow_none=True, **doc(
        "The caller's own deadline while it is to move, else null"))
    deal_commitment = f.String(required=True, allow_none=True,
                               **doc("Always null at a table: each board carries its deal's commitment"))
    revealed_deals = f.List(f.Nested(RevealedDealSchema), required=True,
                            **doc("Deck order and salt of every finished deal (`hand` is the deal's number)"))
    format = f.String(required=True, validate=v.OneOf(FORMATS), **doc(
        "rotation: three players, one sitting out each hand, the winner plays the one who sat out; "
        "partnership: two teams of `team_size` (4, 6 or 8 players), seats 0, 2, 4.. against 1, 3, 5.., "
        "`team_size` boards played at once"))
    seat = table_seat("The caller's seat", required=True)
    seats = f.Integer(required=True, validate=v.OneOf(TABLE_SEAT_COUNTS), **doc("How many seats the table has"))
    sides = f.List(f.List(f.Integer(validate=SEATS)), required=True,
                   **doc("The seats of each side: [[0], [1], [2]] in a rotation, [[0, 2], [1, 3]] in a "
                        "partnership of four, [[0, 2, 4], [1, 3, 5]] of six, [[0, 2, 4, 6], [1, 3, 5, 7]] of eight"))
    side = f.Integer(required=True, **doc("The caller's side"))
    partners = seat_list("The caller's partners (none in a rotation)", required=True)
    to_move = seat_list("Every seat that may act now, one per board in play (see boards[].to_move for which "
                        "board)", required=True)
    needs_deal = f.List(f.Integer(), required=True, **doc("Boards waiting for a deal (dealt at once by the service)"))
    on_clock = table_seat("Of the seats to move, the one whose deadline is earliest (`deadline`); every seat to "
                          "move has its own (`boards[].deadline`)", required=True, allow_none=True)
    my_board = f.Nested(MyBoardSchema, required=True, allow_none=True,
                        **doc("The caller's own board; null while sitting out or waiting for the round"))
    boards = f.List(f.Nested(PublicBoardSchema, allow_none=True), required=True,
                    **doc("Every board's public state; null for a board that waits for the round or is over"))
    legal_actions = Documented({"type": "array", "items": ref("Action")}, required=True,
                               metadata={"description": "The caller's, on its own board; postable unchanged"})
    can_resign = f.Boolean(required=True, **doc("Resigning loses the match for the caller's whole side"))
    scores = f.Nested(TableScoresSchema, required=True)
    last_hand = f.Nested(TableHandRecordSchema, required=True, allow_none=True, **doc(
        "The last decided hand's record, in table seats"))
    result = f.Nested(TableResultSchema, required=True, allow_none=True, **doc("Once the match is over"))
    rules = Documented(ref("Rules"), required=True, metadata={"description": "Every rules option's value"})
    sitting_out = table_seat("rotation only: the seat sitting out this hand", allow_none=True)
    round = f.Integer(**doc("partnership only: the round in play, from 0 (each round pairs every player with "
                             "another opponent: in round r seat 2j plays seat 2((j + r) mod team_size) + 1); "
                             "a round's hands are scored when all its boards are decided"))
    team_size = f.Integer(**doc("partnership only: players per side (2, 3 or 4), and boards at once"))



# -- a table's own events (its boards' events are the two-seat ones, with `board` and `seats`) --

class TableHandEndEventSchema(EventBase):
    """A board's hand is decided: its record in table seats (the board's own hand_end precedes it)."""
    type = event_type("table_hand_end")
    record = f.Nested(TableHandRecordSchema, required=True)


class NextPairingEventSchema(EventBase):
    """rotation: who plays the next hand, and who sits out."""
    type = event_type("next_pairing")
    seats = seat_list("The two seats playing next", required=True, validate=v.Length(2, 2))
    sitting_out = table_seat("The seat sitting out next", required=True)


class TeamBonusSchema(ma.Schema):
    side = f.Integer(required=True)
    points = f.Integer(required=True)


class RoundEndEventSchema(EventBase):
    """partnership: every board of the round is decided and its hands are scored."""
    type = event_type("round_end")
    round = f.Integer(required=True)
    team_bonus = f.Nested(TeamBonusSchema, required=True, allow_none=True,
                          **doc("Teams of three or more, when every member won"))


TABLE_EVENT_SCHEMAS = {"table_hand_end": TableHandEndEventSchema, "next_pairing": NextPairingEventSchema,
                       "round_end": RoundEndEventSchema}
