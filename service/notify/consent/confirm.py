"""Confirmed addresses: the service mails an address only after its owner said yes.

Setting a seat's email sends that address one confirmation mail, of fixed text (no player name,
nothing a player typed), whose reply address is confirm+<secret>@MAIL_DOMAIN. The owner replies
`confirm` (from then on the address gets game mail) or `stop` (it never gets another mail from the
service; kept for good, by normalised address). Confirming by reply rather than by a link means
no mail scanner following links can confirm for the owner, and no page is needed. Confirmation
mails are capped per game, per address and per requesting client (settings CONFIRM_MAILS_*).
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from flask import has_request_context, request
from sqlalchemy import func, select

from ...core.errors import Problem
from ...core.extensions import db
from ...core.tokens import hash_secret
from .. import outbox
from ..config import setting
from ..mail import rfc5322
from ..mail.channel import MAIL
from ..models import MailAddress, MailConfirmation
from .addresses import normalised

CONFIRMED, UNCONFIRMED, STOPPED = "confirmed", "unconfirmed", "stopped"
SUBJECT = "[Gin] Confirm your address for Gin Rummy mail"
# How long one confirmation mail stands for a seat asking again for the same address.
RESEND_AFTER = timedelta(days=1)


def status(address: str | None) -> str | None:
    if not address:
        return None
    row = db.session.get(MailAddress, normalised(address))
    if row is not None and row.stopped_at is not None:
        return STOPPED
    return CONFIRMED if row is not None and row.confirmed_at is not None else UNCONFIRMED


def mailable(addresses: Iterable[str | None]) -> set[str]:
    """The normalised forms of those `addresses` the service may send game mail to (one query)."""
    keys = {normalised(a) for a in addresses if a}
    if not keys:
        return set()
    return set(db.session.scalars(select(MailAddress.address).where(
        MailAddress.address.in_(keys), MailAddress.confirmed_at.is_not(None), MailAddress.stopped_at.is_(None))))


def may_mail(address: str | None) -> bool:
    return bool(address) and normalised(address) in mailable([address])


def ask(game_id: str, seat: int, address: str, moment: datetime) -> None:
    """Send `address` a confirmation mail for this seat, unless its owner answered already, or one
    for this seat went out within a day. Over a cap: Problem too-many-confirmations (the caller's
    transaction is rolled back: nothing changes)."""
    key = normalised(address)
    if status(address) != UNCONFIRMED:
        return
    day_ago = moment - RESEND_AFTER
    if _count(MailConfirmation.address == key, MailConfirmation.game_id == game_id,
              MailConfirmation.seat == seat, MailConfirmation.created_at > day_ago):
        return
    client = request.remote_addr[:64] if has_request_context() and request.remote_addr else None
    over = ("this game" if _count(MailConfirmation.game_id == game_id) >= setting("CONFIRM_MAILS_PER_GAME")
            else "this address" if _count(MailConfirmation.address == key, MailConfirmation.created_at > day_ago)
            >= setting("CONFIRM_MAILS_PER_ADDRESS")
            else "your client address" if client and _count(
                MailConfirmation.client == client, MailConfirmation.created_at > day_ago)
            >= setting("CONFIRM_MAILS_PER_CLIENT") else None)
    if over:
        raise Problem("too-many-confirmations", f"enough confirmation mails were sent for {over}; "
                      "nothing was changed (try again tomorrow, or confirm a mail already sent)")
    secret = secrets.token_urlsafe(32)
    db.session.add(MailConfirmation(token_hash=hash_secret(secret), address=key, game_id=game_id, seat=seat,
                                    client=client, created_at=moment))
    reply_to = rfc5322.address("confirm", secret)
    message_id = rfc5322.new_message_id(None, None, "confirm")
    mail = rfc5322.build(to=address, subject=SUBJECT, text=body(reply_to), message_id=message_id,
                         moment=moment, reply_to=reply_to)
    outbox.enqueue(MAIL, "confirm", address, rfc5322.serialise(mail), message_id, moment=moment)


def _count(*where) -> int:
    return db.session.scalar(select(func.count()).select_from(MailConfirmation).where(*where))


def body(reply_to: str) -> str:
    """Fixed words: the mail goes to an address nobody has vouched for, so it must carry nothing a
    stranger could choose (no name, no game)."""
    base = setting("BASE_URL").rstrip("/")
    return (f"Someone asked the Gin Rummy service at {base} to send game mail to this address.\n"
            "Nothing more will be sent to it unless you confirm.\n\n"
            "To get the mail, reply to this mail with the one word\n\n    confirm\n\n"
            "To never get mail from this service again, reply with\n\n    stop\n\n"
            "If you did not ask for this, ignore this mail or reply stop.\n"
            f"(Replies go to {reply_to}.)\n")


def answer(token_hash: str, word: str, moment: datetime) -> MailConfirmation | None:
    """A reply to a confirmation mail: `confirm` (once per mail) or `stop` (any time the secret
    is kept); anything else changes nothing. Returns the confirmation row when it confirmed, so
    its seat can be greeted."""
    row = db.session.get(MailConfirmation, token_hash)
    if row is None or word not in ("confirm", "stop"):
        return None
    if word == "stop":
        stop(row.address, moment)
        row.answered_at = row.answered_at or moment
        return None
    standing = _standing(row.address)
    if row.answered_at is not None or standing.stopped_at is not None:
        return None
    row.answered_at = moment
    standing.confirmed_at = standing.confirmed_at or moment
    return row


def confirmed(address: str, moment: datetime) -> None:
    """Its owner showed they read mail sent to `address` (a reply from it to a secret we mailed
    there: a join or a start); a stopped address stays stopped."""
    standing = _standing(normalised(address))
    standing.confirmed_at = standing.confirmed_at or moment


def stop(address: str, moment: datetime) -> None:
    """Never mail `address` again (by its normalised form), whatever game names it."""
    standing = _standing(normalised(address))
    standing.stopped_at = standing.stopped_at or moment


def _standing(key: str) -> MailAddress:
    standing = db.session.get(MailAddress, key, with_for_update=True)
    if standing is None:
        standing = MailAddress(address=key)
        db.session.add(standing)
    return standing


def first_word(text: str) -> str:
    words = text.strip().lower().split()
    return words[0].strip(".!,;:") if words else ""
