"""The one column type for moments: timezone-aware UTC in Python whatever the database. PostgreSQL's
`timestamptz` gives aware values already; SQLite keeps no offset, so its values came back naive, and
every answer built from them lacked the `+00:00` the API documents (a client comparing one with an
aware now raised TypeError: the reference bot's claims on time died so)."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import DateTime
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator):
    """DateTime(timezone=True) whose values are always aware: a naive one read back is UTC (the
    service writes only UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value
