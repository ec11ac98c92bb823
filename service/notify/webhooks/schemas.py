"""marshmallow schemas of a seat's webhook deliveries log and redelivery (delivery_routes.py); the
fields every deliveries log shows (push/schemas.py's too)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ...core.fields import WholeNumber


class DeliveriesQuerySchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    cursor = f.String(validate=v.Regexp(r"^[0-9]{1,10}$"), metadata={
        "description": "next_cursor of the page before: the deliveries older than that page"})
    limit = WholeNumber(text=True, load_default=20, validate=v.Range(1, 100), metadata={"description": "At most this many"})


class DeliveryFields(ma.Schema):
    """What a deliveries log shows of any channel's row (a webhook call, a push)."""

    event = f.String(required=True, metadata={"description": "The body's type", "example": "hand.ended"})
    version = f.Integer(required=True, allow_none=True, metadata={"description": "The game's version it tells"})
    status = f.String(required=True, validate=v.OneOf(["pending", "sent", "dead", "replaced"]), metadata={
        "description": "sent: answered 2xx; pending: waiting for its first call or a retry; dead: given up "
                       "(last_error says why); replaced: a newer one of the seat (a webhook's turn.started, which "
                       "carries the whole view; a push to the same browser) stood for it, so it is not sent "
                       "(again): never answered 2xx, and its attempts and response_code tell a failed call made "
                       "before"})
    attempts = f.Integer(required=True, metadata={"description": "Calls made (a call postponed by the circuit "
                                                                 "breaker is none)"})
    response_code = f.Integer(required=True, allow_none=True, metadata={
        "description": "The receiver's HTTP status at the last call; null when it did not answer"})
    last_error = f.String(required=True, allow_none=True)
    created_at = f.String(required=True, metadata={"description": "When the call was queued (ISO 8601)"})
    attempted_at = f.String(required=True, allow_none=True, metadata={"description": "The last call"})
    sent_at = f.String(required=True, allow_none=True, metadata={"description": "The last 2xx answer"})
    next_attempt_at = f.String(required=True, allow_none=True, metadata={"description": "Pending only: the next try"})


class DeliverySchema(DeliveryFields):
    webhook_id = f.String(required=True, metadata={
        "description": "The call's webhook-id header, the same on every retry and redelivery", "example": "msg_2b8..."})
    redelivered_at = f.String(required=True, allow_none=True, metadata={"description": "The last redelivery asked"})


class DeliveriesPageSchema(ma.Schema):
    deliveries = f.List(f.Nested(DeliverySchema), required=True, metadata={"description": "Newest first"})
    next_cursor = f.String(required=True, allow_none=True, metadata={
        "description": "Pass as cursor for older deliveries; null on the last page"})
