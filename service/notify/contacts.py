"""A seat's contact settings: email and mail mode, webhook URL and its signing secret."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from ..errors import Problem
from ..extensions import db
from . import confirm
from .addresses import check_email, normalised
from .codes import MAIL_MODES
from .models import Contact
from .webhooks import check_url, new_secret

UNSET = object()


def contact_of(game_id: str, seat: int) -> Contact | None:
    return db.session.get(Contact, (game_id, seat))


def contacts_of(game_id: str) -> dict[int, Contact]:
    return {c.seat: c for c in db.session.scalars(select(Contact).where(Contact.game_id == game_id))}


def set_contact(game_id: str, seat: int, moment: datetime, *, email=UNSET, mail_mode=UNSET,
                webhook_url=UNSET) -> tuple[Contact, str | None]:
    """Change what is given (None clears it). Returns the contact and, when a webhook URL was
    set, its new signing secret: the only time the secret is shown."""
    contact = contact_of(game_id, seat)
    if contact is None:
        contact = Contact(game_id=game_id, seat=seat, mail_mode="turn")
        db.session.add(contact)
    secret = None
    if email is not UNSET:
        contact.email = check_email(email) if email else None
    if mail_mode is not UNSET:
        if mail_mode not in MAIL_MODES:
            raise ValueError(f"mail_mode must be one of {', '.join(MAIL_MODES)}")
        if mail_mode == "digest" and contact.mail_mode != "digest":
            contact.digest_since = moment
        contact.mail_mode = mail_mode
    if webhook_url is not UNSET:
        contact.webhook_url = check_url(webhook_url) if webhook_url else None
        contact.webhook_secret = secret = new_secret() if webhook_url else None
    return contact, secret


def public(contact: Contact | None, secret: str | None = None) -> dict:
    """What the seat is shown about its own settings (the secret only right after setting it)."""
    body = {"email": contact.email if contact else None,
            "email_status": confirm.status(contact.email if contact else None),
            "mail_mode": contact.mail_mode if contact else "turn",
            "webhook_url": contact.webhook_url if contact else None}
    if secret:
        body["webhook_secret"] = secret
    return body


def apply(game, match, seat: int, fields: dict, moment: datetime) -> dict:
    """Store the contact fields given (a validation-error problem if one is bad) and answer with
    the seat's settings. A newly given email or webhook hears about the game at once if it is
    under way, so the seat has a mail to reply to without waiting for the next turn; an address
    its owner has not confirmed yet is only sent the confirmation mail (confirm.py)."""
    from . import dispatch
    before = contact_of(game.id, seat)
    old_email = before.email if before else None
    try:
        contact, secret = set_contact(game.id, seat, moment, **fields)
    except ValueError as exc:
        raise Problem("validation-error", str(exc), errors={"json": {"contact": [str(exc)]}}) from None
    new_email = bool(contact.email) and normalised(contact.email) != normalised(old_email or "")
    if new_email:
        confirm.ask(game.id, seat, contact.email, moment)  # may refuse (too-many-confirmations)
    if match is not None and not match.is_over:
        dispatch.greet(game, match, seat, contact, moment, mail=new_email, webhook=secret is not None)
    return public(contact, secret)


def on_seat_taken(game, match, seat: int, args: dict, moment: datetime,
                  invites: dict[int, str] | None = None) -> dict | None:
    """At creation or join: the contact fields among `args`, if any were given; at creation, an
    `invite_email` (seat 1) or `invite_emails` (a seat each, in order) is sent the invitation with
    its seat's invite code, which only the creator has."""
    fields = {name: args[name] for name in ("email", "mail_mode", "webhook_url") if name in args}
    answer = apply(game, match, seat, fields, moment) if fields else None
    if invites and (args.get("invite_email") or args.get("invite_emails")):
        from .invitations import invite, invite_seats
        if args.get("invite_email"):
            invite(game, invites[1], args["invite_email"], args.get("email"), moment)
        else:
            addresses = {to_seat: address for to_seat, address in enumerate(args["invite_emails"], 1) if address}
            invite_seats(game, invites, addresses, args.get("email"), moment)
    return answer
