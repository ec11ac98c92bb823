"""What an unsubscribe key does when its mail's button is pressed (mail/one_click.py writes the
keys): by a POST to its URL (notify/routes.py) or a mail to its address (inbound/replies.py)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, or_, select

from ...core.extensions import db
from ...core.tokens import hash_secret
from ..mail import one_click
from ..models import Contact, MailToken
from . import confirm
from .addresses import DOTLESS_DOMAINS, normalised

STOPPED, DIGEST_OFF = "stopped", "digest-off"


def follow(key: str, moment: datetime) -> str | None:
    """Do what `key` was made for: STOPPED (its address never gets mail again) or DIGEST_OFF
    (its address's digest seats get no more digests); None for a key we do not know."""
    token = db.session.get(MailToken, hash_secret(key))
    if token is None or not token.email or token.purpose not in (one_click.STOP, one_click.DIGEST):
        return None
    if token.purpose == one_click.STOP:
        confirm.stop(token.email, moment)
        return STOPPED
    digest_off(token.email)
    return DIGEST_OFF


def digest_off(address: str) -> None:
    """Every digest seat whose address is `address`'s mailbox (by its normalised key) goes off.
    Candidates are read by domain (a domain holds no LIKE wildcard: addresses.py), then matched
    by key, as the key's rules are no SQL."""
    key = normalised(address)
    domain = key.rpartition("@")[2]
    domains = [name for name, same in DOTLESS_DOMAINS.items() if same == domain] or [domain]
    candidates = db.session.scalars(select(Contact).where(
        Contact.mail_mode == "digest", Contact.email.is_not(None),
        or_(*(func.lower(Contact.email).like(f"%@{name}") for name in domains)))).all()
    for contact in candidates:
        if normalised(contact.email) == key:
            contact.mail_mode = "off"
