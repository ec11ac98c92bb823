"""A push service on loopback speaking RFC 8030 (a POST to a subscription's endpoint, answered 201
with the message's Location), and the browser side of a subscription: its key pair and auth
secret, with which a test reads a push as the browser would. What the service receives is checked
here with `cryptography` alone, apart from the libraries the service sends with: the VAPID JWT
(RFC 8292: ES256 over its header and claims, by the key the header names) and the aes128gcm
payload (RFC 8291)."""
from __future__ import annotations

import base64
import json
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from tests.conftest import free_port


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(public_key) -> bytes:
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


@dataclass
class Browser:
    """One browser's push subscription: the endpoint the push service gave it, its P-256 key pair
    and its 16-byte auth secret (what PushSubscription.toJSON() hands the page)."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict:
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point(self.key.public_key())), "auth": b64url(self.auth)}}

    def read(self, body: bytes) -> dict:
        """Decrypt an aes128gcm push (RFC 8291 section 3.4, RFC 8188 section 2) as the browser does."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender = body[21:21 + id_length]
        ciphertext = body[21 + id_length:]
        assert id_length == 65 and len(ciphertext) <= record_size  # one record, keyed by the sender's public key
        shared = self.key.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
        info = b"WebPush: info\x00" + point(self.key.public_key()) + sender
        ikm = HKDF(hashes.SHA256(), 32, salt=self.auth, info=info).derive(shared)
        cek = HKDF(hashes.SHA256(), 16, salt=salt, info=b"Content-Encoding: aes128gcm\x00").derive(ikm)
        nonce = HKDF(hashes.SHA256(), 12, salt=salt, info=b"Content-Encoding: nonce\x00").derive(ikm)
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        text = padded.rstrip(b"\x00")
        assert text.endswith(b"\x02"), "the last record ends with its delimiter 0x02"
        return json.loads(text[:-1].decode("utf-8"))


def check_vapid(authorization: str, endpoint_origin: str, public_key: str) -> dict:
    """RFC 8292: `vapid t=<JWT>, k=<key>`, the key the service publishes, the JWT signed by it
    (ES256), for this push service's origin, not expired nor longer than a day, with a contact.
    Returns the claims."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(part.strip().split("=", 1) for part in params.split(","))
    assert parts["k"] == public_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    verifier.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                    f"{header}.{claims}".encode("ascii"), ec.ECDSA(hashes.SHA256()))  # raises if forged
    found = json.loads(unb64url(claims))
    assert found["aud"] == endpoint_origin
    assert time.time() < found["exp"] <= time.time() + 24 * 3600
    assert found["sub"].startswith(("mailto:", "https:"))
    return found


class PushService:
    """Receives pushes at /push/<id>: each request's headers and body kept; an endpoint in `gone`
    is answered 410 Gone (the browser unsubscribed), one in `failing` 503."""

    def __init__(self):
        self.port = free_port()
        self.received: list[dict] = []
        self.gone: set[str] = set()
        self.failing: set[str] = set()
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                endpoint = f"{service.origin}{self.path}"
                status = 410 if endpoint in service.gone else 503 if endpoint in service.failing else 201
                with service.lock:
                    service.received.append({"endpoint": endpoint, "headers": {k.lower(): v for k, v in
                                                                               self.headers.items()},
                                             "body": body, "status": status})
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"{service.origin}/message/{uuid.uuid4().hex}")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def browser(self) -> Browser:
        return Browser(f"{self.origin}/push/{uuid.uuid4().hex}")

    def to(self, browser: Browser) -> list[dict]:
        with self.lock:
            return [r for r in self.received if r["endpoint"] == browser.endpoint]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
