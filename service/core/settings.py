"""Settings: app.config first, then the environment, then a default that works on a fresh machine.
Each feature registers its own settings' defaults and types (notify/config.py, games/deadlines.py);
the core's own is BASE_URL."""
from __future__ import annotations

import os

from flask import current_app

DEFAULTS: dict = {
    # The public URL of the service, for links in mails: by default the address `make run` serves,
    # whose port follows PORT (`make run PORT=9000`), so a game's first mails never link elsewhere.
    "BASE_URL": lambda: f"http://127.0.0.1:{os.environ.get('PORT') or 8000}",
}
_TYPES: dict = {}


def register(defaults: dict, types: dict | None = None) -> None:
    """Add settings with their defaults (a callable: made from other settings when read) and, for
    those not strings, the type their environment value is read as (bool: 1, true, yes or on)."""
    DEFAULTS.update(defaults)
    _TYPES.update(types or {})


def setting(name: str):
    if name in current_app.config:
        return current_app.config[name]
    raw = os.environ.get(name)
    if raw is None:
        value = DEFAULTS[name]
        return value() if callable(value) else value  # a default made from other settings
    kind = _TYPES.get(name, str)
    if kind is bool:
        return raw.strip().lower() in ("1", "true", "yes", "on")
    return kind(raw)
