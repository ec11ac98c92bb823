"""Tables of players, their seats, their event feed, challenges and watch links (in the one
metadata, which migrations read, once the app imports the package's routes)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db
from ..core.moments import UTCDateTime

# Where every Glicko-2 rating starts: a new player's, and each of the house bot's levels'.
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06


class Player(db.Model):
    """An account: a name others can challenge, and a player token (only its SHA-256 kept) that
    opens every seat bound to it. A null token_hash: revoked, nothing opens the account."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    name_key: Mapped[str] = mapped_column(String(160), nullable=False, unique=True)  # casefolded name
    # The name's TR39 skeleton (players/names.py): two names that look alike share it. Null only for
    # an account older than the check whose name looks like an older one's.
    name_skeleton: Mapped[str | None] = mapped_column(String(160), unique=True, index=True)
    email: Mapped[str | None] = mapped_column(String(254))
    bot: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    token_created_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The seq of this player's newest feed event: bumped under the row's lock, so seqs never repeat.
    last_event_seq: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    # Set by an operator (`flask admin suspend`): the token and the bound seats answer 403 until cleared.
    suspended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Set by `flask admin erase`: the name is "deleted player N" and nothing opens the account again.
    erased_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Glicko-2 (ratings.py): moved by each rated two-seat match, in the transaction that ends it.
    rating: Mapped[float] = mapped_column(Float, nullable=False, default=START_RATING, server_default="1500")
    rating_deviation: Mapped[float] = mapped_column(Float, nullable=False, default=START_DEVIATION,
                                                       server_default="350")
    rating_volatility: Mapped[float] = mapped_column(Float, nullable=False, default=START_VOLATILITY,
                                                        server_default="0.06")
    rated_games: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")
    # OpenSkill's Plackett-Luce (table_ratings.py): moved by each rated table of 3 to 8 seats.
    table_mu: Mapped[float] = mapped_column(Float, nullable=False, default=25.0, server_default="25")
    table_sigma: Mapped[float] = mapped_column(Float, nullable=False, default=25 / 3,
                                               server_default="8.333333333333334")
    table_games: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")
    # Set while the player lets profile viewers watch its games and replay them (PATCH /me
    # `public_games`): each game's public watch key is derived from it (watching.public_key), so
    # clearing it revokes them all and setting a fresh one never revives a key given out before.
    public_games_secret: Mapped[str | None] = mapped_column(String(64))

    __table_args__ = (Index("ix_players_leaderboard", "rating"),)


class PlayerSeat(db.Model):
    """A seat held by a player: the player token opens it (as the seat's own tokens still do)."""

    __tablename__ = "player_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)

    # One seat per player per game: the token lookup's subquery then finds at most one seat.
    __table_args__ = (UniqueConstraint("game_id", "player_id"), Index("ix_player_seats_player_id", "player_id"))


class PlayerEvent(db.Model):
    """One event of a player's stream (GET /me/stream), numbered 1, 2, ... per player."""

    __tablename__ = "player_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    seq: Mapped[int] = mapped_column(Integer, nullable=False)
    type: Mapped[str] = mapped_column(String(32), nullable=False)
    payload: Mapped[dict] = mapped_column(JSON, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (UniqueConstraint("player_id", "seq"),)


class Challenge(db.Model):
    """An offer to play: to a named player, or open to anyone (optionally bots or humans only).
    A rematch is a challenge that names the finished game it follows."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # random, URL-safe
    challenger_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    target_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))  # null: open
    rules: Mapped[dict] = mapped_column(JSON, nullable=False)
    move_time_hours: Mapped[int | None] = mapped_column(Integer)
    opponent: Mapped[str] = mapped_column(String(8), nullable=False)  # any | bot | human
    challenger_seat: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    first_dealer: Mapped[int | None] = mapped_column(Integer)  # null: drawn at random
    status: Mapped[str] = mapped_column(String(12), nullable=False)  # pending|accepted|declined|cancelled
    reason: Mapped[str | None] = mapped_column(String(16))  # the decline's reason code
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))  # made on accept
    rematch_of: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    rated: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True, server_default=true())
    level: Mapped[int | None] = mapped_column(Integer)  # to the house bot only: the level it plays at (1-5)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_challenges_target_id_status", "target_id", "status"),
                      Index("ix_challenges_status_expires_at", "status", "expires_at"),
                      Index("ix_challenges_game_id", "game_id"))


class RematchSeat(db.Model):
    """A seat asked to a rematch at a table (3 or more seats): the game is made once every row of
    its challenge has accepted_at; any decline closes the challenge (table_rematch.py)."""

    __tablename__ = "rematch_seats"

    challenge_id: Mapped[str] = mapped_column(ForeignKey("challenges.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    accepted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_rematch_seats_player_id", "player_id"),)


class SeatRematch(db.Model):
    """A rematch of a two-seat game whose seats are not both players' (seat_rematch.py): the game
    made for it when `offered_by` offered it, whose second seat the other seat takes by accepting."""

    __tablename__ = "seat_rematches"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    rematch_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    offered_by: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    # The other seat's answer "no" (its rematch game is left to the offering seat, still waiting).
    declined_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    decline_reason: Mapped[str | None] = mapped_column(String(16))


class WatchLink(db.Model):
    """A read-only key to a game's public side; only its SHA-256 is kept, deleting the row revokes it."""

    __tablename__ = "watch_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    key_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    created_by_seat: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_watch_links_game_id", "game_id"),)


class RatingChange(db.Model):
    """What one rated match did to one player's rating: written once per (game, player), so a
    match's end is rated once, and kept as the player's rating history."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    score: Mapped[float] = mapped_column(Float, nullable=False)  # 1 won, 0.5 drawn, 0 lost
    value_before: Mapped[float] = mapped_column(Float, nullable=False)
    value_after: Mapped[float] = mapped_column(Float, nullable=False)
    deviation_after: Mapped[float] = mapped_column(Float, nullable=False)
    volatility_after: Mapped[float] = mapped_column(Float, nullable=False)
    # The house bot's levels are rated as identities of their own (house_levels.py): on the house
    # bot's row, the level it played at, whose rating the row's values are; on its opponent's row,
    # the level played against. Null in a match without a level.
    level: Mapped[int | None] = mapped_column(Integer)
    opponent_level: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_rating_changes_player_id", "player_id"),)


class HouseLevelRating(db.Model):
    """The Glicko-2 rating of one of the house bot's levels (1-5), rated as an identity of its own
    (house_levels.py): a match against the house bot at a level moves this, not the account's."""

    __tablename__ = "house_level_ratings"

    level: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    # A new player's start (Player above).
    rating: Mapped[float] = mapped_column(Float, nullable=False, default=START_RATING, server_default="1500")
    rating_deviation: Mapped[float] = mapped_column(Float, nullable=False, default=START_DEVIATION,
                                                       server_default="350")
    rating_volatility: Mapped[float] = mapped_column(Float, nullable=False, default=START_VOLATILITY,
                                                        server_default="0.06")
    rated_games: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")

    @classmethod
    def fresh(cls, level: int) -> HouseLevelRating:
        """A level not yet rated (a row not stored): the start every player has."""
        return cls(level=level, rating=START_RATING, rating_deviation=START_DEVIATION,
                   rating_volatility=START_VOLATILITY, rated_games=0)


class TableRatingChange(db.Model):
    """What one rated table (3 to 8 seats) did to one player's OpenSkill rating: written once per
    (game, player), so a table's end is rated once, and kept as the player's table history."""

    __tablename__ = "table_rating_changes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    rank: Mapped[int] = mapped_column(Integer, nullable=False)  # the side's place: 0 first; equal ranks: a tie
    mu_before: Mapped[float] = mapped_column(Float, nullable=False)
    sigma_before: Mapped[float] = mapped_column(Float, nullable=False)
    mu_after: Mapped[float] = mapped_column(Float, nullable=False)
    sigma_after: Mapped[float] = mapped_column(Float, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_table_rating_changes_player_id", "player_id"),)


class UnratedGame(db.Model):
    """A game made by POST /me/games with `rated: false` (a challenge's game is as its challenge says)."""

    __tablename__ = "unrated_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)


class Block(db.Model):
    """A player who blocked another (blocks.py): the blocked one's challenges to the blocker are
    declined at once (as the blocker would decline them), neither sees the other's open challenges, and the blocker sees
    none of the blocked one's messages."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_blocks_blocked_id", "blocked_id"),)


class Report(db.Model):
    """A seat's or a player's report of a message or a player, for the operator (reports.py;
    `flask admin reports` lists and closes them). What was reported is copied in: a message's text
    and a name stay readable when the message, the game or the account is gone."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    reporter_seat: Mapped[int | None] = mapped_column(Integer)  # a report by a seat: its game's seat
    reporter_name: Mapped[str | None] = mapped_column(String(40))
    message_id: Mapped[int | None] = mapped_column(ForeignKey("game_messages.id", ondelete="SET NULL"))
    message_text: Mapped[str | None] = mapped_column(Text)
    reported_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    reported_seat: Mapped[int | None] = mapped_column(Integer)
    reported_name: Mapped[str | None] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(String(16), nullable=False)
    details: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    close_note: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (Index("ix_reports_closed_at", "closed_at"),)
