"""What a push says, and how the push service is asked to keep it.

The payload is the notification the service worker shows (service/site/static/js/sw.js), as
JSON, and nothing more: a title naming the players ("Your turn: Ann v Bob"), the deadline, the
kind, the game's version, and the seat page's path, /play/<game>. Never a card, a token, a link
key or a message's text: the page opened by a click reads the seat's token from the browser's own
storage, where it already keeps it, so a push read by a stranger opens nothing.

Per push, the headers RFC 8030 gives a sender:
- TTL: until the deadline the push tells (a turn, a hand's end or a reminder is stale after it),
  at most PUSH_TTL_HOURS; a match's end or an expired clock, PUSH_TTL_HOURS;
- Urgency: high for a reminder (the deadline is near), normal for a turn, low for the rest;
- Topic: one per game and seat, so a push waiting at the push service for a phone that is off is
  replaced by the newer one (and the worker's outbox replaces its waiting ones likewise).
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from .keys import b64url

# The reason of a change (or the clock) -> the push's kind; a game's start and a table's deal tell nothing.
KINDS = {"turn": "turn", "hand_end": "hand_end", "match_end": "match_end", "reminder": "reminder",
         "expired": "expired"}
TITLES = {"turn": "Your turn", "hand_end": "Hand over", "match_end": "Match over",
          "reminder": "Your turn, the deadline is near", "expired": "Time is up"}
URGENCY = {"reminder": "high", "turn": "normal", "hand_end": "normal", "expired": "normal", "match_end": "low"}
UNTIL_DEADLINE = {"turn", "hand_end", "reminder"}  # stale once the deadline they tell has passed


def payload(game_id: str, seat: int, version: int, kind: str, matchup: str, your_turn: bool,
            deadline: datetime | None) -> str:
    """The notification as JSON. A hand's end on the seat's turn says both."""
    title = TITLES[kind]
    if kind == "hand_end" and your_turn:
        title = "Hand over, your turn"
    body = {"title": f"{title}: {matchup}", "kind": kind, "game": game_id, "version": version,
            "your_turn": your_turn, "deadline": deadline.isoformat() if deadline else None,
            "url": f"/play/{game_id}", "tag": f"gin-{game_id}-{seat}"}
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def topic(game_id: str, seat: int) -> str:
    """RFC 8030's Topic: at most 32 characters of base64url; a hash, so it names no game."""
    return b64url(hashlib.sha256(f"gin/{game_id}/{seat}".encode()).digest())[:22]


def urgency(kind: str) -> str:
    return URGENCY.get(kind, "normal")


def ttl(kind: str, deadline: str | None, now: datetime, longest_hours: float) -> int:
    """Seconds the push service keeps the push for a phone that is off."""
    longest = timedelta(hours=longest_hours)
    if kind in UNTIL_DEADLINE and deadline:
        longest = min(longest, datetime.fromisoformat(deadline) - now)
    return max(int(longest.total_seconds()), 0)
