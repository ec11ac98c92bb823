"""The delivery worker: `flask notify worker` (the Procfile's `worker:` line).

A loop that claims due outbox rows, delivers them (SMTP / webhook POST), marks each sent or
schedules its retry with exponential backoff, and sweeps the clocks and digests. Any number of
workers may run against one database; see outbox.py for how they share the rows.

Within a batch, mail goes out on the worker's own thread while webhooks go out on up to
WEBHOOK_CONCURRENCY threads, one per destination (host and port; a destination's calls go in
order, one at a time). Each webhook call ends within WEBHOOK_TIMEOUT in all, so receivers that
never answer hold a batch up for one timeout at most, and while the calls are out the worker's
own thread keeps delivering the mail that falls due; a destination that keeps failing is skipped
by its circuit breaker (breaker.py) for a while.
Each thread has its own app context, hence its own database session.

Every row is on its own: whatever its delivery raises marks that row alone (a retry with backoff,
or dead when the fault is permanent), and the other rows of the batch go on.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor, wait

from flask import current_app

from ..core import metrics, wakeup
from ..core.extensions import db
from ..games import deadlines
from . import outbox, sweeps, webhooks
from .breaker import Breaker
from .contacts import contact_of
from .settings import setting
from .smtp import Mailer, MailError

log = logging.getLogger(__name__)

# What became of one row: sent, failed (to be retried or dead), failed because its destination
# is down or slow (the rest of that destination's rows in the batch wait), or not ours any more.
SENT, FAILED, DESTINATION_DOWN, SKIPPED = "sent", "failed", "destination-down", "skipped"
# Faults in a row's own data: the same bytes would fail the same way again, so no retry.
DATA_FAULTS = (ValueError, TypeError, LookupError)
# While webhook calls are out, mail that falls due is looked for this often (seconds).
MAIL_POLL_WHILE_CALLING = 0.5


class Worker:
    def __init__(self, name: str | None = None):
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.mailer = Mailer()
        self._breaker: Breaker | None = None
        self._breaker_made = threading.Lock()

    @property
    def breaker(self) -> Breaker:
        with self._breaker_made:  # made on first use (settings need the app), once for all threads
            if self._breaker is None:
                self._breaker = Breaker(setting("WEBHOOK_BREAKER_FAILURES"),
                                        setting("WEBHOOK_BREAKER_COOLDOWN_SECONDS"),
                                        setting("NOTIFY_RETRY_MAX_SECONDS"))
            return self._breaker

    def deliver_due(self) -> int:
        """Claim and deliver one batch; returns how many rows were tried."""
        concurrency = max(setting("WEBHOOK_CONCURRENCY"), 1)
        rows = outbox.claim(self.name, setting("NOTIFY_BATCH"), max_webhooks=concurrency)
        mails = [row for row in rows if row.channel == "mail"]
        destinations: dict[tuple[str, int], list[outbox.Claimed]] = {}
        for row in rows:
            if row.channel != "mail":
                destinations.setdefault(webhooks.destination(row.recipient), []).append(row)
        pool = ThreadPoolExecutor(min(len(destinations), concurrency), "webhooks") if destinations else None
        tried = len(rows)
        try:
            calls = []
            if pool is not None:
                app = current_app._get_current_object()
                calls = [pool.submit(self._deliver_in_order, app, group) for group in destinations.values()]
            for row in mails:
                self.deliver(row)
            # Mail that falls due while the calls are out goes now, not after the slowest receiver.
            while calls and wait(calls, timeout=0).not_done:
                more = outbox.claim(self.name, setting("NOTIFY_BATCH"), max_webhooks=0)
                for row in more:
                    self.deliver(row)
                tried += len(more)
                if not more:
                    wait(calls, timeout=MAIL_POLL_WHILE_CALLING)
        finally:
            self.mailer.close()
            if pool is not None:
                pool.shutdown(wait=True)
        return tried

    def _deliver_in_order(self, app, rows: list[outbox.Claimed]) -> None:
        """One destination's rows, on a thread of its own (with its own app context and
        database session). Once a call finds the destination down, the rest wait for a later
        batch, in order behind it, rather than each spending a timeout on it now."""
        try:
            with app.app_context():
                down = None
                for row in rows:
                    if down is None:
                        down = row if self.deliver(row) == DESTINATION_DOWN else None
                    else:
                        self._failed(row, webhooks.Postponed(
                            f"not attempted: the call of outbox {down.id} to the same destination failed just before"))
        except Exception:  # noqa: BLE001 - deliver() keeps each row's faults; this is a last resort
            log.exception("notify worker %s: webhook thread failed", self.name)

    def deliver(self, row: outbox.Claimed) -> str:
        """Deliver one claimed row and mark it; whatever goes wrong is this row's alone."""
        try:
            if not outbox.renew(row, self.name):  # our claim lapsed and another worker has the row now
                return SKIPPED
            response_code = None
            if row.channel == "mail":
                self.mailer.send(row.recipient, row.payload)
            elif row.channel == "webhook":
                response_code = self.post_webhook(row)
            else:
                raise ValueError(f"unknown channel {row.channel!r}")
        except Exception as exc:  # noqa: BLE001 - one row's fault must never touch the others
            return self._failed(row, exc)
        try:
            outbox.mark_sent(row, self.name, response_code)
        except Exception:  # noqa: BLE001 - sent but not marked: sent again after the lease, same id
            log.exception("outbox %s: delivered but could not be marked sent", row.id)
            db.session.rollback()
        return SENT

    def _failed(self, row: outbox.Claimed, exc: Exception) -> str:
        """Mark the row for a retry, or dead when the fault is permanent (or its retries are over)."""
        db.session.rollback()  # the session may be in a failed transaction
        expected = isinstance(exc, (MailError, webhooks.WebhookError))
        reason = str(exc) if expected else f"{type(exc).__name__}: {exc}"
        permanent = getattr(exc, "permanent", False) or isinstance(exc, DATA_FAULTS)
        if isinstance(exc, webhooks.Postponed):  # no call was made: no attempt to tell of
            log.warning("outbox %s (%s %s) put off without a call: %s", row.id, row.channel, row.kind,
                        outbox.printable(reason))
        elif expected:
            log.warning("outbox %s (%s %s) attempt %d failed: %s", row.id, row.channel, row.kind,
                        row.attempts + 1, outbox.printable(reason))
        else:
            log.error("outbox %s (%s %s) attempt %d raised", row.id, row.channel, row.kind,
                      row.attempts + 1, exc_info=exc)
        metrics.outbox_failed(row.channel)
        try:
            outbox.mark_failed(row, self.name, reason, permanent=permanent,
                               not_before=getattr(exc, "not_before", None),
                               attempted=not isinstance(exc, webhooks.Postponed),
                               response_code=getattr(exc, "status", None))
        except Exception:  # noqa: BLE001 - left claimed: tried again once its lease runs out
            log.exception("outbox %s: could not be marked failed", row.id)
            db.session.rollback()
        return DESTINATION_DOWN if getattr(exc, "destination_down", False) else FAILED

    def post_webhook(self, row: outbox.Claimed) -> int:
        """Make the call; the receiver's 2xx status, or WebhookError (Postponed: no call made)."""
        # The seat's current URL and secret: a seat that moved its receiver gets pending calls there.
        contact = contact_of(row.game_id, row.seat)
        url, secret = (contact.webhook_url, contact.webhook_secret) if contact else (None, None)
        db.session.rollback()  # end the read: no transaction (no SQLite lock) while on the network
        if not url:
            raise webhooks.WebhookError("the seat no longer has a webhook", permanent=True)
        destination, moment = webhooks.destination(url), deadlines.now()
        closed_until = self.breaker.open_until(destination, moment)
        if closed_until is not None:
            raise webhooks.Postponed(f"not attempted: {destination[0]}:{destination[1]} failed repeatedly; "
                                     f"its calls wait until {closed_until.isoformat()}", not_before=closed_until)
        try:
            status = webhooks.post(url, secret, row.message_id, row.payload, int(moment.timestamp()),
                                   outbox.within_lease(setting("WEBHOOK_TIMEOUT")), setting("WEBHOOK_ALLOW_PRIVATE"),
                                   connect_timeout=setting("WEBHOOK_CONNECT_TIMEOUT"))
        except webhooks.WebhookError as exc:
            if exc.destination_down:
                self.breaker.failed(destination, deadlines.now())
            raise
        self.breaker.succeeded(destination)
        return status

    def sweep(self) -> int:
        return sweeps.sweep_clocks() + sweeps.sweep_digests() + sweeps.sweep_old_rows()

    def run(self, stop: threading.Event | None = None, interval: float = 1.0, until_idle: bool = False,
            sweep_every: float = 30.0) -> None:
        """Deliver until `stop` is set (or, with until_idle, until nothing is due). A committed
        change that queued mail or webhooks wakes the worker at once (service/core/wakeup.py), on any
        process; `interval` only bounds how long it sleeps when nothing wakes it (retries
        falling due). Sweeps run every `sweep_every` seconds; a database failure is logged and
        retried."""
        stop = stop or threading.Event()
        last_sweep = float("-inf")
        log.info("notify worker %s started", self.name)
        with wakeup.hub().watch(wakeup.OUTBOX) as waiter:  # watching throughout: no wake-up is missed
            while not stop.is_set():
                try:
                    if time.monotonic() - last_sweep >= sweep_every or until_idle:
                        self.sweep()
                        last_sweep = time.monotonic()
                    delivered = self.deliver_due()
                except Exception:  # noqa: BLE001 - the worker must outlive a database hiccup
                    log.exception("notify worker %s: cycle failed; retrying", self.name)
                    db.session.rollback()
                    delivered = 0
                if delivered == 0:
                    if until_idle:
                        return
                    self._idle(stop, waiter, interval)

    @staticmethod
    def _idle(stop: threading.Event, waiter, interval: float) -> None:
        """Sleep until woken, `interval` passes, or `stop` is set (looked at twice a second)."""
        ends = time.monotonic() + interval
        while not stop.is_set() and (left := ends - time.monotonic()) > 0:
            if waiter.wait(min(left, 0.5)):
                return
