"""Tables of an address owner's consent: confirmed (mail may go to it) or stopped (never again),
and the confirmation mails sent to ask. Imported by models.py, so that the one metadata (and
`flask db migrate`) sees them."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db


class MailAddress(db.Model):
    """What the owner of an address said, under its normalised form (addresses.normalised). No
    row: never asked, or asked and not answered; the service mails it only the confirmation."""

    __tablename__ = "mail_addresses"

    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Set by a `stop` reply; kept for good (no sweep deletes it), and it outranks a confirmation.
    stopped_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MailConfirmation(db.Model):
    """One confirmation mail: its secret (in confirm+<secret>@MAIL_DOMAIN, stored only as a
    SHA-256), the address and the seat that asked, and the requesting client, counted for caps."""

    __tablename__ = "mail_confirmations"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(254), nullable=False)  # normalised
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer)
    client: Mapped[str | None] = mapped_column(String(64))  # the HTTP client's address
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_mail_confirmations_address_created_at", "address", "created_at"),
                      Index("ix_mail_confirmations_game_id", "game_id"),
                      Index("ix_mail_confirmations_client_created_at", "client", "created_at"))
