"""What /ready checks: whether this process should be sent traffic (load balancers, Kubernetes'
readiness probe), as opposed to /health, which says only that the process answers.

Ready when the database answers, its schema is at the code's migration head (the alembic_version
it holds against migrations/'s heads) or migrated past it (a rolling upgrade: the schema includes
the code's head, schema_revisions says; core/database.py), and the wake-up listener is listening
(without it, a long-poll or stream served here would miss the moves made on other processes until
the fallback poll). Each failing check is named, with what is wrong, never with a secret (no database URL).
"""
from __future__ import annotations

from flask import current_app
from sqlalchemy.exc import SQLAlchemyError

from ..core import database, wakeup


def failing() -> dict[str, str]:
    """{check: what is wrong} for every check that fails; empty when ready."""
    wrong = {}
    try:
        database.ping()
        found, included = database.schema_found()
    except SQLAlchemyError as exc:
        wrong["database"] = f"the database does not answer ({type(exc).__name__})"
    else:
        needed = current_app.extensions["gin_migration_heads"]
        if not database.serves(needed, found, included):
            wrong["schema"] = (f"the database is at migration {', '.join(sorted(found)) or 'none'}, the code "
                               f"needs {', '.join(sorted(needed))} (or a later one its migrations lead to): "
                               "run `flask --app service db upgrade`")
    try:
        if current_app.config.get("DB_TRANSACTION_POOLING") and wakeup.hub().transport != "redis":
            wrong["wakeup"] = ("DB_TRANSACTION_POOLING needs WAKEUP_REDIS_URL: LISTEN does not work through a "
                               "pooler in transaction mode, so waiting clients would miss other processes' moves")
        elif not wakeup.hub().ready():
            wrong["wakeup"] = "the wake-up listener is not listening: waiting clients would miss other processes' moves"
    except Exception as exc:  # noqa: BLE001 - the listener could not even be started
        wrong["wakeup"] = f"the wake-up listener could not start ({type(exc).__name__})"
    return wrong


def as_gauge() -> int:
    """gin_ready, read at each scrape: 1 when this process is ready, else 0."""
    return 0 if failing() else 1
