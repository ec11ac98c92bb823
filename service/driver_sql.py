"""Driver SQL for the hot paths (a move, a stored view's read): Core statements compiled once per
dialect and run on the DBAPI cursor, with SQLAlchemy's own bind and result processing.

SQLAlchemy's execution machinery (execution context, parameter construction, result metadata)
cost more than the statements themselves on SQLite: about 34 µs around a 10 µs read
(bench/README.md). Here a statement is compiled once (`prepared(statement, dialect)`), and each
execution is the driver's call plus the column types' processors, taken from SQLAlchemy once, so
that what is stored and read back is exactly what the Core statement would store and read (JSON
through the engine's serializer, SQLite's date and boolean forms, psycopg's JSON wrappers). The
drivers prepare the SQL themselves (sqlite3's statement cache; psycopg after a few executions).

The statements stay described in Core (service/moves.py, service/store.py), the tables in the ORM
models. Listeners of the engine's `before_cursor_execute` (the statement-counting test and
bench) still see every statement.
"""
from __future__ import annotations

import collections
import functools
from contextlib import contextmanager

from sqlalchemy import bindparam
from sqlalchemy.exc import DBAPIError

_ROW_CLASSES: dict[tuple, type] = {}


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

    def rows(self, cursor) -> list:
        processors, make = self.result_processors, self.row_class._make
        if not any(processors):
            return [make(raw) for raw in cursor.fetchall()]
        return [make(fn(value) if fn else value for fn, value in zip(processors, raw)) for raw in cursor.fetchall()]


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
    """Statements run on one DBAPI connection (a transaction the caller owns)."""

    pending = None  # a transaction of its own: the wake-ups to send after its commit (service/moves.py)

    def __init__(self, dbapi_connection, engine, connection=None, pooled=None):
        self.raw = dbapi_connection
        self.engine = engine
        self.dialect = engine.dialect
        self.connection = connection  # SQLAlchemy's Connection around it (the session's), if any
        self.pooled = pooled  # else the pool's own wrapper, to invalidate a lost connection
        self.cursor = dbapi_connection.cursor()

    def rollback(self) -> None:
        try:
            self.raw.rollback()
        except self.dialect.loaded_dbapi.Error as exc:  # a lost connection: the pool drops it
            if self.dialect.is_disconnect(exc, self.raw, self.cursor) and self.pooled is not None:
                self.pooled.invalidate(exc)

    def _told(self, prepared: Prepared, params, many: bool) -> None:
        for listener in self.engine.dispatch.before_cursor_execute:
            listener(self.connection, self.cursor, prepared.sql, params, None, many)

    def execute(self, statement, params: dict, keys: tuple[str, ...] | None = None) -> Driver:
        statement = prepared(statement, self.dialect, keys)
        bound = statement.bind(params)
        if self.engine.dispatch.before_cursor_execute:
            self._told(statement, bound, False)
        try:
            self.cursor.execute(statement.sql, bound)
        except self.dialect.loaded_dbapi.Error as exc:
            raise self.wrapped(exc, statement.sql, bound) from exc
        self._last = statement
        return self

    def executemany(self, statement, rows: list[dict]) -> None:
        """Every row in one statement: a single row as a plain execution; on PostgreSQL several
        rows of an INSERT as one multi-row VALUES (psycopg's executemany goes through a
        pipeline, whose set-up and sync cost more than a move's few rows)."""
        keys = tuple(rows[0])
        if len(rows) == 1:
            self.execute(statement, rows[0], keys)
            return
        if self.dialect.name == "postgresql" and statement.is_insert:
            self.execute(multi_row_insert(statement, keys, len(rows)), multi_row_params(rows, keys))
            return
        statement = prepared(statement, self.dialect, keys)
        bound = [statement.bind(row) for row in rows]
        if self.engine.dispatch.before_cursor_execute:
            self._told(statement, bound, True)
        try:
            self.cursor.executemany(statement.sql, bound)
        except self.dialect.loaded_dbapi.Error as exc:
            raise self.wrapped(exc, statement.sql, bound, many=True) from exc

    def wrapped(self, exc, sql: str | None = None, params=None, many: bool = False) -> Exception:
        """The driver's error as SQLAlchemy raises it (sqlalchemy.exc.OperationalError, ...), which
        the error handlers answer (a locked database: 503); a lost connection is not pooled again."""
        if self.dialect.is_disconnect(exc, self.raw, self.cursor):
            owner = self.connection if self.connection is not None else self.pooled
            if owner is not None:
                owner.invalidate(exc)
        return DBAPIError.instance(sql, params, exc, self.dialect.loaded_dbapi.Error, dialect=self.dialect,
                                   ismulti=many)

    def all(self) -> list:
        return self._last.rows(self.cursor)

    def first(self):
        found = self.all()
        return found[0] if found else None

    @property
    def rowcount(self) -> int:
        return self.cursor.rowcount


@contextmanager
def one_statement(engine):
    """A pooled connection for a statement that runs alone (a read): on PostgreSQL in autocommit,
    so that no BEGIN and ROLLBACK round trips surround it (the statement is its own transaction,
    with one snapshot); on SQLite it runs in its own implicit read transaction as it is."""
    pooled = engine.raw_connection()
    raw = pooled.dbapi_connection
    alone = engine.dialect.name == "postgresql"
    try:
        if alone:
            raw.autocommit = True
        yield Driver(raw, engine, pooled=pooled)
    finally:
        if alone:
            try:
                raw.autocommit = False
            except engine.dialect.loaded_dbapi.Error as exc:  # a broken connection: not pooled again
                pooled.invalidate(exc)
        pooled.close()
