"""marshmallow schemas of the notify routes: a seat's contact settings and vacations. The contact
fields themselves are the games' (games/contact_fields.py): creating and joining take them too."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import WholeNumber
from ..games.contact_fields import ContactFields


class ContactSchema(ContactFields):
    class Meta:
        unknown = ma.RAISE


class VacationSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    # At most the allowance of a whole game (core/settings.py's default VACATION_DAYS_PER_GAME):
    # more could never be granted.
    days = WholeNumber(required=True, validate=v.Range(1, 7), metadata={
        "description": "Days to pause your clock, from now (or from the end of a vacation under way); "
                       "at most the days left of the game's allowance (422 vacation-exhausted beyond)",
        "example": 3})


class VacationOutSchema(ma.Schema):
    days_left = f.Integer(required=True, metadata={"description": "Vacation days still available to you in this game"})
    on_vacation_until = f.String(required=True, allow_none=True)
    deadline = f.String(required=True, allow_none=True, metadata={"description": "The deadline of the seat to move (at a table: yours while you are to move, else the "
                                      "earliest at the table)"})


class UnsubscribedSchema(ma.Schema):
    result = f.String(required=True, validate=v.OneOf(("stopped", "digest-off")), metadata={
        "description": "stopped: the address gets no mail from this service again; digest-off: no more "
                       "daily digests to it"})
    one_click = f.String(required=True, metadata={"description": "RFC 8058's List-Unsubscribe-Post value, "
                                                                 "which this operation answers"})


class DeliveriesQuerySchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    cursor = f.String(validate=v.Regexp(r"^[0-9]{1,10}$"), metadata={
        "description": "next_cursor of the page before: the deliveries older than that page"})
    limit = WholeNumber(text=True, load_default=20, validate=v.Range(1, 100), metadata={"description": "At most this many"})


class DeliverySchema(ma.Schema):
    webhook_id = f.String(required=True, metadata={
        "description": "The call's webhook-id header, the same on every retry and redelivery", "example": "msg_2b8..."})
    event = f.String(required=True, metadata={"description": "The body's type", "example": "hand.ended"})
    version = f.Integer(required=True, allow_none=True, metadata={"description": "The game's version it tells"})
    status = f.String(required=True, validate=v.OneOf(["pending", "sent", "dead", "replaced"]), metadata={
        "description": "sent: answered 2xx; pending: waiting for its first call or a retry; dead: given up "
                       "(last_error says why); replaced: a newer turn.started of the seat, which carries the whole "
                       "view, stood for it, so it is not called (again): never answered 2xx, and its attempts and "
                       "response_code tell a failed call made before"})
    attempts = f.Integer(required=True, metadata={"description": "Calls made (a call postponed by the circuit "
                                                                 "breaker is none)"})
    response_code = f.Integer(required=True, allow_none=True, metadata={
        "description": "The receiver's HTTP status at the last call; null when it did not answer"})
    last_error = f.String(required=True, allow_none=True)
    created_at = f.String(required=True, metadata={"description": "When the call was queued (ISO 8601)"})
    attempted_at = f.String(required=True, allow_none=True, metadata={"description": "The last call"})
    sent_at = f.String(required=True, allow_none=True, metadata={"description": "The last 2xx answer"})
    next_attempt_at = f.String(required=True, allow_none=True, metadata={"description": "Pending only: the next try"})
    redelivered_at = f.String(required=True, allow_none=True, metadata={"description": "The last redelivery asked"})


class DeliveriesPageSchema(ma.Schema):
    deliveries = f.List(f.Nested(DeliverySchema), required=True, metadata={"description": "Newest first"})
    next_cursor = f.String(required=True, allow_none=True, metadata={
        "description": "Pass as cursor for older deliveries; null on the last page"})
