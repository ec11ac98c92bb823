"""Driver SQL for the hot paths (a move, a stored view's read): Core statements compiled once per
dialect and run on the DBAPI cursor, with SQLAlchemy's own bind and result processing.

SQLAlchemy's execution machinery (execution context, parameter construction, result metadata)
cost more than the statements themselves on SQLite: about 34 µs around a 10 µs read
(bench/README.md). Here a statement is compiled once (`prepared(statement, dialect)`), and each
execution is the driver's call plus the column types' processors, taken from SQLAlchemy once, so
that what is stored and read back is exactly what the Core statement would store and read (JSON
through the engine's serializer, SQLite's date and boolean forms, psycopg's JSON wrappers).

SQLite prepares the SQL itself (sqlite3's statement cache). On PostgreSQL each statement is a
named server-side prepared statement (PREPARE once per connection, planned as PostgreSQL plans
any prepared statement), run by EXECUTE with its values quoted by psycopg (a ClientCursor) in the
simple query protocol, which takes several statements in one message: a move's BEGIN, lock and
read go in one round trip, its write and COMMIT in another (`together`, `write`, `commit`).
psycopg's own automatic preparation is off on these connections (database.configure_postgresql):
psycopg deallocates every prepared statement of a connection at each rollback, ours included.
Through a pooler in transaction mode (DB_TRANSACTION_POOLING: `prepare_nothing`) a prepared
statement would live on one server connection and be EXECUTEd on another; there the statements'
own SQL goes in the same messages instead, planned anew each time.

The statements stay described in Core (service/games/moves.py, service/games/store.py), the tables in the ORM
models. Listeners of the engine's `before_cursor_execute` (the statement-counting test and
bench) still see every statement.
"""
from __future__ import annotations

import collections
import functools
import hashlib
import re
import weakref
from contextlib import contextmanager

from sqlalchemy import bindparam
from sqlalchemy.exc import DBAPIError

_ROW_CLASSES: dict[tuple, type] = {}
_TUPLES_OK = 2  # libpq's PGRES_TUPLES_OK (psycopg.pq.ExecStatus.TUPLES_OK)
_PYFORMAT = re.compile(r"%\((\w+)\)s")
# The names PREPAREd on each PostgreSQL connection (they last as long as its session).
_PREPARED_ON: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Engines whose sessions are not their own (a pooler in transaction mode): nothing prepared by name.
_UNPREPARED: weakref.WeakSet = weakref.WeakSet()


def prepare_nothing(engine) -> None:
    _UNPREPARED.add(engine)


class Prepared:
    """One Core statement compiled for one dialect: its SQL, how to bind a dict of parameters to
    it (`bind`) and how to read its rows (`rows`)."""

    def __init__(self, statement, dialect, keys: tuple[str, ...] | None = None):
        compiled = statement.compile(dialect=dialect, column_keys=list(keys) if keys else None)
        if compiled.insert_prefetch or compiled.update_prefetch or compiled.literal_execute_params:
            raise ValueError("driver SQL takes statements whose every value is given: "
                             f"{statement} has Python-side defaults or literal parameters")
        self.sql = compiled.string
        self.positional = compiled.positional
        self.names = tuple(compiled.positiontup) if compiled.positional else tuple(set(compiled.bind_names.values()))
        # values of anonymous parameters (a LIMIT's 1, a CASE's 0), as Core binds them
        given = compiled.construct_params(_check=False)
        self.fixed = {name: given[name] for param, name in compiled.bind_names.items() if not param.required}
        self.processors = {name: fn for name, fn in compiled._bind_processors.items() if name in self.names}
        columns = compiled._result_columns or []
        self.keys = tuple(entry[0] for entry in columns)
        self.result_processors = tuple(entry[3]._cached_result_processor(dialect, None) for entry in columns)
        self.row_class = _row_class(self.keys) if columns else None

    def bind(self, params: dict):
        values = {**self.fixed, **params} if self.fixed else params
        processors = self.processors
        if self.positional:
            return tuple(processors[name](values[name]) if name in processors else values[name]
                         for name in self.names)
        return {name: processors[name](values[name]) if name in processors else values[name]
                for name in self.names}

    def rows(self, fetched: list) -> list:
        processors, make = self.result_processors, self.row_class._make
        if not any(processors):
            return [make(raw) for raw in fetched]
        return [make(fn(value) if fn else value for fn, value in zip(processors, raw)) for raw in fetched]

    # -- PostgreSQL: a named prepared statement -------------------------------------------------

    @functools.cached_property
    def name(self) -> str:
        return "gin_" + hashlib.sha1(self.sql.encode()).hexdigest()[:24]

    @functools.cached_property
    def _order(self) -> tuple[str, ...]:
        """The parameters in the order of their first appearance: $1, $2, ..."""
        return tuple(dict.fromkeys(_PYFORMAT.findall(self.sql)))

    @functools.cached_property
    def prepare_sql(self) -> str:
        """PREPARE <name> AS the statement, its placeholders numbered; sent without parameters,
        so a literal % is no longer doubled."""
        number = {name: n for n, name in enumerate(self._order, 1)}
        body = _PYFORMAT.sub(lambda found: f"${number[found.group(1)]}", self.sql).replace("%%", "%")
        return f"PREPARE {self.name} AS {body}"

    @functools.cache
    def inline(self, prefix: str) -> str:
        """The statement's own SQL, its placeholders renamed <prefix><parameter>."""
        return _PYFORMAT.sub(lambda found: f"%({prefix}{found.group(1)})s", self.sql)

    @functools.cache
    def call(self, prefix: str) -> str:
        """EXECUTE <name>(...), its values as psycopg's placeholders named <prefix><parameter>."""
        if not self._order:
            return f"EXECUTE {self.name}"
        return f"EXECUTE {self.name}({', '.join(f'%({prefix}{name})s' for name in self._order)})"


def _row_class(keys: tuple[str, ...]) -> type:
    if keys not in _ROW_CLASSES:
        _ROW_CLASSES[keys] = collections.namedtuple("Row", keys)
    return _ROW_CLASSES[keys]


@functools.cache
def prepared(statement, dialect, keys: tuple[str, ...] | None = None) -> Prepared:
    """The statement compiled once per engine (its dialect holds the engine's JSON serializer)."""
    return Prepared(statement, dialect, keys)


@functools.cache
def multi_row_insert(statement, keys: tuple[str, ...], count: int):
    """INSERT ... VALUES (...), (...): `count` rows of `keys`, bound as <key>__<row number>
    (multi_row_params names the values so)."""
    columns = statement.table.c
    return statement.values([{key: bindparam(f"{key}__{n}", type_=columns[key].type) for key in keys}
                             for n in range(count)])


def multi_row_params(rows: list[dict], keys: tuple[str, ...]) -> dict:
    """The rows' values as multi_row_insert binds them."""
    return {f"{key}__{n}": row[key] for n, row in enumerate(rows) for key in keys}


class Driver:
    """Statements run on one DBAPI connection (a transaction the caller owns, or on PostgreSQL
    one Driver.own_transaction makes)."""

    pending = None  # a transaction of its own: the wake-ups to send after its commit (service/games/moves.py)

    def __init__(self, dbapi_connection, engine, connection=None, pooled=None):
        self.raw = dbapi_connection
        self.engine = engine
        self.dialect = engine.dialect
        self.connection = connection  # SQLAlchemy's Connection around it (the session's), if any
        self.pooled = pooled  # else the pool's own wrapper, to invalidate a lost connection
        self.named = engine.dialect.name == "postgresql"
        self.by_name = self.named and engine not in _UNPREPARED  # PREPAREd once, then EXECUTEd
        if self.named:
            from psycopg import ClientCursor
            self.cursor = ClientCursor(dbapi_connection)
        else:
            self.cursor = dbapi_connection.cursor()
        self.deferred: list | None = None  # PostgreSQL, own transaction: writes sent with the COMMIT
        self.begun = False  # PostgreSQL, own transaction: BEGIN sent
        self.autocommit = False  # PostgreSQL: set by own_transaction and one_statement, undone by release
        self._fetched: list = []
        self._count = -1

    def own_transaction(self) -> None:
        """PostgreSQL: the connection in autocommit, the transaction's BEGIN sent with its first
        statements and its COMMIT with its last writes (`write`); undone by `release`."""
        self.alone()
        self.deferred = []

    def alone(self) -> None:
        """PostgreSQL: the connection in autocommit (each statement its own transaction, unless
        an own transaction's BEGIN is sent); undone by `release`."""
        try:
            self.raw.autocommit = True
        except self.dialect.loaded_dbapi.Error as exc:  # a broken connection
            raise self.wrapped(exc) from exc
        self.autocommit = True

    def commit(self) -> None:
        if self.deferred is None:
            self.raw.commit()
        elif self.begun or self.deferred:
            self._send([], commit=True)
            self.begun = False

    def send_deferred(self) -> None:
        """PostgreSQL, own transaction: send the writes held back for the COMMIT now (before a
        statement that must see them goes another way: the session joined to the move)."""
        if self.deferred:
            self._send([])

    def rollback(self) -> None:
        self.deferred = [] if self.deferred is not None else None
        self.begun = False
        try:
            self.raw.rollback()  # also in autocommit: psycopg sends ROLLBACK while a transaction is open
        except self.dialect.loaded_dbapi.Error as exc:  # a lost connection: the pool drops it
            if self.dialect.is_disconnect(exc, self.raw, self.cursor) and self.pooled is not None:
                self.pooled.invalidate(exc)

    def release(self) -> None:
        """Back to the pool as it came: out of autocommit (a broken connection is not pooled again)."""
        try:
            if self.autocommit:
                self.raw.autocommit = False
        except self.dialect.loaded_dbapi.Error as exc:
            self.pooled.invalidate(exc)
        finally:
            self.pooled.close()

    def _told(self, prepared: Prepared, params, many: bool) -> None:
        for listener in self.engine.dispatch.before_cursor_execute:
            listener(self.connection, self.cursor, prepared.sql, params, None, many)

    def _bound(self, statement, params: dict, keys: tuple[str, ...] | None = None) -> tuple[Prepared, dict]:
        statement = prepared(statement, self.dialect, keys)
        return statement, statement.bind(params)

    def execute(self, statement, params: dict, keys: tuple[str, ...] | None = None) -> Driver:
        statement, bound = self._bound(statement, params, keys)
        if self.named:
            (fetched, self._count), = self._send([(statement, bound)])
            self._fetched = fetched if fetched is not None else []
            self._last = statement
            return self
        if self.engine.dispatch.before_cursor_execute:
            self._told(statement, bound, False)
        try:
            self.cursor.execute(statement.sql, bound)
        except self.dialect.loaded_dbapi.Error as exc:
            raise self.wrapped(exc, statement.sql, bound) from exc
        self._last = statement
        self._fetched = None
        return self

    def together(self, statements: list[tuple]) -> list[list]:
        """The rows of each (statement, params): on PostgreSQL all in one round trip (with the
        transaction's BEGIN, if it is the first), elsewhere one after another."""
        if not self.named:
            return [self.execute(statement, params).all() for statement, params in statements]
        return [rows for rows, _ in self._send([self._bound(statement, params) for statement, params in statements])]

    def write(self, statement, params: dict, keys: tuple[str, ...] | None = None) -> None:
        """A write whose result is not read: in a PostgreSQL transaction of its own (own_transaction),
        kept to go in one round trip with the COMMIT; else run now."""
        if self.deferred is None:
            self.execute(statement, params, keys)
            return
        step = self._bound(statement, params, keys)
        if self.engine.dispatch.before_cursor_execute:
            self._told(*step, False)
        self.deferred.append(step)

    def executemany(self, statement, rows: list[dict]) -> None:
        """Every row in one statement: a single row as a plain execution; on PostgreSQL several
        rows of an INSERT as one multi-row VALUES, of another statement several EXECUTEs in one
        round trip."""
        keys = tuple(rows[0])
        if len(rows) == 1:
            self.execute(statement, rows[0], keys)
            return
        if self.named and statement.is_insert:
            self.execute(multi_row_insert(statement, keys, len(rows)), multi_row_params(rows, keys))
            return
        statement = prepared(statement, self.dialect, keys)
        bound = [statement.bind(row) for row in rows]
        if self.engine.dispatch.before_cursor_execute:
            self._told(statement, bound, True)
        if self.named:
            self._send([(statement, each) for each in bound], tell=False)
            return
        try:
            self.cursor.executemany(statement.sql, bound)
        except self.dialect.loaded_dbapi.Error as exc:
            raise self.wrapped(exc, statement.sql, bound, many=True) from exc

    def _send(self, steps: list[tuple[Prepared, dict]], commit: bool = False,
              tell: bool = True) -> list[tuple[list | None, int]]:
        """PostgreSQL: EXECUTE each step, in one simple-protocol message (with BEGIN first when an
        own transaction has not begun, the writes held back for the COMMIT before the steps, so
        that statements run in the order they were given, COMMIT last when asked); (rows,
        rowcount) of each step. Listeners are told each step as a statement (an executemany's
        steps, once, by the caller; a held-back write, when it was held back)."""
        held = len(self.deferred or ())
        if held:
            steps, self.deferred = [*self.deferred, *steps], []
        if self.by_name:
            self._prepare(each for each, _ in steps)
        parts, values = [], {}
        if self.deferred is not None and not self.begun:
            parts.append("BEGIN")
        first = len(parts) + held
        for n, (each, bound) in enumerate(steps):
            if tell and n >= held and self.engine.dispatch.before_cursor_execute:
                self._told(each, bound, False)
            parts.append(each.call(f"s{n}_") if self.by_name else each.inline(f"s{n}_"))
            values.update((f"s{n}_{name}", value) for name, value in bound.items())
        if commit:
            parts.append("COMMIT")
        sql = "; ".join(parts)
        cursor = self.cursor
        try:
            cursor.execute(sql, values)
            self.begun = self.begun or first > 0
            results = []
            while True:  # (not cursor.description: it builds a Column for every column of every result)
                tuples = cursor.pgresult is not None and cursor.pgresult.status == _TUPLES_OK
                results.append((cursor.fetchall() if tuples else None, cursor.rowcount))
                if not cursor.nextset():
                    break
        except self.dialect.loaded_dbapi.Error as exc:
            raise self.wrapped(exc, sql, values) from exc
        return [(each.rows(fetched) if fetched is not None and each.row_class else fetched, count)
                for (each, _), (fetched, count) in zip(steps[held:], results[first:])]

    def _prepare(self, statements) -> None:
        """PREPARE, each in a message of its own, the statements this connection has not prepared
        yet (a prepared statement outlives a rolled back transaction, so none is prepared twice)."""
        done = _PREPARED_ON.setdefault(self.raw, set())
        for each in statements:
            if each.name not in done:
                try:
                    self.cursor.execute(each.prepare_sql)
                except self.dialect.loaded_dbapi.Error as exc:
                    raise self.wrapped(exc, each.prepare_sql) from exc
                done.add(each.name)

    def wrapped(self, exc, sql: str | None = None, params=None, many: bool = False) -> Exception:
        """The driver's error as SQLAlchemy raises it (sqlalchemy.exc.OperationalError, ...), which
        the error handlers answer (a locked database: 503); a lost connection is not pooled again."""
        if self.dialect.is_disconnect(exc, self.raw, self.cursor):
            owner = self.connection if self.connection is not None else self.pooled
            if owner is not None:
                owner.invalidate(exc)
        return DBAPIError.instance(sql, params, exc, self.dialect.loaded_dbapi.Error, dialect=self.dialect,
                                   ismulti=many, hide_parameters=self.engine.hide_parameters)

    def all(self) -> list:
        if self._fetched is None:
            return self._last.rows(self.cursor.fetchall())
        return self._fetched

    def first(self):
        found = self.all()
        return found[0] if found else None

    @property
    def rowcount(self) -> int:
        return self.cursor.rowcount if self._fetched is None else self._count


def checkout(engine):
    """A pooled DBAPI connection (pinged first: pool_pre_ping). A failure to connect is raised as
    SQLAlchemy raises it for a Connection (an OperationalError, answered 503), not as the driver's
    own error, which no handler knows (it was answered 500 when a connection was cut mid-connect)."""
    try:
        return engine.raw_connection()
    except engine.dialect.loaded_dbapi.Error as exc:
        raise DBAPIError.instance(None, None, exc, engine.dialect.loaded_dbapi.Error, dialect=engine.dialect,
                                  hide_parameters=engine.hide_parameters,
                                  connection_invalidated=engine.dialect.is_disconnect(exc, None, None)) from exc


@contextmanager
def one_statement(engine):
    """A pooled connection for a statement that runs alone (a read): on PostgreSQL in autocommit,
    so that no BEGIN and ROLLBACK round trips surround it (the statement is its own transaction,
    with one snapshot); on SQLite it runs in its own implicit read transaction as it is."""
    pooled = checkout(engine)
    driver = Driver(pooled.dbapi_connection, engine, pooled=pooled)
    try:
        if driver.named:
            driver.alone()
        yield driver
    finally:
        driver.release()
