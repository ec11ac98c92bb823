"""What the worker does on the clock: deadline reminders, "time is up" notices, daily digests.

Each sweep takes its rows with a compare-and-set UPDATE (and FOR UPDATE SKIP LOCKED on
PostgreSQL) in the same transaction that writes the outbox rows, so two workers never send the
same reminder or digest twice, and a crash sends none rather than half.
"""
from __future__ import annotations

import secrets
from collections import defaultdict
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update

from .. import deadlines
from ..access.models import SeatLink
from ..extensions import db
from ..models import Game
from ..players.models import PlayerEvent
from ..store import load_match
from ..tokens import hash_secret
from . import compose, confirm, dispatch, message, outbox, table_dispatch
from .consent import MailConfirmation
from .contacts import contact_of
from .models import Contact, GameClock, InboundMail, MailToken, OutboxMessage
from .settings import setting

BATCH = 50


def _transaction(work):
    try:
        result = work()
        db.session.commit()
        return result
    except BaseException:
        db.session.rollback()
        raise


def _take_clock(clock: GameClock, flag: str) -> bool:
    """Set the clock's flag unless another worker did first."""
    column = getattr(GameClock, flag)
    done = db.session.execute(update(GameClock).where(GameClock.game_id == clock.game_id, column.is_(False),
                                                      GameClock.turn_seat == clock.turn_seat)
                              .values({flag: True}).execution_options(synchronize_session=False))
    return done.rowcount == 1


def _notify_clock(clock: GameClock, kind: str, moment: datetime) -> None:
    """A reminder to the seat on the clock; once its deadline passed, a notice to every seat that
    may claim the match (its opponent; at a table every seat but it and its partners)."""
    game = db.session.get(Game, clock.game_id)
    match = load_match(game) if game else None
    if match is None or match.is_over:
        return
    seats = [clock.turn_seat] if kind == "reminder" else table_dispatch.claimants(match, clock.turn_seat)
    for seat in seats:
        contact = contact_of(game.id, seat)
        if contact and contact.mail_mode != "off" and confirm.may_mail(contact.email):
            dispatch.write_mail(game, match, seat, contact.email, kind, moment)
        if contact and contact.webhook_url:
            dispatch.write_webhook(game, match, seat, dispatch.WEBHOOK_TYPES[kind], moment)


def sweep_clocks(moment: datetime | None = None) -> int:
    """Reminders (a quarter of the time left) to the seat to move (at a table, the one the move
    clock is on); notices to its opponents once the deadline has passed (they may claim the
    match). Returns how many were written."""
    moment = moment or deadlines.now()

    def work():
        written = 0
        for time_column, flag, kind in ((GameClock.reminder_at, "reminded", "reminder"),
                                        (GameClock.deadline_at, "expiry_noticed", "expired")):
            due = db.session.scalars(select(GameClock).where(
                time_column <= moment, getattr(GameClock, flag).is_(False), GameClock.turn_seat.is_not(None))
                .limit(BATCH).with_for_update(skip_locked=True)).all()
            for clock in due:
                if _take_clock(clock, flag):
                    _notify_clock(clock, kind, moment)
                    written += 1
        return written
    return _transaction(work)


def sweep_digests(moment: datetime | None = None) -> int:
    """One digest per address whose digest seats are a day (DIGEST_HOURS) past their last one."""
    moment = moment or deadlines.now()
    cutoff = moment - timedelta(hours=setting("DIGEST_HOURS"))

    def work():
        due = db.session.scalars(select(Contact).where(
            Contact.mail_mode == "digest", Contact.email.is_not(None), Contact.digest_since <= cutoff)
            .limit(BATCH).with_for_update(skip_locked=True)).all()
        by_address: dict[str, list[Contact]] = defaultdict(list)
        for contact in due:
            taken = db.session.execute(
                update(Contact).where(Contact.game_id == contact.game_id, Contact.seat == contact.seat,
                                      Contact.digest_since == contact.digest_since)
                .values(digest_since=moment).execution_options(synchronize_session=False))
            if taken.rowcount == 1:
                by_address[contact.email.lower()].append(contact)
        sent = 0
        for address, contacts in by_address.items():
            sent += write_digest(contacts[0].email, contacts, moment)
        return sent
    return _transaction(work)


def write_digest(to: str, contacts: list[Contact], moment: datetime) -> int:
    if not confirm.may_mail(to):
        return 0
    with dispatch.composing("mail", "digest", to, moment):
        return _write_digest(to, contacts, moment)
    return 0  # not composed: a dead row says why


def _write_digest(to: str, contacts: list[Contact], moment: datetime) -> int:
    scenes = []
    for contact in contacts:
        game = db.session.get(Game, contact.game_id)
        match = load_match(game) if game else None
        if match is None or game.status != "active":
            continue
        scenes.append(dispatch.scene_for(game, match, contact.seat, moment))
    if not scenes:
        return 0
    secret = secrets.token_urlsafe(18)
    db.session.add(MailToken(token_hash=hash_secret(secret), purpose="unsubscribe", email=to, created_at=moment))
    unsubscribe = message.address("unsubscribe", secret)
    my_turn = [s for s in scenes if s.my_turn]
    message_id = message.new_message_id(None, None, "digest")
    mail = message.build(
        to=to, subject=f"[Gin] Your daily digest: {len(my_turn)} of {len(scenes)} game(s) wait for you",
        text=compose.digest_body(scenes, unsubscribe), message_id=message_id, moment=moment,
        reply_to=my_turn[0].reply_address if len(scenes) == 1 and my_turn else None, unsubscribe=unsubscribe)
    outbox.enqueue("mail", "digest", to, message.serialise(mail), message_id, moment=moment)
    return 1


def sweep_old_rows(moment: datetime | None = None) -> int:
    """Forget what is no longer needed: delivered (or given-up) outbox rows after
    NOTIFY_KEEP_DAYS (their text holds reply secrets), reply secrets and inbound message ids after
    twice that (a reply that old is answered as from an unknown address); mail links (seat_links)
    and players' stream events after twice that too (a link that old is then unknown rather than
    "used"; a stream resumed from an event that old starts at the oldest kept one). The numbering
    of a player's stream lives on the player's row, so pruning never reuses an event id."""
    moment = moment or deadlines.now()
    keep = timedelta(days=setting("NOTIFY_KEEP_DAYS"))

    def work():
        removed = db.session.execute(delete(OutboxMessage).where(
            OutboxMessage.status != outbox.PENDING, OutboxMessage.created_at < moment - keep)).rowcount
        removed += db.session.execute(delete(MailToken).where(MailToken.created_at < moment - 2 * keep)).rowcount
        removed += db.session.execute(delete(InboundMail).where(InboundMail.received_at < moment - 2 * keep)).rowcount
        removed += db.session.execute(delete(MailConfirmation).where(
            MailConfirmation.created_at < moment - 2 * keep)).rowcount
        removed += db.session.execute(delete(SeatLink).where(SeatLink.created_at < moment - 2 * keep)).rowcount
        removed += db.session.execute(delete(PlayerEvent).where(PlayerEvent.created_at < moment - 2 * keep)).rowcount
        return removed
    return _transaction(work)
