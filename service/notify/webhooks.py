"""Webhooks in the Standard Webhooks format (https://www.standardwebhooks.com/).

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
import ipaddress
import secrets
import socket
from urllib.parse import urlsplit

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24
TOLERANCE_SECONDS = 5 * 60


class WebhookError(Exception):
    """A delivery that failed; `permanent` ones are not retried."""

    def __init__(self, message: str, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


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
    """What a receiver does (the README shows the same in a few lines): recompute, compare in
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


def check_url(url: str) -> str:
    """A webhook URL a seat may set: http(s) with a host. Raises ValueError saying what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("webhook_url must be an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise ValueError("webhook_url must not carry a user name or password")
    if len(url) > 2000:
        raise ValueError("webhook_url is longer than 2000 characters")
    return url


def refuse_private(url: str) -> None:
    """Refuse a URL whose host resolves to a loopback, private or link-local address."""
    host = urlsplit(url).hostname or ""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError as exc:
        raise WebhookError(f"cannot resolve {host}: {exc}") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            raise WebhookError(f"{host} resolves to the non-public address {address}; refused "
                               "(WEBHOOK_ALLOW_PRIVATE is off)", permanent=True)


def post(url: str, secret: str, msg_id: str, body: str, timestamp: int, timeout: float,
         allow_private: bool) -> int:
    """Deliver once. Returns the status code of a 2xx answer, raises WebhookError otherwise."""
    import requests
    if not allow_private:
        refuse_private(url)
    try:
        response = requests.post(url, data=body.encode("utf-8"), timeout=timeout, allow_redirects=False,
                                 headers=headers(secret, msg_id, timestamp, body))
    except requests.RequestException as exc:
        raise WebhookError(f"{type(exc).__name__}: {exc}") from None
    if 200 <= response.status_code < 300:
        return response.status_code
    # 410 Gone is the receiver saying "stop"; anything else may be temporary.
    raise WebhookError(f"HTTP {response.status_code} from the receiver", permanent=response.status_code == 410)
