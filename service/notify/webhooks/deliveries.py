"""A seat's webhook deliveries log (the push log too: push/routes.py), as GitHub's deliveries page shows one: every call queued for
the seat, newest first, with its status, attempts, the receiver's last status code, the last error
and its times; and redelivery of one call, with its very bytes and its webhook-id.

A row's status is what the receiver was sent and answered: `sent` once a call was answered 2xx,
`pending` while it waits (for the first time or a retry), `dead` when it was given up (its
last_error says why), `replaced` when a newer turn.started of the seat stood for it (not called
again: never answered 2xx; its attempts and response_code tell a failed call made before, if any).
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select

from ...core import wakeup
from ...core.errors import Problem
from ...core.extensions import db
from ..channels import Channel
from ..models import Contact, OutboxMessage
from ..outbox import PENDING, as_utc
from .channel import WEBHOOK

_LAST_ID = 2**31 - 1  # the outbox's ids are the database's 32-bit integers


def _of_seat(game_id: str, seat: int, channel: Channel = WEBHOOK):
    return (OutboxMessage.game_id == game_id, OutboxMessage.seat == seat, OutboxMessage.channel == channel.name)


def page(game_id: str, seat: int, cursor: str | None, limit: int, channel: Channel = WEBHOOK,
         shown: Callable[[OutboxMessage], dict] | None = None) -> dict:
    """The seat's deliveries of `channel` (each as `shown` shows it), newest first, `limit` at a
    time; `next_cursor` asks for the next page."""
    shown = shown or public
    query = select(OutboxMessage).where(*_of_seat(game_id, seat, channel))
    # A cursor past the ids' integer range is older than no row: every row is older than it (and
    # PostgreSQL would refuse to compare an integer column with it).
    if cursor and int(cursor) <= _LAST_ID:
        query = query.where(OutboxMessage.id < int(cursor))
    rows = db.session.scalars(query.order_by(OutboxMessage.id.desc()).limit(limit + 1)).all()
    more, rows = len(rows) > limit, rows[:limit]
    return {"deliveries": [shown(row) for row in rows], "next_cursor": str(rows[-1].id) if more else None}


def fields(row: OutboxMessage) -> dict:
    """What every deliveries log shows of a row (schemas.DeliveryFields)."""
    return {
        "event": row.kind, "version": row.version, "status": row.status,
        "attempts": row.attempts, "response_code": row.response_code, "last_error": row.last_error,
        "created_at": _iso(row.created_at), "attempted_at": _iso(row.attempted_at), "sent_at": _iso(row.sent_at),
        "next_attempt_at": _iso(row.next_attempt_at) if row.status == PENDING else None,
    }


def public(row: OutboxMessage) -> dict:
    return {"webhook_id": row.message_id, **fields(row), "redelivered_at": _iso(row.redelivered_at)}


def _iso(moment: datetime | None) -> str | None:
    return as_utc(moment).isoformat() if moment is not None else None


def _could_be_id(webhook_id: str) -> bool:
    """A webhook-id as the service makes them: printable ASCII, not too long."""
    return 0 < len(webhook_id) <= 250 and webhook_id.isascii() and webhook_id.isprintable()


def redeliver(game_id: str, seat: int, webhook_id: str, moment: datetime) -> dict:
    """Queue the call again, due now, with the same body and webhook-id: the seat's next call to
    go (its calls go in order), retried until WEBHOOK_RETRY_HOURS from now. Run in a transaction."""
    if not _could_be_id(webhook_id):  # a NUL, say, no database may even be asked about
        raise Problem("delivery-not-found", f"this seat has no webhook delivery {webhook_id[:80]!r}")
    row = db.session.scalar(select(OutboxMessage).where(*_of_seat(game_id, seat),
                                                        OutboxMessage.message_id == webhook_id).with_for_update())
    if row is None:
        raise Problem("delivery-not-found", f"this seat has no webhook delivery {webhook_id!r}")
    if not row.payload:
        raise Problem("delivery-not-sendable", f"this call was never composed, so there is nothing to send "
                                               f"({row.last_error})")
    contact = db.session.get(Contact, (game_id, seat))
    if contact is None or not contact.webhook_url:
        raise Problem("delivery-not-sendable", "the seat has no webhook_url now: set one first")
    if row.status == PENDING and row.claimed_until is not None and as_utc(row.claimed_until) > moment:
        raise Problem("delivery-in-flight", "a worker is delivering this call right now; look again shortly")
    row.status, row.next_attempt_at, row.redelivered_at = PENDING, moment, moment
    row.claimed_by = row.claimed_until = None
    wakeup.outbox_changed()  # the workers wake when this commits
    return public(row)
