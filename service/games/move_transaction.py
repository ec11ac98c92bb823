"""A move's transaction: one, from the game's lock to the commit, never begun twice.

A move asked for over HTTP runs in a transaction of its own on a pooled connection, outside the
session: its statements are driver SQL (core/driver_sql.py), which cost less than the session's
machinery around them. On SQLite it begins with BEGIN IMMEDIATE; on PostgreSQL the BEGIN goes in
one message with the lock and the read, and the COMMIT with the last writes (two round trips).

Whatever in the move still needs the ORM (a hook composing a mail, a table's seat clocks, a claim
on time, a second deck's knock card, vacations) works in that same transaction: for the move's
length the request's session is a JoinedSession bound to the move's connection. It joins the
transaction the first time it is used, and sends the writes held back for the COMMIT before each
of its statements, so that it reads what the move wrote. This is the one seam between driver SQL
and the ORM; a move that needs no ORM never creates a connection for it.

A move made inside a transaction its caller began (a reply by mail, the join that deals the first
hand, a series' next game made by a hook) runs in it, on the session's connection, and the caller
commits.
"""
from __future__ import annotations

from contextlib import contextmanager

from flask import current_app
from flask_sqlalchemy.session import Session

from ..core import database, driver_sql, wakeup
from ..core.extensions import db


class JoinedSession(Session):
    """The request's session while a move runs in its own transaction: every statement goes to
    the move's connection (joined to its transaction, never committing or closing it)."""

    def __init__(self, move: _OwnTransaction):
        super().__init__(db, join_transaction_mode="rollback_only")
        self._move = move
        self.info["gin_hub"] = wakeup.hub()
        self.info[wakeup.PENDING] = move.driver.pending  # its wake-ups go out with the move's commit

    def get_bind(self, mapper=None, clause=None, bind=None, **kwargs):
        return self._move.joined()


class _OwnTransaction:
    """A pooled connection, its driver SQL, and the SQLAlchemy Connection the session joins."""

    def __init__(self, engine):
        self.core = engine.connect()
        self.driver = driver_sql.Driver(self.core.connection.dbapi_connection, engine, connection=self.core,
                                        pooled=self.core)
        self.driver.pending = {}

    def joined(self):
        """The Connection for the session's next statement: in the move's transaction, with the
        driver's held-back writes sent first."""
        self.driver.send_deferred()
        if not self.core.in_transaction():
            self.core.begin()  # begun already on the wire: on SQLite the begin listener sees so and skips
        return self.core


@contextmanager
def move_transaction():
    """The move's connection (a core.driver_sql.Driver): a transaction of its own, committed when
    the block ends and rolled back if it raised, its wake-ups sent after the commit; or, when the
    session is in a transaction already, that one (the caller commits)."""
    registry = db.session.registry
    if registry.has() and registry().in_transaction():
        yield driver()
        return
    move = _OwnTransaction(db.engine)
    connection = move.driver
    previous = registry() if registry.has() else None
    registry.set(JoinedSession(move))
    driver_error = db.engine.dialect.loaded_dbapi.Error
    try:
        if db.engine.dialect.name == "sqlite":
            try:
                database.begin_immediate(connection.raw, current_app.config["SQLITE_BUSY_TIMEOUT"])
            except driver_error as exc:  # still locked after the busy timeout: answered 503
                raise connection.wrapped(exc, "BEGIN IMMEDIATE") from exc
        else:  # BEGIN goes with the lock and the read, COMMIT with the write (driver_sql.Driver.write)
            connection.own_transaction()
        try:
            yield connection
            registry().flush()  # what the ORM added (outbox rows, reply secrets), before the COMMIT
            connection.commit()
        except BaseException as exc:
            connection.rollback()
            if isinstance(exc, driver_error):  # the commit's
                raise connection.wrapped(exc, "COMMIT") from exc
            raise
    finally:
        registry().close()
        if previous is None:
            registry.clear()
        else:
            registry.set(previous)
        connection.release()  # back to the pool (which rolls back whatever is left open)
    if connection.pending:
        wakeup.hub().publish(connection.pending)


def driver() -> driver_sql.Driver:
    """Driver SQL on the session's connection: the transaction the session is in (its wake-ups go
    with the session's commit)."""
    connection = db.session.connection()
    return driver_sql.Driver(connection.connection.dbapi_connection, db.engine, connection)
