"""Prometheus metrics at METRICS_PATH (/metrics), in the Prometheus text format.

Under gunicorn every worker is a process of its own: prometheus_client's multiprocess mode keeps
each process's values in files under PROMETHEUS_MULTIPROC_DIR (service/core/server.py makes one
when it is not set, before any worker imports this module), and a scrape, answered by any one
worker, sums them all; a worker that exits is marked dead (server.py's child_exit), so its gauges
drop out while its counts stay. Without PROMETHEUS_MULTIPROC_DIR (the Flask test client, `flask
run`) the values are this process's alone. The notify worker and the SMTP listener count into the
same directory when the Procfile's processes share PROMETHEUS_MULTIPROC_DIR (docs/configuration.md).

Counted where it happens: requests here (route = the URL rule, never the raw path; a scrape counts
itself before it is written), moves in games.moves.play, waiting clients in games.waiting, outbox
deliveries and failures in notify.worker, inbound mail in notify.inbound.smtpd, the wake-up listener's
reconnections (`Listening`, used by core.wakeup), the pool's waits and timeouts in core.pool. Every series whose labels
are known beforehand is made at zero when the app is (`start_at_zero`). Gauges that are facts in
the database (games active, outbox pending and its lag) or in the process (`gin_ready`) are read at
scrape time, by functions registered with `scraped`.

The answer is given only to a loopback client or to `Authorization: Bearer <METRICS_TOKEN>`; the
client address is the one limits.client_address reads (X-Forwarded-For behind TRUSTED_PROXIES).
"""
from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import re
import threading
import time
import weakref

from flask import Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, \
    generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from sqlalchemy.exc import SQLAlchemyError

from . import settings
from .database import begin_read_only
from .errors import problem_response
from .extensions import db
from .hooks import Registry
from .limits import UNLIMITED_ENDPOINTS, client_address

log = logging.getLogger(__name__)
settings.register({"METRICS_ENABLED": True, "METRICS_PATH": "/metrics", "METRICS_TOKEN": ""},
                  {"METRICS_ENABLED": bool})
ENDPOINT = "metrics"
UNLIMITED_ENDPOINTS.add(ENDPOINT)  # a scraper must never be turned away by the rate limits
METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
UNMATCHED = "(unmatched)"  # a path no route takes: one label, whatever was asked

HTTP_REQUESTS = Counter("gin_http_requests", "HTTP requests answered, by URL rule, method and status",
                        ["route", "method", "status"])
HTTP_SECONDS = Histogram("gin_http_request_seconds", "Time to answer a request (a stream: to its first byte), "
                         "by URL rule", ["route"],
                         buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30, 60))
MOVES = Counter("gin_moves", "Moves recorded, by HTTP or by mail, by kind (draw, discard, knock ...)", ["kind"])
WAITING = Gauge("gin_waiting_clients", "Requests waiting for a change: long-polls and streams",
                ["kind"], multiprocess_mode="livesum")
OUTBOX_FAILURES = Counter("gin_outbox_failures", "Failed delivery attempts of the outbox, by channel",
                          ["channel"])
DELIVERIES = Counter("gin_deliveries", "Outbox rows delivered (a mail accepted, a webhook call answered 2xx), "
                     "by channel", ["channel"])
WAKEUP_RECONNECTS = Counter("gin_wakeup_reconnects", "Times a process's wake-up listener lost its connection "
                            "(and listens again once it can), by transport (postgresql, redis)", ["transport"])
MAIL_INBOUND = Counter("gin_mail_inbound", "Mail received by the SMTP listener, by outcome", ["outcome"])
DB_POOL = Gauge("gin_db_pool_in_use", "Database connections checked out of the pool",
                multiprocess_mode="livesum")
DB_POOL_CAPACITY = Gauge("gin_db_pool_capacity", "Database connections the pools may hold at most "
                         "(DB_POOL_SIZE + DB_MAX_OVERFLOW per process)", multiprocess_mode="livesum")
DB_POOL_WAITS = Counter("gin_db_pool_waits", "Checkouts that found every pooled connection out and waited")
DB_POOL_WAIT_SECONDS = Counter("gin_db_pool_wait_seconds", "Time spent waiting for a pooled connection")
DB_POOL_TIMEOUTS = Counter("gin_db_pool_timeouts", "Checkouts that waited DB_POOL_TIMEOUT and gave up (503)")

scraped = Registry("""(name, help, function): a gauge read when scraped, function() -> a number
(games.init_app: gin_games_active; notify.init_app: gin_outbox_pending).""")


def init_app(app) -> None:
    """Count every request and serve the metrics, unless METRICS_ENABLED is false. Registered
    before every other after_request hook so that it runs last, on the status really sent."""
    with app.app_context():
        enabled, path = settings.setting("METRICS_ENABLED"), settings.setting("METRICS_PATH")
    app.extensions["gin_metrics"] = enabled
    if not enabled:
        return
    app.before_request(_started)
    app.after_request(_count_request)
    app.add_url_rule(path, ENDPOINT, serve, methods=["GET"])


def enabled() -> bool:
    return current_app.extensions.get("gin_metrics", False)


def watch_pool(app, engine) -> None:
    """gin_db_pool_in_use: this process's pools, sampled every POOL_SAMPLE_SECONDS by a thread of
    its own (a greenlet under gevent), not at every checkout: a move checks out two or three times."""
    if app.extensions.get("gin_metrics") and hasattr(engine.pool, "checkedout"):
        _POOLS.add(engine.pool)


POOL_SAMPLE_SECONDS = 1.0
_POOLS: weakref.WeakSet = weakref.WeakSet()
_sampling_in: list = [None]  # the pid whose sampler runs (gunicorn forks after the app is made)


def _sample_pools() -> None:
    while True:
        DB_POOL.set(sum(pool.checkedout() for pool in list(_POOLS)))
        time.sleep(POOL_SAMPLE_SECONDS)


def _child(metric, *labels):
    """metric.labels(*labels), kept: labels() checks and locks on every call, a dict look-up does not."""
    try:
        return _CHILDREN[(metric, labels)]
    except KeyError:
        made = _CHILDREN[(metric, labels)] = metric.labels(*labels)
        return made


_CHILDREN: dict = {}


def move(kind: str) -> None:
    if enabled():
        _child(MOVES, kind).inc()


class waiting:
    """`with waiting("long-poll"):` counts a waiting request while it waits."""

    def __init__(self, kind: str):
        self.gauge = _child(WAITING, kind) if enabled() else None

    def __enter__(self):
        if self.gauge is not None:
            self.gauge.inc()

    def __exit__(self, *exc):
        if self.gauge is not None:
            self.gauge.dec()


def pool_capacity(connections: int) -> None:
    DB_POOL_CAPACITY.set(connections)


def pool_waited(seconds: float) -> None:
    DB_POOL_WAITS.inc()
    DB_POOL_WAIT_SECONDS.inc(seconds)


def pool_timed_out() -> None:
    DB_POOL_TIMEOUTS.inc()


def outbox_failed(channel: str) -> None:
    _child(OUTBOX_FAILURES, channel).inc()  # (the notify worker: no request, no per-app switch)


def delivered(channel: str) -> None:
    _child(DELIVERIES, channel).inc()


class Listening:
    """Whether a process's wake-up listener listens (core/wakeup.py sets it once connected, clears
    it when the connection is lost), each loss counted by transport. The event is made when this
    is, under gevent a greenlet's: `ready()` waits on it."""

    def __init__(self, transport: str):
        self.transport = transport
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def clear(self) -> None:
        if self._event.is_set():
            _child(WAKEUP_RECONNECTS, self.transport).inc()
        self._event.clear()

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)


def start_at_zero(moves=(), waiting=(), channels=(), inbound=(), transports=()) -> None:
    """Every series whose label values are known beforehand, made now at zero (the app factory
    names them: it knows every feature): each family is in the scrape from a process's start, not
    from its first count, so that rates, ratios and alerts over it have something to read."""
    for metric, values in ((MOVES, moves), (WAITING, waiting), (OUTBOX_FAILURES, channels),
                           (DELIVERIES, channels), (MAIL_INBOUND, inbound), (WAKEUP_RECONNECTS, transports)):
        for value in values:
            _child(metric, value)


def mail_received(outcome: str) -> None:
    _child(MAIL_INBOUND, outcome).inc()


def _started() -> None:
    g.metrics_started = time.perf_counter()
    if _sampling_in[0] != os.getpid():
        _sampling_in[0] = os.getpid()
        threading.Thread(target=_sample_pools, name="metrics-pool", daemon=True).start()


def _count_request(response):
    if g.get("metrics_counted"):
        return response
    rule = request.url_rule
    route = rule.rule if rule is not None else UNMATCHED
    method = request.method if request.method in METHODS else "OTHER"
    _child(HTTP_REQUESTS, route, method, str(response.status_code)).inc()
    started = g.get("metrics_started")
    if started is not None:
        _child(HTTP_SECONDS, route).observe(time.perf_counter() - started)
    return response


def serve():
    if not _allowed():
        return problem_response(403, "metrics-forbidden", "the metrics answer only a loopback client or "
                                                          "the bearer token in METRICS_TOKEN")
    # This scrape counted before it is written: the request families are in it from the first one.
    _count_request(Response(status=200))
    g.metrics_counted = True
    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        forget_the_dead(os.environ["PROMETHEUS_MULTIPROC_DIR"])
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(_Scraped())
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)


_LIVE_GAUGE = re.compile(r"^gauge_live\w+_(\d+)\.db$")


def forget_the_dead(directory: str) -> None:
    """The live gauges (waiting clients, pool in use and capacity) of processes that are gone: a
    gunicorn worker is marked dead by its master (server.py's child_exit), but a `flask` process
    sharing the directory (the notify worker, the mail listener, `db upgrade`) that ended, or any
    process killed with its master, was not; its gauges would be summed forever. Their counts stay:
    counters only grow while the directory lives (it is emptied when the service starts)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for pid in {int(found.group(1)) for name in names if (found := _LIVE_GAUGE.match(name))}:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)
        except PermissionError:  # alive, another user's
            pass


def _allowed() -> bool:
    token = settings.setting("METRICS_TOKEN")
    if token:
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
            return True
    try:
        return ipaddress.ip_address(client_address()).is_loopback
    except ValueError:
        return False


class _ThisProcess:
    """The default registry's gin_ metrics (not the process and platform collectors')."""

    def collect(self):
        return [family for family in REGISTRY.collect() if family.name.startswith("gin_")]


class _Scraped:
    """The gauges read from the database when scraped, in a read-only transaction; one that cannot
    be read (the database away) is left out, and the counts are still served."""

    def collect(self):
        for name, documentation, read in scraped():
            try:
                try:
                    begin_read_only()
                except SQLAlchemyError:  # the database away: what reads it fails below, the rest is read
                    db.session.rollback()
                value = read()
            except SQLAlchemyError as exc:
                log.warning("metrics: %s not read (%s)", name, type(exc).__name__)
                continue
            finally:
                db.session.rollback()
            yield GaugeMetricFamily(name, documentation, value=value)
