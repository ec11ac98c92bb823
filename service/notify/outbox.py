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
so a batch of webhooks to receivers that never answer lasts one webhook timeout at most.

A seat's webhook calls go in order: a worker claims only the oldest waiting call of each seat, so a
call is never made while an earlier one of the same seat waits for its retry. Nothing is given up
while the receiver answers, slowly or with errors: a failed call is retried with backoff until
WEBHOOK_RETRY_HOURS have passed since it was queued (or redelivered), and only then marked dead,
saying why (a 410, a seat without a webhook and an address refused are dead at once, as permanent).
What a backlog may shed is only what nothing needs: a run of waiting `turn.started` calls of one
seat is replaced by the newest (each carries the seat's whole view), marked `replaced`; every
other kind, `hand.ended` and `match.ended` among them, is always delivered.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import and_, exists, func, not_, or_, select, update
from sqlalchemy.orm import aliased

from ..core import wakeup
from ..core.extensions import db
from ..games.deadlines import now
from .models import OutboxMessage
from .settings import setting

log = logging.getLogger(__name__)
PENDING, SENT, DEAD, REPLACED = "pending", "sent", "dead", "replaced"
TURN = "turn.started"  # the one webhook kind a newer one of the same seat stands for


def enqueue(channel: str, kind: str, recipient: str, payload: str, message_id: str, *,
            game_id: str | None = None, seat: int | None = None, version: int | None = None,
            moment: datetime | None = None) -> OutboxMessage:
    """Add a row to the caller's transaction; it is delivered only if that transaction commits."""
    moment = moment or now()
    if channel == "webhook" and kind == TURN and payload and game_id is not None and seat is not None:
        _replace_waiting_turns(game_id, seat, message_id)  # an empty payload: a dead row, not composed
    row = OutboxMessage(channel=channel, kind=kind, recipient=recipient, payload=payload,
                        message_id=message_id, game_id=game_id, seat=seat, version=version,
                        status=PENDING, attempts=0, next_attempt_at=moment, created_at=moment)
    db.session.add(row)
    wakeup.outbox_changed()  # the workers wake when this commits
    return row


def _replace_waiting_turns(game_id: str, seat: int, newer: str) -> None:
    """Mark `replaced` the seat's waiting turn.started calls that the one being queued follows
    directly (none of another kind between them). Only rows no worker ever held now: the
    conditions stand in the UPDATE's own WHERE, so on PostgreSQL a row a worker claimed while this
    waited for its lock is looked at again, found claimed, and left to the worker."""
    of_seat = (OutboxMessage.game_id == game_id, OutboxMessage.seat == seat, OutboxMessage.channel == "webhook")
    replaceable = and_(OutboxMessage.kind == TURN, OutboxMessage.status == PENDING,
                       OutboxMessage.claimed_by.is_(None))
    last_kept = select(func.max(OutboxMessage.id)).where(*of_seat, not_(replaceable)).scalar_subquery()
    db.session.execute(
        update(OutboxMessage).where(*of_seat, replaceable, OutboxMessage.id > func.coalesce(last_kept, 0))
        .values(status=REPLACED, last_error=f"replaced by {newer}, a newer turn.started for this seat "
                                            "(each carries the seat's whole view)")
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
    created_at: datetime | None = None
    redelivered_at: datetime | None = None

    def give_up_at(self) -> datetime:
        """A webhook's retries end WEBHOOK_RETRY_HOURS after it was queued or last redelivered."""
        start = max(moment for moment in (self.created_at, self.redelivered_at) if moment is not None)
        return as_utc(start) + timedelta(hours=setting("WEBHOOK_RETRY_HOURS"))


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored in UTC); PostgreSQL aware ones."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def first_of_seat():
    """SQL truth value: no earlier webhook call of the same seat is waiting (the seat's calls go in order)."""
    earlier = aliased(OutboxMessage)
    return ~exists().where(earlier.channel == "webhook", earlier.game_id == OutboxMessage.game_id,
                           earlier.seat == OutboxMessage.seat, earlier.status == PENDING,
                           earlier.id < OutboxMessage.id)


def claim(worker: str, limit: int, max_webhooks: int | None = None) -> list[Claimed]:
    """Claim up to `limit` due rows, of which at most `max_webhooks` webhook calls (no such
    bound when None), oldest due first."""
    moment = now()
    lease_end = moment + timedelta(seconds=setting("NOTIFY_LEASE_SECONDS"))
    free = _free(moment)
    is_webhook = OutboxMessage.channel == "webhook"
    due = (select(OutboxMessage).where(OutboxMessage.status == PENDING, OutboxMessage.next_attempt_at <= moment, free,
                                       or_(~is_webhook, first_of_seat()))
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
                                       row.message_id, row.game_id, row.seat, row.attempts,
                                       row.created_at, row.redelivered_at))
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


def _finish(row: Claimed, worker: str, attempted: bool = True, response_code: int | None = None,
            **values) -> bool:
    """Settle the row and release the claim; `attempted`: a call was made (or a mail sent) this
    time, which counts an attempt and, for a webhook, records its moment and the answer's status."""
    if attempted:
        values.update(attempts=OutboxMessage.attempts + 1)
        if row.channel == "webhook":
            values.update(attempted_at=now(), response_code=response_code)
    return _while_claimed(row, worker, f"the claim was lost before it could be marked ({values})",
                          claimed_by=None, claimed_until=None, **values)


def mark_sent(row: Claimed, worker: str, response_code: int | None = None) -> bool:
    return _finish(row, worker, response_code=response_code, status=SENT, sent_at=now(), last_error=None)


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, ... capped at an hour, with up to 10% jitter so workers spread out."""
    base, cap = setting("NOTIFY_RETRY_BASE_SECONDS"), setting("NOTIFY_RETRY_MAX_SECONDS")
    delay = min(cap, base * 2 ** max(attempts - 1, 0))
    return timedelta(seconds=delay * (1 + random.random() / 10))


def mark_failed(row: Claimed, worker: str, error: str, permanent: bool = False,
                not_before: datetime | None = None, attempted: bool = True,
                response_code: int | None = None) -> bool:
    """Schedule the row's next attempt after its backoff (and not before `not_before`), or mark
    it dead, saying why, when `permanent` or out of time: a mail after NOTIFY_MAX_ATTEMPTS
    attempts, a webhook once WEBHOOK_RETRY_HOURS have passed (its last try falls on that hour).
    `attempted` is False for a call postponed without being made: it counts no attempt."""
    attempts = row.attempts + attempted
    error = printable(error)
    next_attempt = now() + backoff(max(attempts, 1))
    if not_before is not None:
        next_attempt = max(next_attempt, not_before)
    if row.channel == "webhook":
        give_up_at = row.give_up_at()
        out_of_time = now() >= give_up_at
        next_attempt = min(next_attempt, give_up_at)
        why = (f"given up: {error}" if permanent else
               f"given up after {setting('WEBHOOK_RETRY_HOURS'):g} h of retries ({attempts} attempt(s)); "
               f"last: {error}")
    else:
        out_of_time = attempts >= setting("NOTIFY_MAX_ATTEMPTS")
        why = error
    dead = permanent or out_of_time
    if dead:
        log.error("outbox %s (%s to %s) given up after %d attempt(s): %s", row.id, row.channel,
                  printable(row.recipient), attempts, error)
    return _finish(row, worker, attempted=attempted, response_code=response_code,
                   status=DEAD if dead else PENDING, last_error=(why if dead else error)[:500],
                   next_attempt_at=next_attempt)


def printable(text: str) -> str:
    """`text` with control characters escaped: an error may quote what a player set (a NUL
    byte cannot even be stored in PostgreSQL), and the mark must not fail because of it."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
