"""Tables of series: the parent record, and the games it links in order (in the one metadata, which
migrations read, once the app imports the package's routes)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db
from ..core.moments import UTCDateTime


class SeriesRecord(db.Model):
    """A series between two players: offered by one, accepted by the other, then played game after
    game (each made when the one before ends) until the engine's Series says it is decided."""

    __tablename__ = "series"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # random, URL-safe
    status: Mapped[str] = mapped_column(String(12), nullable=False)  # offered|playing|decided|declined
    offered_by: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    # The engine's Series.to_dict(): players (by name, offerer first), format, rules, results so far.
    record: Mapped[dict] = mapped_column(JSON, nullable=False)
    move_time_hours: Mapped[int | None] = mapped_column(Integer)
    # The house bot's level in this series' games ({player id: level}), when another feature arranged
    # the series with the house bot at a level (a tournament's knockout pairing); null otherwise.
    levels: Mapped[dict | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_series_opponent_id_status", "opponent_id", "status"),)


class SeriesGame(db.Model):
    """A game of a series, numbered 1, 2, ... in the order played. The game's end records its
    result in the series (a games.changes hook, in the same transaction)."""

    __tablename__ = "series_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    series_id: Mapped[str] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"), nullable=False)
    number: Mapped[int] = mapped_column(Integer, nullable=False)

    __table_args__ = (UniqueConstraint("series_id", "number"),)
