"""A circuit breaker per webhook destination (host name and port), in the worker's memory.

After `threshold` consecutive calls to one destination failed in a way that says the destination
is down or slow (no answer within the timeout, connection refused or reset, 5xx, 429), the
breaker opens: rows for that destination are postponed without a network call until a cool-down
has passed. The first call after it is a probe: success closes the breaker, failure opens it
again for twice as long (up to `longest`). A quick 4xx does not count: the destination answers,
it costs nobody anything, and it must not let one seat hold back another seat's calls to the
same host.

The state lives in each worker process and is lost on restart (a restarted worker spends at most
`threshold` calls per destination to learn it again); with several workers each learns on its
own. That keeps the database out of it, at the price of a few extra calls to a dead destination.
The key includes the port, so a seat pointing at a dead port of someone else's host cannot hold
back the calls to its live one.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..config import setting

Destination = tuple[str, int]


@dataclass
class _State:
    failures: int = 0  # consecutive, since the last success or opening
    openings: int = 0  # consecutive openings: the cool-down doubles with each
    open_until: datetime | None = None


class Breaker:
    def __init__(self, threshold: int, cooldown: float, longest: float):
        self.threshold, self.cooldown, self.longest = max(threshold, 1), cooldown, longest
        self._states: dict[Destination, _State] = {}
        self._lock = threading.Lock()

    def open_until(self, destination: Destination, now: datetime) -> datetime | None:
        """When calls to `destination` may start again, or None when they may go now."""
        with self._lock:
            state = self._states.get(destination)
            if state is None or state.open_until is None or now >= state.open_until:
                return None
            return state.open_until

    def succeeded(self, destination: Destination) -> None:
        with self._lock:
            self._states.pop(destination, None)

    def failed(self, destination: Destination, now: datetime) -> datetime | None:
        """Count a failure; returns when the breaker opened until, if this failure opened it."""
        with self._lock:
            state = self._states.setdefault(destination, _State())
            state.failures += 1
            probing = state.openings > 0 and state.open_until is not None and now >= state.open_until
            if state.failures < self.threshold and not probing:
                return None
            state.openings += 1
            state.failures = 0
            seconds = min(self.cooldown * 2 ** (state.openings - 1), self.longest)
            state.open_until = now + timedelta(seconds=seconds)
            return state.open_until


class Breaking:
    """A courier's circuit breaker, made on first use (its settings need the app) and shared by
    the worker's threads: the webhooks' caller and the push courier each keep one."""

    def __init__(self):
        self._breaker: Breaker | None = None
        self._made = threading.Lock()

    @property
    def breaker(self) -> Breaker:
        with self._made:
            if self._breaker is None:
                self._breaker = Breaker(setting("WEBHOOK_BREAKER_FAILURES"), setting("WEBHOOK_BREAKER_COOLDOWN_SECONDS"),
                                        setting("NOTIFY_RETRY_MAX_SECONDS"))
            return self._breaker
