"""What a seat's new contact settings set in motion: the confirmation mail a new address gets, the
greeting a new address or webhook gets for a game under way, and at a game's creation the
invitation mails (contacts.py keeps the settings themselves)."""
from __future__ import annotations

from datetime import datetime

from ..core.errors import Problem
from . import dispatch
from .consent import confirm
from .consent.addresses import normalised
from .contacts import contact_of, public, set_contact
from .inbound import invitations


def apply(game, match, seat: int, fields: dict, moment: datetime) -> dict:
    """Store the contact fields given (a validation-error problem if one is bad) and answer with
    the seat's settings. A newly given email or webhook hears about the game at once if it is
    under way, so the seat has a mail to reply to without waiting for the next turn; an address
    its owner has not confirmed yet is only sent the confirmation mail (consent/confirm.py)."""
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


def seat_taken(game, match, seat: int, args: dict, moment: datetime,
               invites: dict[int, str] | None = None) -> dict | None:
    """The seat-taken hook (games.changes), at creation or join: the contact fields among `args`,
    if any were given (the answer's `contact`); at creation, an `invite_email` (seat 1) or
    `invite_emails` (a seat each, in order) is sent the invitation with its seat's invite code,
    which only the creator has."""
    fields = {name: args[name] for name in ("email", "mail_mode", "push_mode", "webhook_url") if name in args}
    answer = {"contact": apply(game, match, seat, fields, moment)} if fields else None
    if invites and (args.get("invite_email") or args.get("invite_emails")):
        if args.get("invite_email"):
            invitations.invite(game, invites[1], args["invite_email"], args.get("email"), moment)
        else:
            addresses = {to_seat: address for to_seat, address in enumerate(args["invite_emails"], 1) if address}
            invitations.invite_seats(game, invites, addresses, args.get("email"), moment)
    return answer
