"""`flask admin backup PATH` on SQLite: a consistent copy of the live database, taken with SQLite's
online backup API while the service keeps serving (in WAL mode a reader blocks no writer, and the
copy is made in one step, so it is one moment of the database). On PostgreSQL use pg_dump
(docs/operations.md)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from ..core.extensions import db
from .moderation import AdminError


def backup_sqlite(path: str) -> dict:
    if db.engine.dialect.name != "sqlite":
        raise AdminError(f"backup copies a SQLite database; this one is {db.engine.dialect.name}: "
                         "use pg_dump (docs/operations.md)")
    target = Path(path)
    if target.exists():
        raise AdminError(f"{target} exists: a backup never overwrites a file")
    source = db.engine.raw_connection()
    try:
        destination = sqlite3.connect(target)
        try:
            source.driver_connection.backup(destination)  # every page in one step: one moment's copy
        finally:
            destination.close()
    finally:
        source.close()
    return {"backup": str(target), "bytes": target.stat().st_size}
