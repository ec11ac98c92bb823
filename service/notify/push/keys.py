"""The service's VAPID key pair (RFC 8292): browsers subscribe with its public key (the
applicationServerKey), and every push is signed with its private key, so a push service accepts
pushes to those subscriptions from this service only.

Where the private key comes from, first found: the setting VAPID_PRIVATE_KEY (base64url of the
32-byte P-256 scalar, or a PEM), the file VAPID_KEY_FILE, or vapid_private.pem in the instance
folder, which is made (mode 0600) the first time a key is needed. Several nodes must share one
key: give them VAPID_PRIVATE_KEY (`flask admin vapid --private` prints it).

Rotating the key (`flask admin vapid --rotate`) makes every subscription made with the old one
useless (the push service refuses pushes signed with another key): each subscription keeps the
public key it was made with, those made with another are deleted (by the rotation, or at their
next push), and a page that finds its subscription made with another key subscribes again.
"""
from __future__ import annotations

import base64
import os
import threading
import time
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from flask import current_app
from py_vapid import Vapid02

from ..config import setting

FILE_NAME = "vapid_private.pem"
JWT_HOURS = 12  # a JWT's lifetime (RFC 8292 allows up to 24 hours)

_cache: dict[tuple, Vapid02] = {}
_made = threading.Lock()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key_file() -> str:
    return setting("VAPID_KEY_FILE") or os.path.join(current_app.instance_path, FILE_NAME)


def _from_text(text: str) -> Vapid02:
    text = text.strip()
    if text.startswith("-----BEGIN"):
        return Vapid02.from_pem(text.encode("ascii"))
    return Vapid02.from_raw(text.encode("ascii"))


def _from_file(path: str, make: bool) -> Vapid02 | None:
    """The key in `path`; made there first (only its owner may read it) when `make` and missing."""
    if not os.path.exists(path):
        if not make:
            return None
        write_new(path)
    with open(path, "rb") as file:
        return Vapid02.from_pem(file.read())


def write_new(path: str, replace: bool = False) -> None:
    """A new private key in `path`, readable by its owner only. Two processes making it at once:
    the first one's stands (O_EXCL), unless `replace` (a rotation)."""
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if replace:
        temporary = f"{path}.{os.getpid()}.new"
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
            file.write(pem)
        os.replace(temporary, path)
        return
    try:
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as file:
            file.write(pem)
    except FileExistsError:
        pass


def source() -> str:
    """Where the key is kept, in words (for `flask admin vapid`)."""
    return "the setting VAPID_PRIVATE_KEY" if setting("VAPID_PRIVATE_KEY") else key_file()


def vapid(make: bool = True) -> Vapid02:
    """The key pair (made in the instance folder on first use, unless `make` is False)."""
    configured = setting("VAPID_PRIVATE_KEY")
    path = None if configured else key_file()
    mtime = os.path.getmtime(path) if path and os.path.exists(path) else None
    cache_key = (configured, path, mtime)  # a rotated file is read again
    with _made:
        known = _cache.get(cache_key)
        if known is None:
            known = _from_text(configured) if configured else _from_file(path, make)
            if known is None:
                raise LookupError(f"no VAPID key in {path}")
            _cache.clear()
            _cache[cache_key] = known
        return known


def public_key() -> str:
    """The applicationServerKey browsers subscribe with: the uncompressed P-256 point, base64url."""
    point = vapid().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def private_key_text() -> str:
    """The private key as VAPID_PRIVATE_KEY takes it: base64url of the 32-byte scalar."""
    return _scalar_text(vapid().private_key)


def new_private_key_text() -> str:
    """A new private key as VAPID_PRIVATE_KEY takes it, stored nowhere."""
    return _scalar_text(ec.generate_private_key(ec.SECP256R1()))


def _scalar_text(private_key) -> str:
    return b64url(private_key.private_numbers().private_value.to_bytes(32, "big"))


def authorization(endpoint: str, now: float | None = None) -> str:
    """The Authorization header of a push to `endpoint`: `vapid t=<JWT>, k=<public key>`, the
    JWT's audience the endpoint's origin, expiring in JWT_HOURS, its subject VAPID_SUBJECT."""
    parts = urlsplit(endpoint)
    audience = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
    expires = int((now if now is not None else time.time()) + JWT_HOURS * 3600)
    signed = vapid().sign({"aud": audience, "exp": expires, "sub": setting("VAPID_SUBJECT")})
    return signed["Authorization"]
