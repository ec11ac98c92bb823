"""The app factory: the top layer, and the one module that knows every feature.

It reads the configuration, binds the core's extensions (database, migrations, the API), adds
every feature's problem codes to the catalogue, and registers each feature package's routes,
commands and hooks, in the order their hooks must run (docs/architecture.md).
"""
from __future__ import annotations

import os

from flask import request
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import access, admin, games, notify, players, series, site
from ..core import config, database, logs, metrics
from ..core.errors import Problem, register_codes
from ..core.extensions import api, db, migrate
from ..core.fastjson import deserialize, serialize
from ..core.limits import init_limits
from ..core.web import BEARER_SCHEME, App, untyped_when_empty
from ..games.codes import CLOCK_CODES, MESSAGE_CODES, REPLAY_CODES
from ..notify.codes import MAIL_CODES, WEBHOOK_CODES
from ..players.codes import PLAYER_CODES
from ..series.codes import SERIES_CODES
from . import spec
from .meta import document_metrics, meta

# Every feature's problem codes, in the catalogue before any route documents them.
register_codes(engine=CLOCK_CODES)  # claim_timeout and vacations, raised as the engine's IllegalAction
register_codes({**MAIL_CODES, **WEBHOOK_CODES, **PLAYER_CODES, **SERIES_CODES, **REPLAY_CODES, **MESSAGE_CODES})
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
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"json_serializer": serialize, "json_deserializer": deserialize,
                                               "hide_parameters": True, "pool_pre_ping": True,
                                               **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})}
    if app.config["TRUSTED_PROXIES"]:
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
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
            database.configure_postgresql(db.engine)
        metrics.watch_pool(app, db.engine)

    api.register_components = spec.register  # the unions and views every feature's schemas name
    api.init_app(app)
    api.spec.components.security_scheme("bearerAuth", BEARER_SCHEME)
    # The features, in the order their change hooks run (games.changes): notify's mails and
    # webhooks, then players' streams (a `your_turn` shows the new deadline), then series'.
    games.init_app(app)  # games of 2 to 8 seats: create, join, moves, views, history, streams
    api.register_blueprint(meta)  # health, /docs, /openapi.yaml
    document_metrics(api.spec)  # (served by core/metrics.py at METRICS_PATH)
    notify.init_app(app)  # contact and vacation routes, the `flask notify` commands
    access.init_app(app)  # invitations, mail links, a seat's tokens
    players.init_app(app)  # accounts, challenges, rematches, watch links, /me/stream
    series.init_app(app)  # tournaments and series: /series, the next game made when one ends
    site.init_app(app)  # the pages people play on, and every answer's security headers
    admin.init_app(app)  # `flask admin`: suspend, rename, export and erase; suspended seats closed
    init_limits(app)  # RATELIMIT_* settings; see core/limits.py
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
