"""The move path: every move of every game, two seats or a table, by HTTP or by mail, and the join
that deals the first hand, is recorded by one function (`record`), in the statements it needs.

A change is, in one transaction:
  1. the game's lock (BEGIN IMMEDIATE on SQLite; on PostgreSQL a SELECT ... FOR UPDATE of its
     own), then one read bringing everything the move reads (move_reads.py): the game's row,
     the seat, the names, the last event number, the deals' commitments, the move clock, whether
     each change hook has work, whether the game has vacations; with an Idempotency-Key, its
     first answer;
  2. at a hand's end only: the deal revealed, the next one stored;
  3. one events insert (every event of the move, a next hand's deal included);
  4. the games UPDATE, versioned (WHERE version = <read>), whose RETURNING sends PostgreSQL's
     wake-up NOTIFY (queued with the transaction, sent at commit only); with it the clock's
     UPDATE (only when a new turn began) and every seat's view (move_writes.py): on PostgreSQL
     one statement, the others its data-modifying CTEs; on SQLite a statement each.
The change hooks (games.changes: the outbox's mails and webhooks, players' streams, a series'
next game) run only when the read found they have work, after the game's UPDATE and before the
views; the idempotency record goes with a key. Core statements built once and compiled once per
engine (core/driver_sql.py); the ORM models stay the one description of the tables.

One seam, documented here: the transaction is the move's own, on a pooled connection outside the
session (own_transaction: on PostgreSQL two round trips, BEGIN with the lock and the read, the
write with COMMIT, the write failing in the database if the version it read is stale), unless
the move needs the ORM's work (move_reads.needs_session: a hook with work, a table's clocks, a
claim, a second-deck knock card, vacations); then the route makes the same move again in the
session's transaction (NeedsSession), where moves by mail and joins always are (driver()).
"""
from __future__ import annotations

import json
from contextlib import contextmanager

from flask import current_app

from ..core import database, driver_sql, metrics, wakeup
from ..core.errors import Problem
from ..core.extensions import db
from ..rules import action_from_dict
from . import changes, clocks, deadlines, deals, move_reads, move_writes, second_deck, store, views
from .models import Game, utcnow
from .move_reads import is_claim
from .table_game import TableGame


class NeedsSession(Exception):
    """The move needs the session's ORM work (see needs_session): make it in a session transaction."""


@contextmanager
def own_transaction():
    """A move's transaction on a pooled DBAPI connection of its own, without the session (whose
    begin and commit cost more than the statements): BEGIN IMMEDIATE on SQLite; on PostgreSQL
    BEGIN sent with the first statements and COMMIT with the last writes (Driver.own_transaction);
    committed when the block ends, rolled back if it raised; the wake-up sent after the commit, as
    the session's after_commit listener sends it (service/core/wakeup.py)."""
    engine = db.engine
    pooled = driver_sql.checkout(engine)
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


def play(connection, row, body) -> tuple[int, dict, str]:
    """Apply the action (the engine's JSON form, or claim_timeout) for the row's seat and record it
    with everything that follows. Returns the new version, the seat's new view and its JSON text."""
    if row.state is None:
        raise Problem("game-not-started", "the game starts when every seat is taken with its invite code")
    match, moment = store.match_from_state(row.state), deadlines.now()
    if is_claim(body):
        events = clocks.claim_timeout(row.id, match, row.seat, moment)
    else:
        events = match.apply(row.seat, action_from_dict(body))
    recorded = record(connection, row, match, row.seat, body, events, moment)
    metrics.move(body.get("type", "unknown"))
    return recorded


def record(connection, row, match, actor: int | None, action, events: list[dict], moment) -> tuple[int, dict, str]:
    """Store a change the engine made (`events`, by `actor`; actor None: the join that deals the
    first hand, which happened to a match that was not stored yet) with everything that follows:
    the hands that ended revealed, the next hand dealt and committed to, the events, the move
    clock, the game's row under its version check, the change hooks, every seat's view. Returns
    the new version, the row's seat's view and its JSON text."""
    table = isinstance(match, TableGame)
    knock_decks = second_deck.uses_second_deck(match.rules)
    revealed, commitment, rows, events = _hands(connection, row, match, action, events)
    hooks = move_reads.hooks_wanted(row)
    # On PostgreSQL, with no hook to see them first, the events ride in the games UPDATE (save)
    folded = rows if connection.dialect.name == "postgresql" and not hooks and not table else None
    if folded is None:
        connection.executemany(move_writes.INSERT_EVENT, rows)
    recorded = [{"seq": r["seq"], **event} for r, event in zip(rows, events)]

    version, status = row.version + 1, store.FINISHED if match.is_over else store.ACTIVE
    deadline, clock = (None, None) if table else move_writes.move_clock(row, match, actor, recorded, moment)
    if hooks or table:  # the ORM's work, on the game loaded after its UPDATE; the views come after it
        move_writes.save(connection, row, match, version, status, clock)
        game = db.session.get(Game, row.id, populate_existing=True)
        if table:  # every seat to move has a clock of its own (table_clocks.py)
            clocks.after_change(row.id, match, actor, recorded, moment)
        changes.after_change(game, match, actor, recorded, hooks)
        if table:
            text = views.publish_views(game, match)[row.seat]
            return version, json.loads(text), text

    common = views.envelope(row.id, version, status, [(0, row.name0, row.level0), (1, row.name1, row.level1)], deadline, commitment, revealed,
                            kind="game")
    if knock_decks:
        common.update(second_deck.view_part(row.id))
    seat_views = {each: {**common, **view} for each, view in match.views().items()}
    texts = {each: views.view_text(view) for each, view in seat_views.items()}
    if hooks:
        connection.executemany(views.STORE_VIEW, [{"game": row.id, "which": each, "version": version, "body": text}
                                                   for each, text in texts.items()])
    else:
        move_writes.save(connection, row, match, version, status, clock, texts, folded)
    return version, seat_views[row.seat], texts[row.seat]


def _hands(connection, row, match, action, events: list[dict]) -> tuple[list[tuple], str | None, list[dict], list]:
    """The hands this change ended revealed, the next ones dealt (several after a misdeal) and the
    events' rows numbered: (the revealed deals, the current hand's commitment, the rows, the
    events with the deals')."""
    revealed = move_reads.revealed_of(row.revealed)
    commitment = row.latest_commitment if row.latest_hand == match.hand_number else None
    ended = [] if row.state is None else match.take_ended() if isinstance(match, TableGame) else \
        [match.hand_number] if match.needs_deal or match.is_over else []
    for hand in ended:  # those hands are over: their decks are shown to every seat
        shown = connection.execute(move_writes.REVEAL_DEAL, {"game": row.id, "ended_hand": hand}).all()
        revealed += [tuple(deal) for deal in shown]
    if match.is_over and second_deck.uses_second_deck(match.rules):
        second_deck.reveal_all(row.id)
    rows = move_writes.event_rows(row.id, row.last_seq or 0, events, action=action)
    for hand, deck, salt, dealt in move_writes.deal_until_playable(match, row.id):
        commitment = deals.commitment(salt, deck)
        over = views.over_already(match, hand)  # misdealt: over already, its deck shown with this change
        dealt_row = {"game_id": row.id, "hand": hand, "deck": deck, "salt": salt, "commitment": commitment,
                     "revealed": over, "created_at": utcnow()}
        connection.write(move_writes.INSERT_DEAL, dealt_row, tuple(dealt_row))
        rows += move_writes.event_rows(row.id, rows[-1]["seq"] if rows else row.last_seq or 0, dealt)
        events = [*events, *dealt]
        if over:
            revealed.append((hand, deck, salt, commitment))
    return revealed, commitment, rows, events


def driver() -> driver_sql.Driver:
    """Driver SQL on the session's connection: the same transaction as the ORM's work (the hooks)."""
    connection = db.session.connection()
    return driver_sql.Driver(connection.connection.dbapi_connection, db.engine, connection)


