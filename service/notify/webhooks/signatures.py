"""Webhook signatures in the Standard Webhooks format (https://www.standardwebhooks.com/).

Each call is a POST of a JSON body with three headers:

    webhook-id:        msg_...            the same on every retry of one message
    webhook-timestamp: 1700000000         seconds since the epoch, of this attempt
    webhook-signature: v1,<base64>        HMAC-SHA256 of "<id>.<timestamp>.<body>"

keyed with the seat's secret "whsec_<base64>" (the key is the base64-decoded part).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24
TOLERANCE_SECONDS = 5 * 60


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def _key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    digest = hmac.new(_key(secret), f"{msg_id}.{timestamp}.{body}".encode("utf-8"), hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def headers(secret: str, msg_id: str, timestamp: int, body: str) -> dict:
    return {"webhook-id": msg_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(secret, msg_id, timestamp, body),
            "content-type": "application/json", "user-agent": "gin-service-webhooks/1"}


def verify(secret: str, received: dict, body: str, now: int, tolerance: int = TOLERANCE_SECONDS) -> bool:
    """What a receiver does (docs/api.md shows the same in a few lines): recompute, compare in
    constant time, and refuse old timestamps (a replayed request)."""
    lower = {k.lower(): v for k, v in received.items()}
    try:
        msg_id, timestamp = lower["webhook-id"], int(lower["webhook-timestamp"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    expected = sign(secret, msg_id, timestamp, body).split(",", 1)[1]
    offered = [part.split(",", 1)[1] for part in lower.get("webhook-signature", "").split()
               if part.startswith("v1,")]
    return any(hmac.compare_digest(expected, signature) for signature in offered)
