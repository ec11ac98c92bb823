"""The tournaments' events on a player's stream (GET /me/stream): their `data:` JSON, one schema per
type. The app joins them with the players' and series' in the `PlayerStreamEvent` union."""
from __future__ import annotations

from marshmallow import fields as f

from ..core.fields import doc
from ..games.event_schemas import event_type
from ..players.stream_schemas import PlayerEventBase


class TournamentStartedEventSchema(PlayerEventBase):
    """A tournament you entered has started: its rounds follow."""
    type = event_type("tournament_started")
    tournament_id = f.String(required=True)
    name = f.String(required=True)
    format = f.String(required=True)
    rounds = f.Integer(required=True)
    entrants = f.Integer(required=True)


class RoundStartedEventSchema(PlayerEventBase):
    """A round of a tournament you play has started: your new game (its game_started and your_turn come
    too), or a bye."""
    type = event_type("round_started")
    tournament_id = f.String(required=True)
    round = f.Integer(required=True)
    game_id = f.String(required=True, allow_none=True, **doc("Your game this round; null: a bye (a walkover)"))
    series_id = f.String(required=True, allow_none=True, **doc("A knockout pairing of several matches"))
    opponent = f.String(required=True, allow_none=True)
    bye = f.Boolean(required=True)
    deadline = f.String(required=True, allow_none=True, **doc("The round's deadline (ISO 8601); null: none"))


class TournamentOverEventSchema(PlayerEventBase):
    """A tournament you entered is over: your final place."""
    type = event_type("tournament_over")
    tournament_id = f.String(required=True)
    name = f.String(required=True)
    place = f.Integer(required=True)
    entrants = f.Integer(required=True)


class TournamentCancelledEventSchema(PlayerEventBase):
    """A tournament you entered was cancelled before it started."""
    type = event_type("tournament_cancelled")
    tournament_id = f.String(required=True)
    name = f.String(required=True)
    reason = f.String(required=True)


TOURNAMENT_STREAM_SCHEMAS = {"tournament_started": TournamentStartedEventSchema,
                             "round_started": RoundStartedEventSchema,
                             "tournament_over": TournamentOverEventSchema,
                             "tournament_cancelled": TournamentCancelledEventSchema}
