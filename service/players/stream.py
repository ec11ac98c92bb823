"""GET /me/stream: a player's events as Server-Sent Events, `id` being the event's seq.

Like the game stream (service/games/waiting.py), it holds no transaction or pooled connection while it
waits and reads nothing until woken: the route's read of the player (its token) is the only one of a
new stream with nothing pending (its Waiter joins after it, hub().woken_since covering what came
between); each wake-up, on any process, reads the events after the last one sent in one statement
that also checks the token, on a connection given back at once. The keep-alive reads nothing."""
from __future__ import annotations

import json
import time

from sqlalchemy import and_, bindparam, select

from ..core import metrics
from ..core.database import READ_ONLY
from ..core.extensions import db
from ..core.wakeup import hub, player_key
from ..games.waiting_slots import Slot, setting, slots, take_slot
from .models import Player, PlayerEvent

PAGE = 100  # events read at a time; a long backlog goes out in several reads
_players, _events = Player.__table__, PlayerEvent.__table__
# The events after `after` (a row of NULLs: none), on the player's row while its token still opens it
# (no row: rotated, revoked or suspended).
_NEWS = (select(_events.c.seq, _events.c.type, _events.c.payload, _events.c.created_at)
         .select_from(_players.outerjoin(_events, and_(_events.c.player_id == _players.c.id,
                                                       _events.c.seq > bindparam("after"))))
         .where(_players.c.id == bindparam("player"), _players.c.token_hash == bindparam("token_hash"),
                _players.c.suspended_at.is_(None))
         .order_by(_events.c.seq).limit(bindparam("limit")))


def sse(event: dict) -> str:
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event, separators=(',', ':'))}\n\n"


def take_stream_slot(player_id: int) -> Slot:
    return take_slot(player_key(player_id))


def open_stream(player: Player, token_hash: str, last_seen: int | None, mark: int):
    """(the frames, what the response calls when it closes) for `player`, read after hub().mark()
    gave `mark`: from Last-Event-ID `last_seen` (None: from now on)."""
    newest = player.last_event_seq
    after = newest if last_seen is None else min(last_seen, newest)
    slot = take_stream_slot(player.id)
    waiter = hub().join(player_key(player.id), after)
    if after < newest or hub().woken_since(mark, waiter.key):  # a backlog, or news since the read
        waiter.wake()

    def closed():
        slots.give_back(slot)
        waiter.leave()
    return stream(player.id, token_hash, after, slot, waiter), closed


def news(player_id: int, token_hash: str, after: int) -> list[dict] | None:
    """The events after `after` (up to PAGE), or None when the token no longer opens the player."""
    with db.engine.connect().execution_options(**{READ_ONLY: True}) as connection:
        rows = connection.execute(_NEWS, {"player": player_id, "token_hash": token_hash, "after": after,
                                          "limit": PAGE}).all()
    if not rows:
        return None
    return [{"seq": row.seq, "type": row.type, "created_at": row.created_at.isoformat(), **row.payload}
            for row in rows if row.seq is not None]


def stream(player_id: int, token_hash: str, after: int, slot: Slot, waiter):
    """Every event after `after`, then each new one as it commits; a keep-alive comment when quiet.
    Ends after STREAM_MAX_SECONDS, when the server stops, when the player token is rotated or
    revoked or the player suspended (the client reconnects with Last-Event-ID and its new token),
    when the client leaves, or when the token's newer stream takes `slot`'s place."""
    keepalive, ends = setting("STREAM_KEEPALIVE_SECONDS"), time.monotonic() + setting("STREAM_MAX_SECONDS")
    try:
        with metrics.waiting("player-stream"), slot.waiting(after, waiter):
            yield ": connected\n\n"  # headers and a first line at once: the client knows it is listening
            while not hub().closing and time.monotonic() < ends:
                if not waiter.wait(min(keepalive, ends - time.monotonic())):
                    yield ": keep-alive\n\n"
                    continue
                if slot.over:
                    return
                waiter.news()
                while True:
                    events = news(player_id, token_hash, after)
                    if events is None:
                        return  # the token was rotated or revoked meanwhile
                    for event in events:
                        yield sse(event)
                        after = waiter.version = event["seq"]
                    if len(events) < PAGE:
                        break
    finally:
        waiter.leave()
