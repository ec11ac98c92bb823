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
requests (nginx's default) is still recommended: see docs/operations.md, "Security".

Metrics: every worker counts into files under PROMETHEUS_MULTIPROC_DIR (a new temporary
directory when it is not set, made here, in the master, before any worker imports
prometheus_client), and a worker that exits is marked dead (child_exit): service/core/metrics.py.

Logs: gunicorn's error log is JSON lines as the service's are (LOG_FORMAT=plain: text); gunicorn's
access log stays off, as by default (`--access-logfile` turns it on, in JSON too): the service logs
one line per request itself, with its request id, route and game (service/core/logs.py).

Control: each instance's gunicornc socket is its own, named after its bind (own_control_socket).

The worker class is service/core/gevent_worker.py's. Other settings come from the command line (`--workers`, `--bind`), as in the Procfile.
"""
from __future__ import annotations

import os
import re
import resource
import shutil
import tempfile

from gunicorn import glogging
from gunicorn.config import ControlSocket

from .logs import JsonLines

worker_class = "service.core.gevent_worker.Worker"
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
    """Each waiting client holds a socket: let the processes open as many as the system allows.
    And each instance gets a control socket of its own (own_control_socket)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    own_control_socket(server.cfg)


def own_control_socket(cfg) -> None:
    """gunicorn's control socket (gunicornc) is by default one path per user
    ($XDG_RUNTIME_DIR/gunicorn.ctl, else ~/.gunicorn/gunicorn.ctl): a second instance on the host
    took it over, and the first one's stop removed it. Unless one was chosen (--control-socket),
    each instance's is named after its bind, beside it: gunicorn-127.0.0.1-8000.ctl (`gunicornc -s`)."""
    if cfg.control_socket_disable or cfg.control_socket != ControlSocket.default:
        return
    bound = "_".join(re.sub(r"[^\w.]+", "-", address if isinstance(address, str) else f"{address[0]}-{address[1]}")
                     .strip("-") for address in cfg.address)
    cfg.set("control_socket", os.path.join(os.path.dirname(cfg.control_socket), f"gunicorn-{bound}.ctl"))
