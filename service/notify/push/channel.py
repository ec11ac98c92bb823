"""The Web Push channel (channels.py) and its courier, which sends one claimed push (RFC 8030).

A push is one POST to the browser's endpoint at its push service: the body encrypted for that
browser (encryption.py), signed with the service's VAPID key (keys.py), with its TTL, Urgency and
Topic (notice.py). The push service answers 201; 404 or 410 say the subscription is gone, and
every owner's subscription of that endpoint is deleted. A failed push is retried for
PUSH_RETRY_HOURS, each attempt kept for the seat's deliveries log (GET /games/{id}/push-deliveries);
a push service that keeps failing is skipped for a while by a circuit breaker, as a webhook
receiver is (webhooks/breaker.py, with the WEBHOOK_BREAKER_* settings). A newer push to the same
browser about the same seat replaces a waiting one (the Topic does the same at the push service).
"""
from __future__ import annotations

import json

from ...core.extensions import db
from ...games import deadlines
from ..channels import Channel, DeliveryError, Postponed
from ..config import setting
from ..outbox import within_lease
from ..webhooks import calls
from ..webhooks.breaker import Breaking
from . import keys, notice, subscriptions
from .encryption import encrypt

GONE = (404, 410)  # RFC 8030 section 7.3 (410), and what push services answer for an unknown one (404)


class PushError(DeliveryError):
    def __init__(self, message: str, permanent: bool = False, destination_down: bool = False,
                 status: int | None = None):
        super().__init__(message)
        self.permanent, self.destination_down, self.status = permanent, destination_down, status


class Pusher(Breaking):
    """Sends a worker's pushes (from all of its threads), past its circuit breaker."""

    def deliver(self, row) -> int:
        """Send the push; the push service's 2xx status, or PushError (Postponed: nothing sent)."""
        endpoint = row.recipient
        found = subscriptions.keys_of(endpoint)
        db.session.rollback()  # end the read: no transaction (no SQLite lock) while on the network
        if found is None:
            raise PushError("no seat or player is subscribed with this endpoint any more", permanent=True)
        p256dh, auth, made_with = found
        if made_with != keys.public_key():  # the key was rotated since: the push service would refuse it
            subscriptions.forget_other_keys(keys.public_key(), endpoint)
            db.session.commit()
            raise PushError("the browser subscribed with an earlier VAPID key, so the subscription was deleted "
                            "(its page subscribes again when next opened)", permanent=True)
        destination, moment = calls.destination(endpoint), deadlines.now()
        closed_until = self.breaker.open_until(destination, moment)
        if closed_until is not None:
            raise Postponed(f"not attempted: {destination[0]}:{destination[1]} failed repeatedly; "
                            f"its pushes wait until {closed_until.isoformat()}", not_before=closed_until)
        shown = json.loads(row.payload)
        headers = {
            "authorization": keys.authorization(endpoint), "content-encoding": "aes128gcm",
            "content-type": "application/octet-stream",
            "ttl": str(notice.ttl(row.kind, shown.get("deadline"), moment, setting("PUSH_TTL_HOURS"))),
            "urgency": notice.urgency(row.kind), "topic": notice.topic(row.game_id, row.seat),
        }
        try:
            status = calls.send(endpoint, encrypt(row.payload.encode("utf-8"), p256dh, auth), headers,
                                within_lease(setting("WEBHOOK_TIMEOUT")), setting("PUSH_ALLOW_PRIVATE"),
                                connect_timeout=setting("WEBHOOK_CONNECT_TIMEOUT"), allowing="PUSH_ALLOW_PRIVATE")
        except calls.WebhookError as exc:
            if exc.destination_down:
                self.breaker.failed(destination, deadlines.now())
            raise PushError(str(exc), permanent=exc.permanent, destination_down=exc.destination_down) from None
        if 200 <= status < 300:
            self.breaker.succeeded(destination)
            return status
        if status in GONE:
            subscriptions.forget_endpoint(endpoint)
            db.session.commit()
            raise PushError(f"HTTP {status} from the push service: the subscription is gone, and was "
                            "deleted", permanent=True, status=status)
        down = status >= 500 or status == 429
        if down:
            self.breaker.failed(destination, deadlines.now())
        # 400, 403 (another VAPID key), 413: the same push would fail again.
        raise PushError(f"HTTP {status} from the push service", permanent=not down, destination_down=down,
                        status=status)

    def close(self) -> None:
        """Nothing held between batches but the breaker's memory, kept for the worker's life."""


PUSH = Channel(
    name="push", courier=Pusher, kinds=notice.KINDS,
    # Each browser (endpoint) on a thread of its own: one push service serves most of them.
    threads=lambda: setting("WEBHOOK_CONCURRENCY"), destination=lambda endpoint: endpoint,
    replaced_per_recipient=True, retry_hours="PUSH_RETRY_HOURS", logs_attempts=True)
