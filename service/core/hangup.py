"""Noticing at once that a waiting client has gone away.

A long-poll or a stream sleeps between events. Without looking, the server learns that its client
closed the connection only when it next writes (a stream's keep-alive, 15 s later), and the
client's waiting slot stays taken until then. So while a request waits, its socket is watched:
a client that closes its connection makes the socket readable, and a peek (MSG_PEEK, so nothing
is consumed) that reads zero bytes is the end of the stream. Nothing is written to find out.

gunicorn hands the connection's socket to the app in the WSGI environ (`gunicorn.socket`):

- under its gevent worker (service/core/gevent_worker.py), an io watcher of the event loop waits for the
  socket to become readable: no greenlet and no wake-up until it does; it is stopped when the
  wait ends, before gunicorn closes the socket (libev must not watch a closed descriptor);
- under the sync and gthread workers, a thread polls the socket every POLL_SECONDS and ends at
  its next poll after the wait ends.

A socket that is readable with data (a client that sent its next request before this answer)
says nothing about the client: the watch stops there, and a client gone later is noticed at the
next write as before. A client that shuts down its sending side and still reads (rare for HTTP)
is taken as gone. Without gunicorn's socket (the Flask test client) nothing is watched.
"""
from __future__ import annotations

import _socket  # the C socket, never patched by gevent: a peek that cannot switch greenlets
import select
import socket
import sys
import threading
from collections.abc import Callable
from contextlib import contextmanager

POLL_SECONDS = 0.2
_READABLE = 1  # libev's EV_READ


def request_socket(environ) -> socket.socket | None:
    """The client connection of this request, when the server says which (gunicorn does)."""
    return environ.get("gunicorn.socket")


def connection_gone(sock) -> bool:
    """True when the client has closed or reset the connection. Never blocks, reads nothing."""
    try:
        # A second object on the same descriptor, so that the server's socket object (its timeout,
        # gevent's waits) is not involved. With no process-wide default timeout (the service sets
        # none), making it leaves the descriptor's blocking mode as it was.
        raw = _socket.socket(fileno=sock.fileno())
    except (OSError, ValueError):  # already closed (fileno -1) or not a socket any more
        return True
    try:
        return raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:  # nothing to read: the client is there, waiting
        return False
    except OSError:  # reset by the peer
        return True
    finally:
        raw.detach()  # the descriptor stays the server's


@contextmanager
def watch(sock, on_hangup: Callable[[], None]):
    """Call `on_hangup` (once, from another greenlet or thread: it must not block) if the client
    closes `sock` while the block runs. `sock` None: nothing is watched."""
    if sock is None:
        yield
        return
    stop = _watch_in_event_loop(sock, on_hangup) if _under_gevent() else _watch_in_thread(sock, on_hangup)
    try:
        yield
    finally:
        stop()


def _under_gevent() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("socket")


def _watch_in_event_loop(sock, on_hangup):
    from gevent import get_hub
    watcher = get_hub().loop.io(sock.fileno(), _READABLE)

    def readable():  # runs in the event loop: it must not block
        watcher.stop()  # once: a socket at its end stays readable
        if connection_gone(sock):
            on_hangup()

    watcher.start(readable)

    def stop():
        watcher.stop()
        watcher.close()
    return stop


def _watch_in_thread(sock, on_hangup):
    stopped = threading.Event()
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)

    def run():
        while not stopped.is_set():
            if poller.poll(POLL_SECONDS * 1000):  # readable, hung up, or closed under us
                if not stopped.is_set() and connection_gone(sock):
                    on_hangup()
                return
    threading.Thread(target=run, name="hangup-watch", daemon=True).start()
    return stopped.set
