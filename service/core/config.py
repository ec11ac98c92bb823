"""Configuration from the environment, with defaults that run on a fresh machine."""
from __future__ import annotations

import os


def database_url(instance_path: str) -> str:
    """DATABASE_URL if set (PostgreSQL in production), else a SQLite file under instance/."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + os.path.join(instance_path, "gin.sqlite3")
    # Hosting platforms hand out postgres:// URLs; SQLAlchemy wants the dialect and driver named.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def from_environment(instance_path: str) -> dict:
    return {
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        # Seconds a SQLite writer waits for the lock before giving up (busy_timeout).
        "SQLITE_BUSY_TIMEOUT": float(os.environ.get("SQLITE_BUSY_TIMEOUT", "30")),
        # The connection budget of each process (core/pool.py, docs/operations.md).
        "DB_POOL_SIZE": int(os.environ.get("DB_POOL_SIZE", "5")),
        "DB_MAX_OVERFLOW": int(os.environ.get("DB_MAX_OVERFLOW", "10")),
        "DB_POOL_TIMEOUT": int(os.environ.get("DB_POOL_TIMEOUT", "10")),  # whole seconds, as SQLAlchemy takes it
        # PostgreSQL reached through a pooler in transaction mode (PgBouncer): no session state.
        "DB_TRANSACTION_POOLING": _true(os.environ.get("DB_TRANSACTION_POOLING", "")),
        "MAX_CONTENT_LENGTH": int(os.environ.get("MAX_CONTENT_LENGTH", str(64 * 1024))),
        # flask-smorest: the spec is generated from the code and served at /openapi.json.
        "API_TITLE": "Gin Rummy correspondence service",
        "API_VERSION": "1.0.0",
        "OPENAPI_VERSION": "3.1.0",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        "JSON_SORT_KEYS": False,
        # How many reverse proxies stand in front of the service: each adds itself to
        # X-Forwarded-For, and the client address (rate limits, logs) is read from there.
        "TRUSTED_PROXIES": int(os.environ.get("TRUSTED_PROXIES", "0")),
        # The addresses those proxies connect from: forwarded headers from any other are ignored.
        "TRUSTED_PROXY_IPS": os.environ.get("TRUSTED_PROXY_IPS", "127.0.0.0/8,::1"),
        # The house bot's account name (the Procfile's `bot:` line registers it): GET /house-bot
        # tells clients whom to challenge to play the computer. Empty: no house bot.
        "HOUSE_BOT_NAME": os.environ.get("HOUSE_BOT_NAME", "House").strip(),
    }


def _true(raw: str) -> bool:
    return raw.strip().lower() in ("1", "true", "yes", "on")
