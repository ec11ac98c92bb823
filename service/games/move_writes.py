"""What a move writes: the hand that ended revealed, the next deal, the events, the game's row
under its version check with the clock and every seat's view, the idempotency record. On
PostgreSQL the events, the clock and the views ride in the games UPDATE as data-modifying CTEs
(a round trip each cost more than the statement), on SQLite they are a statement each."""
from __future__ import annotations

import functools
from types import SimpleNamespace

from sqlalchemy import Integer, bindparam, case, cast, update
from sqlalchemy.orm.exc import StaleDataError

from ..core import driver_sql, wakeup
from ..rules import Match
from . import deadlines, deals, second_deck, store, views
from .models import Deal, Event, Game, GameClock, IdempotencyRecord, Seat, utcnow
from .move_reads import CLOCK_FIELDS, DEAL_FIELDS
from .table_game import TableGame

_games, _seats, _events, _deals = Game.__table__, Seat.__table__, Event.__table__, Deal.__table__
_clocks, _records = GameClock.__table__, IdempotencyRecord.__table__

SAVED_COLUMNS = {name: bindparam(f"new_{name}") for name in
                 ("version", "state", "first_dealer", "to_move", "status", "updated_at")}
SAVE_GAME = (update(_games).where(_games.c.id == bindparam("game"), _games.c.version == bindparam("read"))
             .values(SAVED_COLUMNS))
INSERT_EVENT = _events.insert()
REVEAL_DEAL = (update(_deals).where(_deals.c.game_id == bindparam("game"), _deals.c.hand == bindparam("ended_hand"))
               .values(revealed=True).returning(*(_deals.c[name] for name in DEAL_FIELDS)))
INSERT_DEAL = _deals.insert()
_SAVE_CLOCK = (update(_clocks).where(_clocks.c.game_id == bindparam("game"))
               .values({name: bindparam(f"new_{name}") for name in CLOCK_FIELDS if name != "move_time_hours"}))


_INSERT_RECORD = _records.insert()


_STORE_BOTH_VIEWS = (update(_seats).where(_seats.c.game_id == bindparam("game"))
                     .values(view_version=bindparam("new_version"),
                             view_body=case((_seats.c.seat == 0, bindparam("view0")), else_=bindparam("view1"))))


def remember_answer(connection, row, key: str | None, body, version: int, view: dict) -> None:
    if key is not None:
        record = {"game_id": row.id, "seat": row.seat, "key": key, "request_hash": store.body_hash(body),
                  "status": 200, "response": view, "version": version, "created_at": utcnow()}
        connection.write(_INSERT_RECORD, record, tuple(record))


def save(connection, row, match: Match, version: int, status: str, clock: dict | None,
         texts: dict[int, str] | None = None, events: list[dict] | None = None) -> None:
    """The games UPDATE (versioned, with the wake-up), the clock's when `clock` holds its new
    values, the views when `texts` holds them and the event rows in `events`. On PostgreSQL one
    statement: the others ride along as data-modifying CTEs, which run whatever the main UPDATE
    matched (a version mismatch raises below, and the transaction is rolled back). On SQLite (and
    on PostgreSQL for a second change to the game in one transaction, whose NOTIFY went out with
    the first), one statement each."""
    params = {"game": row.id, "read": row.version, "new_version": version, "new_state": match.to_dict(),
              "new_first_dealer": match.first_dealer, "new_to_move": match.to_move, "new_status": status,
              "new_updated_at": utcnow(), **(clock or {})}
    payload = wakeup.game_changed_payload(row.id, version, connection.pending)  # its waiters wake at the commit
    if payload is not None:  # PostgreSQL
        event_keys = tuple(events[0]) if events else ()
        deferred = connection.deferred is not None  # sent with the COMMIT: the version checked in SQL
        statement = _save_statement(clock is not None, texts is not None, event_keys, len(events or ()), deferred)
        params = {**params, "wakeup_payload": payload, **({"view0": texts[0], "view1": texts[1]} if texts else {}),
                  **driver_sql.multi_row_params(events or [], event_keys)}
        if deferred:
            connection.write(statement, params)
            return
        changed = len(connection.execute(statement, params).all())
    else:
        if events:
            connection.executemany(INSERT_EVENT, events)
        changed = connection.execute(SAVE_GAME, params).rowcount
        if clock is not None:
            connection.execute(_SAVE_CLOCK, params)
        if texts is not None:
            connection.executemany(views.STORE_VIEW, [{"game": row.id, "which": each, "version": version,
                                                        "body": text} for each, text in texts.items()])
    if changed != 1:  # cannot happen under the row lock; the version check guards it anyway
        raise StaleDataError(f"game {row.id} changed while it was locked (version {row.version})")


# The games UPDATE whose version check fails the statement: sent with its COMMIT (Driver.write),
# a mismatch must stop the COMMIT, which then never runs (the message's statements after an error
# are skipped). PostgreSQL has no RAISE outside PL/pgSQL: a cast that fails on purpose does it.
_SAVE_GAME_OR_FAIL = (update(_games).where(
    _games.c.id == bindparam("game"),
    cast(case((_games.c.version == bindparam("read"), "1"), else_="stale game version"), Integer) == 1)
    .values(SAVED_COLUMNS))


@functools.cache
def _save_statement(with_clock: bool, with_views: bool, event_keys: tuple[str, ...] = (), events: int = 0,
                    fail_if_stale: bool = False):
    statement = _SAVE_GAME_OR_FAIL if fail_if_stale else SAVE_GAME
    if events:
        statement = statement.add_cte(driver_sql.multi_row_insert(INSERT_EVENT, event_keys, events)
                                      .cte("recorded_events"))
    if with_clock:
        statement = statement.add_cte(_SAVE_CLOCK.cte("moved_clock"))
    if with_views:
        statement = statement.add_cte(_STORE_BOTH_VIEWS.cte("stored_views"))
    return statement.returning(wakeup.NOTIFY_CALL)


def move_clock(row, match: Match, seat: int, recorded: list[dict], moment, ordered=()) -> tuple:
    """clocks.after_change's work, on the clock read with the move: the new deadline, and the
    clock's new values for _SAVE_CLOCK (None when it did not change)."""
    if row.clock_game is None:
        return None, None
    clock = SimpleNamespace(game_id=row.id, **{name: getattr(row, name) for name in CLOCK_FIELDS})
    hand_dealt = any(event["type"] == "deal" for event in recorded)
    new_turn = match.to_move is not None and (match.to_move != seat or hand_dealt or match.to_move in ordered)
    pauses = None if row.has_vacations else []  # read only when the game has any
    changed = deadlines.advance(clock, match.to_move, new_turn, moment, pauses)
    values = {f"new_{name}": getattr(clock, name) for name in CLOCK_FIELDS if name != "move_time_hours"}
    return deadlines.as_utc(clock.deadline_at), values if changed else None


def deal_until_playable(match: Match, game_id: str | None = None) -> list[tuple[int, list[str], str, list[dict]]]:
    """Deal (hand number, deck, salt, events) until a hand is under way: a misdeal (a dealt hand
    that could knock, where the rules say so) voids the hand and asks for the next deal at once.
    With a second-deck knock card, each hand's comes from the game's own (service/games/second_deck.py)."""
    dealt = []
    while match.needs_deal:
        deck, salt = deals.shuffled_deck(), deals.new_salt()
        if isinstance(match, TableGame):  # each board waiting for cards, from a deck of its own
            hand, events = match.deal_next(deck)
            dealt.append((hand, deck, salt, events))
            continue
        knock = second_deck.knock_card(game_id, match.hand_number + 1) \
            if second_deck.uses_second_deck(match.rules) else None
        dealt.append((match.hand_number + 1, deck, salt, match.deal(deck, knock)))
    return dealt


def event_rows(game_id: str, last: int, events: list[dict], action: dict | None = None) -> list[dict]:
    """The events table's rows for `events`, numbered after event `last`; the action that caused
    them goes on the first one."""
    moment = utcnow()
    return [{"game_id": game_id, "seq": last + offset, "seat": event.get("seat"), "type": event["type"],
             "hand": event.get("hand"), "payload": event, "action": action if offset == 1 else None,
             "created_at": moment} for offset, event in enumerate(events, start=1)]
