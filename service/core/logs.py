"""Logs: one JSON object per line on standard error (LOG_FORMAT=plain: text, for development).

Every record carries time, level, event (the message) and logger; a record made while a request
is handled also carries its request_id, route (the URL rule) and game_id when the path names a
game. Each request ends with one line of its own, event "request": method, route, status,
duration_ms, client. Nothing else of the request goes in: no header, no body, no query string, so
no token, invite code, link key or reply secret (those travel in headers and bodies only).

The request id is the caller's X-Request-Id only when requests come through a trusted proxy
(TRUSTED_PROXIES, from an address of TRUSTED_PROXY_IPS: core/proxies.py), else a new one; either way it is sent back as X-Request-Id in every answer.

python-json-logger rather than structlog: it is a logging.Formatter, so every logger already in
use (the service's, gunicorn's, SQLAlchemy's, aiosmtpd's) comes out as JSON without a change to
any call, and gunicorn's own log config can name it (service/core/server.py).
"""
from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from datetime import datetime, timezone

from flask import current_app, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

from . import settings
from .proxies import VIA_TRUSTED_PROXY

settings.register({"LOG_FORMAT": "json", "LOG_LEVEL": "INFO"})
REQUEST_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")  # what a proxy's id may look like, no more
PLAIN = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
request_log = logging.getLogger("service.request")


class JsonLines(JsonFormatter):
    """time, level, event, logger, then the record's own fields (request_id, route, game_id ...)."""

    def __init__(self, *args, **kwargs):
        super().__init__("%(asctime)s %(levelname)s %(message)s %(name)s",
                         rename_fields={"asctime": "time", "levelname": "level", "message": "event",
                                        "name": "logger"})

    def formatTime(self, record, datefmt=None) -> str:
        return datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds")


class RequestFields(logging.Filter):
    """Adds the current request's id, route and game id to every record made while handling it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if has_request_context() and "request_id" in g:
            record.request_id = g.request_id
            record.route = request.url_rule.rule if request.url_rule is not None else None
            game_id = (request.view_args or {}).get("game_id")
            if game_id is not None:
                record.game_id = game_id
        elif not hasattr(record, "request_id"):
            record.request_id = "-"  # (the plain format names it)
        return True


def handler(log_format: str) -> logging.Handler:
    made = logging.StreamHandler(sys.stderr)
    made.setFormatter(logging.Formatter(PLAIN) if log_format == "plain" else JsonLines())
    made.addFilter(RequestFields())
    made.gin_logs = True  # ours: configure() puts one on the root logger, once
    return made


def configure(app) -> None:
    """The root logger writes one line per record in LOG_FORMAT (not under tests: pytest's
    capture stays as it is), and every request gets an id and its own line."""
    with app.app_context():
        log_format, level = settings.setting("LOG_FORMAT"), settings.setting("LOG_LEVEL")
    app.config["GIN_TRUST_REQUEST_ID"] = bool(app.config.get("TRUSTED_PROXIES"))
    app.before_request(_begin)
    app.after_request(_end)
    if app.testing:
        return
    root = logging.getLogger()
    if not any(getattr(each, "gin_logs", False) for each in root.handlers):
        root.addHandler(handler(log_format))
    root.setLevel(level.upper())


def request_id() -> str:
    given = request.headers.get("X-Request-Id")
    if (given and current_app.config["GIN_TRUST_REQUEST_ID"] and request.environ.get(VIA_TRUSTED_PROXY)
            and REQUEST_ID.fullmatch(given)):
        return given
    return uuid.uuid4().hex


def _begin() -> None:
    g.request_id, g.request_started = request_id(), time.perf_counter()


def _end(response):
    if "request_id" not in g:  # refused before any before_request ran
        _begin()
    response.headers["X-Request-Id"] = g.request_id
    request_log.info("request", extra={
        "method": request.method, "status": response.status_code, "client": request.remote_addr,
        "duration_ms": round((time.perf_counter() - g.request_started) * 1000, 3)})
    return response
