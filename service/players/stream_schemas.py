"""What each event of GET /me/stream carries as its `data:` JSON: one schema per event type, `type`
naming it (the frame's `event:` too). The app joins them, with the series' own events
(service/series/stream_schemas.py), in the `PlayerStreamEvent` union (service/app/spec.py), so a
generated client has a type per event and can switch on `type`."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import doc
from ..core.openapi import ref
from ..games.event_schemas import event_type
from ..games.fields import Documented
from ..games.message_schemas import MessageSchema
from ..games.schemas import VIEW_DOC
from ..games.table_game import MAX_SEAT
from .challenges import DECLINE_REASONS
from .rating_schemas import RatingChangeSchema, TableRatingChangeSchema
from .schemas import RULES, ChallengeSchema


class PlayerEventBase(ma.Schema):
    seq = f.Integer(required=True, **doc("The event's number in your stream, from 1 with no gaps: the frame's `id`"))
    created_at = f.String(required=True, **doc("When it happened (ISO 8601)"))


class GameEventBase(PlayerEventBase):
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=v.Range(0, MAX_SEAT), **doc("Your seat in that game"))
    version = f.Integer(required=True, **doc("The game's version after the change"))


class ChallengeReceivedEventSchema(PlayerEventBase):
    """A player challenged you by name."""
    type = event_type("challenge_received")
    challenge = f.Nested(ChallengeSchema, required=True)


class ChallengeAcceptedEventSchema(PlayerEventBase):
    """Your challenge (or rematch) was accepted: the game is made."""
    type = event_type("challenge_accepted")
    challenge_id = f.String(required=True)
    game_id = f.String(required=True, **doc("The game it made"))
    by = f.String(required=True, **doc("Who accepted"))


class ChallengeDeclinedEventSchema(PlayerEventBase):
    """Your challenge (or a rematch you are in) was declined."""
    type = event_type("challenge_declined")
    challenge_id = f.String(required=True)
    by = f.String(required=True, **doc("Who declined"))
    reason = f.String(required=True, validate=v.OneOf(DECLINE_REASONS))
    rematch_of = f.String(required=True, allow_none=True, **doc("A rematch: the finished game it follows"))


class ChallengeCancelledEventSchema(PlayerEventBase):
    """A challenge to you (or a rematch you were offered) was withdrawn."""
    type = event_type("challenge_cancelled")
    challenge_id = f.String(required=True)


class SeatRematchOfferSchema(ma.Schema):
    """A seat rematch offered to you (POST /games/{game_id}/seat-rematch): what accepting takes."""
    game_id = f.String(required=True, **doc("The rematch's game, whose seat 1 is yours by accepting"))
    offered_by = f.Integer(required=True, validate=v.Range(0, 1), **doc("The seat that offered it"))
    by = f.String(required=True, allow_none=True, **doc("The offering seat's name"))
    accept = f.String(required=True, **doc(
        "Where to accept: POST it with your token of the finished game (or your player token)"))


class RematchOfferedEventSchema(PlayerEventBase):
    """The other side of a finished game offers a rematch. Between players it is a challenge
    (`challenge`: accept or decline it); where the other seat is no player's, a seat rematch
    (`seat_rematch`: accept it at its `accept`). Exactly one of the two is present."""
    type = event_type("rematch_offered")
    game_id = f.String(required=True, **doc("The finished game"))
    challenge = f.Nested(ChallengeSchema, **doc("A rematch between players: the challenge to accept"))
    seat = f.Integer(validate=v.Range(0, 1), **doc("A seat rematch: your seat in the finished game"))
    seat_rematch = f.Nested(SeatRematchOfferSchema, **doc("A seat rematch: what accepting it takes"))


class GameRematchOfferedEventSchema(ma.Schema):
    """The `rematch_offered` event of GET /games/{game_id}/stream: at a finished two-seat match whose
    seats are not both players', the other seat offered a seat rematch. Sent after the final view,
    at the version the offer made; the stream then ends (accept or decline it by POST)."""
    event = event_type("rematch_offered")
    game_id = f.String(required=True, **doc("The finished game"))
    seat = f.Integer(required=True, validate=v.Range(0, 1), **doc("Your seat in it"))
    seat_rematch = f.Nested(SeatRematchOfferSchema, required=True)


class GameRematchDeclinedEventSchema(ma.Schema):
    """The `rematch_declined` event of GET /games/{game_id}/stream: the seat rematch this seat offered
    was declined by the other seat (POST /games/{game_id}/seat-rematch/decline). Sent after the final
    view, at the version the decline made; the stream then ends."""
    event = event_type("rematch_declined")
    game_id = f.String(required=True, **doc("The finished game"))
    seat = f.Integer(required=True, validate=v.Range(0, 1), **doc("Your seat in it: the one that offered"))
    by = f.String(required=True, allow_none=True, **doc("The declining seat's name"))
    reason = f.String(required=True, allow_none=True, validate=v.OneOf(DECLINE_REASONS), **doc(
        "The reason code it gave; null when none"))


class GameStartedEventSchema(GameEventBase):
    """A game you hold a seat of was dealt its first hand."""
    type = event_type("game_started")
    opponent = f.String(required=True, allow_none=True, **doc("The other seat's name; null at a table"))
    rules = f.Raw(required=True, **RULES)
    players = f.List(f.String(allow_none=True), **doc("Tables only: the names by seat"))


class YourTurnEventSchema(GameEventBase):
    """It is your move (after each change that leaves you to move, your own draw included)."""
    type = event_type("your_turn")
    view = Documented(VIEW_DOC, required=True, metadata={"description": "Your view, as GET /games/{game_id} "
                                                                        "answers it"})


class OpponentMovedEventSchema(GameEventBase):
    """Another seat moved."""
    type = event_type("opponent_moved")
    events = Documented({"type": "array", "items": ref("Event")}, required=True, metadata={
        "description": "What happened, as GET /games/{game_id}/events shows it to you"})


class GameOverEventSchema(GameEventBase):
    """The match is over."""
    type = event_type("game_over")
    result = Documented({"anyOf": [ref("MatchResult"), ref("TableResult")]}, required=True, metadata={
        "description": "The match's result (a table's: TableResult, by side)"})
    rating_change = f.Nested(RatingChangeSchema, **doc(
        "A rated two-seat match only: what it did to your rating (GET /me shows the rating now)"))
    table_rating_change = f.Nested(TableRatingChangeSchema, **doc(
        "A rated table only: what it did to your table rating (GET /me shows it now)"))


class MessageWrittenEventSchema(GameEventBase):
    """A seat of a game you hold a seat of wrote a message (you too: your other devices hear it). A
    player you blocked: none of theirs."""
    type = event_type("message")
    message = f.Nested(MessageSchema, required=True, **doc("As GET /games/{game_id}/messages lists it"))


PLAYER_STREAM_SCHEMAS = {
    "challenge_received": ChallengeReceivedEventSchema, "challenge_accepted": ChallengeAcceptedEventSchema,
    "challenge_declined": ChallengeDeclinedEventSchema, "challenge_cancelled": ChallengeCancelledEventSchema,
    "game_started": GameStartedEventSchema, "your_turn": YourTurnEventSchema,
    "opponent_moved": OpponentMovedEventSchema, "game_over": GameOverEventSchema,
    "rematch_offered": RematchOfferedEventSchema, "message": MessageWrittenEventSchema}
# The players' events on a game's own stream (GET /games/{game_id}/stream), beside its `view`.
GAME_STREAM_SCHEMAS = {"rematch_offered": GameRematchOfferedEventSchema,
                       "rematch_declined": GameRematchDeclinedEventSchema}
