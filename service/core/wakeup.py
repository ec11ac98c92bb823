"""Wake-ups: a committed change wakes whoever waits for it, in this process and in every other.

    game_changed(game_id, version)  called in a change's transaction (views.publish_views)
    game_chatted(game_id)           called when a seat wrote a message in the game (games/messages.py)
    player_changed(player_id, seq)  called when a player's stream gains an event (players/feed.py)
    outbox_changed()                called when a change queued mail or webhooks (outbox.enqueue)
    hub().watch(key, version)       a Waiter: `wait(seconds)` returns early when `key` is woken

How a wake-up travels, by database:
- PostgreSQL: `NOTIFY gin_wakeup` in the change's own transaction, which PostgreSQL delivers
  on commit (and never for a rolled-back change) to every LISTENing connection, on any host.
  Each process keeps one LISTEN connection, in a background thread, and fans out to its waiters.
- SQLite (one host): after the commit, one datagram to each process's Unix socket in a directory
  named after the database file. No polling between processes, and nothing sent on a rollback.
- Redis, when WAKEUP_REDIS_URL is set (for example when PostgreSQL is reached through a pooler
  in transaction mode, where LISTEN does not work): PUBLISH after the commit, one SUBSCRIBE
  connection per process. It then replaces both of the above.
All of them also wake this process's own waiters directly after the commit.

A waiter holds no database connection and reads nothing until it is woken; what woke it says
what to read (Waiter.news: the version moved, or a message was written), so a stream's keep-alive
and a long-poll's timeout read nothing. On PostgreSQL nothing else is needed: a NOTIFY is delivered
with its commit to every LISTENing connection, and a listener that lost its connection wakes all
its waiters once it listens again. A datagram can be lost (a receiver's full socket buffer), and so
can a Redis PUBLISH that failed while the subscriber stayed connected: for those transports each
process (not each waiter) also reads, every FALLBACK_SECONDS (WAKEUP_FALLBACK_SECONDS, 60 s), the
versions of the games and player streams its waiters watch, one statement per 500 of them, on a
connection of its own (outside the pool), and wakes those that moved. Waiters are threading.Events:
with gevent's monkey-patching (the production server) they are cheap greenlet events.
"""
from __future__ import annotations

import atexit
import hashlib
import logging
import os
import socket
import tempfile
import threading
import time
import uuid
import weakref
from collections import defaultdict, deque
from contextlib import contextmanager, suppress

from sqlalchemy import String, bindparam, cast, event, func, literal_column, text
from sqlalchemy.orm import Session

from . import metrics
from .extensions import db

log = logging.getLogger(__name__)
CHANNEL = "gin_wakeup"
OUTBOX = "outbox"
FALLBACK_SECONDS = {"postgresql": 0.0, "sqlite": 60.0, "redis": 60.0}  # 0: none (NOTIFY loses nothing)
CHAT = "chat"  # the "version" of a message's announcement: no version moved, a message was written
PENDING = "gin_wakeups"  # session.info key: what this transaction will announce when it commits


def game_key(game_id: str) -> str:
    return "game:" + game_id


# What each kind of key watches, for the fallback poll (Hub._fallback_poll): its prefix ->
# (a statement selecting (id, version) of the ids in bindparam "ids", the id's type). Each feature
# registers its own kind (the games' versions, players' newest stream event) in its init_app.
_WATCHED: dict[str, tuple] = {}


def watch_versions(prefix: str, statement, parse=str) -> None:
    _WATCHED[prefix] = (statement, parse)


# -- announcing -----------------------------------------------------------------------------

def game_changed(game_id: str, version: int) -> None:
    _announce(game_key(game_id), version)


def game_chatted(game_id: str) -> None:
    """Called in the transaction that stored a message in the game (service/games/messages.py): no
    version moved, so every waiter on the game wakes and looks for messages (a view's waiter for
    nothing: its waiter is woken with news of a message only, and reads nothing)."""
    _announce(game_key(game_id), CHAT)


def player_key(player_id: int) -> str:
    return f"player:{player_id}"


def player_changed(player_id: int, seq: int | None) -> None:
    """Called in the transaction that added event `seq` to the player's stream (service/players/feed.py);
    None wakes all its readers (the player's token changed)."""
    _announce(player_key(player_id), seq)


def outbox_changed() -> None:
    _announce(OUTBOX, None)


def _announce(key: str, version: int | str | None) -> None:
    session = db.session()
    pending = session_pending(session)  # the commit's listener announces through the hub
    first = key not in pending
    if not first and pending[key] != version:  # a move and a message in one transaction: wake for both
        version = None
    told = first or pending[key] != version  # (PostgreSQL: a second NOTIFY, saying "anything")
    pending[key] = version
    if told and session.info["gin_hub"].transport == "postgresql":
        # Queued by PostgreSQL with the transaction: sent at its commit, dropped on rollback.
        session.execute(_NOTIFY, {"payload": _payload(key, version)})


_NOTIFY = text("SELECT pg_notify('" + CHANNEL + "', :payload)")


# -- announcing inside the caller's own statement (the move path, service/games/moves.py) ------------

# Selected by the caller in a statement of the change's transaction (an UPDATE's RETURNING, say):
# PostgreSQL queues the NOTIFY with the transaction exactly as the SELECT above does.
NOTIFY_CALL = func.pg_notify(literal_column("'" + CHANNEL + "'"), bindparam("wakeup_payload"))


def game_changed_payload(game_id: str, version: int, pending: dict | None = None) -> str | None:
    """Like game_changed, without a statement of its own: the payload to bind to NOTIFY_CALL in
    one of the caller's statements (PostgreSQL, first announcement in this transaction), else None.
    `pending`: a transaction outside the session keeps its announcements there, and hands them to
    hub().publish after its commit."""
    return noted(game_key(game_id), version, pending)


def noted(key: str, version: int | None, pending: dict | None = None) -> str | None:
    """Note that `key` moved to `version` in this transaction (`pending`, or the session's): the
    payload of its NOTIFY, for the caller to send in one of its own statements (PostgreSQL, the
    first time the key is noted in the transaction), else None."""
    if pending is None:
        pending = session_pending(db.session())
    first = key not in pending
    pending[key] = version
    return _payload(key, version) if first and db.engine.dialect.name == "postgresql" else None


def session_pending(session) -> dict:
    """What `session`'s transaction will announce when it commits (its after_commit listener)."""
    session.info["gin_hub"] = hub()
    return session.info.setdefault(PENDING, {})


def player_payload(player_id_column, seq_column):
    """The NOTIFY payload of a player's newest stream event, as SQL (for an UPDATE's RETURNING)."""
    return literal_column("'player:'", String) + cast(player_id_column, String) + literal_column("' '", String) \
        + cast(seq_column, String)


def _payload(key: str, version: int | None) -> str:
    return key if version is None else f"{key} {version}"


def _parse(payload: str) -> tuple[str, int | str | None]:
    key, _, version = payload.partition(" ")
    if version == CHAT:
        return key, CHAT
    return key, int(version) if version.isdigit() else None


@event.listens_for(Session, "after_commit")
def _after_commit(session):
    pending = session.info.pop(PENDING, None)
    if not pending:
        return
    session.info["gin_hub"].publish(pending)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session):
    session.info.pop(PENDING, None)


# -- waiting --------------------------------------------------------------------------------

class Waiter:
    """One waiting request (a long-poll, a stream, the outbox worker's idle wait)."""

    def __init__(self, key: str, version: int | None):
        self.key, self.version = key, version
        # What the wake-ups since news() said: a version moved to (the newest named), or moved
        # without a version (a listener reconnecting, the end of the wait); a message written.
        self.moved, self.moved_to, self.chatted = False, None, False
        self.hub: Hub | None = None  # the hub it joined
        self._event = threading.Event()

    def leave(self) -> None:
        if self.hub is not None:
            self.hub.leave(self)

    def wake(self, moved: bool = True, chatted: bool = True, version: int | None = None) -> None:
        """Wake it; by default with news of anything (a reconnected listener, the end of the wait);
        `version`: the version the key moved to, when the wake-up says (a commit's)."""
        if moved and version is not None:
            self.moved_to = version if self.moved_to is None else max(self.moved_to, version)
        else:
            self.moved |= moved
        self.chatted |= chatted
        self._event.set()

    def news(self) -> tuple[bool, bool]:
        """(the version may have moved, a message may have been written) since the last call: what
        to read after a wake-up (nothing, after a wake-up that said neither). A version named by a
        wake-up is news only past the waiter's version as it is now: a waiter joined before its
        read has its version set after it, and a commit's wake-up that arrives late (PostgreSQL
        echoes this process's own NOTIFY) for a version the read saw costs no second read."""
        moved = self.moved or (self.moved_to is not None and
                               not (isinstance(self.version, int) and self.moved_to <= self.version))
        chatted, self.moved, self.moved_to, self.chatted = self.chatted, False, None, False
        return moved, chatted

    def wait(self, seconds: float) -> bool:
        """True when woken (and ready to be woken again), False when `seconds` passed first."""
        woken = self._event.wait(max(seconds, 0))
        self._event.clear()
        return woken


class Hub:
    """This process's waiters for one database, and the threads that wake them."""

    def __init__(self, engine, redis_url: str | None = None, fallback_seconds: float | None = None):
        self.engine = engine
        self.dialect = engine.dialect.name
        self.url = engine.url
        self.redis_url = redis_url
        self.transport = "redis" if redis_url else self.dialect
        self.fallback_seconds = FALLBACK_SECONDS.get(self.transport, 60.0) if fallback_seconds is None \
            else fallback_seconds
        self.closing = False
        self.listening = metrics.Listening(self.transport)  # set while it hears other processes' wake-ups
        self._waiters: dict[str, set[Waiter]] = defaultdict(set)
        self._lock = threading.Lock()
        self._tick = 0  # wake-ups so far; the latest ones' keys (None: all), for woken_since()
        self._recent: deque[tuple[int, str | None]] = deque(maxlen=4096)
        self._started_in: int | None = None  # the pid that started the threads (gunicorn forks)
        self._socket: socket.socket | None = None
        self._directory = _socket_directory(engine.url) if self.transport == "sqlite" else None
        self._redis = None

    # waiting

    @contextmanager
    def watch(self, key: str, version: int | None = None):
        waiter = self.join(key, version)
        try:
            yield waiter
        finally:
            self.leave(waiter)

    def join(self, key: str, version: int | None = None) -> Waiter:
        """A Waiter woken from now on (watch() without the context: a stream's outlives its route);
        give it back with leave()."""
        self._start()
        waiter = Waiter(key, version)
        with self._lock:
            self._waiters[key].add(waiter)
        waiter.hub = self  # waiter.leave(): a response's close runs outside the app context
        if self.closing:
            waiter.wake()
        return waiter

    def leave(self, waiter: Waiter) -> None:
        """No longer woken (once or more: a stream's generator and its response's close both call it)."""
        with self._lock:
            waiters = self._waiters.get(waiter.key)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[waiter.key]

    def wake(self, key: str, version: int | str | None = None) -> None:
        """Wake `key`'s waiters: None, anything may have changed; CHAT, a message was written (no
        version moved); a version, those waiting with an older one (or none): versions only grow,
        so a wake-up that arrives late, for a version the waiter has read already, costs no read."""
        with self._lock:
            self._noted(key)
            waiters = list(self._waiters.get(key, ()))
        for waiter in waiters:
            if version is None:
                waiter.wake()
            elif version == CHAT:
                waiter.wake(moved=False)
            elif not (isinstance(waiter.version, int) and isinstance(version, int) and version <= waiter.version):
                waiter.wake(chatted=False, version=version if isinstance(version, int) else None)

    def mark(self) -> int:
        """Taken before a read whose key is known only after it (a player's stream: its player)."""
        return self._tick

    def woken_since(self, mark: int, key: str) -> bool:
        """Whether `key` may have been woken since `mark`: join() after the read, then ask this, and
        nothing committed after the read is missed (True also when too many wake-ups followed to tell)."""
        with self._lock:
            if self._tick == mark:
                return False
            if self._recent[0][0] > mark + 1:
                return True
            for tick, found in reversed(self._recent):
                if tick <= mark:
                    return False
                if found in (key, None):
                    return True
            return False

    def _noted(self, key: str | None) -> None:  # (under the lock)
        self._tick += 1
        self._recent.append((self._tick, key))

    def ready(self, timeout: float = 2.0) -> bool:  # /ready: other processes' wake-ups reach this one
        self._start()  # SQLite: its socket is bound by now; PostgreSQL, Redis: listening within `timeout`
        return not self.closing and (self.transport == "sqlite" or self.listening.wait(timeout))

    def close(self) -> None:
        """The process is stopping: every waiter answers now (streams end, long-polls return)."""
        self.closing = True
        self._wake_all()

    # announcing (after a commit)

    def publish(self, pending: dict[str, int | None]) -> None:
        for key, version in pending.items():
            self.wake(key, version)
        for key, version in pending.items():  # (PostgreSQL's NOTIFY went out with the commit)
            if self._directory is not None:
                self._send_datagrams(_payload(key, version).encode())
            elif self.transport == "redis":
                self._publish_redis(_payload(key, version))

    def _publish_redis(self, payload: str) -> None:
        import redis
        try:
            if self._redis is None:
                self._redis = redis.Redis.from_url(self.redis_url, socket_timeout=2)
            self._redis.publish(CHANNEL, payload)
        except redis.RedisError as exc:  # the fallback poll will find the change
            log.warning("wake-up not published to Redis: %s", exc)

    def _send_datagrams(self, data: bytes) -> None:
        try:
            names = os.listdir(self._directory)
        except FileNotFoundError:
            return
        own = self._socket.getsockname() if self._socket else None
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            for name in names:
                path = os.path.join(self._directory, name)
                if path == own or not name.endswith(".sock"):
                    continue
                try:
                    sender.sendto(data, path)
                except (ConnectionRefusedError, FileNotFoundError):
                    _unlink(path)  # a process that ended without removing its socket
                except OSError:  # a full buffer: the fallback poll will find the change
                    pass

    # the background threads

    def _start(self) -> None:
        if self._started_in == os.getpid():
            return
        with self._lock:
            if self._started_in == os.getpid():
                return
            self._started_in = os.getpid()
            if self.transport == "redis":
                _daemon(self._listen_redis, "wakeup-listen")
            elif self.transport == "postgresql":
                _daemon(self._listen_postgres, "wakeup-listen")
            elif self._directory is not None:
                self._socket = self._bind_socket()
                _daemon(self._listen_socket, "wakeup-listen")
            if self.fallback_seconds > 0 and (self.transport != "sqlite" or self._directory is not None):
                _daemon(self._fallback_poll, "wakeup-poll")

    def _listen_postgres(self) -> None:
        import psycopg
        dsn = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        pause = 0.1
        while not self.closing:
            try:
                with psycopg.connect(dsn, autocommit=True) as connection:
                    connection.execute("LISTEN " + CHANNEL)
                    self.listening.set()
                    self._wake_all()  # changes made while not listening are not lost: look again
                    pause = 0.1
                    while not self.closing:
                        for notify in connection.notifies(timeout=5.0):
                            self.wake(*_parse(notify.payload))
            except Exception as exc:  # noqa: BLE001 - a dropped connection: listen again
                self.listening.clear()
                log.warning("wake-up listener lost its connection (%s); reconnecting", exc)
                time.sleep(pause)
                pause = min(pause * 2, 5.0)

    def _listen_redis(self) -> None:
        import redis
        pause = 0.1
        while not self.closing:
            try:
                pubsub = redis.Redis.from_url(self.redis_url).pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                self.listening.set()
                self._wake_all()
                pause = 0.1
                while not self.closing:
                    message = pubsub.get_message(timeout=5.0)
                    if message and isinstance(message.get("data"), bytes):
                        self.wake(*_parse(message["data"].decode("ascii", "replace")))
            except redis.RedisError as exc:
                self.listening.clear()
                log.warning("wake-up listener lost Redis (%s); reconnecting", exc)
                time.sleep(pause)
                pause = min(pause * 2, 5.0)

    def _bind_socket(self) -> socket.socket:
        os.makedirs(self._directory, mode=0o700, exist_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = os.path.join(self._directory, f"{os.getpid()}-{uuid.uuid4().hex[:8]}.sock")
        sock.bind(path)
        atexit.register(_unlink, path)  # a killed process's socket is removed by the next sender
        return sock

    def _listen_socket(self) -> None:
        while not self.closing:
            try:
                data = self._socket.recv(512)
            except OSError:
                return
            self.wake(*_parse(data.decode("ascii", "replace")))

    def _fallback_poll(self) -> None:
        """The safety read (see the module's docstring): per process, on its own connection."""
        from sqlalchemy import create_engine
        from sqlalchemy.pool import NullPool
        own = create_engine(self.url, poolclass=NullPool)  # not the pool's: waiting holds none of it
        while not self.closing:
            time.sleep(self.fallback_seconds)
            for prefix, (statement, parse) in list(_WATCHED.items()):
                with self._lock:
                    known = {parse(key[len(prefix):]): {w.version for w in group}
                             for key, group in self._waiters.items() if key.startswith(prefix)}
                ids = sorted(known)
                if not ids:
                    continue
                try:
                    with own.connect() as connection:
                        for start in range(0, len(ids), 500):
                            rows = connection.execute(statement, {"ids": ids[start:start + 500]}).all()
                            for found, version in rows:
                                if known[found] - {version}:
                                    self.wake(f"{prefix}{found}")  # a message may be lost with it
                            connection.rollback()
                except Exception as exc:  # noqa: BLE001 - the database may be away for a moment
                    log.warning("wake-up fallback poll failed: %s", exc)

    def _wake_all(self) -> None:
        with self._lock:
            self._noted(None)
            waiters = [w for group in self._waiters.values() for w in group]
        for waiter in waiters:
            waiter.wake()


def _daemon(target, name: str) -> None:
    threading.Thread(target=target, name=name, daemon=True).start()


def _socket_directory(url) -> str | None:
    """Where the processes sharing one SQLite file find each other's sockets (None in memory).
    Under the temporary directory: a Unix socket's path must stay short (about 100 bytes)."""
    if not url.database or url.database == ":memory:":
        return None
    digest = hashlib.sha256(os.path.abspath(url.database).encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"gin-wakeup-{digest}")


def _unlink(path: str) -> None:
    with suppress(OSError):
        os.unlink(path)


_HUBS: dict[str, Hub] = {}
_BY_ENGINE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_HUBS_LOCK = threading.Lock()


def hub() -> Hub:
    """The hub for the current app's database (one per database per process)."""
    engine = db.engine
    found = _BY_ENGINE.get(engine)  # the fast path: every change and every wait asks
    if found is None:
        from flask import current_app

        def setting(name):
            return current_app.config.get(name, os.environ.get(name)) or None
        key = engine.url.render_as_string(hide_password=False)
        fallback = setting("WAKEUP_FALLBACK_SECONDS")
        with _HUBS_LOCK:
            found = _HUBS.setdefault(key, Hub(engine, setting("WAKEUP_REDIS_URL"),
                                              float(fallback) if fallback else None))
        _BY_ENGINE[engine] = found
    return found


def close_all() -> None:
    """Called when the server process is told to stop (service/core/gevent_worker.py)."""
    for each in list(_HUBS.values()):
        each.close()
