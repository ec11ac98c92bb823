"""What the worker does on the clock: deadline reminders and "time is up" notices (by every way a
seat is reached: dispatch.tell), daily digests.

Each sweep takes its rows with a compare-and-set UPDATE (and FOR UPDATE SKIP LOCKED on
PostgreSQL) in the same transaction that writes the outbox rows, so two workers never send the
same reminder or digest twice, and a crash sends none rather than half.
"""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, select, true, update

from ..access.models import SeatLink
from ..core.extensions import db
from ..core.hooks import Registry
from ..games import deadlines, table_clocks
from ..games.models import Game, GameClock, SeatClock
from ..games.store import load_match
from . import dispatch, outbox
from .config import setting
from .consent import confirm
from .consent.addresses import normalised
from .mail import mail_text, one_click, rfc5322
from .mail.channel import MAIL
from .models import Contact, InboundMail, MailConfirmation, MailToken, OutboxMessage

BATCH = 50


def _transaction(work):
    try:
        result = work()
        db.session.commit()
        return result
    except BaseException:
        db.session.rollback()
        raise


def _take_clock(model, clock, flag: str) -> bool:
    """Set the clock row's flag unless another worker did first (a GameClock, or a table's
    SeatClock, whose turn must still be the one read)."""
    column = getattr(model, flag)
    same = [model.game_id == clock.game_id, column.is_(False)]
    same += [model.turn_seat == clock.turn_seat] if model is GameClock else \
        [model.seat == clock.seat, model.turn_started_at == clock.turn_started_at]
    done = db.session.execute(update(model).where(*same).values({flag: True})
                              .execution_options(synchronize_session=False))
    return done.rowcount == 1


def _notify_clock(game_id: str, late: int, kind: str, moment: datetime) -> None:
    """A reminder to the seat on the clock (`late`); once its deadline passed, a notice to every
    seat that may claim the match (its opponent; at a table every seat of another side)."""
    game = db.session.get(Game, game_id)
    match = load_match(game) if game else None
    if match is None or match.is_over:
        return
    seats = [late] if kind == "reminder" else table_clocks.claimants(match, late)
    found = dispatch.listeners(game.id, seats=seats)
    for seat in seats:
        if seat in found:
            dispatch.tell(game, match, found[seat], kind, moment, clock_seat=late)


# A table's game clock only mirrors its earliest seat clock: the seats' own rows are swept instead.
_TABLE_GAME = exists().where(SeatClock.game_id == GameClock.game_id)


def sweep_clocks(moment: datetime | None = None) -> int:
    """Reminders (a quarter of the time left) to the seat to move (at a table, each board's mover
    by its own clock); notices to its opponents once the deadline has passed (they may claim the
    match). Returns how many were written."""
    moment = moment or deadlines.now()

    def work():
        written = 0
        for model, condition in ((GameClock, GameClock.turn_seat.is_not(None) & ~_TABLE_GAME),
                                 (SeatClock, true())):
            for time_column, flag, kind in ((model.reminder_at, "reminded", "reminder"),
                                            (model.deadline_at, "expiry_noticed", "expired")):
                due = db.session.scalars(select(model).where(
                    time_column <= moment, getattr(model, flag).is_(False), condition)
                    .limit(BATCH).with_for_update(skip_locked=True)).all()
                for clock in due:
                    if _take_clock(model, clock, flag):
                        _notify_clock(clock.game_id, clock.seat if model is SeatClock else clock.turn_seat,
                                      kind, moment)
                        written += 1
        return written
    return _transaction(work)


def sweep_digests(moment: datetime | None = None) -> int:
    """One digest per address (its normalised key: `ann+x@` and `ann@` are one mailbox) whose
    digest seats are a day (DIGEST_HOURS) past their last one."""
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
                by_address[normalised(contact.email)].append(contact)  # one digest a mailbox
        sent = 0
        for address, contacts in by_address.items():
            sent += write_digest(contacts[0].email, contacts, moment)
        return sent
    return _transaction(work)


def write_digest(to: str, contacts: list[Contact], moment: datetime) -> int:
    if not confirm.may_mail(to):
        return 0
    with dispatch.composing(MAIL, "digest", to, moment):
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
    key = one_click.new_key(to, moment, one_click.DIGEST)  # its button turns digests off, no more
    my_turn = [s for s in scenes if s.my_turn]
    message_id = rfc5322.new_message_id(None, None, "digest")
    mail = rfc5322.build(
        to=to, subject=f"[Gin] Your daily digest: {len(my_turn)} of {len(scenes)} game(s) wait for you",
        text=mail_text.digest_body(scenes, one_click.mailto_address(key)), message_id=message_id, moment=moment,
        reply_to=my_turn[0].reply_address if len(scenes) == 1 and my_turn else None, unsubscribe=key)
    outbox.enqueue(MAIL, "digest", to, rfc5322.serialise(mail), message_id, moment=moment)
    return 1


# Work of features above notify that falls due on the clock (a tournament's entry window, its round
# deadline): sweep(moment=None) -> how much was done, run by each of the worker's sweeps.
periodic = Registry("sweep(moment=None) -> work done, by each of the worker's sweeps")


def sweep_periodic(moment: datetime | None = None) -> int:
    return sum(sweep(moment) for sweep in periodic())


# Rows other features keep as long as mail links: forget(cutoff) deletes those older than cutoff and
# returns how many (players register their stream events' in their init_app).
old_rows = Registry("forget(cutoff) -> rows deleted, in the sweep of old rows")


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
        for forget in old_rows():  # other features' rows kept as long (players' stream events)
            removed += forget(moment - 2 * keep)
        return removed
    return _transaction(work)
