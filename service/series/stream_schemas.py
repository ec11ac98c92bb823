"""The series' events on a player's stream (GET /me/stream): their `data:` JSON, one schema per
type. The app joins them with the players' own (service/players/stream_schemas.py) in the
`PlayerStreamEvent` union."""
from __future__ import annotations

from marshmallow import fields as f

from ..core.fields import doc
from ..games.event_schemas import event_type
from ..players.stream_schemas import PlayerEventBase


class SeriesOfferedEventSchema(PlayerEventBase):
    """A player offers you a series: accept or decline it."""
    type = event_type("series_offered")
    series_id = f.String(required=True)
    by = f.String(required=True, **doc("Who offers it"))


class SeriesDeclinedEventSchema(PlayerEventBase):
    """A series was declined (by the player offered it) or withdrawn (by its offerer) before it started."""
    type = event_type("series_declined")
    series_id = f.String(required=True)
    by = f.String(required=True, **doc("Who declined or withdrew it"))


class SeriesOverEventSchema(PlayerEventBase):
    """A series you play is decided: no further game is made."""
    type = event_type("series_over")
    series_id = f.String(required=True)
    winner = f.String(required=True, allow_none=True, **doc("The series' winner; null: a draw"))


SERIES_STREAM_SCHEMAS = {"series_offered": SeriesOfferedEventSchema, "series_declined": SeriesDeclinedEventSchema,
                         "series_over": SeriesOverEventSchema}
