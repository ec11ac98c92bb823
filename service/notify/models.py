"""Tables for notifications: contacts, the outbox, reply secrets, inbound mail, how far mails told a
game's messages, an address owner's consent (confirmed or stopped, the confirmation mails sent
to ask, invitations), and the browsers subscribed to Web Push. Change them only together with a
new migration."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db
from ..core.moments import UTCDateTime


class Contact(db.Model):
    """How a seat wants to hear about its game: email (per turn or a daily digest), a webhook."""

    __tablename__ = "contacts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    email: Mapped[str | None] = mapped_column(String(254))
    # The key its owner confirms or stops it under (addresses.normalised), kept beside it so that a
    # move finds in its one read whether anyone is to be told (dispatch.anyone_to_tell).
    email_key: Mapped[str | None] = mapped_column(String(254))
    mail_mode: Mapped[str] = mapped_column(String(8), nullable=False, default="turn")
    # Whether the seat's push subscriptions (its own, its player's) are told: turn | off.
    push_mode: Mapped[str] = mapped_column(String(8), nullable=False, default="turn", server_default="turn")
    webhook_url: Mapped[str | None] = mapped_column(String(2000))
    # Kept in clear because every delivery is signed with it; shown to the seat once, when set.
    webhook_secret: Mapped[str | None] = mapped_column(String(64))
    # Digest mode: what the next digest covers starts here, and it goes out a day later.
    digest_since: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (PrimaryKeyConstraint("game_id", "seat"),
                      Index("ix_contacts_mail_mode_digest_since", "mail_mode", "digest_since"))


class OutboxMessage(db.Model):
    """One mail or webhook call to deliver, written in the same transaction as its cause.

    `payload` is final (the whole RFC 5322 message, or the JSON body), so a retry sends the very
    same bytes with the same Message-ID / webhook-id. A worker claims a row by setting
    claimed_by/claimed_until/claimed_at, delivers (renewing the claim while it lives), then marks it
    sent; an expired claim (a crashed worker) can be taken over."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(8), nullable=False)  # its channel's name (channels.py)
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
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())  # renewed up to NOTIFY_HOLD_SECONDS
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # A webhook's deliveries log (webhooks/deliveries.py): the last attempt, the receiver's HTTP status then
    # (null when no answer came), and the last redelivery asked, from which its retries count again.
    attempted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    response_code: Mapped[int | None] = mapped_column(Integer)
    redelivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

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
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_mail_tokens_game_id", "game_id"),)


class InboundMail(db.Model):
    """Each inbound message once, by Message-ID: an MTA that delivers twice plays nothing twice."""

    __tablename__ = "inbound_mail"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(250), nullable=False, unique=True)
    game_id: Mapped[str | None] = mapped_column(String(32))
    outcome: Mapped[str] = mapped_column(String(40), nullable=False)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    # Kept (lower case) only for mail to an unknown reply address: answers to it are capped per sender.
    sender: Mapped[str | None] = mapped_column(String(254))

    __table_args__ = (Index("ix_inbound_mail_sender_received_at", "sender", "received_at"),)


class MailedMessages(db.Model):
    """How far a seat's mails have told the game's messages: each turn mail says "Bob wrote: ..." for
    the messages after `through` and moves it on (mail/chat_lines.py)."""

    __tablename__ = "mailed_messages"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    through: Mapped[int] = mapped_column(Integer, nullable=False)  # the newest message id told

    __table_args__ = (PrimaryKeyConstraint("game_id", "seat"),)


class MailAddress(db.Model):
    """What the owner of an address said, under its normalised form (consent.addresses.normalised). No
    row: never asked, or asked and not answered; the service mails it only the confirmation."""

    __tablename__ = "mail_addresses"

    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Set by a `stop` reply; kept for good (no sweep deletes it), and it outranks a confirmation.
    stopped_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class MailConfirmation(db.Model):
    """One confirmation mail: its secret (in confirm+<secret>@MAIL_DOMAIN, stored only as a
    SHA-256), the address and the seat that asked, and the requesting client, counted for caps."""

    __tablename__ = "mail_confirmations"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(254), nullable=False)  # consent.addresses.normalised
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer)
    client: Mapped[str | None] = mapped_column(String(64))  # the HTTP client's address
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_mail_confirmations_address_created_at", "address", "created_at"),
                      Index("ix_mail_confirmations_game_id", "game_id"),
                      Index("ix_mail_confirmations_client_created_at", "client", "created_at"))


class MailInvitation(db.Model):
    """One invitation to a game by mail (inbound/invitations.py): to `invitee` (as given; `invitee_key`
    its mailbox key, consent.addresses.normalised, which the per-recipient cap counts), asked by `sender`
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
    invitee_key: Mapped[str] = mapped_column(String(254), nullable=False)  # consent.addresses.normalised(invitee)
    inviter_name: Mapped[str | None] = mapped_column(String(40))
    rules: Mapped[str | None] = mapped_column(Text)  # JSON, until the game exists
    start_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    join_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_mail_invitations_sender_created_at", "sender", "created_at"),
                      Index("ix_mail_invitations_client_created_at", "client", "created_at"),
                      Index("ix_mail_invitations_game_id", "game_id"),
                      Index("ix_mail_invitations_invitee_key_created_at", "invitee_key", "created_at"))


class PushSubscription(db.Model):
    """A browser subscribed to Web Push (RFC 8030) for a seat (game_id, seat) or for a player
    (player_id: every seat the player holds, found through notify.push.subscriptions.holders).
    `endpoint` is the push service's URL for that browser, `p256dh` and `auth` its keys
    (base64url, RFC 8291). One browser has one endpoint, which many owners may share."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer)
    # The player's id, without a foreign key: the players feature sits above notify (it deletes
    # its players' subscriptions itself, and admin's erasure does).
    player_id: Mapped[int | None] = mapped_column(Integer)
    endpoint: Mapped[str] = mapped_column(String(1000), nullable=False)
    p256dh: Mapped[str] = mapped_column(String(100), nullable=False)
    auth: Mapped[str] = mapped_column(String(40), nullable=False)
    # The service's VAPID public key when it was given: after a rotation (push/keys.py) the push
    # service refuses pushes to it signed with the new key, so it is deleted instead of pushed to.
    vapid_key: Mapped[str] = mapped_column(String(100), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    # A seat's rows have no player_id and a player's no game_id: NULLs are distinct, so each unique
    # index holds one kind of owner only (on SQLite and PostgreSQL alike).
    __table_args__ = (CheckConstraint("(game_id IS NULL) <> (player_id IS NULL)", name="owner"),
                      Index("ux_push_subscriptions_seat", "game_id", "seat", "endpoint", unique=True),
                      Index("ux_push_subscriptions_player", "player_id", "endpoint", unique=True),
                      Index("ix_push_subscriptions_endpoint", "endpoint"))
