"""A push message's body encrypted for one browser (RFC 8291, the aes128gcm content coding of
RFC 8188): only the browser holding the subscription's private key reads it; the push service
carries bytes it cannot open."""
from __future__ import annotations

import os

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec

from .keys import b64url_decode

RECORD_SIZE = 4096  # one record: a push message is at most 4 KB (RFC 8291 section 4)


def encrypt(plaintext: bytes, p256dh: str, auth: str) -> bytes:
    """`plaintext` for the subscription whose keys are `p256dh` (the browser's P-256 public key)
    and `auth` (its 16-byte secret), both base64url: a fresh key pair and salt every time, the
    header carrying the sender's public key (RFC 8291 section 4)."""
    sender = ec.generate_private_key(ec.SECP256R1())
    return http_ece.encrypt(plaintext, salt=os.urandom(16), private_key=sender, dh=b64url_decode(p256dh),
                            auth_secret=b64url_decode(auth), rs=RECORD_SIZE, version="aes128gcm")
