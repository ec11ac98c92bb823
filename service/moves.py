"""The HTTP move (POST /games/{id}/actions) in the statements it needs.

One move is, in one transaction:
  1. the game's lock (BEGIN IMMEDIATE on SQLite; on PostgreSQL a SELECT ... FOR UPDATE of its
     own, see _LOCK_GAME), then one read bringing everything the move reads: the game's row,
     the seat the token opens, both names, the last event number, the latest deal's commitment
     and the revealed deals, the move clock, whether the change hooks have work (anyone to
     tell, a seat bound to a player), whether the game has vacations; with an Idempotency-Key,
     its first answer;
  2. at a hand's end only: the deal revealed, the next one stored;
  3. one events insert (every event of the move, a next hand's deal included);
  4. the games UPDATE, versioned (WHERE version = <read>) as store._save's, whose RETURNING sends
     PostgreSQL's wake-up NOTIFY (queued with the transaction, sent at commit only); with it the
     clock's UPDATE (only when a new turn began) and both seats' views (store.envelope plus the
     engine's view): on PostgreSQL the events insert, the clock and the views are data-modifying
     CTEs of that one statement (a round trip each cost more than the statement), on SQLite a
     statement each (the views in one executemany);
and the outbox and players' feeds (through the change hooks) only when the game has contacts or
bound seats, the idempotency record only with a key. Core statements built once and compiled
once per engine (driver_sql); the ORM models stay the one description of the tables. Every other
change (creating, joining, moves by mail, vacations) goes through the store's ORM path, with the
same results: tests/api/test_stored_views.py and tests/api/test_move_statements.py hold the two
together. The statements run as driver SQL (service/driver_sql.py), in a transaction of the move's
own (own_transaction) or, when the move needs the ORM's work, the session's. On PostgreSQL, in its
own transaction, a move is two round trips: BEGIN, the lock and the read in one message; the
write (with the idempotency record, if any) and COMMIT in another, the write failing in the
database if the version it read is no longer the game's (_SAVE_GAME_OR_FAIL).
"""
from __future__ import annotations

import functools
from contextlib import contextmanager
from types import SimpleNamespace

from flask import current_app

from sqlalchemy import Integer, and_, bindparam, case, cast, exists, func, literal_column, select, update
from sqlalchemy.orm.exc import StaleDataError

from . import database, deadlines, deals, driver_sql, fastjson, second_deck, store, wakeup
from .errors import Problem, invalid_token
from .extensions import db
from .models import Game, IdempotencyRecord
from .notify import dispatch
from .notify.models import GameClock, Vacation
from .players import feed
from .players.models import PlayerSeat
from .series import play as series_play
from .rules import Match, action_from_dict
from .tokens import hash_secret

_games, _seats, _events, _deals = store._games, store._seats, store._events, store._deals
_clocks, _vacations, _records = GameClock.__table__, Vacation.__table__, IdempotencyRecord.__table__
CLOCK_FIELDS = ("move_time_hours", "turn_seat", "turn_started_at", "deadline_at", "reminder_at", "reminded",
                "expiry_noticed")
DEAL_FIELDS = ("hand", "deck", "salt", "commitment")


# The change hooks (store.on_change) the move path may skip, each with the SQL truth value under
# which it has work, read in the move's one read; any other hook is always called. dispatch's hook also
# moves the clock: when it is skipped, the move path does that itself (_move_clock).
SKIPPABLE_HOOKS = (
    (dispatch.after_change, dispatch.anyone_to_tell),
    # feed.after_change returns at once when no seat of the game is bound to a player
    (feed.after_change, lambda game_id: exists().where(PlayerSeat.game_id == game_id)),
    # series' hook has work only for a game of a series (when it ends)
    (series_play.after_change, series_play.in_a_series),
)


def _name_of(seat: int):
    named = _seats.alias(f"seat{seat}")  # not the token's seats row, which the outer query joins
    return select(named.c.name).where(named.c.game_id == _games.c.id, named.c.seat == seat).scalar_subquery()


def _revealed_deals(dialect: str):
    """The revealed deals as one JSON array (one value, however many hands were played)."""
    pairs = []
    for name in DEAL_FIELDS:
        value = _deals.c[name]
        if name == "deck" and dialect != "postgresql":
            value = func.json(value)  # SQLite stores JSON as text: embed it as an array, not a string
        pairs += [literal_column(f"'{name}'"), value]
    aggregate = (func.json_agg(func.json_build_object(*pairs)) if dialect == "postgresql"
                 else func.json_group_array(func.json_object(*pairs)))
    return select(aggregate).where(_deals.c.game_id == _games.c.id, _deals.c.revealed).scalar_subquery()


@functools.cache
def _read_statement(dialect: str, with_key: bool):
    latest_deal = select(_deals.c.hand, _deals.c.commitment).where(_deals.c.game_id == _games.c.id) \
        .order_by(_deals.c.hand.desc()).limit(1)
    columns = [
        _games.c.id, _games.c.version, _games.c.state, _seats.c.seat,
        _name_of(0).label("name0"), _name_of(1).label("name1"),
        select(func.max(_events.c.seq)).where(_events.c.game_id == _games.c.id).scalar_subquery().label("last_seq"),
        latest_deal.with_only_columns(_deals.c.hand).scalar_subquery().label("latest_hand"),
        latest_deal.with_only_columns(_deals.c.commitment).scalar_subquery().label("latest_commitment"),
        _revealed_deals(dialect).label("revealed"),
        _clocks.c.game_id.label("clock_game"), *(_clocks.c[name] for name in CLOCK_FIELDS),
        *(wanted(_games.c.id).label(f"hook{n}_wanted") for n, (_, wanted) in enumerate(SKIPPABLE_HOOKS)),
        exists().where(_vacations.c.game_id == _games.c.id).label("has_vacations"),
    ]
    tables = (_games.join(_seats, _seats.c.game_id == _games.c.id)
              .outerjoin(_clocks, _clocks.c.game_id == _games.c.id))
    if with_key:  # the seat's first answer under this key, if any (unique on game, seat, key)
        tables = tables.outerjoin(_records, and_(_records.c.game_id == _games.c.id, _records.c.seat == _seats.c.seat,
                                                 _records.c.key == bindparam("key")))
        columns += [_records.c.request_hash, _records.c.status.label("answer_status"),
                    _records.c.response.label("answer"), _records.c.version.label("answer_version")]
    return select(*columns).select_from(tables).where(_games.c.id == bindparam("game"), store._TOKEN_OPENS_SEAT)


# PostgreSQL takes the row lock in a statement of its own, before the read: a statement that
# waited for a lock still reads every row but the locked one as of its start (READ COMMITTED),
# so the last event number, the clock or a key's first answer could be the previous move's.
# SQLite's writers hold the write lock from BEGIN IMMEDIATE on: the read alone is enough there.
_LOCK_GAME = (select(_games.c.id).select_from(_games.join(_seats, _seats.c.game_id == _games.c.id))
              .where(_games.c.id == bindparam("game"), store._TOKEN_OPENS_SEAT).with_for_update(of=_games))


_REVEAL_DEAL = (update(_deals).where(_deals.c.game_id == bindparam("game"), _deals.c.hand == bindparam("ended_hand"))
                .values(revealed=True).returning(*(_deals.c[name] for name in DEAL_FIELDS)))
_INSERT_DEAL = _deals.insert()
_SAVE_CLOCK = (update(_clocks).where(_clocks.c.game_id == bindparam("game"))
               .values({name: bindparam(f"new_{name}") for name in CLOCK_FIELDS if name != "move_time_hours"}))
_INSERT_RECORD = _records.insert()
_STORE_BOTH_VIEWS = (update(_seats).where(_seats.c.game_id == bindparam("game"))
                     .values(view_version=bindparam("new_version"),
                             view_body=case((_seats.c.seat == 0, bindparam("view0")), else_=bindparam("view1"))))


class NeedsSession(Exception):
    """The move needs the session's ORM work (see needs_session): make it in a session transaction."""


@contextmanager
def own_transaction():
    """A move's transaction on a pooled DBAPI connection of its own, without the session (whose
    begin and commit cost more than the statements): BEGIN IMMEDIATE on SQLite; on PostgreSQL
    BEGIN sent with the first statements and COMMIT with the last writes (Driver.own_transaction);
    committed when the block ends, rolled back if it raised; the wake-up sent after the commit, as
    the session's after_commit listener sends it (service/wakeup.py)."""
    engine = db.engine
    pooled = engine.raw_connection()
    connection = driver_sql.Driver(pooled.dbapi_connection, engine, pooled=pooled)
    connection.pending = {}
    driver_error = engine.dialect.loaded_dbapi.Error
    try:
        if engine.dialect.name == "sqlite":
            try:
                database.begin_immediate(connection.raw, current_app.config["SQLITE_BUSY_TIMEOUT"])
            except driver_error as exc:  # still locked after the busy timeout: answered 503
                raise connection.wrapped(exc, "BEGIN IMMEDIATE") from exc
        else:  # BEGIN goes with the lock and the read, COMMIT with the write (driver_sql.Driver.write)
            connection.own_transaction()
        try:
            yield connection
            connection.commit()
        except BaseException as exc:
            connection.rollback()
            if isinstance(exc, driver_error):  # the commit's
                raise connection.wrapped(exc, "COMMIT") from exc
            raise
    finally:
        connection.release()  # back to the pool (which rolls back whatever is left open)
    if connection.pending:
        wakeup.hub().publish(connection.pending)


def needs_session(row, body) -> bool:
    """Whether the move does work that goes through the session (the ORM): the change hooks
    (anyone to tell, a bound seat, a series), a table's move, a claim on time, a second-deck knock
    card, a clock paused by vacations. Asked before the move writes anything."""
    state = row.state
    if state is None:  # refused by play, before it writes
        return False
    return (store.is_table_state(state) or _is_claim(body)
            or second_deck.uses_second_deck(state["rules"])
            or any(_wanted(hook, row) for hook in store.change_hooks())
            or (row.has_vacations and row.clock_game is not None))


def _is_claim(body) -> bool:
    return isinstance(body, dict) and body.get("type") == "claim_timeout" and len(body) == 1


def lock(connection, game_id: str, token: str, key: str | None):
    """The row of everything the move reads, the game locked until the transaction ends."""
    if not store.could_be_game_id(game_id):
        raise invalid_token()
    params = {"game": game_id, "token_hash": hash_secret(token)}
    if key is not None:
        params["key"] = key
    dialect = connection.dialect.name
    read = _read_statement(dialect, key is not None)
    if dialect == "postgresql":  # one round trip (with the transaction's BEGIN): driver_sql.Driver.together
        locked, rows = connection.together([(_LOCK_GAME, params), (read, params)])
    else:
        locked, rows = True, connection.execute(read, params).all()
    if not locked or not rows:
        raise invalid_token()
    return rows[0]


def earlier_answer(row, key: str | None, body) -> tuple[dict, int, int] | None:
    """(answer, status, version) stored for this seat's first request with this key, if any."""
    if key is None or row.request_hash is None:
        return None
    if row.request_hash != store.body_hash(body):
        raise Problem("idempotency-key-reused",
                      "this Idempotency-Key was used for a different request; use a new key per action")
    return row.answer, row.answer_status, row.answer_version


def play(connection, row, body) -> tuple[int, dict, str]:
    """Apply the action for the row's seat and record it with everything that follows (as
    store.play does). Returns the new version, the seat's new view and its JSON text."""
    if row.state is None:
        raise Problem("game-not-started", "the game starts when every seat is taken with its invite code")
    if store.is_table_state(row.state):  # three or four seats: the store's path (table_games.py)
        return store.play_table(row.id, row.seat, body)
    match, seat, moment = Match.from_dict(row.state), row.seat, deadlines.now()
    if _is_claim(body):
        events = deadlines.claim_timeout(row.id, match, seat, moment)
    else:
        events = match.apply(seat, action_from_dict(body))

    revealed = _revealed(row.revealed)
    commitment = row.latest_commitment if row.latest_hand == match.hand_number else None
    if match.needs_deal or match.is_over:  # the hand is over: its deck is shown to both
        ended = {"game": row.id, "ended_hand": match.hand_number}
        revealed += [tuple(d) for d in connection.execute(_REVEAL_DEAL, ended).all()]
    knock_decks = second_deck.uses_second_deck(match.rules)
    if knock_decks and match.is_over:
        second_deck.reveal_all(row.id)
    rows = store.event_rows(row.id, row.last_seq or 0, events, action=body)
    for hand, deck, salt, dealt in store.deal_until_playable(match, row.id):  # more than one after a misdeal
        commitment = deals.commitment(salt, deck)
        dealt_row = {"game_id": row.id, "hand": hand, "deck": deck, "salt": salt, "commitment": commitment,
                     "revealed": hand != match.hand_number, "created_at": store.utcnow()}
        connection.write(_INSERT_DEAL, dealt_row, tuple(dealt_row))
        rows += store.event_rows(row.id, rows[-1]["seq"], dealt)
        events = [*events, *dealt]
        if hand != match.hand_number:  # misdealt: over already, its deck shown with this change
            revealed.append(tuple({"hand": hand, "deck": deck, "salt": salt, "commitment": commitment}[name]
                                  for name in DEAL_FIELDS))
    hooks = [hook for hook in store.change_hooks() if _wanted(hook, row)]
    # On PostgreSQL, with no hook to see them first, the events ride in the games UPDATE (_save)
    folded = rows if connection.dialect.name == "postgresql" and not hooks else None
    if folded is None:
        connection.executemany(store._INSERT_EVENT, rows)
    recorded = [{"seq": r["seq"], **event} for r, event in zip(rows, events)]

    version, status = row.version + 1, store.FINISHED if match.is_over else store.ACTIVE
    clock = None
    if dispatch.after_change not in hooks:  # no one to tell: of dispatch's work, only the clock is left
        deadline, clock = _move_clock(row, match, seat, recorded, moment)
    if hooks:  # they work on the ORM objects, loaded after the game's UPDATE; the views come after them
        _save(connection, row, match, version, status, clock)
        game = db.session.get(Game, row.id, populate_existing=True)
        for hook in hooks:
            hook(game, match, seat, recorded)
        if dispatch.after_change in hooks:
            deadline = deadlines.deadline_of(row.id)

    common = store.envelope(row.id, version, status, [(0, row.name0), (1, row.name1)], deadline, commitment, revealed)
    if knock_decks:
        common.update(second_deck.view_part(row.id))
    views = {each: {**common, **view} for each, view in match.views().items()}
    texts = {each: store.view_text(view) for each, view in views.items()}
    if hooks:
        connection.executemany(store._STORE_VIEW, [{"game": row.id, "which": each, "version": version, "body": text}
                                                   for each, text in texts.items()])
    else:
        _save(connection, row, match, version, status, clock, texts, folded)
    return version, views[seat], texts[seat]


def remember_answer(connection, row, key: str | None, body, version: int, view: dict) -> None:
    if key is not None:
        record = {"game_id": row.id, "seat": row.seat, "key": key, "request_hash": store.body_hash(body),
                  "status": 200, "response": view, "version": version, "created_at": store.utcnow()}
        connection.write(_INSERT_RECORD, record, tuple(record))


def driver() -> driver_sql.Driver:
    """Driver SQL on the session's connection: the same transaction as the ORM's work (the hooks)."""
    connection = db.session.connection()
    return driver_sql.Driver(connection.connection.dbapi_connection, db.engine, connection)


def _wanted(hook, row) -> bool:
    column = _WANTED_COLUMNS.get(hook)
    return True if column is None else bool(getattr(row, column))


# The read's column saying whether each skippable hook has work, by hook.
_WANTED_COLUMNS = {hook: f"hook{n}_wanted" for n, (hook, _) in enumerate(SKIPPABLE_HOOKS)}


def _revealed(aggregated) -> list[tuple]:
    found = fastjson.deserialize(aggregated) if isinstance(aggregated, str) else aggregated or []
    return [tuple(deal[name] for name in DEAL_FIELDS) for deal in sorted(found, key=lambda deal: deal["hand"])]


def _save(connection, row, match: Match, version: int, status: str, clock: dict | None,
          texts: dict[int, str] | None = None, events: list[dict] | None = None) -> None:
    """The games UPDATE (versioned, with the wake-up), the clock's when `clock` holds its new
    values, the views when `texts` holds them and the event rows in `events` (PostgreSQL only).
    On PostgreSQL one statement: the others ride along as data-modifying CTEs, which run whatever
    the main UPDATE matched (a version mismatch raises below, and the transaction is rolled
    back). On SQLite, one statement each."""
    params = {"game": row.id, "read": row.version, "new_version": version, "new_state": match.to_dict(),
              "new_first_dealer": match.first_dealer, "new_to_move": match.to_move, "new_status": status,
              "new_updated_at": store.utcnow(), **(clock or {})}
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
        changed = connection.execute(store._SAVE_GAME, params).rowcount
        if clock is not None:
            connection.execute(_SAVE_CLOCK, params)
        if texts is not None:
            connection.executemany(store._STORE_VIEW, [{"game": row.id, "which": each, "version": version,
                                                        "body": text} for each, text in texts.items()])
    if changed != 1:  # cannot happen under the row lock; the version check guards it anyway
        raise StaleDataError(f"game {row.id} changed while it was locked (version {row.version})")


# The games UPDATE whose version check fails the statement: sent with its COMMIT (Driver.write),
# a mismatch must stop the COMMIT, which then never runs (the message's statements after an error
# are skipped). PostgreSQL has no RAISE outside PL/pgSQL: a cast that fails on purpose does it.
_SAVE_GAME_OR_FAIL = (update(_games).where(
    _games.c.id == bindparam("game"),
    cast(case((_games.c.version == bindparam("read"), "1"), else_="stale game version"), Integer) == 1)
    .values(store._SAVED_COLUMNS))


@functools.cache
def _save_statement(with_clock: bool, with_views: bool, event_keys: tuple[str, ...] = (), events: int = 0,
                    fail_if_stale: bool = False):
    statement = _SAVE_GAME_OR_FAIL if fail_if_stale else store._SAVE_GAME
    if events:
        statement = statement.add_cte(driver_sql.multi_row_insert(store._INSERT_EVENT, event_keys, events)
                                      .cte("recorded_events"))
    if with_clock:
        statement = statement.add_cte(_SAVE_CLOCK.cte("moved_clock"))
    if with_views:
        statement = statement.add_cte(_STORE_BOTH_VIEWS.cte("stored_views"))
    return statement.returning(wakeup.NOTIFY_CALL)


def _move_clock(row, match: Match, seat: int, recorded: list[dict], moment) -> tuple:
    """dispatch.after_change's clock work, for a game with no one to tell: the new deadline, and
    the clock's new values for _SAVE_CLOCK (None when it did not change)."""
    if row.clock_game is None:
        return None, None
    clock = SimpleNamespace(game_id=row.id, **{name: getattr(row, name) for name in CLOCK_FIELDS})
    hand_dealt = any(event["type"] == "deal" for event in recorded)
    new_turn = match.to_move is not None and (match.to_move != seat or hand_dealt)
    pauses = None if row.has_vacations else []  # read only when the game has any
    changed = deadlines.advance(clock, match.to_move, new_turn, moment, pauses)
    values = {f"new_{name}": getattr(clock, name) for name in CLOCK_FIELDS if name != "move_time_hours"}
    return deadlines.as_utc(clock.deadline_at), values if changed else None
