"""The webhook channel (channels.py): its outbox kinds, and the courier that makes a claimed call.

A seat's calls go one at a time, in order (a call waits while an older one of the seat waits);
a run of waiting `turn.started` calls is replaced by the newest, which carries the whole view; a
failed call is retried until WEBHOOK_RETRY_HOURS after it was queued or redelivered, each attempt
kept for the seat's deliveries log (deliveries.py). A batch makes up to WEBHOOK_CONCURRENCY calls,
each destination (host and port) on a thread of its own; a destination that keeps failing is
skipped for a while by its circuit breaker (breaker.py).
"""
from __future__ import annotations

from ...core.extensions import db
from ...games import deadlines
from ..channels import Channel, Postponed
from ..config import setting
from ..models import Contact
from ..outbox import within_lease
from . import calls
from .breaker import Breaking

# The type of the call each reason of a change makes (a table's "dealt" makes none).
WEBHOOK_TYPES = {"match_end": "match.ended", "hand_end": "hand.ended", "turn": "turn.started",
                 "start": "game.started", "reminder": "deadline.reminder", "expired": "deadline.passed"}


class Caller(Breaking):
    """Makes a worker's webhook calls (from all of its threads), past its circuit breaker."""

    def deliver(self, row) -> int:
        """Make the call; the receiver's 2xx status, or WebhookError (Postponed: no call made)."""
        # The seat's current URL and secret: a seat that moved its receiver gets pending calls there.
        contact = db.session.get(Contact, (row.game_id, row.seat))
        url, secret = (contact.webhook_url, contact.webhook_secret) if contact else (None, None)
        db.session.rollback()  # end the read: no transaction (no SQLite lock) while on the network
        if not url:
            raise calls.WebhookError("the seat no longer has a webhook", permanent=True)
        destination, moment = calls.destination(url), deadlines.now()
        closed_until = self.breaker.open_until(destination, moment)
        if closed_until is not None:
            raise Postponed(f"not attempted: {destination[0]}:{destination[1]} failed repeatedly; "
                            f"its calls wait until {closed_until.isoformat()}", not_before=closed_until)
        try:
            status = calls.post(url, secret, row.message_id, row.payload, int(moment.timestamp()),
                                within_lease(setting("WEBHOOK_TIMEOUT")), setting("WEBHOOK_ALLOW_PRIVATE"),
                                connect_timeout=setting("WEBHOOK_CONNECT_TIMEOUT"))
        except calls.WebhookError as exc:
            if exc.destination_down:
                self.breaker.failed(destination, deadlines.now())
            raise
        self.breaker.succeeded(destination)
        return status

    def close(self) -> None:
        """Nothing held between batches but the breaker's memory, kept for the worker's life."""


WEBHOOK = Channel(
    name="webhook", courier=Caller, kinds=WEBHOOK_TYPES,
    threads=lambda: setting("WEBHOOK_CONCURRENCY"), destination=calls.destination,
    in_order_per_seat=True, superseded=WEBHOOK_TYPES["turn"],
    retry_hours="WEBHOOK_RETRY_HOURS", logs_attempts=True)
