"""The reviews table: one row a finished two-seat match (in the one metadata)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db
from ..core.moments import UTCDateTime

QUEUED, RUNNING, DONE, SKIPPED, FAILED = "queued", "running", "done", "skipped", "failed"


class Review(db.Model):
    """A match's review: queued when the match ends, run by one worker at a time under a lease
    (a worker that dies leaves it to be taken up again once `lease_until` passes)."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(10), nullable=False)  # queued|running|done|skipped|failed
    seed: Mapped[str] = mapped_column(String(64), nullable=False)
    done: Mapped[int] = mapped_column(Integer, nullable=False, default=0)  # decisions weighed
    total: Mapped[int | None] = mapped_column(Integer)  # decisions to weigh, once counted
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    worker: Mapped[str | None] = mapped_column(String(64))
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    queued_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    cpu_seconds: Mapped[float | None] = mapped_column(db.Float)
    figures: Mapped[dict | None] = mapped_column(JSON)  # rules.coach.review_match's answer

    __table_args__ = (Index("ix_reviews_status_queued_at", "status", "queued_at"),)


class HintAsked(db.Model):
    """Hints a seat asked for in a game (hints.py): the game records that hints were on."""

    __tablename__ = "hints_asked"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    count: Mapped[int] = mapped_column(Integer, nullable=False)


class HintConsent(db.Model):
    """A seat that agreed to hints as it created or joined the game (`hints: true`), before the first deal."""

    __tablename__ = "hint_consents"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
