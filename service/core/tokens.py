"""Bearer tokens and invite codes: long random secrets, stored only as SHA-256 hashes."""
from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32  # 256 bits
INVITE_BYTES = 24  # 192 bits
GAME_ID_BYTES = 16  # 128 bits -> 22 URL-safe characters


def _secret_text(nbytes: int) -> str:
    """URL-safe random text that never begins with '-': command lines would take such an id or
    code for an option (one in 64 draws did). Redrawing costs 0.02 bits of the 128+."""
    while (text := secrets.token_urlsafe(nbytes)).startswith("-"):
        pass
    return text


def new_token() -> str:
    return _secret_text(TOKEN_BYTES)


def new_invite_code() -> str:
    return _secret_text(INVITE_BYTES)


def new_game_id() -> str:
    return _secret_text(GAME_ID_BYTES)


def hash_secret(secret: str) -> str:
    """SHA-256, unsalted and fast, is right here: these secrets carry 192+ bits of entropy from
    `secrets`, so there is nothing to brute-force or precompute (salts and slow hashes like bcrypt
    defend low-entropy passwords), and a plain digest can be looked up by an index in one query."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
