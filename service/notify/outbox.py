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
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update

from .. import wakeup
from ..deadlines import now
from ..extensions import db
from .models import OutboxMessage
from .settings import setting

log = logging.getLogger(__name__)
PENDING, SENT, DEAD = "pending", "sent", "dead"


def enqueue(channel: str, kind: str, recipient: str, payload: str, message_id: str, *,
            game_id: str | None = None, seat: int | None = None, version: int | None = None,
            moment: datetime | None = None) -> OutboxMessage:
    """Add a row to the caller's transaction; it is delivered only if that transaction commits."""
    moment = moment or now()
    row = OutboxMessage(channel=channel, kind=kind, recipient=recipient, payload=payload,
                        message_id=message_id, game_id=game_id, seat=seat, version=version,
                        status=PENDING, attempts=0, next_attempt_at=moment, created_at=moment)
    db.session.add(row)
    wakeup.outbox_changed()  # the workers wake when this commits
    return row


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


def claim(worker: str, limit: int) -> list[Claimed]:
    moment = now()
    lease_end = moment + timedelta(seconds=setting("NOTIFY_LEASE_SECONDS"))
    free = or_(OutboxMessage.claimed_until.is_(None), OutboxMessage.claimed_until < moment)
    try:
        candidates = db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.status == PENDING,
                                        OutboxMessage.next_attempt_at <= moment, free)
            .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(limit)
            .with_for_update(skip_locked=True)).all()
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


def mark_failed(row: Claimed, worker: str, error: str, permanent: bool = False) -> bool:
    attempts = row.attempts + 1
    dead = permanent or attempts >= setting("NOTIFY_MAX_ATTEMPTS")
    if dead:
        log.error("outbox %s (%s to %s) given up after %d attempt(s): %s", row.id, row.channel,
                  row.recipient, attempts, error)
    return _finish(row, worker, status=DEAD if dead else PENDING, last_error=error[:500],
                   next_attempt_at=now() + backoff(attempts))
