"""The outbox: rows written with the change that causes them, claimed and delivered by workers.

Claiming is safe with any number of workers. A worker, in one short transaction, picks due rows
(PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED, so workers pass each other by; SQLite: the
transaction began with BEGIN IMMEDIATE, so claims are serialised) and takes each with

    UPDATE outbox SET claimed_by = :me, claimed_until = :lease_end
     WHERE id = :id AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < :now)

counting it as its own only when that updated a row. It then delivers outside any transaction
and marks the row sent (or schedules a retry) only while it still holds the claim.

A batch may take longer than one lease, so right before each delivery the worker renews that
row's lease, again as a compare-and-set on its own claim (`renew`): a row another worker took over
meanwhile is skipped, not sent a second time. One delivery then has a whole lease to itself, and
its network timeouts are capped (`within_lease`) so that it ends well within it.

A batch holds at most `max_webhooks` webhook rows (the worker's webhook threads), the rest mail,
so a batch of webhooks to receivers that never answer lasts one webhook timeout at most. And a seat
has at most WEBHOOK_MAX_PENDING_PER_SEAT webhook calls waiting: queuing one more gives up the
oldest (each call carries the seat's whole view, so the newest says all a receiver needs), which
bounds what a seat pointing at a receiver that never answers can cost.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update

from ..core import wakeup
from ..core.extensions import db
from ..games.deadlines import now
from .models import OutboxMessage
from .settings import setting

log = logging.getLogger(__name__)
PENDING, SENT, DEAD = "pending", "sent", "dead"


def enqueue(channel: str, kind: str, recipient: str, payload: str, message_id: str, *,
            game_id: str | None = None, seat: int | None = None, version: int | None = None,
            moment: datetime | None = None) -> OutboxMessage:
    """Add a row to the caller's transaction; it is delivered only if that transaction commits."""
    moment = moment or now()
    if channel == "webhook" and game_id is not None and seat is not None:
        _give_up_oldest_webhooks(game_id, seat, moment)
    row = OutboxMessage(channel=channel, kind=kind, recipient=recipient, payload=payload,
                        message_id=message_id, game_id=game_id, seat=seat, version=version,
                        status=PENDING, attempts=0, next_attempt_at=moment, created_at=moment)
    db.session.add(row)
    wakeup.outbox_changed()  # the workers wake when this commits
    return row


def _give_up_oldest_webhooks(game_id: str, seat: int, moment: datetime) -> None:
    """Keep at most WEBHOOK_MAX_PENDING_PER_SEAT - 1 of the seat's waiting webhook calls (the
    newest), so the one being queued makes the cap. Calls claimed by a worker are left alone."""
    keep = max(setting("WEBHOOK_MAX_PENDING_PER_SEAT") - 1, 0)
    oldest = (select(OutboxMessage.id)
              .where(OutboxMessage.game_id == game_id, OutboxMessage.seat == seat,
                     OutboxMessage.channel == "webhook", OutboxMessage.status == PENDING, _free(moment))
              .order_by(OutboxMessage.id.desc()).offset(keep))
    db.session.execute(
        update(OutboxMessage).where(OutboxMessage.id.in_(oldest))
        .values(status=DEAD, last_error=f"given up: more than {keep + 1} webhook calls were waiting "
                                        "for this seat, and newer ones carry its latest state")
        .execution_options(synchronize_session=False))


def _free(moment: datetime):
    """Not claimed, or the claim's lease has run out."""
    return or_(OutboxMessage.claimed_until.is_(None), OutboxMessage.claimed_until < moment)


@dataclass(frozen=True)
class Claimed:
    """A claimed row's fields, usable after the claiming transaction has ended."""

    id: int
    channel: str
    kind: str
    recipient: str
    payload: str
    message_id: str
    game_id: str | None
    seat: int | None
    attempts: int


def claim(worker: str, limit: int, max_webhooks: int | None = None) -> list[Claimed]:
    """Claim up to `limit` due rows, of which at most `max_webhooks` webhook calls (no such
    bound when None), oldest due first."""
    moment = now()
    lease_end = moment + timedelta(seconds=setting("NOTIFY_LEASE_SECONDS"))
    free = _free(moment)
    due = (select(OutboxMessage).where(OutboxMessage.status == PENDING, OutboxMessage.next_attempt_at <= moment, free)
           .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).with_for_update(skip_locked=True))
    try:
        if max_webhooks is None:
            candidates = db.session.scalars(due.limit(limit)).all()
        else:
            hooks = db.session.scalars(due.where(OutboxMessage.channel == "webhook")
                                       .limit(min(limit, max_webhooks))).all() if max_webhooks > 0 else []
            others = db.session.scalars(due.where(OutboxMessage.channel != "webhook")
                                        .limit(limit - len(hooks))).all() if len(hooks) < limit else []
            candidates = sorted([*hooks, *others], key=lambda row: (row.next_attempt_at, row.id))
        claimed = []
        for row in candidates:
            taken = db.session.execute(
                update(OutboxMessage).where(OutboxMessage.id == row.id, OutboxMessage.status == PENDING, free)
                .values(claimed_by=worker, claimed_until=lease_end)
                .execution_options(synchronize_session=False))
            if taken.rowcount == 1:
                claimed.append(Claimed(row.id, row.channel, row.kind, row.recipient, row.payload,
                                       row.message_id, row.game_id, row.seat, row.attempts))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return claimed


def renew(row: Claimed, worker: str) -> bool:
    """Extend this worker's claim on `row` by a lease from now, just before delivering it; False
    (deliver nothing) when the claim is no longer ours: taken over after it expired, or finished."""
    lease_end = now() + timedelta(seconds=setting("NOTIFY_LEASE_SECONDS"))
    return _while_claimed(row, worker, "the claim was taken over before delivery; not delivered by " + worker,
                          claimed_until=lease_end)


def _while_claimed(row: Claimed, worker: str, lost: str, **values) -> bool:
    """Set `values` on the row only while `worker` still holds its claim (a compare-and-set),
    committed at once; False, and a warning saying `lost`, when the claim is gone."""
    try:
        done = db.session.execute(
            update(OutboxMessage).where(OutboxMessage.id == row.id, OutboxMessage.claimed_by == worker,
                                        OutboxMessage.status == PENDING)
            .values(**values).execution_options(synchronize_session=False))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    if done.rowcount != 1:
        log.warning("outbox %s: %s", row.id, lost)
    return done.rowcount == 1


# One delivery waits on the network a few times (connect, TLS, login, MAIL, RCPT, DATA, the body's
# answer; a webhook's connect and read); each wait is capped so that all of them fit in one lease.
NETWORK_WAITS_PER_DELIVERY = 10


def within_lease(timeout: float) -> float:
    """`timeout` (seconds, per network wait), lowered if needed so a delivery cannot outlast its lease."""
    return min(timeout, setting("NOTIFY_LEASE_SECONDS") / NETWORK_WAITS_PER_DELIVERY)


def _finish(row: Claimed, worker: str, **values) -> bool:
    return _while_claimed(row, worker, f"the claim was lost before it could be marked ({values})",
                          claimed_by=None, claimed_until=None, attempts=OutboxMessage.attempts + 1, **values)


def mark_sent(row: Claimed, worker: str) -> bool:
    return _finish(row, worker, status=SENT, sent_at=now(), last_error=None)


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, ... capped at an hour, with up to 10% jitter so workers spread out."""
    base, cap = setting("NOTIFY_RETRY_BASE_SECONDS"), setting("NOTIFY_RETRY_MAX_SECONDS")
    delay = min(cap, base * 2 ** max(attempts - 1, 0))
    return timedelta(seconds=delay * (1 + random.random() / 10))


def mark_failed(row: Claimed, worker: str, error: str, permanent: bool = False,
                not_before: datetime | None = None) -> bool:
    """Schedule the row's next attempt after its backoff (and not before `not_before`), or mark
    it dead when `permanent` or out of attempts. A postponed row counts an attempt too, so every
    row is settled within NOTIFY_MAX_ATTEMPTS turns (about a day)."""
    attempts = row.attempts + 1
    dead = permanent or attempts >= setting("NOTIFY_MAX_ATTEMPTS")
    error = printable(error)
    if dead:
        log.error("outbox %s (%s to %s) given up after %d attempt(s): %s", row.id, row.channel,
                  printable(row.recipient), attempts, error)
    next_attempt = now() + backoff(attempts)
    if not_before is not None:
        next_attempt = max(next_attempt, not_before)
    return _finish(row, worker, status=DEAD if dead else PENDING, last_error=error[:500],
                   next_attempt_at=next_attempt)


def printable(text: str) -> str:
    """`text` with control characters escaped: an error may quote what a player set (a NUL
    byte cannot even be stored in PostgreSQL), and the mark must not fail because of it."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
