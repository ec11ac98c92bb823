"""The audit table: what an operator did with `flask admin ...` (in the one metadata, which
migrations read, once the app imports the package)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db
from ..core.moments import UTCDateTime


class AdminAction(db.Model):
    """One operator action: on a player (player_id) or an anonymous seat (game_id, seat). It keeps
    no name or address: an erasure must not leave one behind here."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(16), nullable=False)  # suspend, rename, export, erase, ...
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    seat: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str | None] = mapped_column(String(500))  # the operator's words (--reason)
    operator: Mapped[str] = mapped_column(String(64), nullable=False)  # --by, else the OS user
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_admin_actions_player_id", "player_id"),
                      Index("ix_admin_actions_game_id_seat", "game_id", "seat"))
