"""The components of openapi.yaml that name every feature's schemas: the rules as JSON Schema, the
`Action` and `Event` unions, the streams' event unions (`GameStreamEvent`, `PlayerStreamEvent`), the views a `$ref` names, and the /openapi.json path flask-smorest
serves itself. Registered before anything else is documented (core.errors.ProblemApi calls it)."""
from __future__ import annotations

from werkzeug.routing import Rule

from ..coach.events import COACH_GAME_STREAM_SCHEMAS, COACH_STREAM_SCHEMAS
from ..core.openapi import union
from ..games.action_schemas import ACTION_SCHEMAS
from ..games.event_schemas import EVENT_SCHEMAS
from ..games.replay_schemas import GameReplaySchema, TableReplaySchema
from ..games.schemas import rules_schema
from ..games.stream_docs import (
    GAME_STREAM_EVENTS,
    VIEW_EVENT,
    GameViewEventSchema,
    TableViewEventSchema,
    frame,
)
from ..games.table_schemas import (
    TABLE_EVENT_SCHEMAS,
    TableResultSchema,
    TableViewSchema,
)
from ..games.view_schemas import GameViewSchema, MatchResultSchema
from ..players.schemas import PublicTableViewSchema, PublicViewSchema
from ..players.stream_schemas import GAME_STREAM_SCHEMAS, PLAYER_STREAM_SCHEMAS
from ..series.stream_schemas import SERIES_STREAM_SCHEMAS
from ..tournaments.stream_schemas import TOURNAMENT_STREAM_SCHEMAS


def register(spec, ma_plugin) -> None:
    """Called once per app when flask-smorest builds the spec (core.errors.ProblemApi)."""
    converter = ma_plugin.converter
    spec.components.schema("Rules", component={
        **rules_schema(all_required=True), "description": "Every rules option's value, plus the preset"})
    spec.components.schema("RulesChoice", component={
        **rules_schema(all_required=False),
        "description": "A preset and the options to change; each option left out takes the preset's value"})
    spec.path(rule=Rule("/openapi.json"), operations={"get": {  # served by flask-smorest itself
        "operationId": "getOpenapiJson", "tags": ["service"],
        "summary": "The contract as JSON: the same document as /openapi.yaml.",
        "responses": {"200": {"description": "This OpenAPI document",
                              "content": {"application/json": {"schema": {"type": "object"}}}},
                      "default": {"$ref": "#/components/responses/DEFAULT_ERROR"}}}})
    for schema in (GameViewSchema, TableViewSchema, MatchResultSchema, TableResultSchema, PublicViewSchema,
                   PublicTableViewSchema, GameReplaySchema, TableReplaySchema):
        converter.resolve_nested_schema(schema)  # named by VIEW_DOC, PUBLIC_VIEW_DOC, REPLAY_DOC and match_end's result
    union(converter, "Action", ACTION_SCHEMAS,
          "One move, in the engine's JSON form: `type` says which, and each type takes exactly its own "
          "fields. Every entry of a view's legal_actions is one of these and can be posted unchanged.")
    union(converter, "Event", {**EVENT_SCHEMAS, **TABLE_EVENT_SCHEMAS},
          "One event of the history as this seat may see it: `type` says which, and which fields it has. "
          "Cards the seat may not see yet (the opponent's stock draws, the knocker's face-down discard, "
          "the opponent's dealt cards) are left out until the hand is over.")
    for schema in (GameViewEventSchema, TableViewEventSchema):
        converter.resolve_nested_schema(schema)  # named by ViewEvent
    spec.components.schema("ViewEvent", component=VIEW_EVENT)
    game_events = {**GAME_STREAM_EVENTS, **GAME_STREAM_SCHEMAS, **COACH_GAME_STREAM_SCHEMAS}
    union(converter, "GameStreamEvent", game_events,
          "The data of an event of GET /games/{game_id}/stream, by its `event` (the frame's `event:` too).",
          discriminator="event")
    player_events = {**PLAYER_STREAM_SCHEMAS, **SERIES_STREAM_SCHEMAS, **TOURNAMENT_STREAM_SCHEMAS,
                     **COACH_STREAM_SCHEMAS}
    union(converter, "PlayerStreamEvent", player_events,
          "The data of an event of GET /me/stream: `type` says which (the frame's `event:` too), and which "
          "fields it has; `seq` is the frame's `id`.")
    spec.components.schema("GameStreamFrame", component=frame("GameStreamEvent", list(game_events),
                                                              "The game's version"))
    spec.components.schema("PlayerStreamFrame", component=frame("PlayerStreamEvent", list(player_events),
                                                                "The event's seq in your stream"))
