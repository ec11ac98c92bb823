"""The connection budget: each process's pool of database connections, as the operator sized it.

    DB_POOL_SIZE      connections a process keeps open (5)
    DB_MAX_OVERFLOW   more it may open at a peak, closed again when returned (10)
    DB_POOL_TIMEOUT   whole seconds a request waits for one when all are out (10), then 503

A process never holds more than DB_POOL_SIZE + DB_MAX_OVERFLOW pooled connections, plus its wake-up
listener's one (PostgreSQL's LISTEN); docs/operations.md adds these up over a deployment against
PostgreSQL's max_connections. A request that waited DB_POOL_TIMEOUT for a connection is answered
503 `database-unavailable` with Retry-After (errors.handle_pool_timeout), never 500; a stream whose
read finds the database away ends with a frame telling the client when to reconnect
(`ends_cleanly`), never cut in the middle of its body. Each wait for a connection and each timeout
is counted (gin_db_pool_waits_total, gin_db_pool_wait_seconds_total, gin_db_pool_timeouts_total).

DB_TRANSACTION_POOLING says PostgreSQL is reached through a pooler in transaction mode (PgBouncer's
pool_mode = transaction): each transaction may run on another server connection, so nothing may
rely on a session's state. driver_sql.py then runs its statements' SQL as it is rather than as
named prepared statements, the LZ4 session setting is left to the database (ALTER DATABASE), and
wake-ups must go through Redis (WAKEUP_REDIS_URL): LISTEN holds a session.
"""
from __future__ import annotations

import logging
import time

from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import QueuePool

from . import metrics
from .errors import busy_retry_after

log = logging.getLogger(__name__)


def engine_options(config: dict) -> dict:
    """create_engine's pool options for the configured database (none for SQLite in memory, whose
    one connection is not pooled)."""
    url = make_url(config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() == "sqlite" and (url.database in (None, "", ":memory:")
                                               or url.query.get("mode") == "memory"):
        return {}
    return {"poolclass": CountedPool, "pool_size": config["DB_POOL_SIZE"],
            "max_overflow": config["DB_MAX_OVERFLOW"], "pool_timeout": config["DB_POOL_TIMEOUT"]}


class CountedPool(QueuePool):
    """SQLAlchemy's QueuePool, counting the checkouts that found every connection out and waited,
    how long they waited, and those that gave up (the pool's TimeoutError)."""

    def __init__(self, creator, pool_size=5, max_overflow=10, **kw):
        super().__init__(creator, pool_size=pool_size, max_overflow=max_overflow, **kw)
        self.capacity = pool_size + max_overflow if max_overflow > -1 else None
        metrics.pool_capacity(self.capacity or 0)

    def _do_get(self):
        if self.capacity is None or self.checkedin() or self.checkedout() < self.capacity:
            return super()._do_get()
        started = time.perf_counter()
        try:
            return super()._do_get()
        except PoolTimeout:
            metrics.pool_timed_out()
            raise
        finally:
            metrics.pool_waited(time.perf_counter() - started)


def ends_cleanly(frames):
    """The stream `frames` (a generator of text), ended with a reconnection frame rather than cut
    mid-body when a read finds the database away: its pool timed out, or it does not answer. The
    frame is a comment saying why and SSE's `retry:` field (milliseconds), which an EventSource
    waits before reconnecting with Last-Event-ID; no event is lost, the next connection resumes
    after the last id sent."""
    try:
        yield from frames
    except (PoolTimeout, OperationalError) as exc:
        wait = busy_retry_after()
        log.warning("a stream ended: the database is unavailable (%s); the client is told to reconnect "
                    "in %d s", type(exc).__name__, wait)
        yield f": database-unavailable: reconnect with Last-Event-ID in {wait} s\nretry: {wait * 1000}\n\n"
