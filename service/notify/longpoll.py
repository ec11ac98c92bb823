"""GET /games/{id}?wait=N: answer as soon as the game's version moves, or 304 after N seconds.

While waiting the request holds no transaction and no lock: every POLL_SECONDS it reads the one
`version` column by primary key on a pooled connection and gives the connection straight back.
A waiting request still occupies its server thread, so long-poll wants threaded workers
(gunicorn --worker-class gthread --threads N, see the README), and N is capped at MAX_WAIT.
"""
from __future__ import annotations

import time

from sqlalchemy import select

from ..database import READ_ONLY
from ..extensions import db
from ..models import Game

MAX_WAIT = 60
POLL_SECONDS = 0.5


def unchanged(version: int, query: dict) -> bool:
    """The client already has this version: named in If-None-Match or in ?version=."""
    from ..web import not_modified
    return not_modified(version) or query.get("version") == version


def wait(game_id: str, version: int, seconds: float):
    """End the request's read, wait for a change, read again: (version, seat, view) as store.read_view."""
    from .. import store
    from ..web import bearer_token
    db.session.rollback()  # hold no transaction (and no pooled connection) while waiting
    wait_for_change(game_id, version, seconds)
    return store.read_view(game_id, bearer_token())


def current_version(game_id: str) -> int | None:
    with db.engine.connect().execution_options(**{READ_ONLY: True}) as connection:
        return connection.execute(select(Game.version).where(Game.id == game_id)).scalar()


def wait_for_change(game_id: str, known_version: int, seconds: float) -> int | None:
    """Sleep-poll until the version differs from `known_version` or `seconds` pass; the version."""
    give_up = time.monotonic() + min(seconds, MAX_WAIT)
    while True:
        version = current_version(game_id)
        left = give_up - time.monotonic()
        if version != known_version or left <= 0:
            return version
        time.sleep(min(POLL_SECONDS, left))
