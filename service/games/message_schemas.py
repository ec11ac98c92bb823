"""What the message routes take and answer (message_routes.py), and the game stream's `message` event."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import StrictSchema, WholeNumber, doc
from .event_schemas import event_type
from .messages import MAX_LENGTH
from .table_game import MAX_SEAT


# What the route takes, said as JSON Schema: what messages.clean takes, no more and no less (it
# refuses the rest with codes of its own).
_NOT_PLAIN = r"\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
TEXT_PATTERN = f"^[^{_NOT_PLAIN}]*[^\\s{_NOT_PLAIN}][^{_NOT_PLAIN}]*$"


class NewMessageSchema(StrictSchema):
    text = f.String(required=True, metadata={
        "description": f"Plain text of up to {MAX_LENGTH} characters, not all blank (the blanks around it are "
                       "taken off); one line (no control or direction characters). Kept as sent and never read as markup. Blank: 422 "
                       "`message-empty`; too long: `message-too-long`; not plain: `message-not-plain`",
        "example": "Good luck!", "minLength": 1, "maxLength": MAX_LENGTH, "pattern": TEXT_PATTERN})


class MessageSchema(ma.Schema):
    id = f.Integer(required=True, **doc("The message's number: later messages have greater ones"))
    seat = f.Integer(required=True, validate=v.Range(0, MAX_SEAT), **doc("The seat that wrote it"))
    name = f.String(required=True, allow_none=True, **doc("That seat's name"))
    text = f.String(required=True, **doc("The text as written: show it as text, never as markup"))
    created_at = f.String(required=True, **doc("When it was written (ISO 8601)"))


class MessagesPageSchema(ma.Schema):
    messages = f.List(f.Nested(MessageSchema), required=True, **doc("Oldest first"))
    next_after = f.Integer(required=True, allow_none=True, **doc(
        "More follow: ask again with `after` set to this; null when this page holds the newest"))


class MessagesQuerySchema(ma.Schema):
    after = WholeNumber(text=True, load_default=0, validate=v.Range(0, 2**31 - 1),
                        **doc("Return messages with an id greater than this"))
    limit = WholeNumber(text=True, load_default=50, validate=v.Range(1, 200), **doc("At most this many"))
    wait = WholeNumber(text=True, load_default=0, validate=v.Range(0, 60), **doc(
        "Long-poll: when no message comes after `after`, wait up to this many seconds (max 60) for one"))


class MessageEventSchema(MessageSchema):
    """The `message` event of GET /games/{game_id}/stream: a message this seat may see, plus `event`."""
    event = event_type("message")
