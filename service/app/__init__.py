"""The app factory: the top layer, and the one module that knows every feature.

It reads the configuration, binds the core's extensions (database, migrations, the API), adds
every feature's problem codes to the catalogue, and registers each feature package's routes,
commands and hooks, in the order their hooks must run (docs/architecture.md).
"""
from __future__ import annotations

import os

from flask import request

from .. import access, admin, coach, games, notify, players, series, site, tournaments
from ..coach.codes import COACH_CODES, HINT_CODES
from ..core import config, database, logs, metrics, pool, proxies
from ..core.errors import Problem, register_codes
from ..core.extensions import api, db, migrate
from ..core.fastjson import deserialize, serialize
from ..core.limits import init_limits
from ..core.proxies import TrustedProxyFix
from ..core.web import BEARER_SCHEME, App, no_store_when_private, untyped_when_empty
from ..games.action_schemas import ACTION_TYPES
from ..games.codes import CLOCK_CODES, MESSAGE_CODES, REPLAY_CODES
from ..notify.channels import registered as registered_channels
from ..notify.codes import MAIL_CODES, WEBHOOK_CODES
from ..players.codes import PLAYER_CODES
from ..series.codes import SERIES_CODES
from ..tournaments.codes import TOURNAMENT_CODES
from . import readiness, spec
from .meta import document_metrics, meta

# Every feature's problem codes, in the catalogue before any route documents them.
register_codes(engine=CLOCK_CODES)  # claim_timeout and vacations, raised as the engine's IllegalAction
register_codes({**MAIL_CODES, **WEBHOOK_CODES, **PLAYER_CODES, **SERIES_CODES, **REPLAY_CODES, **MESSAGE_CODES,
                **TOURNAMENT_CODES, **COACH_CODES,
                **HINT_CODES})
# The label values each feature counts with, made at zero with every app (core/metrics.py):
# tests/ops/test_metrics.py finds every value the code counts with among them. The channels'
# labels come from notify's registry (notify/channels.py), once notify.init_app has filled it.
WAITING_KINDS = ("long-poll", "stream", "player-stream")
INBOUND_OUTCOMES = ("played", "confirmed", "duplicate", "ignored", "stopped", "unsubscribed",
                    "unknown-address", "wrong-sender", "failed")
WAKEUP_TRANSPORTS = ("postgresql", "redis")
# Answered on a database not migrated yet: the docs, and what an operator reads to find it out.
UNCHECKED_ENDPOINTS = (None, "service.docs", "service.openapi_yaml", "service.ready", metrics.ENDPOINT)


def create_app(config_overrides: dict | None = None):
    """The app: gunicorn runs "service:create_app()", which calls this."""
    app = App("service", instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.update(config.from_environment(app.instance_path))
    app.config.update(config_overrides or {})
    app.json.sort_keys = False
    # The JSON columns (match state, events, deals) in and out with orjson: core/fastjson.py.
    # hide_parameters: a failed statement's error (and so the log) never shows its parameters, which
    # can be a token's hash. pool_pre_ping: a pooled connection the database closed meanwhile (a
    # restart, a failover, pg_terminate_backend) is found and replaced before a request uses it.
    # The pool: sized by DB_POOL_SIZE, DB_MAX_OVERFLOW and DB_POOL_TIMEOUT, its waits counted (core/pool.py).
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"json_serializer": serialize, "json_deserializer": deserialize,
                                               "hide_parameters": True, "pool_pre_ping": True,
                                               **pool.engine_options(app.config),
                                               **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})}
    if app.config["TRUSTED_PROXIES"]:
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, hops, proxies.networks(app.config["TRUSTED_PROXY_IPS"]))
    # First, so that their after_request hooks run last, on the answer really sent.
    logs.configure(app)  # JSON lines (LOG_FORMAT), a request id and a line per request
    metrics.init_app(app)  # /metrics (METRICS_*); see core/metrics.py

    db.init_app(app)  # every feature's tables are in its one metadata (each package's models module)
    database.close_session_safely(app)  # a connection lost as the request ends costs no answer
    migrations = app.config.get("MIGRATIONS_DIRECTORY") or database.default_migrations_directory()
    migrate.init_app(app, db, directory=migrations, render_as_batch=True)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            database.configure_sqlite(db.engine, app.config["SQLITE_BUSY_TIMEOUT"])
        elif db.engine.dialect.name == "postgresql":
            database.configure_postgresql(db.engine, app.config["DB_TRANSACTION_POOLING"])
        metrics.watch_pool(app, db.engine)

    api.register_components = spec.register  # the unions and views every feature's schemas name
    api.init_app(app)
    api.spec.components.security_scheme("bearerAuth", BEARER_SCHEME)
    # The features, in the order their change hooks run (games.changes): notify's mails and
    # webhooks, then players' streams (a `your_turn` shows the new deadline), then series', then
    # tournaments' (a knockout series records its game before the tournament reads the series;
    # tournaments' lock hook, registered `first`, runs before them all: results.py).
    games.init_app(app)  # games of 2 to 8 seats: create, join, moves, views, history, streams
    api.register_blueprint(meta)  # health, /docs, /openapi.yaml
    document_metrics(api.spec)  # (served by core/metrics.py at METRICS_PATH)
    notify.init_app(app)  # contact and vacation routes, the `flask notify` commands
    access.init_app(app)  # invitations, mail links, a seat's tokens
    players.init_app(app)  # accounts, challenges, rematches, watch links, /me/stream
    coach.init_app(app)  # reviews of finished matches, queued as they end, GET /games/{id}/review
    series.init_app(app)  # series: /series, the next game made when one ends
    tournaments.init_app(app)  # tournaments: /tournaments, pairings decided as games end, rounds, deadlines
    site.init_app(app)  # the pages people play on, and every answer's security headers
    admin.init_app(app)  # `flask admin`: suspend, rename, export and erase; suspended seats closed
    init_limits(app)  # RATELIMIT_* settings; see core/limits.py
    metrics.start_at_zero(moves=ACTION_TYPES, waiting=WAITING_KINDS, inbound=INBOUND_OUTCOMES,
                          channels=tuple(channel.metrics_label for channel in registered_channels()),
                          transports=WAKEUP_TRANSPORTS)
    metrics.scraped.register(("gin_ready", "1 when the process answering the scrape is ready (GET /ready), else 0",
                              readiness.as_gauge))
    app.after_request(no_store_when_private)  # a hand, a token, messages: never in a browser's disk cache
    app.after_request(untyped_when_empty)  # registered last, so it runs first: the others see no type

    expected_heads = database.migration_heads(migrations) if os.path.isdir(migrations) else set()
    app.extensions["gin_migration_heads"] = expected_heads  # /ready compares the database's with them
    schema_checked = []  # becomes [True] once the database is found at the code's migration head

    @app.before_request
    def refuse_unmigrated_database():
        if schema_checked or request.endpoint in UNCHECKED_ENDPOINTS or \
                (request.endpoint or "").startswith("api-docs."):
            return
        problem = database.schema_problem(expected_heads)
        if problem:
            app.logger.error(problem)
            raise Problem("database-not-migrated", "the database is not migrated to this version of the "
                                                   "service: run `flask --app service db upgrade`")
        schema_checked.append(True)
    return app
