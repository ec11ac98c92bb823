"""The delivery worker: `flask notify worker` (the Procfile's `worker:` line).

A loop that claims due outbox rows, delivers each through its channel's courier (channels.py:
SMTP, a webhook POST), marks each sent or schedules its retry with exponential backoff, and
sweeps the clocks and digests. Any number of workers may run against one database; see
outbox.py for how they share the rows.

Within a batch, the rows of a channel without threads (mail) go out on the worker's own thread,
while a threaded channel's (webhooks: up to WEBHOOK_CONCURRENCY) go out on threads, one per
destination (a webhook's host and port; a destination's rows go in order, one at a time). Each
webhook call ends within WEBHOOK_TIMEOUT in all, so receivers that never answer hold a batch up
for one timeout at most, and while the calls are out the worker's own thread keeps delivering
the mail that falls due; a destination that keeps failing is skipped by its circuit breaker
(webhooks/breaker.py) for a while.
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
from contextlib import contextmanager

from flask import current_app

from ..core import metrics, wakeup
from ..core.extensions import db
from . import channels, outbox, sweeps
from .config import setting

log = logging.getLogger(__name__)

# What became of one row: sent, failed (to be retried or dead), failed because its destination
# is down or slow (the rest of that destination's rows in the batch wait), or not ours any more.
SENT, FAILED, DESTINATION_DOWN, SKIPPED = "sent", "failed", "destination-down", "skipped"
# Faults in a row's own data: the same bytes would fail the same way again, so no retry.
DATA_FAULTS = (ValueError, TypeError, LookupError)
# While threaded rows (webhook calls) are out, mail that falls due is looked for this often (seconds).
MAIL_POLL_WHILE_CALLING = 0.5


class Worker:
    def __init__(self, name: str | None = None):
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        # Each channel's courier, by the channel's name: an SMTP connection, the webhooks' breaker.
        self.couriers: dict[str, channels.Courier] = {
            channel.name: channel.courier() for channel in channels.registered()}
        self.in_hand: set[int] = set()  # the batch's rows, whose claims claims_kept() renews

    def deliver_due(self) -> int:
        """Claim and deliver one batch; returns how many rows were tried."""
        threaded = {channel.name: channel for channel in channels.registered() if channel.threads is not None}
        caps = {name: max(channel.threads(), 1) for name, channel in threaded.items()}
        rows = outbox.claim(self.name, setting("NOTIFY_BATCH"), caps)
        self.in_hand.update(row.id for row in rows)
        on_this_thread = [row for row in rows if row.channel not in threaded]
        destinations: dict[tuple, list[outbox.Claimed]] = {}
        for row in rows:
            if row.channel in threaded:
                key = (row.channel, threaded[row.channel].destination(row.recipient))
                destinations.setdefault(key, []).append(row)
        pool = ThreadPoolExecutor(min(len(destinations), sum(caps.values())), "deliveries") if destinations else None
        tried = len(rows)
        try:
            calls = []
            if pool is not None:
                app = current_app._get_current_object()
                calls = [pool.submit(self._deliver_in_order, app, group) for group in destinations.values()]
            for row in on_this_thread:
                self.deliver(row)
            # Mail that falls due while the calls are out goes now, not after the slowest receiver.
            while calls and wait(calls, timeout=0).not_done:
                more = outbox.claim(self.name, setting("NOTIFY_BATCH"), dict.fromkeys(caps, 0))
                self.in_hand.update(row.id for row in more)
                for row in more:
                    self.deliver(row)
                tried += len(more)
                if not more:
                    wait(calls, timeout=MAIL_POLL_WHILE_CALLING)
        finally:
            for courier in self.couriers.values():
                courier.close()
            if pool is not None:
                pool.shutdown(wait=True)
            self.in_hand.clear()  # every row of the batch marked, put off, or left to lapse
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
                        self._failed(row, channels.Postponed(
                            f"not attempted: the call of outbox {down.id} to the same destination failed just before"))
        except Exception:  # noqa: BLE001 - deliver() keeps each row's faults; this is a last resort
            log.exception("notify worker %s: delivery thread failed", self.name)

    def deliver(self, row: outbox.Claimed) -> str:
        """Deliver one claimed row and mark it; whatever goes wrong is this row's alone."""
        try:
            if not outbox.renew(row, self.name):  # our claim lapsed and another worker has the row now
                return SKIPPED
            courier = self.couriers.get(row.channel)
            if courier is None:
                raise ValueError(f"unknown channel {row.channel!r}")
            response_code = courier.deliver(row)
        except Exception as exc:  # noqa: BLE001 - one row's fault must never touch the others
            return self._failed(row, exc)
        metrics.delivered(row.channel)
        try:
            outbox.mark_sent(row, self.name, response_code)
        except Exception:  # noqa: BLE001 - sent but not marked: sent again after the lease, same id
            log.exception("outbox %s: delivered but could not be marked sent", row.id)
            db.session.rollback()
        return SENT

    def _failed(self, row: outbox.Claimed, exc: Exception) -> str:
        """Mark the row for a retry, or dead when the fault is permanent (or its retries are over)."""
        db.session.rollback()  # the session may be in a failed transaction
        expected = isinstance(exc, channels.DeliveryError)
        reason = str(exc) if expected else f"{type(exc).__name__}: {exc}"
        permanent = getattr(exc, "permanent", False) or isinstance(exc, DATA_FAULTS)
        attempted = getattr(exc, "attempted", True)
        if not attempted:  # no call was made: no attempt to tell of
            log.warning("outbox %s (%s %s) put off without a call: %s", row.id, row.channel, row.kind,
                        outbox.printable(reason))
        elif expected:
            log.warning("outbox %s (%s %s) attempt %d failed: %s", row.id, row.channel, row.kind,
                        row.attempts + 1, outbox.printable(reason))
        else:
            log.error("outbox %s (%s %s) attempt %d raised", row.id, row.channel, row.kind,
                      row.attempts + 1, exc_info=exc)
        channel = channels.find(row.channel)
        metrics.outbox_failed(channel.metrics_label if channel else row.channel)
        try:
            outbox.mark_failed(row, self.name, reason, permanent=permanent,
                               not_before=getattr(exc, "not_before", None), attempted=attempted,
                               response_code=getattr(exc, "status", None))
        except Exception:  # noqa: BLE001 - left claimed: tried again once its lease runs out
            log.exception("outbox %s: could not be marked failed", row.id)
            db.session.rollback()
        return DESTINATION_DOWN if getattr(exc, "destination_down", False) else FAILED

    def sweep(self) -> int:
        return sweeps.sweep_clocks() + sweeps.sweep_digests() + sweeps.sweep_old_rows() + sweeps.sweep_periodic()

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
        # Watching throughout: no wake-up is missed; the claims renewed while the loop runs.
        with wakeup.hub().watch(wakeup.OUTBOX) as waiter, self.claims_kept():
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

    @contextmanager
    def claims_kept(self):
        """Renew the claims of the batch in hand (`in_hand`) every quarter of a lease, on a thread of
        its own (with its own app context and session), while the block runs: they lapse only when
        the process dies, a delivery outlasts NOTIFY_HOLD_SECONDS, or the batch ended with a row
        delivered but not marked; another worker (or this one) then takes them over within a lease
        (outbox.py)."""
        done, app = threading.Event(), current_app._get_current_object()

        def renew():
            with app.app_context():
                while not done.wait(setting("NOTIFY_LEASE_SECONDS") / 4):
                    try:
                        outbox.renew_held(self.name, list(self.in_hand))
                    except Exception:  # noqa: BLE001 - the database away for a moment: try again
                        log.warning("notify worker %s: its claims could not be renewed; retrying", self.name,
                                    exc_info=True)
        threading.Thread(target=renew, name="notify-claims", daemon=True).start()
        try:
            yield
        finally:
            done.set()

    @staticmethod
    def _idle(stop: threading.Event, waiter, interval: float) -> None:
        """Sleep until woken, `interval` passes, or `stop` is set (looked at twice a second)."""
        ends = time.monotonic() + interval
        while not stop.is_set() and (left := ends - time.monotonic()) > 0:
            if waiter.wait(min(left, 0.5)):
                return
