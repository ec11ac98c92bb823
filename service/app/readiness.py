"""What /ready checks: whether this process should be sent traffic (load balancers, Kubernetes'
readiness probe), as opposed to /health, which says only that the process answers.

Ready when the database answers, its schema is at the code's migration head (the alembic_version
it holds against migrations/'s heads), and the wake-up listener is listening (without it, a
long-poll or stream served here would miss the moves made on other processes until the fallback
poll). Each failing check is named, with what is wrong, never with a secret (no database URL).
"""
from __future__ import annotations

from flask import current_app
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from ..core import database, wakeup
from ..core.database import READ_ONLY
from ..core.extensions import db


def failing() -> dict[str, str]:
    """{check: what is wrong} for every check that fails; empty when ready."""
    wrong = {}
    try:
        database.ping()
    except SQLAlchemyError as exc:
        wrong["database"] = f"the database does not answer ({type(exc).__name__})"
    else:
        found = migrations_found()
        needed = current_app.extensions["gin_migration_heads"]
        if found != needed:
            wrong["schema"] = (f"the database is at migration {', '.join(sorted(found)) or 'none'}, the code "
                               f"needs {', '.join(sorted(needed))}: run `flask --app service db upgrade`")
    try:
        if not wakeup.hub().ready():
            wrong["wakeup"] = "the wake-up listener is not listening: waiting clients would miss other processes' moves"
    except Exception as exc:  # noqa: BLE001 - the listener could not even be started
        wrong["wakeup"] = f"the wake-up listener could not start ({type(exc).__name__})"
    return wrong


def migrations_found() -> set[str]:
    """The revisions the database's alembic_version holds (none when it has no such table). Read
    directly: alembic's MigrationContext logs two lines at INFO each time, every probe."""
    try:
        with db.engine.connect().execution_options(**{READ_ONLY: True}) as connection:
            return set(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())
    except SQLAlchemyError:
        return set()
