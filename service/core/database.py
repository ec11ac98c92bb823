"""Database plumbing: SQLite's locking set-up, the migration check, the health ping."""
from __future__ import annotations

import os
import random
import sqlite3
import time

from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory
from sqlalchemy import column, event, inspect, table, text
from sqlalchemy.exc import DBAPIError, OperationalError, ProgrammingError

from . import driver_sql
from .extensions import db

READ_ONLY = "gin_read_only"  # execution option: a SQLite read may begin DEFERRED


def close_session_safely(app) -> None:
    """Close each request's session in a teardown that cannot fail the answer.

    Flask-SQLAlchemy's own teardown rolls the session back on its connection; when the database
    closed that connection meanwhile (a restart, a failover, pg_terminate_backend), the ROLLBACK
    raises after the answer was made, and gunicorn replaces it with an HTML 500. Registered after
    db.init_app, this teardown runs first (Flask runs them in reverse): a failed close invalidates
    the connection instead (the pool replaces it; nothing was committed) and clears the session,
    so that the extension's teardown finds nothing left to close.
    """
    @app.teardown_appcontext
    def _close(_exc):
        session = db.session
        if not session.registry.has():
            return
        try:
            session.registry().close()
        except DBAPIError:
            app.logger.warning("the database connection was lost as the request ended; it is discarded")
            session.registry().invalidate()
        finally:
            session.registry.clear()


def configure_sqlite(engine, busy_timeout: float) -> None:
    """Make SQLite serialise writers instead of losing updates.

    SQLite ignores SELECT ... FOR UPDATE, and Python's sqlite3 driver begins transactions lazily
    (at the first write), so two requests could both read version 5 and both write. Instead we turn
    the driver's own transaction handling off and begin every writing transaction with
    BEGIN IMMEDIATE, which takes the database's write lock up front: the second writer waits
    (busy_timeout) and then reads what the first one committed. WAL lets readers go on meanwhile.
    """

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # no implicit BEGIN from the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints; safe with WAL
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection):
        raw = connection.connection.dbapi_connection
        if raw.in_transaction:  # a move's own transaction, begun on the wire, which the ORM joins
            return
        if connection.get_execution_options().get(READ_ONLY):
            raw.execute("BEGIN")
        else:
            begin_immediate(raw, busy_timeout)


def configure_postgresql(engine, transaction_pooling: bool = False) -> None:
    """Compress long values (a game's state, the stored views: about 2 KB of JSON each, written
    with every move) with LZ4 rather than PostgreSQL's default pglz, several times slower: about
    an eighth of the server's CPU per move (bench/README.md). A session setting, so that nothing in
    the schema depends on it: a server without LZ4 (built without it, or before 14) keeps pglz.

    psycopg prepares nothing by itself here: it deallocates all of a connection's prepared
    statements at every rollback (DEALLOCATE ALL), which would drop the move's and the view
    read's named statements too (service/core/driver_sql.py prepares those, once per connection).

    Through a pooler in transaction mode (DB_TRANSACTION_POOLING) a session is not the server's:
    no statement is prepared by name, and the compression is the database's to set
    (`ALTER DATABASE gin SET default_toast_compression = 'lz4'`, docs/operations.md)."""
    if transaction_pooling:
        driver_sql.prepare_nothing(engine)

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.prepare_threshold = None
        if transaction_pooling:
            return
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SET default_toast_compression = 'lz4'")
            dbapi_connection.commit()
        except engine.dialect.loaded_dbapi.Error:
            if dbapi_connection.broken:  # cut while connecting: a failed connect, not a server without LZ4
                raise
            dbapi_connection.rollback()


def begin_immediate(raw, timeout: float) -> None:
    """BEGIN IMMEDIATE, tried again in steps of a fraction of a millisecond while another writer
    holds the lock, for up to `timeout` seconds. SQLite's own busy handler sleeps 1, 2, 5, 10,
    15, 20, 25 ... ms between tries; a move holds the lock for about a millisecond, so waiters
    slept long past its release and the CPUs stood a third idle under load (bench/README.md)."""
    raw.execute("PRAGMA busy_timeout=0")  # we wait here, in finer steps
    try:
        give_up, pause = time.monotonic() + timeout, 0.0002
        while True:
            try:
                raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= give_up:
                    raise
            time.sleep(pause * random.uniform(0.5, 1.5))  # jitter: waiters do not retry in step
            pause = min(pause * 1.5, 0.005)
    finally:
        raw.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")  # for the transaction's own statements


def begin_read_only() -> None:
    """Start the request's transaction as a plain read (no write lock on SQLite)."""
    db.session.connection(execution_options={READ_ONLY: True})


def migration_heads(directory: str) -> set[str]:
    config = AlembicConfig()
    config.set_main_option("script_location", directory)
    return set(ScriptDirectory.from_config(config).get_heads())


# Every revision the schema includes (migrations/env.py rewrites it after each step): with it, code
# whose head the database has passed knows the schema was migrated past it, not elsewhere.
REVISIONS_TABLE = "schema_revisions"
_REVISIONS = table(REVISIONS_TABLE, column("revision"))


def record_revisions(ctx, step, heads, run_args) -> None:
    """Alembic's on_version_apply: schema_revisions := the revisions from the base to the heads
    this step leaves (nothing before the migration that makes the table, nor in --sql mode)."""
    if ctx.as_sql or not inspect(ctx.connection).has_table(REVISIONS_TABLE):
        return
    destination = step.destination_revision_ids
    included = {each.revision for each in step.revision_map.iterate_revisions(destination, "base")} \
        if destination else set()
    ctx.connection.execute(_REVISIONS.delete())
    if included:
        ctx.connection.execute(_REVISIONS.insert(), [{"revision": each} for each in sorted(included)])


def schema_found() -> tuple[set[str], set[str]]:
    """(the heads alembic_version holds, the revisions schema_revisions says the schema includes),
    each empty when its table is missing. Read directly: alembic's MigrationContext logs two lines at
    INFO each time (and /ready asks at every probe)."""
    found = _column("SELECT version_num FROM alembic_version")
    return found, _column(f"SELECT revision FROM {REVISIONS_TABLE}") if found else set()


def _column(sql: str) -> set[str]:
    """The values of a one-column query; none when its table does not exist (yet)."""
    try:
        with _reading() as connection:
            return set(connection.execute(text(sql)).scalars())
    except ProgrammingError:  # PostgreSQL: undefined table
        return set()
    except OperationalError as exc:
        if "no such table" in str(exc):  # SQLite's way of saying it
            return set()
        raise


def serves(expected_heads: set[str], found: set[str], included: set[str]) -> bool:
    """Whether code at `expected_heads` may serve a schema at `found`: the same, or migrated past
    them (its schema includes them, and migrations only expand what the code before them uses:
    docs/operations.md, "Upgrades without downtime")."""
    return found == expected_heads or (bool(found) and expected_heads <= included)


def schema_problem(expected_heads: set[str]) -> str | None:
    """None when the code may serve the database's schema (at its migration head, or migrated past
    it), else what to do about it."""
    found, included = schema_found()
    if serves(expected_heads, found, included):
        return None
    where = db.engine.url.render_as_string(hide_password=True)
    named = ", ".join(sorted(found)) or "no migrations at all"
    return (f"the database {where} is not migrated (found {named}; the code needs "
            f"{', '.join(sorted(expected_heads))}): run `flask --app service db upgrade` first")


def ping() -> str:
    with _reading() as connection:
        connection.execute(text("SELECT 1"))
    return db.engine.dialect.name


def _reading():
    return db.engine.connect().execution_options(**{READ_ONLY: True})


def default_migrations_directory() -> str:
    """migrations/ at the top of the repository (service/core/database.py is three levels down)."""
    here = os.path.abspath(__file__)
    return os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(here))), "migrations")
