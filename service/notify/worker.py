"""The delivery worker: `flask notify worker` (the Procfile's `worker:` line).

A loop that claims due outbox rows, delivers them (SMTP / webhook POST), marks each sent or
schedules its retry with exponential backoff, and sweeps the clocks and digests. Any number of
workers may run against one database; see outbox.py for how they share the rows.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid

from .. import deadlines, wakeup
from ..extensions import db
from . import outbox, sweeps, webhooks
from .contacts import contact_of
from .settings import setting
from .smtp import Mailer, MailError

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, name: str | None = None):
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.mailer = Mailer()

    def deliver_due(self) -> int:
        """Claim and deliver one batch; returns how many rows were tried."""
        rows = outbox.claim(self.name, setting("NOTIFY_BATCH"))
        try:
            for row in rows:
                self.deliver(row)
        finally:
            self.mailer.close()
        return len(rows)

    def deliver(self, row: outbox.Claimed) -> None:
        if not outbox.renew(row, self.name):  # our claim lapsed and another worker has the row now
            return
        try:
            if row.channel == "mail":
                self.mailer.send(row.recipient, row.payload)
            else:
                self.post_webhook(row)
        except (MailError, webhooks.WebhookError) as exc:
            log.warning("outbox %s (%s %s) attempt %d failed: %s", row.id, row.channel, row.kind,
                        row.attempts + 1, exc)
            outbox.mark_failed(row, self.name, str(exc), permanent=exc.permanent)
            return
        outbox.mark_sent(row, self.name)

    def post_webhook(self, row: outbox.Claimed) -> None:
        # The seat's current URL and secret: a seat that moved its receiver gets pending calls there.
        contact = contact_of(row.game_id, row.seat)
        url, secret = (contact.webhook_url, contact.webhook_secret) if contact else (None, None)
        db.session.rollback()  # end the read: no transaction (no SQLite lock) while on the network
        if not url:
            raise webhooks.WebhookError("the seat no longer has a webhook", permanent=True)
        timestamp = int(deadlines.now().timestamp())
        webhooks.post(url, secret, row.message_id, row.payload, timestamp,
                      outbox.within_lease(setting("WEBHOOK_TIMEOUT")), setting("WEBHOOK_ALLOW_PRIVATE"))

    def sweep(self) -> int:
        return sweeps.sweep_clocks() + sweeps.sweep_digests() + sweeps.sweep_old_rows()

    def run(self, stop: threading.Event | None = None, interval: float = 1.0, until_idle: bool = False,
            sweep_every: float = 30.0) -> None:
        """Deliver until `stop` is set (or, with until_idle, until nothing is due). A committed
        change that queued mail or webhooks wakes the worker at once (service/wakeup.py), on any
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
