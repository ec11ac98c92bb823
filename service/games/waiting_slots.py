"""Who may wait: the caps on long-polls and streams, per server process, that no one party can fill.

Settings (app.config, else the environment, else the default):

    WAIT_PER_TOKEN       4      waiting requests (long-polls and streams together) per bearer token
    WAIT_ADDRESS_SHARE   0.01   the share of WAIT_PER_PROCESS one client address may hold (at least
                                one request): 100 of 10,000, so a hundred addresses are needed to
                                fill a process. IPv6 addresses count by their /64 network (one
                                host's usual allocation), IPv4 addresses each on their own
    WAIT_PER_PROCESS     10000  in all
    STREAM_KEEPALIVE_SECONDS 15 a comment line on a quiet stream (proxies close silent ones)
    STREAM_MAX_SECONDS   3600   a stream then ends; EventSource reconnects with Last-Event-ID

Beyond the token's cap or the address's share a wait is refused with 429 `too-many-waiters` and
Retry-After. A client that reconnects before the server saw it leave takes its own place back: when
a cap is reached and the token already waits for the same thing (the same game, or the same
player's stream), the newest request takes the place of the oldest such wait, which ends (a stream
ends, a long-poll answers as at its timeout). Only the same thing: a token's five browser tabs on
five games would otherwise take each other's places in turn, each re-poll ending another tab's.
A wait whose client closed its connection gives its place back at once (service/core/hangup.py
watches the socket while it waits); before refusing anyone, the token's and the address's waits
are also looked at for a client gone.

The process's cap is shared max-min fair between address groups (issue 38): a few addresses, each
within its share, may fill WAIT_PER_PROCESS (three at a third each, where WAIT_ADDRESS_SHARE allows
it), but then a newcomer whose
group holds n waits takes the place of the oldest wait of the heaviest group, if that group holds
more than n + 1 (more than the newcomer's would after); that wait ends as one taken over ends. So
an address always gets a place while any address holds more than it would after, and only when
every group holds at most n + 1 is the newcomer refused (429, "the server"). Equal groups never
take each other's places in turn. The groups are kept by count (groups_by_count), so finding the
heaviest scans nothing however many addresses wait.
"""
from __future__ import annotations

import ipaddress
import os
import threading
from contextlib import contextmanager, nullcontext

from flask import current_app, request

from ..core import hangup
from ..core.errors import Problem
from ..core.limits import client_address, token_key
from ..core.wakeup import hub

DEFAULTS = {"WAIT_PER_TOKEN": 4, "WAIT_ADDRESS_SHARE": 0.01, "WAIT_PER_PROCESS": 10000,
            "STREAM_KEEPALIVE_SECONDS": 15.0, "STREAM_MAX_SECONDS": 3600.0}
RETRY_AFTER_SECONDS = 5


def setting(name: str):
    if name in current_app.config:
        return current_app.config[name]
    return type(DEFAULTS[name])(os.environ.get(name, DEFAULTS[name]))


def per_address() -> int:
    return max(1, int(setting("WAIT_PER_PROCESS") * setting("WAIT_ADDRESS_SHARE")))


def address_group(address: str) -> str:
    """What an address's share is counted under: an IPv6 address's /64, an IPv4 address itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # "unknown", or whatever a proxy wrote
        return address
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class Slot:
    """One waiting request's place under its token, its address group and the process; `key` is
    what it waits for (a wake-up key: a game, a player's stream)."""

    def __init__(self, token: str, group: str, key: str, connection=None):
        self.token, self.group, self.key, self.connection = token, group, key, connection
        self.over = False  # its client left, or the token's newer request took its place
        self.counted = False
        self._waiter = None

    @contextmanager
    def waiting(self, version: int | None, waiter=None):
        """A Waiter on the slot's key (service/core/wakeup.py) that end() wakes, as does the client
        leaving: `waiter` when the caller joined one before its read (and leaves it), else a new one."""
        with nullcontext(waiter) if waiter is not None else hub().watch(self.key, version) as waiter:
            waiter.version = version
            self._waiter = waiter
            if self.over:
                waiter.wake()
            with hangup.watch(self.connection, self.end):
                yield waiter

    def end(self) -> None:
        """Stop waiting: the stream ends, the long-poll answers. Never blocks (an event loop calls it)."""
        self.over = True
        if self._waiter is not None:
            self._waiter.wake()

    def client_gone(self) -> bool:
        return self.over or (self.connection is not None and hangup.connection_gone(self.connection))


class Slots:
    """This process's waiting requests by token, by address group and in all."""

    def __init__(self):
        self._lock = threading.Lock()
        self.by_token: dict[str, list[Slot]] = {}  # oldest first
        self.by_group: dict[str, list[Slot]] = {}
        self.groups_by_count: dict[int, dict[str, None]] = {}  # n -> the groups holding n waits, in order
        self.heaviest = 0  # the most waits any group holds
        self.total = 0

    def take(self, token: str, address: str, key: str, connection=None) -> Slot:
        new = Slot(token, address_group(address), key, connection)
        with self._lock:
            replaced = self._make_room(new)
            self._count(new)
        if replaced is not None:
            replaced.end()
        return new

    def give_back(self, slot: Slot) -> None:
        with self._lock:
            self._uncount(slot)

    def _make_room(self, new: Slot) -> Slot | None:
        """Raise 429 if `new` does not fit; else the token's wait it replaces, if any."""
        full = self._full(new)
        if full is None:
            return None
        # Before refusing: places held for clients that have gone (the watch may not have run yet).
        for held in [*self.by_token.get(new.token, ()), *self.by_group.get(new.group, ())]:
            if held.counted and held.client_gone():
                self._uncount(held)
                held.end()
        full = self._full(new)
        if full is None:
            return None
        same = [held for held in self.by_token.get(new.token, ()) if held.key == new.key]
        if same:  # the token's newest request for the same thing may take the place of its oldest
            oldest = same[0]
            full = self._full(new, leaving=oldest)
            if full is None:
                self._uncount(oldest)
                return oldest
        if full == "the server":  # within its own caps: the heaviest address group makes room
            heaviest = self._heaviest_oldest(new.group)
            if heaviest is not None:
                self._uncount(heaviest)
                return heaviest
        raise Problem("too-many-waiters",
                      f"{full} already holds as many waiting requests as it may; close one first "
                      f"(or retry in {RETRY_AFTER_SECONDS} s)",
                      headers={"Retry-After": str(RETRY_AFTER_SECONDS)})

    def _heaviest_oldest(self, group: str) -> Slot | None:
        """The oldest wait of the group holding the most, if it holds more than `group` would with
        one more (max-min fairness: the newcomer's group still holds fewer after); else None."""
        if self.heaviest <= len(self.by_group.get(group, ())) + 1:
            return None
        return self.by_group[next(iter(self.groups_by_count[self.heaviest]))][0]

    def _full(self, new: Slot, leaving: Slot | None = None) -> str | None:
        """What has no room for `new` (were `leaving` gone), or None."""
        def held(group: dict, key: str) -> int:
            return sum(slot is not leaving for slot in group.get(key, ()))
        if held(self.by_token, new.token) >= setting("WAIT_PER_TOKEN"):
            return "this token"
        if held(self.by_group, new.group) >= per_address():
            return "this address" if "/" not in new.group else "this address's /64 network"
        if self.total - (leaving is not None) >= setting("WAIT_PER_PROCESS"):
            return "the server"
        return None

    def _count(self, slot: Slot) -> None:
        self.by_token.setdefault(slot.token, []).append(slot)
        self.by_group.setdefault(slot.group, []).append(slot)
        self._regroup(slot.group, len(self.by_group[slot.group]) - 1)
        self.total += 1
        slot.counted = True

    def _uncount(self, slot: Slot) -> None:
        if not slot.counted:  # given back already: taken over, or its client found gone
            return
        slot.counted = False
        for index, key in ((self.by_token, slot.token), (self.by_group, slot.group)):
            index[key].remove(slot)
            if not index[key]:
                del index[key]
        self._regroup(slot.group, len(self.by_group.get(slot.group, ())) + 1)
        self.total -= 1

    def _regroup(self, group: str, was: int) -> None:
        """Move `group` from the groups holding `was` waits to those holding what it holds now (one
        more or one fewer), keeping `heaviest`."""
        now = len(self.by_group.get(group, ()))
        if was:
            self.groups_by_count[was].pop(group)
            if not self.groups_by_count[was]:
                del self.groups_by_count[was]
        if now:
            self.groups_by_count.setdefault(now, {})[group] = None
        if now > self.heaviest:
            self.heaviest = now
        elif was == self.heaviest and was not in self.groups_by_count:
            self.heaviest = now  # the one heaviest group gave one up: it holds the most still


slots = Slots()


def take_slot(key: str) -> Slot:
    """Count this request as waiting for `key` (429 beyond the caps); give it back with slots.give_back."""
    return slots.take(token_key(), client_address(), key, hangup.request_socket(request.environ))
