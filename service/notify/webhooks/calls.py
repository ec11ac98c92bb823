"""Webhook calls: which URL a seat may set, where a call may connect (public_ip.py), and the call
itself, a signed POST (signatures.py) ended within its total time whatever the receiver does.
"""
from __future__ import annotations

import http.client
import os
import socket
import threading
import time
from urllib.parse import SplitResult, urlsplit

from ..channels import DeliveryError
from .public_ip import NotPublic, Unresolved, public_addresses
from .signatures import headers


class WebhookError(DeliveryError):
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
        except NotPublic:  # never what the host resolves to: a probe of the service's own DNS view
            raise ValueError(f"webhook_url's host {parts.hostname} is not a public address (or resolves to one "
                             f"that is not); give a public address") from None
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

    from ...core.settings import setting
    return has_app_context() and bool(setting("WEBHOOK_ALLOW_PRIVATE"))


def destination(url: str) -> tuple[str, int]:
    """What the circuit breaker and the batching group calls by: host name and port."""
    parts = urlsplit(url)
    try:
        port = port_of(parts)
    except ValueError:
        port = 0
    return (parts.hostname or "").lower(), port


def delivery_address(url: str, allow_private: bool, allowing: str = "WEBHOOK_ALLOW_PRIVATE") -> str:
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
    except NotPublic:  # the seat reads this in its deliveries log: not what the host resolves to
        raise WebhookError(f"{host} is not a public address (or resolves to one that is not); refused "
                           f"({allowing} is off)", permanent=True) from None
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

    def passed(self) -> bool:
        """Whether the total time is up: the timer fired, or a socket timeout set to what was left
        fired first (under load the timer's thread may not have run yet), so one fault is told one way."""
        return self.expired or time.monotonic() >= self.end

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
    status = send(url, body.encode("utf-8"), headers(secret, msg_id, timestamp, body), timeout, allow_private,
                  connect_timeout)
    if 200 <= status < 300:
        return status
    # 410 Gone is the receiver saying "stop"; anything else may be temporary.
    raise WebhookError(f"HTTP {status} from the receiver", permanent=status == 410,
                       destination_down=status >= 500 or status == 429, status=status)


def send(url: str, body: bytes, sent_headers: dict, timeout: float, allow_private: bool,
         connect_timeout: float | None = None, allowing: str = "WEBHOOK_ALLOW_PRIVATE") -> int:
    """One POST of `body` to `url`'s checked address (delivery_address) within `timeout` in all:
    the status of whatever the receiver answered, or WebhookError (destination_down) when it did
    not answer in time or refused the connection. Web Push uses it too (`allowing`: the setting
    that lets private addresses through, named in the refusal)."""
    parts = urlsplit(url)
    try:
        port = port_of(parts)
    except ValueError as exc:
        raise WebhookError(str(exc), permanent=True) from None
    deadline = _Deadline(timeout)
    with deadline:
        address = delivery_address(url, allow_private, allowing)
        try:
            return _exchange(deadline, parts, address, port, body, sent_headers, connect_timeout)
        except (OSError, http.client.HTTPException) as exc:
            if deadline.passed():
                raise WebhookError(f"no answer within the total timeout of {timeout:g} s",
                                   destination_down=True) from None
            raise WebhookError(f"{type(exc).__name__}: {exc}", destination_down=True) from None


def _exchange(deadline: _Deadline, parts: SplitResult, address: str, port: int, body: bytes,
              sent_headers: dict, connect_timeout: float | None) -> int:
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
        connection.request("POST", target, body=body,
                           headers={**sent_headers, "host": host if parts.port is None else f"{host}:{parts.port}"})
        sock.settimeout(deadline.left())
        return connection.getresponse().status
    finally:
        sock.close()
