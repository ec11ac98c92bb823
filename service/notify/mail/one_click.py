"""Unsubscribing in one click (RFC 8058), on every mail the service sends.

Each mail carries a fresh key (256 bits, stored only as a SHA-256 in mail_tokens) in two forms:

    List-Unsubscribe: <BASE_URL/unsubscribe/KEY>, <mailto:unsubscribe+KEY@MAIL_DOMAIN?subject=unsubscribe>
    List-Unsubscribe-Post: List-Unsubscribe=One-Click

A mail client POSTs to the URL (notify/routes.py) or sends mail to the address (inbound/replies.py),
and the key does what it was made for (consent/unsubscribing.py): a STOP key stops its address for good, as a `stop`
reply does; a DIGEST key, in the daily digest, turns that address's digests off. The key is kept as
long as reply secrets (notify/sweeps.py), so an unsubscribe button works for weeks after its mail came.
"""
from __future__ import annotations

import secrets
from datetime import datetime

from ...core.extensions import db
from ...core.tokens import hash_secret
from ..config import setting
from ..models import MailToken

STOP, DIGEST = "stop", "unsubscribe"  # MailToken.purpose
POST_VALUE = "List-Unsubscribe=One-Click"  # RFC 8058: the List-Unsubscribe-Post header, and the POST's body
LOCAL = "unsubscribe"  # the mailto's local part: unsubscribe+KEY@MAIL_DOMAIN


def new_key(address: str, moment: datetime, purpose: str = STOP) -> str:
    """A fresh key for one mail to `address`."""
    key = secrets.token_urlsafe(32)
    db.session.add(MailToken(token_hash=hash_secret(key), purpose=purpose, email=address[:254], created_at=moment))
    return key


def url(key: str) -> str:
    return f"{setting('BASE_URL').rstrip('/')}/unsubscribe/{key}"


def mailto_address(key: str) -> str:
    return f"{LOCAL}+{key}@{setting('MAIL_DOMAIN')}"


def headers(key: str) -> dict[str, str]:
    """The two headers, the https URL first: RFC 8058 clients POST to it, others may mail."""
    return {"List-Unsubscribe": f"<{url(key)}>, <mailto:{mailto_address(key)}?subject=unsubscribe>",
            "List-Unsubscribe-Post": POST_VALUE}
