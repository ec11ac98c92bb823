"""Tables of an address owner's consent: confirmed (mail may go to it) or stopped (never again),
the confirmation mails sent to ask, and invitations (the one mail a player may have sent to an
address that never played). Imported by models.py, so that the one metadata (and
`flask db migrate`) sees them."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db


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
    address: Mapped[str] = mapped_column(String(254), nullable=False)  # addresses.normalised
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer)
    client: Mapped[str | None] = mapped_column(String(64))  # the HTTP client's address
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_mail_confirmations_address_created_at", "address", "created_at"),
                      Index("ix_mail_confirmations_game_id", "game_id"),
                      Index("ix_mail_confirmations_client_created_at", "client", "created_at"))


class MailInvitation(db.Model):
    """One invitation to a game by mail (invitations.py): to `invitee` (as given; `invitee_key`
    its mailbox key, addresses.normalised, which the per-recipient cap counts), asked by `sender`
    (an address's mailbox key, or None) from `client` (the HTTP peer, or None). A game started by a
    mail to new@ waits here (inviter_name, rules) until its sender confirms by replying to
    start+<secret> (start_hash); the invitation's reply address is join+<invite code> (join_hash).
    Both secrets are stored only as SHA-256."""

    __tablename__ = "mail_invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    sender: Mapped[str | None] = mapped_column(String(254))
    client: Mapped[str | None] = mapped_column(String(64))
    invitee: Mapped[str] = mapped_column(String(254), nullable=False)  # as given (lower case before issue 25)
    invitee_key: Mapped[str] = mapped_column(String(254), nullable=False)  # addresses.normalised(invitee)
    inviter_name: Mapped[str | None] = mapped_column(String(40))
    rules: Mapped[str | None] = mapped_column(Text)  # JSON, until the game exists
    start_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    join_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_mail_invitations_sender_created_at", "sender", "created_at"),
                      Index("ix_mail_invitations_client_created_at", "client", "created_at"),
                      Index("ix_mail_invitations_game_id", "game_id"),
                      Index("ix_mail_invitations_invitee_key_created_at", "invitee_key", "created_at"))
