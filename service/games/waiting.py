"""Waiting for a move: the long-poll (GET /games/{id}?wait=N) and the stream (GET /games/{id}/stream).

Neither holds a transaction or a pooled connection while it waits, nor reads anything until a
change wakes it: its Waiter (service/core/wakeup.py) joins the game's wake-ups before the request's
one read (the view; for a stream, the view and the newest message's id in one statement), so
nothing committed after that read is missed, and the connection is given back before it sleeps.
A committed change wakes it at once on every process, saying what changed: a move (the version:
one statement reads the view) or a message (the stream reads the messages after its last one).
A stream's keep-alive and a long-poll's timeout read nothing. Under the production server (gevent,
service/core/server.py) a waiting request costs a greenlet and a socket, not a thread.

The caps on how many may wait (per token, per address, per process) and the settings are in
waiting_slots.py; a wait ends early when its client closes the connection (service/core/hangup.py)
or when the same token's newer request for the same game takes its place.
"""
from __future__ import annotations

import json
import time

from flask import request

from ..core import metrics
from ..core.errors import Problem
from ..core.extensions import db
from ..core.wakeup import game_key, hub
from . import changes, messages, views
from .waiting_slots import Slot, setting, slots, take_slot

MAX_WAIT = 60


# -- the long-poll ------------------------------------------------------------------------------

def unchanged(version: int, query: dict) -> bool:
    """The client already has this version: named in If-None-Match or in ?version=."""
    from ..core.web import not_modified
    return not_modified(version) or query.get("version") == version


def view_when_asked(game_id: str, token: str, query: dict) -> tuple[int, str]:
    """The caller's (version, view); with ?wait=N when the client has that version already, once
    the game moved past it or after N seconds (the long-poll). One read for a new waiter, one after
    each wake-up by a move, none at the timeout (the client has the version: 304)."""
    if not query.get("wait"):
        version, _, view = views.read_view(game_id, token)
        return version, view
    with hub().watch(game_key(game_id)) as waiter:  # before the read: no change slips in between
        version, _, view = views.read_view(game_id, token)
        if unchanged(version, query):
            version, view = wait_for_view(game_id, token, version, view, query["wait"], waiter)
    return version, view


def take_game_slot(game_id: str) -> Slot:
    return take_slot(game_key(game_id))


def wait_for_view(game_id: str, token: str, version: int, view: str, seconds: float, waiter) -> tuple[int, str]:
    """Wait up to `seconds` on `waiter` (joined before `version` was read) for the game to move past
    it; then the (version, view) to answer."""
    give_up = time.monotonic() + min(seconds, MAX_WAIT)
    slot = take_game_slot(game_id)
    try:
        with metrics.waiting("long-poll"), slot.waiting(version, waiter):
            db.session.rollback()  # no transaction, no pooled connection held while waiting
            while not hub().closing and not slot.over:
                left = give_up - time.monotonic()
                if left <= 0 or not waiter.wait(left):
                    break
                moved, _ = waiter.news()  # a message's wake-up is no news for a view
                if moved:  # (a wake-up may be spurious: a listener reconnecting wakes everyone)
                    version, _, view = views.read_view(game_id, token)
                    if version != waiter.version:
                        break
    finally:
        slots.give_back(slot)
    return version, view


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


def open_stream(game_id: str, token: str):
    """The stream's (frames, what its response calls when it closes), or None when nothing more
    will come (204). Its Waiter joins before the one read of the view and the newest message's id."""
    waiter = hub().join(game_key(game_id))
    try:
        version, seat, view, after_message = start_of_stream(game_id, token)
        last_seen = last_event_id()
        if last_seen == version and is_finished(view) and not what_follows(game_id, seat, view).may_come:
            waiter.leave()
            return None
        slot = take_game_slot(game_id)
    except BaseException:
        waiter.leave()
        raise
    db.session.rollback()  # a stream holds no pooled connection between its reads

    def closed():
        slots.give_back(slot)
        waiter.leave()
    return stream(game_id, token, seat, version, view, last_seen, slot, waiter, after_message), closed


def start_of_stream(game_id: str, token: str) -> tuple[int, int, str, int]:
    """(version, seat, view, the newest message's id): one statement when the view is stored."""
    found = views.read_view(game_id, token, newest_message=True)
    return found if len(found) == 4 else (*found, messages.newest_id(game_id))


def stream(game_id: str, token: str, seat: int, version: int, view_text: str, last_seen: int | None, slot: Slot,
           waiter, after_message: int = 0):
    """The stream's text, as a generator: the view now (unless the client has it), then the view
    after every change and each message the seat may see after `after_message` (games/messages.py),
    a keep-alive comment when quiet (it reads nothing). At the match's end the view is followed by
    what the end still holds for the seat (a rematch offered to it: changes.after_the_end), and the
    stream ends, unless something may still come (a rematch not offered yet): then it stays open for
    it. It also ends after STREAM_MAX_SECONDS, when the server stops (the client reconnects with
    Last-Event-ID), when the client leaves, or when the token's newer wait takes `slot`'s place.
    `waiter` joined the game's wake-ups before `version` was read; it is left when the stream ends."""
    keepalive, ends = setting("STREAM_KEEPALIVE_SECONDS"), time.monotonic() + setting("STREAM_MAX_SECONDS")
    try:
        with metrics.waiting("stream"), slot.waiting(version, waiter):
            yield "retry: 2000\n\n"  # EventSource: reconnect after 2 s
            follows = what_follows(game_id, seat, view_text)
            if last_seen != version:
                yield sse_view(version, view_text)
                for event in follows.events if follows else ():
                    yield sse_event(version, event)
            while (follows is None or follows.may_come) and not hub().closing and time.monotonic() < ends:
                if not waiter.wait(min(keepalive, ends - time.monotonic())):
                    yield ": keep-alive\n\n"
                    continue
                if slot.over:
                    return
                moved, chatted = waiter.news()
                if not (moved or chatted):
                    continue
                try:  # one read, on a connection given back at once
                    new_version, _, new_text = views.read_view(game_id, token) if moved else (version, seat, view_text)
                    said = messages.page(game_id, seat, after_message, 50)["messages"] if chatted else []
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
    finally:
        waiter.leave()
