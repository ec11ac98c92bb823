"""How openapi.yaml describes a Server-Sent Events answer (GET /games/{id}/stream, GET /me/stream).

The body is `text/event-stream` text, documented as a string: a generator then reads it as text
and never parses the (long-lived) stream as one JSON document. Each event's payload, the JSON of
its `data:` line, is a named schema per event type, joined in a `oneOf` union whose discriminator
is a property of the payload naming the event (`GameStreamEvent` on `event`, `PlayerStreamEvent`
on `type`); `x-itemSchema` says so for one frame, as OpenAPI 3.2's `itemSchema` will."""
from __future__ import annotations

from ..core.openapi import ref

FRAMES = ("Frames of `id:`, `event:` and `data:` lines, each ended by a blank line; lines starting "
          "with `:` are comments (keep-alives). Each frame's data is one JSON document, ")


def last_event_id(description: str) -> dict:
    return {"in": "header", "name": "Last-Event-ID", "required": False,
            "schema": {"type": "string", "pattern": "^[0-9]{0,12}$"}, "description": description}


def event_stream(description: str, union: str, names: list[str], id_means: str, example: str) -> dict:
    """The 200 answer of a stream whose frames' data are the `union` of payloads named `names`."""
    return {"description": description, "content": {"text/event-stream": {
        "schema": {"type": "string", "description": FRAMES + f"a `{union}`"},
        "example": example,
        "x-itemSchema": {  # one frame, field by field
            "type": "object", "required": ["id", "event", "data"],
            "properties": {
                "id": {"type": "string", "pattern": "^[0-9]+$", "description": id_means},
                "event": {"type": "string", "enum": names, "description": "The event's type, as in the data"},
                "data": {"type": "string", "contentMediaType": "application/json",
                         "contentSchema": ref(union)},
                "retry": {"type": "integer", "description": "Milliseconds to wait before reconnecting"}}}}}}


# The game stream's one event: the seat's view, with the event's name added (`event: "view"`).
VIEW_EVENT = {
    "description": "The `view` event of GET /games/{game_id}/stream: the seat's view as GET /games/{game_id} "
                   "answers it (GameView for two seats, TableView at a table), plus `event`",
    "allOf": [{"anyOf": [ref("GameView"), ref("TableView")]},
              {"type": "object", "required": ["event"], "properties": {
                  "event": {"type": "string", "enum": ["view"], "description": "The event's name: `view`"}}}]}
GAME_STREAM_EVENTS = {"view": "ViewEvent"}
