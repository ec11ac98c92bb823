"""The games' tables: games, seats, events, deals, knock decks, idempotency records and the move
clocks. Change them only together with a new migration (`flask db migrate`)."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..core.extensions import db
from ..core.moments import UTCDateTime


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Game(db.Model):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # random, URL-safe
    # Bumped by every accepted change and checked in the UPDATE (WHERE version = <read>), so two
    # writers can never both apply; it is also the ETag.
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    status: Mapped[str] = mapped_column(String(24), nullable=False)  # waiting_for_opponent|active|finished
    rules: Mapped[dict] = mapped_column(JSON, nullable=False)  # Rules.to_dict()
    state: Mapped[dict | None] = mapped_column(JSON)  # Match.to_dict(); null until both seats are taken
    first_dealer: Mapped[int | None] = mapped_column(Integer)
    to_move: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow,
                                                 onupdate=utcnow, nullable=False)

    seats: Mapped[list["Seat"]] = relationship(back_populates="game", order_by="Seat.seat",
                                               cascade="all, delete-orphan")
    # Loaded with the game by the store's seat queries (contains_eager): every change reads it.
    clock: Mapped["GameClock | None"] = relationship("GameClock", uselist=False, viewonly=True)

    __mapper_args__ = {"version_id_col": version}
    __table_args__ = (Index("ix_games_status_updated_at", "status", "updated_at"),)


class Seat(db.Model):
    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)  # 0 = creator, 1 = joiner
    name: Mapped[str | None] = mapped_column(String(40))  # null until the seat is taken
    # The level (1-5) the house bot plays this seat at, asked for in the challenge; null otherwise.
    bot_level: Mapped[int | None] = mapped_column(Integer)
    # SHA-256 hex of the bearer token / invite code; the secrets themselves are never stored.
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64))
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # This seat's view as JSON text, written with every change, and the game version it shows:
    # while view_version == games.version, GET answers it as stored, without loading the match.
    view_version: Mapped[int | None] = mapped_column(Integer)
    view_body: Mapped[str | None] = mapped_column(Text, deferred=True)  # not loaded with the seat
    # The seat's standing orders (issue 39; games/standing.py): {"orders": Orders.to_dict(), "hand":
    # the hand they were set in}; null when none are set. Read with every move (move_reads.py).
    orders: Mapped[dict | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="seats")

    __table_args__ = (UniqueConstraint("game_id", "seat"),)


class Event(db.Model):
    """The permanent history: the engine's events (private parts included; redacted on the way out)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seq: Mapped[int] = mapped_column(Integer, nullable=False)  # 1, 2, ... within the game
    seat: Mapped[int | None] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(24), nullable=False)
    hand: Mapped[int | None] = mapped_column(Integer)
    payload: Mapped[dict] = mapped_column(JSON, nullable=False)
    # The action that caused this event (on the first event of each action only): with the decks
    # it lets anyone replay the match. Never sent to players.
    action: Mapped[dict | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, nullable=False)

    __table_args__ = (UniqueConstraint("game_id", "seq"),)


class Deal(db.Model):
    """One shuffled deck per hand: committed to when dealt, revealed when the hand is over."""

    __tablename__ = "deals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    hand: Mapped[int] = mapped_column(Integer, nullable=False)
    deck: Mapped[list] = mapped_column(JSON, nullable=False)  # 52 card strings, index 0 dealt first
    salt: Mapped[str] = mapped_column(String(64), nullable=False)  # 32 random bytes, hex
    commitment: Mapped[str] = mapped_column(String(64), nullable=False)
    revealed: Mapped[bool] = mapped_column(default=False, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, nullable=False)

    __table_args__ = (UniqueConstraint("game_id", "hand"),)


class KnockDeck(db.Model):
    """Oklahoma's second deck (rules knock_card: second_deck): hands 1-52 turn deck 1's cards in
    order as their knock cards, hands 53-104 deck 2's, ... Committed to when first used, revealed
    when the match is over (or, for a used-up deck, when the next one starts): until then its
    order would tell the players the knock cards to come."""

    __tablename__ = "knock_decks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    number: Mapped[int] = mapped_column(Integer, nullable=False)  # 1, 2, ...
    deck: Mapped[list] = mapped_column(JSON, nullable=False)  # 52 card strings, index 0 turned first
    salt: Mapped[str] = mapped_column(String(64), nullable=False)
    commitment: Mapped[str] = mapped_column(String(64), nullable=False)
    revealed: Mapped[bool] = mapped_column(default=False, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, nullable=False)

    __table_args__ = (UniqueConstraint("game_id", "number"),)


class IdempotencyRecord(db.Model):
    """The first answer to an action sent with an Idempotency-Key, replayed for retries."""

    __tablename__ = "idempotency_records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    key: Mapped[str] = mapped_column(String(200), nullable=False)
    request_hash: Mapped[str] = mapped_column(String(64), nullable=False)  # SHA-256 of the canonical body
    status: Mapped[int] = mapped_column(Integer, nullable=False)
    response: Mapped[dict] = mapped_column(JSON, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False)  # the ETag of that answer
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, nullable=False)

    __table_args__ = (UniqueConstraint("game_id", "seat", "key"),)


# -- move clocks -----------------------------------------------------------------------------

class GameClock(db.Model):
    """The move clock of one game: who is on the clock since when, and until when."""

    __tablename__ = "game_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    move_time_hours: Mapped[int | None] = mapped_column(Integer)  # null: no deadlines in this game
    turn_seat: Mapped[int | None] = mapped_column(Integer)
    turn_started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    reminder_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    reminded: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    expiry_noticed: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)

    __table_args__ = (Index("ix_game_clocks_reminder_at", "reminder_at"),
                      Index("ix_game_clocks_deadline_at", "deadline_at"))


class SeatClock(db.Model):
    """At a table (3+ seats): the move clock of one seat to move, since its own turn began (one
    row per board's mover; service/games/table_clocks.py). The game's GameClock mirrors the earliest."""

    __tablename__ = "seat_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    turn_started_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    reminder_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    reminded: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    expiry_noticed: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)

    __table_args__ = (PrimaryKeyConstraint("game_id", "seat"),
                      Index("ix_seat_clocks_reminder_at", "reminder_at"),
                      Index("ix_seat_clocks_deadline_at", "deadline_at"))


class Vacation(db.Model):
    """Days a seat paused its own clock; their sum per seat is capped (VACATION_DAYS_PER_GAME)."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    days: Mapped[int] = mapped_column(Integer, nullable=False)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_vacations_game_id_seat", "game_id", "seat"),)


class GameMessage(db.Model):
    """A message one seat wrote in its game (messages.py): plain text as sent, shown only to the
    game's seats (never to watchers), numbered across all games so a reader pages by `after`."""

    __tablename__ = "game_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, nullable=False)

    # The listing reads a game's messages by id; the rate limit counts one seat's recent ones.
    __table_args__ = (Index("ix_game_messages_game_id_id", "game_id", "id"),
                      Index("ix_game_messages_game_id_seat_created_at", "game_id", "seat", "created_at"))
