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


def delivery_address(url: str, allow_private: bool) -> str:
    """The address a delivery to `url` connects to. Unless private addresses are allowed, the
    host is resolved here, once, and every address it resolves to must be public; the delivery
    then connects to that very address, so a DNS answer that changes in between (DNS
    rebinding) cannot turn a webhook into a call to a service inside the network."""
    host = urlsplit(url).hostname or ""
    if allow_private:
        return host
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise WebhookError(f"cannot resolve {host}: {exc}") from None
    addresses = [ipaddress.ip_address(info[4][0]) for info in infos]
    for address in addresses:
        if not address.is_global:
            raise WebhookError(f"{host} resolves to the non-public address {address}; refused "
                               "(WEBHOOK_ALLOW_PRIVATE is off)", permanent=True)
    if not addresses:
        raise WebhookError(f"cannot resolve {host}: no address")
    return str(addresses[0])


def post(url: str, secret: str, msg_id: str, body: str, timestamp: int, timeout: float,
         allow_private: bool) -> int:
    """Deliver once. Returns the status code of a 2xx answer, raises WebhookError otherwise."""
    import urllib3
    from requests.certs import where as ca_bundle  # the CA bundle requests uses

    parts = urlsplit(url)
    address = delivery_address(url, allow_private)
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    # TLS still checks the certificate against the URL's host name, not the address.
    tls = {"server_hostname": parts.hostname, "assert_hostname": parts.hostname,
           "cert_reqs": "CERT_REQUIRED", "ca_certs": ca_bundle()} if https else {}
    pool_class = urllib3.HTTPSConnectionPool if https else urllib3.HTTPConnectionPool
    try:
        with pool_class(address, port, timeout=urllib3.Timeout(total=timeout), retries=False, **tls) as pool:
            response = pool.urlopen("POST", target, body=body.encode("utf-8"), redirect=False,
                                    assert_same_host=False,
                                    headers={**headers(secret, msg_id, timestamp, body),
                                             "host": host if parts.port is None else f"{host}:{parts.port}"})
    except urllib3.exceptions.HTTPError as exc:
        raise WebhookError(f"{type(exc).__name__}: {exc}") from None
    if 200 <= response.status < 300:
        return response.status
    # 410 Gone is the receiver saying "stop"; anything else may be temporary.
    raise WebhookError(f"HTTP {response.status} from the receiver", permanent=response.status == 410)
