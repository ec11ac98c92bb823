"""marshmallow schemas of Web Push: a browser's subscription as PushSubscription.toJSON() gives it,
what the service keeps of one, its public key, and a seat's push deliveries log."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ...core.fields import WholeNumber
from ..webhooks.schemas import DeliveryFields

B64URL = r"^[A-Za-z0-9_-]+={0,2}$"
KEYS_EXAMPLE = {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
                "auth": "tBHItJI5svbpez7KI4CCXg"}


class PushKeysSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    p256dh = f.String(required=True, validate=[v.Length(max=100), v.Regexp(B64URL)], metadata={
        "description": "The browser's P-256 public key (65 bytes, uncompressed), base64url",
        "example": KEYS_EXAMPLE["p256dh"]})
    auth = f.String(required=True, validate=[v.Length(max=40), v.Regexp(B64URL)], metadata={
        "description": "The browser's 16-byte authentication secret, base64url", "example": KEYS_EXAMPLE["auth"]})


class PushSubscriptionSchema(ma.Schema):
    """What PushSubscription.toJSON() gives, as the browser made it with the service's public key."""

    class Meta:
        unknown = ma.RAISE

    endpoint = f.String(required=True, validate=v.Length(min=1, max=1000), metadata={
        "description": "The push service's URL for this browser: https, at a public address (422 otherwise)",
        "example": "https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bH..."})
    keys = f.Nested(PushKeysSchema, required=True, metadata={"example": KEYS_EXAMPLE})
    expirationTime = WholeNumber(allow_none=True, metadata={  # noqa: N815
        "description": "As the browser gives it (milliseconds since the epoch, or null); not used"})


class PushEndpointSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    endpoint = f.String(required=True, validate=v.Length(min=1, max=1000), metadata={
        "description": "The endpoint of the subscription to forget", "example": "https://fcm.googleapis.com/fcm/send/dpH5..."})


class PushSubscriptionOutSchema(ma.Schema):
    endpoint = f.String(required=True)
    created_at = f.String(required=True, metadata={"description": "When it was first given (ISO 8601)"})


class PushSubscriptionsSchema(ma.Schema):
    subscriptions = f.List(f.Nested(PushSubscriptionOutSchema), required=True, metadata={"description": "Oldest first"})


class PushKeySchema(ma.Schema):
    public_key = f.String(required=True, metadata={
        "description": "The service's VAPID public key (an uncompressed P-256 point, base64url): pass it as "
                       "applicationServerKey to pushManager.subscribe()",
        "example": "BF3eAoAft8KheecjuYY4X3GelhfX5l7t_5Rf1iyAp6N_LhsK2y7N-V57wYrImNL5ZejrRH9j3Y7QxoMd4J0RAIw"})


class PushDeliverySchema(DeliveryFields):
    delivery_id = f.String(required=True, metadata={"description": "The push's id in this log",
                                                     "example": "push_2b8..."})
    push_service = f.String(required=True, metadata={
        "description": "The host of the browser's push service the push went to", "example": "fcm.googleapis.com"})


class PushDeliveriesPageSchema(ma.Schema):
    deliveries = f.List(f.Nested(PushDeliverySchema), required=True, metadata={"description": "Newest first"})
    next_cursor = f.String(required=True, allow_none=True, metadata={
        "description": "Pass as cursor for older deliveries; null on the last page"})
