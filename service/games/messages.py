"""Messages in a game: a seat writes a line of plain text, kept as sent and shown only to the
game's seats (every seat of a table too), never to watchers; nothing of it is ever read as markup.

A message wakes the game's waiters (core/wakeup.game_chatted): the game stream sends it as a
`message` frame (waiting.py) and GET /games/{id}/messages?wait=N answers with it. Features above
hear of it through games.changes: the players' streams (message_posted), and a player who blocked
another sees none of that player's messages (message_hiders), in the listing, the streams and mail.

Each seat may write MESSAGES_PER_SEAT (default "10 per minute") messages: counted in the database
under the game's lock, so it holds across processes and for messages sent by mail (`say`) too.
"""
from __future__ import annotations

import re
import time
import unicodedata
from datetime import timedelta

from limits import parse
from sqlalchemy import func, select

from ..core import wakeup
from ..core.errors import Problem
from ..core.extensions import db
from ..core.settings import register, setting
from . import changes
from .models import GameMessage, Seat, utcnow
from .waiting_slots import slots, take_slot

MAX_LENGTH = 500
register({"MESSAGES_PER_SEAT": "10 per minute"})
# No control characters (C0, DEL, C1: a new line too), line separators or bidirectional overrides:
# a message is shown in pages, terminals and mails, and must not rewrite what is around it.
_NOT_PLAIN = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# Nor characters that show nothing (issue 38): blank-looking fillers, tags (U+E0000..), and format
# characters but the joiner inside an emoji sequence; nor more than MOST_MARKS marks on one letter.
_FILLERS = re.compile("[\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0\U000e0000-\U000e007f]")
MOST_MARKS = 3


def clean(text: str) -> str:
    """The text to store: as sent, less the blanks around it; else a problem naming what is wrong.
    The length and the characters are judged as sent (openapi.yaml says the same, no more)."""
    if len(text) > MAX_LENGTH:
        raise Problem("message-too-long", f"the message has {len(text)} characters, at most {MAX_LENGTH} are taken")
    found = _NOT_PLAIN.search(text)
    if found:
        raise Problem("message-not-plain", f"the message holds a control or direction character "
                                           f"(U+{ord(found.group()):04X}): send one line of plain text")
    _refuse_unseen(text)
    text = text.strip()
    if not text:
        raise Problem("message-empty", "the message is empty (or only blanks): write something")
    return text


def _pictographic(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or 0x1F000 <= ord(char) <= 0x1FAFF


def _joins_pictographs(text: str, at: int) -> bool:
    """The zero-width joiner at `at` joins two pictographs (an emoji sequence such as a family)."""
    before = text[at - 2] if at > 1 and text[at - 1] == "\ufe0f" else text[at - 1] if at else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    return bool(before and after) and _pictographic(before) and _pictographic(after)


def _refuse_unseen(text: str) -> None:
    """Zero-width, format, filler and tag characters, and marks stacked on one letter (a message must
    show what it holds); a zero-width joiner between two pictographs (an emoji family) is taken."""
    found = _FILLERS.search(text)
    char = found.group() if found else next(
        (c for at, c in enumerate(text) if unicodedata.category(c) == "Cf"
         and not (c == "\u200d" and _joins_pictographs(text, at))), None)
    if char is not None:
        raise Problem("message-not-plain", f"the message holds an invisible character (U+{ord(char):04X}: "
                                           "zero-width, format, filler or tag): send plain text")
    marks = 0
    for char in text:
        marks = marks + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if marks > MOST_MARKS:
            raise Problem("message-not-plain", f"the message stacks more than {MOST_MARKS} marks on one letter: "
                                               "send plain text")


def rate() -> tuple[int, int]:
    """MESSAGES_PER_SEAT as (how many, in how many seconds)."""
    item = parse(setting("MESSAGES_PER_SEAT"))
    return item.amount, item.get_expiry()


def _check_rate(game_id: str, seat: int, moment) -> None:
    most, seconds = rate()
    since = moment - timedelta(seconds=seconds)
    written = db.session.scalar(select(func.count()).select_from(GameMessage).where(
        GameMessage.game_id == game_id, GameMessage.seat == seat, GameMessage.created_at > since))
    if written >= most:
        raise Problem("too-many-messages", f"this seat wrote {written} messages in the last {seconds} s, "
                                           f"the most allowed is {most}: wait a little",
                      headers={"Retry-After": str(seconds)})


def post(game, seat: int, text: str, moment=None) -> dict:
    """Store the seat's message, in the caller's transaction (which holds the game's lock)."""
    text = clean(text)
    moment = moment or utcnow()
    _check_rate(game.id, seat, moment)
    row = GameMessage(game_id=game.id, seat=seat, text=text, created_at=moment)
    db.session.add(row)
    db.session.flush()
    message = describe(row, {s.seat: s.name for s in game.seats})
    wakeup.game_chatted(game.id)  # wakes the game's streams and message long-polls: they read the messages
    for hook in changes.message_posted():
        hook(game, message)
    return message


def describe(row, names: dict[int, str | None]) -> dict:
    moment = row.created_at
    return {"id": row.id, "seat": row.seat, "name": names.get(row.seat), "text": row.text,
            "created_at": (moment if moment.tzinfo else moment.replace(tzinfo=utcnow().tzinfo)).isoformat()}


def hidden_from(game_id: str, seat: int) -> set[int]:
    """The seats whose messages `seat` does not see (it blocked their player)."""
    hidden: set[int] = set()
    for hook in changes.message_hiders():
        hidden |= set(hook(game_id, seat))
    return hidden


def page(game_id: str, seat: int, after: int, limit: int) -> dict:
    """The game's messages after id `after` that `seat` may see, oldest first, `limit` at a time."""
    query = select(GameMessage).where(GameMessage.game_id == game_id, GameMessage.id > after)
    hidden = hidden_from(game_id, seat)
    if hidden:
        query = query.where(GameMessage.seat.not_in(hidden))
    rows = db.session.execute(query.order_by(GameMessage.id).limit(limit + 1)).scalars().all()
    names = dict(db.session.execute(select(Seat.seat, Seat.name).where(Seat.game_id == game_id)).all())
    shown = [describe(row, names) for row in rows[:limit]]
    return {"messages": shown, "next_after": shown[-1]["id"] if len(rows) > limit else None}


def newest_id(game_id: str) -> int:
    return db.session.scalar(select(func.max(GameMessage.id)).where(GameMessage.game_id == game_id)) or 0


def wait_for_page(game_id: str, seat: int, after: int, limit: int, seconds: float) -> dict:
    """page(), waiting up to `seconds` for a message when there is none yet (a long-poll): watched
    before the first read (nothing slips in between), the connection given back while it waits,
    read again only when a message woke it (a move's wake-up says no message), not at the timeout."""
    if seconds <= 0:
        return page(game_id, seat, after, limit)
    give_up = time.monotonic() + seconds
    with wakeup.hub().watch(wakeup.game_key(game_id), -1) as waiter:  # -1: no version is its own
        found = page(game_id, seat, after, limit)
        if found["messages"]:
            return found
        db.session.rollback()  # no transaction, no pooled connection held while waiting
        slot = take_slot(wakeup.game_key(game_id))
        try:
            with slot.waiting(-1, waiter):
                while not wakeup.hub().closing and not slot.over:
                    left = give_up - time.monotonic()
                    if left <= 0 or not waiter.wait(left):
                        break
                    if waiter.news()[1]:
                        found = page(game_id, seat, after, limit)
                        db.session.rollback()
                        if found["messages"]:
                            break
        finally:
            slots.give_back(slot)
    return found
