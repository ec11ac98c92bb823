"""The production server's settings: `gunicorn -c python:service.core.server "service:create_app()"`.

gevent workers: each connection is a greenlet, so a client waiting for its turn (a long-poll, a
stream) costs a few kilobytes and a socket, never a thread, and no request ever queues behind a
waiting one (gthread did, from about 16 waiters on). psycopg 3 and the SQLite lock wait
(time.sleep) yield to other greenlets under gevent's monkey-patching; so do redis, smtplib and
urllib3, which are plain sockets.

Slow clients: a request's line and headers must arrive within `keepalive` seconds (gunicorn's
gevent worker times out the wait for the next request with it), every later read or write on
the socket within READ_TIMEOUT seconds, and a request whose header is too large gets a problem
document (431), not gunicorn's HTML page. In front of this, a reverse proxy that buffers
requests (nginx's default) is still recommended: see the README's security section.

Metrics: every worker counts into files under PROMETHEUS_MULTIPROC_DIR (a new temporary
directory when it is not set, made here, in the master, before any worker imports
prometheus_client), and a worker that exits is marked dead (child_exit): service/core/metrics.py.

Logs: gunicorn's error log is JSON lines as the service's are (LOG_FORMAT=plain: text); gunicorn's
access log stays off, as by default (`--access-logfile` turns it on, in JSON too): the service logs
one line per request itself, with its request id, route and game (service/core/logs.py).

Other settings come from the command line (`--workers`, `--bind`), as in the Procfile.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import tempfile

from gunicorn import glogging, util
from gunicorn.http import wsgi
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers.ggevent import GeventWorker

from .logs import JsonLines

READ_TIMEOUT = float(os.environ.get("READ_TIMEOUT", "30"))

worker_class = "service.core.server.Worker"
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "10000"))  # per worker process
keepalive = int(os.environ.get("KEEPALIVE", "5"))  # also the deadline for a request's head
graceful_timeout = 10
timeout = 30  # a worker silent this long is restarted (gevent workers heartbeat from their hub)

_MADE_METRICS_DIR = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # inherited by the workers this master forks
    _MADE_METRICS_DIR = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="gin-metrics-")

logger_class = "service.core.server.Logger"


class Logger(glogging.Logger):
    """gunicorn's logger, writing JSON lines as the service does (LOG_FORMAT=plain: gunicorn's text).
    Its access log stays as configured: off by default, the service logging each request itself."""

    def setup(self, cfg):
        super().setup(cfg)
        if os.environ.get("LOG_FORMAT", "json") != "plain":
            for handler in (*self.error_log.handlers, *self.access_log.handlers):
                handler.setFormatter(JsonLines())


def child_exit(server, worker):
    """A worker's live gauges (waiting clients, pool in use) end with it; its counts stay."""
    from prometheus_client import multiprocess
    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _MADE_METRICS_DIR:  # ours, so nobody else counts into it
        shutil.rmtree(_MADE_METRICS_DIR, ignore_errors=True)


def on_starting(server):
    """Each waiting client holds a socket: let the processes open as many as the system allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class OneWriteResponse(wsgi.Response):
    """gunicorn's response, whose head goes out with a body that comes in one piece (every API
    answer: Flask gives it a Content-Length) in one sendall, not two: on loopback each costs a
    system call and a wake-up of the client. Anything else (streams, files, HEAD, 304) takes
    gunicorn's own path."""

    def write(self, arg):
        if self.headers_sent or self.chunked or self.sent or getattr(self, "_omits_body", False) \
                or not isinstance(arg, bytes) or self.response_length != len(arg):
            return super().write(arg)
        tosend = self.default_headers()  # as gunicorn's send_headers writes them
        tosend.extend(["%s: %s\r\n" % (k, v) for k, v in self.headers])
        self.headers_sent, self.sent = True, len(arg)
        util.write(self.sock, util.to_bytestring("%s\r\n" % "".join(tosend), "latin-1") + arg)


class Worker(GeventWorker):
    """gunicorn's gevent worker, with a read timeout on every connection, problem documents for
    requests gunicorn refuses itself, waiting requests answered at once when it stops, and
    answers written in one piece (OneWriteResponse)."""

    def init_process(self):
        wsgi.Response = OneWriteResponse  # the class wsgi.create makes, in this worker process
        super().init_process()

    def handle(self, listener, client, addr):
        client.settimeout(READ_TIMEOUT)
        super(GeventWorker, self).handle(listener, client, addr)  # skip setblocking(1): keep the timeout

    def handle_exit(self, sig, frame):
        super().handle_exit(sig, frame)
        self._wake_waiters()

    def handle_quit(self, sig, frame):
        super().handle_quit(sig, frame)
        self._wake_waiters()

    def _wake_waiters(self):
        import gevent

        from .wakeup import close_all
        gevent.spawn(close_all)  # out of the signal handler; long-polls answer, streams end

    def handle_error(self, req, client, addr, exc):
        if isinstance(exc, LimitRequestHeaders):
            status, code, detail = 431, "header-too-large", "a request header, or all of them, is too large"
        elif isinstance(exc, LimitRequestLine):
            status, code, detail = 414, "uri-too-long", "the request line is too long"
        else:
            return super().handle_error(req, client, addr, exc)
        self.log.warning("refused a request from %s: %s", (addr or ("",))[0], exc)
        body = json.dumps({"type": f"/docs#problem-{code}", "title": _PHRASES[status], "status": status,
                           "detail": detail, "code": code}).encode()
        head = (f"HTTP/1.1 {status} {_PHRASES[status]}\r\nConnection: close\r\n"
                f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
        try:
            client.sendall(head.encode("latin-1") + body)
        except OSError:
            pass


_PHRASES = {414: "URI Too Long", 431: "Request Header Fields Too Large"}
