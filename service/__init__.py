"""The correspondence Gin Rummy service: a stateless Flask REST API over the rules engine.

`service.rules` is the pure engine; importing it must not pull in Flask, so the web parts are
imported inside create_app.
"""
from __future__ import annotations


def create_app(config_overrides: dict | None = None):
    """The app factory: gunicorn runs "service:create_app()", the flask CLI finds it by name."""
    import logging
    import os

    from flask import request

    from . import config, database, notify
    from .errors import Problem
    from .extensions import api, db, migrate
    from .meta import meta
    from .routes import games
    from .web import BEARER_SCHEME, App

    app = App(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.update(config.from_environment(app.instance_path))
    app.config.update(config_overrides or {})
    app.json.sort_keys = False
    # The JSON columns (match state, events, deals) in and out with orjson: service/fastjson.py.
    from .fastjson import deserialize, serialize
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"json_serializer": serialize, "json_deserializer": deserialize,
                                               **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})}
    if app.config["TRUSTED_PROXIES"]:
        from werkzeug.middleware.proxy_fix import ProxyFix
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    db.init_app(app)
    migrations = app.config.get("MIGRATIONS_DIRECTORY") or database.default_migrations_directory()
    migrate.init_app(app, db, directory=migrations, render_as_batch=True)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            database.configure_sqlite(db.engine, app.config["SQLITE_BUSY_TIMEOUT"])
        elif db.engine.dialect.name == "postgresql":
            database.configure_postgresql(db.engine)

    api.init_app(app)
    api.spec.components.security_scheme("bearerAuth", BEARER_SCHEME)
    api.register_blueprint(games)
    api.register_blueprint(meta)
    notify.init_app(app)  # contact and vacation routes, the `flask notify` commands
    from .access.routes import access
    api.register_blueprint(access)  # invitations, mail links, a seat's tokens
    from . import players
    players.init_app(app)  # accounts, challenges, rematches, watch links, /me/stream
    from . import series
    series.init_app(app)  # tournaments and series: /series, the next game made when one ends
    from . import site
    site.init_app(app)  # the pages people play on, and every answer's security headers
    from .limits import init_limits
    init_limits(app)  # RATELIMIT_* settings; see service/limits.py

    expected_heads = database.migration_heads(migrations) if os.path.isdir(migrations) else set()
    schema_checked = []  # becomes [True] once the database is found at the code's migration head

    @app.before_request
    def refuse_unmigrated_database():
        if schema_checked or request.endpoint in (None, "service.docs", "service.openapi_yaml") or \
                (request.endpoint or "").startswith("api-docs."):
            return
        problem = database.schema_problem(expected_heads)
        if problem:
            app.logger.error(problem)
            raise Problem("database-not-migrated", "the database is not migrated to this version of the "
                                                   "service: run `flask --app service db upgrade`")
        schema_checked.append(True)

    if not app.debug and not app.testing:
        logging.basicConfig(level=logging.INFO)
    return app
