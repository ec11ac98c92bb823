"""A move costs the statements it needs (issue 16), counted by SQLAlchemy's before_cursor_execute
on whichever database the tests run on (PostgreSQL's wake-up NOTIFY included, when it is one).

A draw or a discard without an Idempotency-Key: one locked read, one events insert, one games
UPDATE (the NOTIFY rides in its RETURNING), both views in one executemany, and the move clock's
UPDATE when a new turn began: at most 5. On PostgreSQL the lock is a statement of its own and
the events, views and clock ride in the games UPDATE as data-modifying CTEs: 3. A hand's end adds
the deal revealed and the next one stored; a key adds its record.

On PostgreSQL the statements also travel together: a move is two round trips (BEGIN, the lock and
the read in one message; the write and COMMIT in another), a view's read one; counted on the
wire, in libpq's own trace of the protocol."""
from __future__ import annotations

import tempfile
from collections import defaultdict
from contextlib import contextmanager

import pytest
from sqlalchemy import event
from sqlalchemy.exc import DataError

from service.core.extensions import db
from service.games import move_reads, move_transaction, moves

from .helpers import act, auth, choose, mover, new_game, view

MOST_FOR_DRAW_OR_DISCARD = 5
ON_POSTGRESQL = 3  # the lock, the read, the one write


@contextmanager
def counting(app):
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def kind_of(action: dict, before: dict, after: dict, key: bool) -> str:
    ended = " ending the match" if after["status"] == "finished" else \
        " ending the hand" if after["hand_number"] != before["hand_number"] else ""
    return action["type"] + ended + (" with a key" if key else "")


def play_counting(client, app, game, moves: int, key_every: int = 0) -> dict[str, list[int]]:
    """Statements per move, by kind, over `moves` moves (every `key_every`-th sent with a key)."""
    by_kind = defaultdict(list)
    for n in range(moves):
        seat, mine = mover(client, game)
        if mine["status"] == "finished":
            break
        action = choose(mine)
        key = bool(key_every) and n % key_every == 0
        with counting(app) as statements:
            response = act(client, game, seat, action, **({"Idempotency-Key": f"move-{n}"} if key else {}))
        assert response.status_code == 200, response.get_json()
        by_kind[kind_of(action, mine, response.get_json(), key)].append(len(statements))
    return by_kind


def test_a_draw_or_a_discard_takes_at_most_five_statements(client, app):
    game = new_game(client)
    counts = play_counting(client, app, game, 60)
    assert counts["draw"] and counts["discard"]
    assert max(counts["draw"]) <= MOST_FOR_DRAW_OR_DISCARD, counts
    assert max(counts["discard"]) <= MOST_FOR_DRAW_OR_DISCARD, counts
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        assert max(counts["draw"]) == max(counts["discard"]) == ON_POSTGRESQL, counts


def test_a_key_adds_only_its_record(client, app):
    game = new_game(client)
    plain = play_counting(client, app, game, 30)
    keyed = play_counting(client, app, game, 30, key_every=1)
    for kind in ("draw", "discard"):
        assert max(keyed[f"{kind} with a key"]) <= max(plain[kind]) + 1, (plain, keyed)


MATCH_END_MORE = 3


def test_a_hand_end_adds_the_deals_only(client, app):
    game = new_game(client, rules={"target": 25})
    counts = play_counting(client, app, game, 400)
    ends = [n for kind, values in counts.items() if "ending the hand" in kind for n in values]
    match_ends = [n for kind, values in counts.items() if "ending the match" in kind for n in values]
    assert match_ends, counts  # (a match to 25 may end with its first hand)
    # revealing the deal and storing the next one (a move that also hands the turn over)
    assert max(ends, default=0) <= MOST_FOR_DRAW_OR_DISCARD + 2, counts
    # The match's end reveals the deal too, and queues the match's review (service/coach): its hook
    # reads the seats' players and writes the review's row.
    assert max(match_ends) <= MOST_FOR_DRAW_OR_DISCARD + 2 + MATCH_END_MORE, counts


@contextmanager
def driver_trace(app):
    """Every statement the SQLite driver itself runs (sqlite3's trace callback on each connection
    taken from the pool), whoever sends it, and the executions before_cursor_execute announced
    (an executemany runs once per row)."""
    traced: list[str] = []
    announced: list[int] = []

    def trace_connection(dbapi_connection, _record, _proxy):
        dbapi_connection.set_trace_callback(traced.append)

    def announce(conn, cursor, statement, parameters, context, executemany):
        announced.append(len(parameters) if executemany else 1)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "checkout", trace_connection)
    event.listen(engine, "before_cursor_execute", announce)
    try:
        yield traced, announced
    finally:
        event.remove(engine, "checkout", trace_connection)
        event.remove(engine, "before_cursor_execute", announce)


def test_the_count_sees_every_statement_the_driver_runs(client, app):
    """The counts above come from before_cursor_execute; the move path runs driver SQL, which
    tells those listeners itself (service/core/driver_sql.py). On SQLite the driver's own trace must
    show the same executions, besides the transaction's BEGIN and COMMIT."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("psycopg has no per-statement trace: on PostgreSQL the wire trace below counts")
    game = new_game(client)
    for _ in range(12):
        seat, mine = mover(client, game)
        with driver_trace(app) as (traced, announced):
            assert act(client, game, seat, choose(mine)).status_code == 200
        executed = [s for s in traced if not s.upper().startswith(("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA"))]
        assert len(executed) == sum(announced) >= 3, (executed, announced)


def on_postgresql(app) -> bool:
    return app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")


@contextmanager
def wire_trace(app):
    """The protocol messages libpq sends and receives on every connection taken from the pool
    (PQtrace), as lines: direction, length, message type, contents."""
    from psycopg import pq
    lines: list[str] = []
    with tempfile.TemporaryFile() as trace, app.app_context():
        engine = db.engine

        def start(dbapi_connection, _record, _proxy):
            dbapi_connection.pgconn.trace(trace.fileno())
            dbapi_connection.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)

        def stop(dbapi_connection, _record):
            if dbapi_connection is not None:
                dbapi_connection.pgconn.untrace()  # flushes what it wrote
        event.listen(engine, "checkout", start)
        event.listen(engine, "checkin", stop)
        try:
            yield lines
        finally:
            event.remove(engine, "checkout", start)
            event.remove(engine, "checkin", stop)
            trace.seek(0)
            lines += trace.read().decode().splitlines()


def round_trips(lines: list[str]) -> list[str]:
    """What the client sent in each round trip: a simple query's text, or an extended query's
    messages up to its Sync. A PREPARE (once per statement and connection) is left out."""
    messages: list[str] = []
    for line in lines:  # a message's text may run over several lines
        if line[:2] in ("F\t", "B\t") and line.count("\t") >= 2:
            messages.append(line)
        else:
            messages[-1] += "\n" + line
    trips, extended = [], []
    for message in messages:
        direction, _, kind, *rest = message.split("\t", 3)
        if direction != "F":
            continue
        if kind == "Query":
            if not rest[0].strip().strip('"').startswith("PREPARE"):
                trips.append(rest[0].strip())
        elif kind == "Sync":
            trips.append(" ".join(extended + ["Sync"]))
            extended = []
        else:
            extended.append(kind)
    return trips


def test_on_postgresql_a_move_is_two_round_trips_and_a_view_one(client, app):
    if not on_postgresql(app):
        pytest.skip("SQLite has no round trips: it runs in the worker")
    game = new_game(client)
    seen = set()
    for _ in range(16):
        seat, mine = mover(client, game)
        action = choose(mine)
        with wire_trace(app) as lines:
            assert act(client, game, seat, action).status_code == 200
        trips = round_trips(lines)
        if action["type"] in ("draw", "discard", "pass"):  # (a knock ends the hand: its deals add trips)
            assert len(trips) == 2, trips
            assert trips[0].startswith('"BEGIN; EXECUTE gin_') and trips[0].count("EXECUTE") == 2, trips
            assert trips[1].startswith('"EXECUTE gin_') and trips[1].endswith('; COMMIT"'), trips
            seen.add(action["type"])
        with wire_trace(app) as lines:
            assert client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).status_code == 200
        trips = round_trips(lines)
        assert len(trips) == 1 and trips[0].startswith('"EXECUTE gin_'), trips
    assert {"draw", "discard"} <= seen


def test_a_stale_version_fails_the_write_so_its_commit_never_runs(client, app):
    """Under the row lock the version cannot change; should it, the write sent with the COMMIT
    fails in the database (a version check that raises), and nothing of the move is kept."""
    if not on_postgresql(app):
        pytest.skip("SQLite's writes run one by one, each checked before the commit")
    game = new_game(client)
    seat, mine = mover(client, game)
    events_before = client.get(f"/games/{game['id']}/events", headers=auth(game["tokens"][seat])).get_json()
    with app.app_context(), pytest.raises(DataError, match="stale game version"):
        with move_transaction.move_transaction() as connection:
            row = move_reads.lock(connection, game["id"], game["tokens"][seat], None)
            moves.play(connection, row._replace(version=row.version - 1), choose(mine))
    assert view(client, game, seat) == mine
    assert client.get(f"/games/{game['id']}/events", headers=auth(game["tokens"][seat])).get_json() == events_before
    assert act(client, game, seat, choose(mine)).status_code == 200  # and the game goes on
