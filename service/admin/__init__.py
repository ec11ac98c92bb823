"""An operator's moderation and personal-data commands (`flask admin ...`): suspend, unsuspend and
rename a player; export or erase what the service holds about a player or an anonymous seat; each
written to an audit table.

    models.py      admin_actions, the audit table
    moderation.py  suspend (the seat closer and the forfeiting hook), unsuspend, rename
    export.py      the personal data of a player or a seat, as one JSON document
    erasure.py     erasing a player or a seat
    backup.py      a consistent copy of a live SQLite database
    cli.py         the `flask admin` commands

A feature above every other (it reads their tables to find a person's data); the games hear of a
suspension through games.changes (seat_closers, forfeiting).
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the commands; the closer of suspended players' seats and the seats whose games
    their opponents may claim at once."""
    from ..games import changes
    from . import models  # noqa: F401 - the audit table, in the one metadata
    from .cli import admin_cli
    from .moderation import SEAT_CLOSER, suspended_seats
    app.cli.add_command(admin_cli)
    changes.seat_closers.register(SEAT_CLOSER)
    changes.forfeiting.register(suspended_seats)
