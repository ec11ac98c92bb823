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
import http.client
import os
import secrets
import socket
import threading
import time
from datetime import datetime
from urllib.parse import SplitResult, urlsplit

from .public_ip import NotPublic, Unresolved, public_addresses

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24
TOLERANCE_SECONDS = 5 * 60


class WebhookError(Exception):
    """A delivery that failed; `permanent` ones are not retried. `destination_down` says the
    destination did not answer in time, refused the connection or answered 5xx/429: it counts
    towards that destination's circuit breaker (breaker.py). `status`: the receiver's HTTP status,
    when it answered."""

    def __init__(self, message: str, permanent: bool = False, destination_down: bool = False,
                 status: int | None = None):
        super().__init__(message)
        self.permanent = permanent
        self.destination_down = destination_down
        self.status = status


class Postponed(WebhookError):
    """Not attempted now (the destination's breaker is open, or an earlier call to it failed in
    this batch); the row waits until at least `not_before`."""

    def __init__(self, message: str, not_before: datetime | None = None):
        super().__init__(message)
        self.not_before = not_before


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
    """A webhook URL a seat may set: http(s) with a host and a valid port, in plain ASCII.
    Raises ValueError saying what is wrong (answered as 422 validation-error), a host that
    resolves to a non-public address included (unless WEBHOOK_ALLOW_PRIVATE); a host that does
    not resolve now is taken, and judged again at each delivery."""
    if len(url) > 2000:
        raise ValueError("webhook_url is longer than 2000 characters")
    if not url.isascii() or any(ch <= " " or ch == "\x7f" for ch in url):
        raise ValueError("webhook_url must be ASCII without spaces or control characters "
                         "(an international host name in its xn-- form, other characters %-encoded)")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("webhook_url must be an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise ValueError("webhook_url must not carry a user name or password")
    port_of(parts)
    if not _private_allowed():
        try:  # judged as each delivery judges it (public_ip.py)
            public_addresses(parts.hostname)
        except NotPublic as exc:
            raise ValueError(f"webhook_url's host {exc}; give a public address") from None
        except Unresolved:
            pass  # not resolvable now: each delivery resolves and judges it again
    return url


def port_of(parts: SplitResult) -> int:
    """The URL's port (the scheme's default if none); ValueError unless it is 1..65535."""
    try:
        port = parts.port  # ValueError for 99999, "abc", "+80"
    except ValueError:
        port = 0
    if port == 0:
        raise ValueError("webhook_url's port must be a number from 1 to 65535")
    return port or (443 if parts.scheme == "https" else 80)


def _private_allowed() -> bool:
    from flask import has_app_context

    from ..core.settings import setting
    return has_app_context() and bool(setting("WEBHOOK_ALLOW_PRIVATE"))


def destination(url: str) -> tuple[str, int]:
    """What the circuit breaker and the batching group calls by: host name and port."""
    parts = urlsplit(url)
    try:
        port = port_of(parts)
    except ValueError:
        port = 0
    return (parts.hostname or "").lower(), port


def delivery_address(url: str, allow_private: bool) -> str:
    """The address a delivery to `url` connects to. Unless private addresses are allowed, the
    host is resolved here, once, and every address it resolves to must be public (public_ip.py,
    which also looks inside IPv6 forms that carry an IPv4 address); the delivery then connects
    to that very address, so a DNS answer that changes in between (DNS rebinding) cannot turn a
    webhook into a call to a service inside the network."""
    host = urlsplit(url).hostname or ""
    if allow_private:
        return host
    try:
        return public_addresses(host)[0]
    except NotPublic as exc:
        raise WebhookError(f"{exc}; refused (WEBHOOK_ALLOW_PRIVATE is off)", permanent=True) from None
    except Unresolved as exc:
        raise WebhookError(str(exc)) from None


class _Deadline:
    """Ends a call when its total time is up, whatever it is waiting for. Socket timeouts bound
    each wait only, and a receiver that drips a byte now and then never lets one fire; so a timer
    shuts the connection down at the deadline, which wakes any blocked read or write at once."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.end = time.monotonic() + seconds
        self.expired = False
        self._watched: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            self.expired = True
            raise TimeoutError("the total time is up")
        return left

    def watch(self, sock: socket.socket) -> None:
        """Shut `sock`'s connection at the deadline (through a duplicate descriptor, which keeps
        working when TLS wraps the socket in a new object)."""
        with self._lock:
            self._watched = socket.socket(fileno=os.dup(sock.fileno()))
        if self.expired:
            self._expire()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            if self._watched is not None:
                try:
                    self._watched.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def __enter__(self) -> "_Deadline":
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.cancel()
        with self._lock:
            if self._watched is not None:
                self._watched.close()


def ca_bundle() -> str:
    """The certificate authorities a receiver's certificate must chain to: requests' bundle."""
    from requests.certs import where
    return where()


def post(url: str, secret: str, msg_id: str, body: str, timestamp: int, timeout: float,
         allow_private: bool, connect_timeout: float | None = None) -> int:
    """Deliver once, within `timeout` seconds in all (name resolution, connection, TLS, sending,
    the answer's head); the connection itself must be made within `connect_timeout`. Returns
    the status code of a 2xx answer, raises WebhookError otherwise."""
    parts = urlsplit(url)
    try:
        port = port_of(parts)
    except ValueError as exc:
        raise WebhookError(str(exc), permanent=True) from None
    deadline = _Deadline(timeout)
    with deadline:
        address = delivery_address(url, allow_private)
        try:
            status = _exchange(deadline, parts, address, port, body,
                               headers(secret, msg_id, timestamp, body), connect_timeout)
        except (OSError, http.client.HTTPException) as exc:
            if deadline.expired:
                raise WebhookError(f"no answer within the total timeout of {timeout:g} s",
                                   destination_down=True) from None
            raise WebhookError(f"{type(exc).__name__}: {exc}", destination_down=True) from None
    if 200 <= status < 300:
        return status
    # 410 Gone is the receiver saying "stop"; anything else may be temporary.
    raise WebhookError(f"HTTP {status} from the receiver", permanent=status == 410,
                       destination_down=status >= 500 or status == 429, status=status)


def _exchange(deadline: _Deadline, parts: SplitResult, address: str, port: int, body: str,
              signed: dict, connect_timeout: float | None) -> int:
    """One request on a connection to `address` (the checked one), answering its status."""
    sock = socket.create_connection((address, port), timeout=min(connect_timeout or deadline.seconds,
                                                                 deadline.left()))
    try:
        deadline.watch(sock)
        sock.settimeout(deadline.left())
        if parts.scheme == "https":
            import ssl
            # TLS checks the certificate against the URL's host name, not the address.
            sock = ssl.create_default_context(cafile=ca_bundle()).wrap_socket(
                sock, server_hostname=parts.hostname)
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        connection = http.client.HTTPConnection(address, port)
        connection.sock = sock  # already connected to the checked address: never resolved again
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", target, body=body.encode("utf-8"),
                           headers={**signed, "host": host if parts.port is None else f"{host}:{parts.port}"})
        sock.settimeout(deadline.left())
        return connection.getresponse().status
    finally:
        sock.close()
