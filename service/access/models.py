"""Tables of seat access: a seat's further tokens and its mail links (in the one metadata, which
migrations read, once the app imports the package's routes)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db
from ..core.moments import UTCDateTime


class SeatToken(db.Model):
    """A further bearer token of a seat (the first one is seats.token_hash), got by exchanging a
    link key. Only its SHA-256 is stored; deleting the row revokes it."""

    __tablename__ = "seat_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    label: Mapped[str | None] = mapped_column(String(40))  # what the seat called the device
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_seat_tokens_game_id_seat", "game_id", "seat"),)


class SeatLink(db.Model):
    """A link key carried by one mail: exchanged once (POST) for a fresh token of its seat. The
    row stays after use, so a second use is told the link was used rather than that it is wrong."""

    __tablename__ = "seat_links"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_seat_links_game_id", "game_id"),)
