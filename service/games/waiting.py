"""Waiting for a move: the long-poll (GET /games/{id}?wait=N) and the stream (GET /games/{id}/stream).

Neither holds a transaction or a pooled connection while it waits: it reads, gives the connection
back, sleeps on its Waiter (service/core/wakeup.py), which a committed change to the game wakes at
once on every process, and reads again. Under the production server (gevent, service/core/server.py)
a waiting request costs a greenlet and a socket, not a thread.

The caps on how many may wait (per token, per address, per process) and the settings are in
waiting_slots.py; a wait ends early when its client closes the connection (service/core/hangup.py)
or when the same token's newer request for the same game takes its place.
"""
from __future__ import annotations

import json
import time

from flask import request
from sqlalchemy import bindparam, select

from ..core import metrics
from ..core.database import READ_ONLY
from ..core.errors import Problem
from ..core.extensions import db
from ..core.wakeup import game_key, hub
from . import changes, messages, views
from .models import Game
from .waiting_slots import Slot, setting, slots, take_slot

MAX_WAIT = 60


# -- the long-poll ------------------------------------------------------------------------------

def unchanged(version: int, query: dict) -> bool:
    """The client already has this version: named in If-None-Match or in ?version=."""
    from ..core.web import not_modified
    return not_modified(version) or query.get("version") == version


_VERSION = select(Game.version).where(Game.id == bindparam("game"))


def current_version(game_id: str) -> int | None:
    with db.engine.connect().execution_options(**{READ_ONLY: True}) as connection:
        return connection.execute(_VERSION, {"game": game_id}).scalar()


def take_game_slot(game_id: str) -> Slot:
    return take_slot(game_key(game_id))


def wait_for_view(game_id: str, token: str, version: int, seconds: float) -> tuple[int, int, str]:
    """Wait up to `seconds` for the game to move past `version`; then (version, seat, view) as
    views.read_view answers."""
    give_up = time.monotonic() + min(seconds, MAX_WAIT)
    slot = take_game_slot(game_id)
    try:
        with metrics.waiting("long-poll"), slot.waiting(version) as waiter:
            db.session.rollback()  # no transaction, no pooled connection held while waiting
            # Read after watching, so no change slips in between; a wake-up may be spurious (a
            # listener reconnecting wakes everyone), so look again before answering.
            while current_version(game_id) == version and not hub().closing and not slot.over:
                left = give_up - time.monotonic()
                if left <= 0:
                    break
                waiter.wait(left)
    finally:
        slots.give_back(slot)
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
    """One frame: the view (stored as JSON text, an object) with the event's name added, the
    property the contract's GameStreamEvent union is discriminated on."""
    return f'id: {version}\nevent: view\ndata: {{"event":"view",{view_text.lstrip()[1:]}\n\n'


def sse_event(version: int, data: dict) -> str:
    """One frame of another kind than a view (its data names it in `event`), at the game's version."""
    return f"id: {version}\nevent: {data['event']}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def what_follows(game_id: str, seat: int, view_text: str) -> changes.AfterTheEnd | None:
    """For a finished game, what its stream still has for the seat (None while the match goes on)."""
    if not is_finished(view_text):
        return None
    try:
        return changes.what_follows(game_id, seat)
    finally:
        db.session.rollback()  # hand the connection back before waiting


def stream(game_id: str, token: str, seat: int, version: int, view_text: str, last_seen: int | None, slot: Slot,
           after_message: int = 0):
    """The stream's text, as a generator: the view now (unless the client has it), then the view
    after every change and each message the seat may see after `after_message` (games/messages.py),
    a keep-alive comment when quiet. At the match's end the view is followed by
    what the end still holds for the seat (a rematch offered to it: changes.after_the_end), and the
    stream ends, unless something may still come (a rematch not offered yet): then it stays open for
    it. It also ends after STREAM_MAX_SECONDS, when the server stops (the client reconnects with
    Last-Event-ID), when the client leaves, or when the token's newer wait takes `slot`'s place."""
    keepalive, ends = setting("STREAM_KEEPALIVE_SECONDS"), time.monotonic() + setting("STREAM_MAX_SECONDS")
    with metrics.waiting("stream"), slot.waiting(version) as waiter:
        if current_version(game_id) != version:  # moved before we watched: read it at once
            waiter.wake()
        yield "retry: 2000\n\n"  # EventSource: reconnect after 2 s
        follows = what_follows(game_id, seat, view_text)
        if last_seen != version:
            yield sse_view(version, view_text)
            for event in follows.events if follows else ():
                yield sse_event(version, event)
        while (follows is None or follows.may_come) and not hub().closing and time.monotonic() < ends:
            woken = waiter.wait(min(keepalive, ends - time.monotonic()))
            if slot.over:
                return
            try:
                new_version, _, new_text = views.read_view(game_id, token) if woken else (version, seat, view_text)
                # Messages move no version: read on every wake-up, and when quiet (a lost wake-up).
                said = messages.page(game_id, seat, after_message, 50)["messages"]
            except Problem:  # the token was revoked meanwhile: the stream ends
                return
            finally:
                db.session.rollback()  # hand the connection back before waiting again
            if new_version != version:
                version, view_text, waiter.version = new_version, new_text, new_version
                yield sse_view(version, view_text)
                follows = what_follows(game_id, seat, view_text)
                for event in follows.events if follows else ():
                    yield sse_event(version, event)
            for message in said:  # its id is the game's version: a reconnection still names a version
                after_message = message["id"]
                yield sse_event(version, {"event": "message", **message})
            if not woken and not said:
                yield ": keep-alive\n\n"
