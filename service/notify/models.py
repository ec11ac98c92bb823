"""Tables for notifications: contacts, the outbox, reply secrets, inbound mail (and, from
consent.py, the addresses' consent). Change them only together with a new migration."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db


class Contact(db.Model):
    """How a seat wants to hear about its game: email (per turn or a daily digest), a webhook."""

    __tablename__ = "contacts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    email: Mapped[str | None] = mapped_column(String(254))
    mail_mode: Mapped[str] = mapped_column(String(8), nullable=False, default="turn")
    webhook_url: Mapped[str | None] = mapped_column(String(2000))
    # Kept in clear because every delivery is signed with it; shown to the seat once, when set.
    webhook_secret: Mapped[str | None] = mapped_column(String(64))
    # Digest mode: what the next digest covers starts here, and it goes out a day later.
    digest_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (PrimaryKeyConstraint("game_id", "seat"),
                      Index("ix_contacts_mail_mode_digest_since", "mail_mode", "digest_since"))


class OutboxMessage(db.Model):
    """One mail or webhook call to deliver, written in the same transaction as its cause.

    `payload` is final (the whole RFC 5322 message, or the JSON body), so a retry sends the very
    same bytes with the same Message-ID / webhook-id. A worker claims a row by setting
    claimed_by/claimed_until, delivers, then marks it sent; an expired claim (a crashed worker) can
    be taken over."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(8), nullable=False)  # mail | webhook
    kind: Mapped[str] = mapped_column(String(24), nullable=False)  # turn, answer, digest, ... / event type
    game_id: Mapped[str | None] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer)
    version: Mapped[int | None] = mapped_column(Integer)
    recipient: Mapped[str] = mapped_column(String(2000), nullable=False)  # address or URL
    message_id: Mapped[str] = mapped_column(String(250), nullable=False, unique=True)
    payload: Mapped[str] = mapped_column(Text, nullable=False)
    # pending | sent | dead | replaced (a webhook turn.started a newer one for the seat stands for)
    status: Mapped[str] = mapped_column(String(8), nullable=False, default="pending")
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)  # deliveries tried
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A webhook's deliveries log (deliveries.py): the last attempt, the receiver's HTTP status then
    # (null when no answer came), and the last redelivery asked, from which its retries count again.
    attempted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    response_code: Mapped[int | None] = mapped_column(Integer)
    redelivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_outbox_status_next_attempt_at", "status", "next_attempt_at"),
                      Index("ix_outbox_game_id", "game_id"))


class MailToken(db.Model):
    """A secret carried in a reply address (reply: one seat at one moment of the game; unsubscribe:
    one email address). Only its SHA-256 is stored."""

    __tablename__ = "mail_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(12), nullable=False)  # reply | unsubscribe
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer)
    version: Mapped[int | None] = mapped_column(Integer)
    # The game's last event when the secret was issued: the reply is stale once a move was made
    # since. Not the version, which also moves on with what is no move (a vacation's deadline).
    # Null for secrets issued before this column: those are judged by the version.
    event_seq: Mapped[int | None] = mapped_column(Integer)
    email: Mapped[str | None] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (Index("ix_mail_tokens_game_id", "game_id"),)


class InboundMail(db.Model):
    """Each inbound message once, by Message-ID: an MTA that delivers twice plays nothing twice."""

    __tablename__ = "inbound_mail"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(250), nullable=False, unique=True)
    game_id: Mapped[str | None] = mapped_column(String(32))
    outcome: Mapped[str] = mapped_column(String(40), nullable=False)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    # Kept (lower case) only for mail to an unknown reply address: answers to it are capped per sender.
    sender: Mapped[str | None] = mapped_column(String(254))

    __table_args__ = (Index("ix_inbound_mail_sender_received_at", "sender", "received_at"),)

class MailedMessages(db.Model):
    """How far a seat's mails have told the game's messages: each turn mail says "Bob wrote: ..." for
    the messages after `through` and moves it on (mail_messages.py)."""

    __tablename__ = "mailed_messages"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    through: Mapped[int] = mapped_column(Integer, nullable=False)  # the newest message id told

    __table_args__ = (PrimaryKeyConstraint("game_id", "seat"),)


from .consent import MailAddress, MailConfirmation, MailInvitation  # noqa: E402,F401  (the consent tables, same metadata)
