"""Waiting for a move: the long-poll (GET /games/{id}?wait=N) and the stream (GET /games/{id}/stream).

Neither holds a transaction or a pooled connection while it waits: it reads, gives the connection
back, sleeps on its Waiter (service/core/wakeup.py), which a committed change to the game wakes at
once on every process, and reads again. Under the production server (gevent, service/core/server.py)
a waiting request costs a greenlet and a socket, not a thread.

Limits, per server process (app.config, else the environment, else the default), so that nobody
can hold all of a host's connections; beyond them a wait is refused with 429 `too-many-waiters`
and Retry-After:

    WAIT_PER_TOKEN       4      long-polls and streams together, per bearer token
    WAIT_PER_ADDRESS     1000   per client address
    WAIT_PER_PROCESS     10000  in all
    STREAM_KEEPALIVE_SECONDS 15 a comment line on a quiet stream (proxies close silent ones)
    STREAM_MAX_SECONDS   3600   a stream then ends; EventSource reconnects with Last-Event-ID
"""
from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter
from contextlib import contextmanager

from flask import current_app, request
from sqlalchemy import bindparam, select

from ..core.database import READ_ONLY
from ..core.errors import Problem
from ..core.extensions import db
from ..core.limits import client_address, token_key
from ..core.wakeup import game_key, hub
from . import views
from .models import Game

MAX_WAIT = 60
DEFAULTS = {"WAIT_PER_TOKEN": 4, "WAIT_PER_ADDRESS": 1000, "WAIT_PER_PROCESS": 10000,
            "STREAM_KEEPALIVE_SECONDS": 15.0, "STREAM_MAX_SECONDS": 3600.0}
RETRY_AFTER_SECONDS = 5


def setting(name: str):
    if name in current_app.config:
        return current_app.config[name]
    return type(DEFAULTS[name])(os.environ.get(name, DEFAULTS[name]))


# -- how many wait ------------------------------------------------------------------------------

class Slots:
    """Counts this process's waiting requests by token, by address and in all."""

    def __init__(self):
        self._lock = threading.Lock()
        self.by_token, self.by_address = Counter(), Counter()
        self.total = 0

    def take(self, token: str, address: str) -> None:
        with self._lock:
            full = ("this token" if self.by_token[token] >= setting("WAIT_PER_TOKEN") else
                    "this address" if self.by_address[address] >= setting("WAIT_PER_ADDRESS") else
                    "the server" if self.total >= setting("WAIT_PER_PROCESS") else None)
            if full:
                raise Problem("too-many-waiters",
                              f"{full} already holds as many waiting requests as it may; close one first "
                              f"(or retry in {RETRY_AFTER_SECONDS} s)",
                              headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
            self.by_token[token] += 1
            self.by_address[address] += 1
            self.total += 1

    def give_back(self, token: str, address: str) -> None:
        with self._lock:
            for counter, key in ((self.by_token, token), (self.by_address, address)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]
            self.total -= 1


slots = Slots()


def _holder() -> tuple[str, str]:
    return token_key(), client_address()


def take_slot() -> tuple[str, str]:
    """Count a waiting request (429 beyond the limits); give it back with slots.give_back."""
    holder = _holder()
    slots.take(*holder)
    return holder


@contextmanager
def slot():
    holder = take_slot()
    try:
        yield
    finally:
        slots.give_back(*holder)


# -- the long-poll ------------------------------------------------------------------------------

def unchanged(version: int, query: dict) -> bool:
    """The client already has this version: named in If-None-Match or in ?version=."""
    from ..core.web import not_modified
    return not_modified(version) or query.get("version") == version


_VERSION = select(Game.version).where(Game.id == bindparam("game"))


def current_version(game_id: str) -> int | None:
    with db.engine.connect().execution_options(**{READ_ONLY: True}) as connection:
        return connection.execute(_VERSION, {"game": game_id}).scalar()


def wait_for_view(game_id: str, token: str, version: int, seconds: float) -> tuple[int, int, str]:
    """Wait up to `seconds` for the game to move past `version`; then (version, seat, view) as
    views.read_view answers."""
    give_up = time.monotonic() + min(seconds, MAX_WAIT)
    with slot(), hub().watch(game_key(game_id), version) as waiter:
        db.session.rollback()  # no transaction, no pooled connection held while waiting
        # Read after watching, so no change slips in between; a wake-up may be spurious (a
        # listener reconnecting wakes everyone), so look again before answering.
        while current_version(game_id) == version and not hub().closing:
            left = give_up - time.monotonic()
            if left <= 0:
                break
            waiter.wait(left)
    return views.read_view(game_id, token)


# -- the stream ---------------------------------------------------------------------------------

def last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID")
    if not raw:  # EventSource sends an empty one after an event without an id
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
        raise Problem("validation-error", "Last-Event-ID must be a version number, as sent in an event's id",
                      errors={"Last-Event-ID": ["a non-negative integer of at most 12 digits"]})
    return int(raw)


def is_finished(view_text: str) -> bool:
    return json.loads(view_text).get("status") == "finished"


def sse_view(version: int, view_text: str) -> str:
    return f"id: {version}\nevent: view\ndata: {view_text}\n\n"


def stream(game_id: str, token: str, version: int, view_text: str, last_seen: int | None):
    """The stream's text, as a generator: the view now (unless the client has it), then the view
    after every change, a keep-alive comment when quiet; it ends when the match is over, after
    STREAM_MAX_SECONDS, or when the server stops (the client reconnects with Last-Event-ID)."""
    keepalive, ends = setting("STREAM_KEEPALIVE_SECONDS"), time.monotonic() + setting("STREAM_MAX_SECONDS")
    with hub().watch(game_key(game_id), version) as waiter:
        if current_version(game_id) != version:  # moved before we watched: read it at once
            waiter.wake()
        yield "retry: 2000\n\n"  # EventSource: reconnect after 2 s
        if last_seen != version:
            yield sse_view(version, view_text)
        while not is_finished(view_text) and not hub().closing and time.monotonic() < ends:
            if not waiter.wait(min(keepalive, ends - time.monotonic())):
                yield ": keep-alive\n\n"
                continue
            try:
                new_version, _, new_text = views.read_view(game_id, token)
            except Problem:  # the token was revoked meanwhile: the stream ends
                return
            finally:
                db.session.rollback()  # hand the connection back before waiting again
            if new_version != version:
                version, view_text, waiter.version = new_version, new_text, new_version
                yield sse_view(version, view_text)
