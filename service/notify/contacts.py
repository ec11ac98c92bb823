"""A seat's contact settings: email and mail mode, whether its push subscriptions are told (push
mode; the subscriptions themselves are push/subscriptions.py's), webhook URL and its signing secret."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from ..core.extensions import db
from ..games.contact_fields import MAIL_MODES, PUSH_MODES
from .consent import confirm
from .consent.addresses import check_email, normalised
from .models import Contact
from .webhooks.calls import check_url
from .webhooks.signatures import new_secret

UNSET = object()


def contact_of(game_id: str, seat: int) -> Contact | None:
    return db.session.get(Contact, (game_id, seat))


def contacts_of(game_id: str) -> dict[int, Contact]:
    return {c.seat: c for c in db.session.scalars(select(Contact).where(Contact.game_id == game_id))}


def set_contact(game_id: str, seat: int, moment: datetime, *, email=UNSET, mail_mode=UNSET, push_mode=UNSET,
                webhook_url=UNSET) -> tuple[Contact, str | None]:
    """Change what is given (None clears it). Returns the contact and, when a webhook URL was
    set, its new signing secret: the only time the secret is shown."""
    contact = contact_of(game_id, seat)
    if contact is None:
        contact = Contact(game_id=game_id, seat=seat, mail_mode="turn", push_mode="turn")
        db.session.add(contact)
    secret = None
    if email is not UNSET:
        contact.email = check_email(email) if email else None
        contact.email_key = normalised(contact.email) if contact.email else None
    if mail_mode is not UNSET:
        if mail_mode not in MAIL_MODES:
            raise ValueError(f"mail_mode must be one of {', '.join(MAIL_MODES)}")
        if mail_mode == "digest" and contact.mail_mode != "digest":
            contact.digest_since = moment
        contact.mail_mode = mail_mode
    if push_mode is not UNSET:
        if push_mode not in PUSH_MODES:
            raise ValueError(f"push_mode must be one of {', '.join(PUSH_MODES)}")
        contact.push_mode = push_mode
    if webhook_url is not UNSET:
        contact.webhook_url = check_url(webhook_url) if webhook_url else None
        contact.webhook_secret = secret = new_secret() if webhook_url else None
    return contact, secret


def public(contact: Contact | None, secret: str | None = None) -> dict:
    """What the seat is shown about its own settings (the secret only right after setting it)."""
    body = {"email": contact.email if contact else None,
            "email_status": confirm.status(contact.email if contact else None),
            "mail_mode": contact.mail_mode if contact else "turn",
            "push_mode": contact.push_mode if contact else "turn",
            "webhook_url": contact.webhook_url if contact else None}
    if secret:
        body["webhook_secret"] = secret
    return body


