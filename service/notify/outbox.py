"""The outbox: rows written with the change that causes them, claimed and delivered by workers.

Claiming is safe with any number of workers. A worker, in one short transaction, picks due rows
(PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED, so workers pass each other by; SQLite: the
transaction began with BEGIN IMMEDIATE, so claims are serialised) and takes each with

    UPDATE outbox SET claimed_by = :me, claimed_until = :lease_end
     WHERE id = :id AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < :now)

counting it as its own only when that updated a row. It then delivers outside any transaction
and marks the row sent (or schedules a retry) only while it still holds the claim.

A lease is short (NOTIFY_LEASE_SECONDS, 20 s), so that a dead worker's rows are taken over soon:
while a worker lives, it renews the claims of the batch in hand every quarter of a lease (`renew_held`, from
a thread of its own: worker.py), for at most NOTIFY_HOLD_SECONDS after it took each (`claimed_at`),
so a delivery stuck that long gives its row up too. Right before each delivery the worker also
renews that row's lease as a compare-and-set on its own claim (`renew`): a row another worker took
over meanwhile is skipped, not sent a second time. One delivery's network timeouts are capped
(`within_lease`) so that it ends well within the hold. A row taken over is delivered again with
its same payload, Message-ID and webhook-id: at least once, never silently dropped.

What differs between channels (mail, webhooks, push) is the channel's to say (channels.py); this
module asks the registry and compares no channel's name:

- a threaded channel (webhooks) is capped per batch (`caps`, the worker's threads for it), the rest
  of the batch other rows, so a batch of webhooks to receivers that never answer lasts one
  webhook timeout at most;
- a channel `in_order_per_seat` (webhooks) has its rows claimed only oldest first per seat, so a
  call is never made while an earlier one of the same seat waits for its retry;
- a channel with `retry_hours` (webhooks: WEBHOOK_RETRY_HOURS) retries a failed row with backoff
  until that many hours have passed since it was queued (or redelivered), and only then marks it
  dead, saying why (a 410, a seat without a webhook and an address refused are dead at once, as
  permanent); others (mail) give up after NOTIFY_MAX_ATTEMPTS attempts;
- what a backlog may shed is only what nothing needs: a run of waiting rows of a channel's
  `superseded` kind (webhooks: `turn.started`, each carrying the seat's whole view) of one seat is
  replaced by the newest, marked `replaced`; every other kind, `hand.ended` and `match.ended` among
  them, is always delivered; and a push's waiting rows to one browser for one seat are replaced
  by the newest (push: `replaced_per_recipient`), which the phone would show in their place.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from sqlalchemy import and_, exists, func, not_, or_, select, true, update
from sqlalchemy.orm import aliased

from ..core import wakeup
from ..core.extensions import db
from ..games.deadlines import now
from . import channels
from .config import setting
from .models import OutboxMessage

log = logging.getLogger(__name__)
PENDING, SENT, DEAD, REPLACED = "pending", "sent", "dead", "replaced"


def enqueue(channel: channels.Channel, kind: str, recipient: str, payload: str, message_id: str, *,
            game_id: str | None = None, seat: int | None = None, version: int | None = None,
            moment: datetime | None = None) -> OutboxMessage:
    """Add a row to the caller's transaction; it is delivered only if that transaction commits."""
    moment = moment or now()
    if payload and game_id is not None and seat is not None:  # an empty payload: a dead row, not composed
        if kind == channel.superseded:
            _replace_waiting(channel, game_id, seat, message_id)
        elif channel.replaced_per_recipient:
            _replace_waiting(channel, game_id, seat, message_id, recipient)
    row = OutboxMessage(channel=channel.name, kind=kind, recipient=recipient, payload=payload,
                        message_id=message_id, game_id=game_id, seat=seat, version=version,
                        status=PENDING, attempts=0, next_attempt_at=moment, created_at=moment)
    db.session.add(row)
    wakeup.outbox_changed()  # the workers wake when this commits
    return row


def _replace_waiting(channel: channels.Channel, game_id: str, seat: int, newer: str,
                     recipient: str | None = None) -> None:
    """Mark `replaced` the seat's waiting rows of the channel's superseded kind (a webhook's
    turn.started), or with `recipient` its waiting rows of any kind to that recipient (a push to
    one browser), that the one being queued follows directly (none of another kind between them).
    Only rows no worker holds now: the conditions stand in the UPDATE's own WHERE, so on
    PostgreSQL a row a worker claimed while this waited for its lock is looked at again, found
    claimed, and left to the worker."""
    of_seat = (OutboxMessage.game_id == game_id, OutboxMessage.seat == seat, OutboxMessage.channel == channel.name)
    if recipient is not None:
        of_seat += (OutboxMessage.recipient == recipient,)
        why = f"replaced by {newer}, a newer {channel.name} to the same recipient for this seat"
    else:
        why = f"replaced by {newer}, a newer {channel.superseded} for this seat (each carries the seat's whole view)"
    replaceable = and_(OutboxMessage.kind == channel.superseded if recipient is None else true(),
                       OutboxMessage.status == PENDING, OutboxMessage.claimed_by.is_(None))
    last_kept = select(func.max(OutboxMessage.id)).where(*of_seat, not_(replaceable)).scalar_subquery()
    db.session.execute(
        update(OutboxMessage).where(*of_seat, replaceable, OutboxMessage.id > func.coalesce(last_kept, 0))
        .values(status=REPLACED, last_error=why).execution_options(synchronize_session=False))


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

    def give_up_at(self, hours: float) -> datetime:
        """Retried for `hours` (a channel's retry_hours) after it was queued or last redelivered."""
        start = max(moment for moment in (self.created_at, self.redelivered_at) if moment is not None)
        return as_utc(start) + timedelta(hours=hours)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored in UTC); PostgreSQL aware ones."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def first_of_seat():
    """SQL truth value: the row is of a channel whose rows go in order per seat only if no earlier
    row of its channel and seat is waiting."""
    ordered = [channel.name for channel in channels.registered() if channel.in_order_per_seat]
    if not ordered:
        return true()
    earlier = aliased(OutboxMessage)
    return or_(OutboxMessage.channel.not_in(ordered),
               ~exists().where(earlier.channel == OutboxMessage.channel, earlier.game_id == OutboxMessage.game_id,
                               earlier.seat == OutboxMessage.seat, earlier.status == PENDING,
                               earlier.id < OutboxMessage.id))


def claim(worker: str, limit: int, caps: dict[str, int] | None = None) -> list[Claimed]:
    """Claim up to `limit` due rows, oldest due first, of which at most `caps[name]` of each
    channel named in `caps` (no such bound when None; 0 claims none of that channel)."""
    moment = now()
    lease_end = moment + timedelta(seconds=setting("NOTIFY_LEASE_SECONDS"))
    free = _free(moment)
    due = (select(OutboxMessage).where(OutboxMessage.status == PENDING, OutboxMessage.next_attempt_at <= moment, free,
                                       first_of_seat())
           .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).with_for_update(skip_locked=True))
    try:
        if caps is None:
            candidates = db.session.scalars(due.limit(limit)).all()
        else:
            candidates = []
            for name, cap in caps.items():
                if cap > 0 and len(candidates) < limit:
                    candidates += db.session.scalars(due.where(OutboxMessage.channel == name)
                                                     .limit(min(limit - len(candidates), cap))).all()
            if len(candidates) < limit:
                others = due.where(OutboxMessage.channel.not_in(list(caps))) if caps else due
                candidates += db.session.scalars(others.limit(limit - len(candidates))).all()
            candidates.sort(key=lambda row: (row.next_attempt_at, row.id))
        claimed = []
        for row in candidates:
            taken = db.session.execute(
                update(OutboxMessage).where(OutboxMessage.id == row.id, OutboxMessage.status == PENDING, free)
                .values(claimed_by=worker, claimed_until=lease_end, claimed_at=moment)
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


def renew_held(worker: str, ids) -> int:
    """Extend by a lease from now the claims of rows `ids` that `worker` holds and took less than
    NOTIFY_HOLD_SECONDS ago; how many. Only the batch in hand: a row the worker is done with but
    could not mark (the database away just then) lapses after one lease and is delivered again."""
    ids = list(ids)
    if not ids:
        return 0
    moment = now()
    try:
        done = db.session.execute(
            update(OutboxMessage).where(OutboxMessage.id.in_(ids), OutboxMessage.status == PENDING,
                                        OutboxMessage.claimed_by == worker,
                                        OutboxMessage.claimed_at > moment - timedelta(seconds=setting("NOTIFY_HOLD_SECONDS")))
            .values(claimed_until=moment + timedelta(seconds=setting("NOTIFY_LEASE_SECONDS")))
            .execution_options(synchronize_session=False))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return done.rowcount


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
    """`timeout` (seconds, per network wait), lowered if needed so a delivery cannot outlast the
    longest its claim is renewed (NOTIFY_HOLD_SECONDS)."""
    return min(timeout, setting("NOTIFY_HOLD_SECONDS") / NETWORK_WAITS_PER_DELIVERY)


def _finish(row: Claimed, worker: str, attempted: bool = True, response_code: int | None = None,
            **values) -> bool:
    """Settle the row and release the claim; `attempted`: a call was made (or a mail sent) this
    time, which counts an attempt and, for a webhook, records its moment and the answer's status."""
    if attempted:
        values.update(attempts=OutboxMessage.attempts + 1)
        channel = channels.find(row.channel)
        if channel is not None and channel.logs_attempts:
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
    it dead, saying why, when `permanent` or out of time: after NOTIFY_MAX_ATTEMPTS attempts (mail),
    or once its channel's retry_hours have passed (a webhook: its last try falls on that hour).
    `attempted` is False for a call postponed without being made: it counts no attempt."""
    attempts = row.attempts + attempted
    error = printable(error)
    next_attempt = now() + backoff(max(attempts, 1))
    if not_before is not None:
        next_attempt = max(next_attempt, not_before)
    channel = channels.find(row.channel)
    if channel is not None and channel.retry_hours:
        hours = setting(channel.retry_hours)
        give_up_at = row.give_up_at(hours)
        out_of_time = now() >= give_up_at
        next_attempt = min(next_attempt, give_up_at)
        why = (f"given up: {error}" if permanent else
               f"given up after {hours:g} h of retries ({attempts} attempt(s)); last: {error}")
    else:
        out_of_time = attempts >= setting("NOTIFY_MAX_ATTEMPTS")
        why = error
    dead = permanent or out_of_time
    if dead:
        log.error("outbox %s (%s to %s) given up after %d attempt(s): %s", row.id, row.channel,
                  printable(redacted(row.recipient)), attempts, error)
    return _finish(row, worker, attempted=attempted, response_code=response_code,
                   status=DEAD if dead else PENDING, last_error=(why if dead else error)[:500],
                   next_attempt_at=next_attempt)


def redacted(recipient: str) -> str:
    """A recipient as a log line may show it: a webhook URL's scheme and host only (Slack and Discord
    put the secret in the path, others in the query); a mail address as it is."""
    parts = urlsplit(recipient)
    if parts.scheme in ("http", "https") and parts.hostname:
        port = f":{parts.port}" if _port_or_none(parts) else ""
        return f"{parts.scheme}://{parts.hostname}{port}" + ("/..." if parts.path.strip("/") or parts.query else "")
    return recipient


def _port_or_none(parts) -> int | None:
    try:
        return parts.port
    except ValueError:
        return None


def printable(text: str) -> str:
    """`text` with control characters escaped: an error may quote what a player set (a NUL
    byte cannot even be stored in PostgreSQL), and the mark must not fail because of it."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
