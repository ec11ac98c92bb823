"""The ways a notification goes out (mail, webhooks, Web Push), each said once, here, as a `Channel`.

A channel is registered by notify's init_app (`register`) and says everything the outbox and the
worker need to know of it:

- its `name`, stored in each of its outbox rows (`outbox.channel`), and its `label` in metrics;
- its outbox kinds (`kinds`: what a change's reason, "turn", "match_end", ..., is called in it);
- how one claimed row is delivered (`courier`: makes the object that delivers, one per worker);
- how a batch takes its rows (`threads`): on the worker's own thread one after another, or up to
  so many on threads of their own, one per destination (`destination`), whose rows go in order;
- whether a seat's rows go one at a time in order (`in_order_per_seat`), and which kind a newer
  row of the same seat stands for (`superseded`: a run of waiting ones is replaced by the newest),
  or whether a newer row of the same seat to the same recipient stands for every waiting one
  (`replaced_per_recipient`: a push, whose Topic the push service replaces by likewise);
- how long a failed row is retried (`retry_hours`, else NOTIFY_MAX_ATTEMPTS attempts) and
  whether each attempt is kept for a deliveries log (`logs_attempts`).

No other module compares channel names: outbox.py and worker.py ask the registry, composers pass
their channel (mail.channel.MAIL, webhooks.channel.WEBHOOK, push.channel.PUSH) to `outbox.enqueue`. Adding a
channel is one module defining its Channel and one `register` (docs/architecture.md, "Adding a
channel").
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


class Courier(Protocol):
    """Delivers a channel's claimed rows (outbox.Claimed); one per worker, shared by its threads."""

    def deliver(self, row) -> int | None:
        """Deliver once: the receiver's status code to keep (a deliveries log), or None; raises
        DeliveryError (or anything else: a fault of the row's own) when it failed."""

    def close(self) -> None:
        """The batch is over (an SMTP connection is closed)."""


class DeliveryError(Exception):
    """A delivery that failed in a way its channel expects some to (logged in a line, no trace).
    `permanent`: not retried; `destination_down`: the destination's other rows in the batch wait;
    `status`: the receiver's answer, kept in a deliveries log; `not_before`: no retry before it;
    `attempted` False: nothing was sent (no attempt is counted)."""

    permanent = False
    destination_down = False
    status: int | None = None
    not_before: datetime | None = None
    attempted = True


class Postponed(DeliveryError):
    """Not attempted now (the destination's circuit breaker is open, or an earlier row to it failed
    in this batch); the row waits until at least `not_before`."""

    attempted = False

    def __init__(self, message: str, not_before: datetime | None = None):
        super().__init__(message)
        self.not_before = not_before


@dataclass(frozen=True, eq=False)
class Channel:
    name: str  # outbox.channel (at most 8 characters)
    courier: Callable[[], Courier]
    # The outbox kind of each reason a change gives ("turn" -> "turn.started"); None: the reason itself.
    kinds: Mapping[str, str] | None = None
    # None: a batch's rows are delivered on the worker's own thread. Else the most rows of this
    # channel one batch takes, each `destination` (of the row's recipient) on a thread of its own.
    threads: Callable[[], int] | None = None
    destination: Callable[[str], Hashable] | None = None
    in_order_per_seat: bool = False  # a row waits while an older one of its seat waits
    superseded: str | None = None  # the kind a newer row of the same seat stands for
    replaced_per_recipient: bool = False  # a newer row of the seat to the same recipient stands for any kind
    retry_hours: str | None = None  # the setting: hours a row is retried after it was queued or redelivered
    logs_attempts: bool = False  # each attempt's moment and the receiver's status are kept on the row
    label: str | None = None  # in metrics; None: the name

    def __str__(self) -> str:
        return self.name

    @property
    def metrics_label(self) -> str:
        return self.label or self.name


_REGISTERED: dict[str, Channel] = {}


def register(channel: Channel) -> None:
    """Add a channel (notify.init_app); registering the same one again changes nothing, as apps are
    made many times in one process."""
    known = _REGISTERED.setdefault(channel.name, channel)
    if known is not channel:
        raise ValueError(f"another channel is registered as {channel.name!r}")


def registered() -> tuple[Channel, ...]:
    return tuple(_REGISTERED.values())


def find(name: str) -> Channel | None:
    """The channel of that name, or None (a row of a channel this process does not know)."""
    return _REGISTERED.get(name)

