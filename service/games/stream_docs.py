"""How openapi.yaml describes a Server-Sent Events answer (GET /games/{id}/stream, GET /me/stream).

Each event's payload, the JSON of its `data:` line, is a named schema per event type, joined in a
`oneOf` union whose discriminator is a property of the payload naming the event (`GameStreamEvent`
on `event`, `PlayerStreamEvent` on `type`). The `text/event-stream` answer's schema is a frame
(`GameStreamFrame`, `PlayerStreamFrame`: id, event, data, its data's contentSchema the union), as
OpenAPI 3.1's tools read an event stream's schema (schemathesis checks every frame against it;
OpenAPI 3.2 will say it with `itemSchema`), or a string: a generator that reads the whole body at
once (openapi-python-client) then hands it over as text instead of parsing the stream as JSON."""
from __future__ import annotations

from ..core.openapi import ref
from .event_schemas import event_type
from .message_schemas import MessageEventSchema
from .table_schemas import TableViewSchema
from .view_schemas import GameViewSchema

STREAM_AS_TEXT = ("The whole stream's text, as a client that reads the body at once gets it: frames of "
                  "`id:`, `event:` and `data:` lines, each ended by a blank line; lines starting with `:` "
                  "are comments (keep-alives). Read it frame by frame (docs/api.md: Reading the streams)")


def last_event_id(description: str) -> dict:
    return {"in": "header", "name": "Last-Event-ID", "required": False,
            "schema": {"type": "string", "pattern": "^[0-9]{0,12}$"}, "description": description}


def frame(union: str, names: list[str], id_means: str) -> dict:
    """The component describing one frame of a stream whose data are the `union` of payloads named `names`."""
    return {"type": "object", "required": ["id", "event", "data"],
            "description": f"One event of the stream, field by field; its data is a `{union}`",
            "properties": {
                "id": {"type": "string", "pattern": "^[0-9]+$", "description": id_means},
                "event": {"type": "string", "enum": names, "description": "The event's type, as the data names it"},
                "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": ref(union)},
                "retry": {"type": "integer", "description": "Milliseconds to wait before reconnecting"}}}


def event_stream(description: str, frame_name: str, example: str) -> dict:
    """The 200 answer of a stream whose frames the component `frame_name` describes."""
    return {"description": description, "content": {"text/event-stream": {
        "schema": {"anyOf": [ref(frame_name), {"type": "string", "description": STREAM_AS_TEXT}]},
        "example": example}}}


# The game stream's one event: the seat's view with the event's name added (`event: "view"`). The
# views are closed schemas (no other property), so the event is each view's schema plus `event`.
class GameViewEventSchema(GameViewSchema):
    """The `view` event of a two-seat game's stream: its GameView, plus `event`."""
    event = event_type("view")


class TableViewEventSchema(TableViewSchema):
    """The `view` event of a table's stream: its TableView, plus `event`."""
    event = event_type("view")


VIEW_EVENT = {
    "description": "The `view` event of GET /games/{game_id}/stream: the seat's view as GET /games/{game_id} "
                   "answers it (GameView for two seats, TableView at a table), plus `event`",
    "anyOf": [ref("GameViewEvent"), ref("TableViewEvent")]}
GAME_STREAM_EVENTS = {"view": "ViewEvent", "message": MessageEventSchema}
