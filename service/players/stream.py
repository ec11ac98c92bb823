"""GET /me/stream: a player's events as Server-Sent Events, `id` being the event's seq.

Like the game stream (service/games/waiting.py), it holds no transaction or pooled connection while it
waits: it reads the events after the last one sent, gives the connection back, and sleeps on its
Waiter until a commit adds an event to this player's stream (on any process), or a keep-alive is due."""
from __future__ import annotations

import json
import time

from sqlalchemy import bindparam, select

from ..core import metrics
from ..core.database import READ_ONLY
from ..core.extensions import db
from ..core.wakeup import hub, player_key
from ..games.waiting_slots import Slot, setting, take_slot
from . import feed
from .models import Player

PAGE = 100  # events read at a time; a long backlog goes out in several reads
_STILL_OPEN = select(Player.last_event_seq).where(Player.id == bindparam("player"),
                                                  Player.token_hash == bindparam("token_hash"),
                                                  Player.suspended_at.is_(None))


def sse(event: dict) -> str:
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event, separators=(',', ':'))}\n\n"


def take_stream_slot(player_id: int) -> Slot:
    return take_slot(player_key(player_id))


def stream(player_id: int, token_hash: str, after: int, slot: Slot):
    """Every event after `after`, then each new one as it commits; a keep-alive comment when quiet.
    Ends after STREAM_MAX_SECONDS, when the server stops, when the player token is rotated or
    revoked or the player suspended (the client reconnects with Last-Event-ID and its new token),
    when the client leaves, or when the token's newer stream takes `slot`'s place."""
    keepalive, ends = setting("STREAM_KEEPALIVE_SECONDS"), time.monotonic() + setting("STREAM_MAX_SECONDS")
    with metrics.waiting("player-stream"), slot.waiting(after) as waiter:
        waiter.wake()  # read once at once: events may have come before we watched
        yield ": connected\n\n"  # headers and a first line at once: the client knows it is listening
        while not hub().closing and time.monotonic() < ends:
            woken = waiter.wait(min(keepalive, ends - time.monotonic()))
            if slot.over:
                return
            if not woken:
                yield ": keep-alive\n\n"
                continue
            while True:
                with db.engine.connect().execution_options(**{READ_ONLY: True}) as connection:
                    newest = connection.execute(_STILL_OPEN, {"player": player_id, "token_hash": token_hash}).scalar()
                    if newest is None:
                        return  # the token was rotated or revoked meanwhile
                    events = feed.events_after(connection, player_id, after, PAGE) if newest > after else []
                for event in events:
                    yield sse(event)
                    after = waiter.version = event["seq"]
                if len(events) < PAGE:
                    break
