"""Tables of tournaments: the tournament, its entrants, its invitations, its rounds (each with the
standings its pairings were made from) and its pairings with their games (in the one metadata,
which migrations read, once the app imports the package's routes)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..core.extensions import db
from ..core.moments import UTCDateTime


class Tournament(db.Model):
    """A tournament: made by its organizer, open for entry until `entry_closes_at` (or an early
    start), then played round by round to its final standings. Everything that decides how it is
    played and ranked is fixed here when it is created."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # random, URL-safe
    name: Mapped[str] = mapped_column(String(80), nullable=False)
    format: Mapped[str] = mapped_column(String(16), nullable=False)  # swiss | round_robin | knockout
    cycles: Mapped[int] = mapped_column(Integer, nullable=False, default=1)  # a round robin's: 1 or 2
    best_of: Mapped[int] = mapped_column(Integer, nullable=False, default=1)  # a knockout pairing's matches
    pace: Mapped[str] = mapped_column(String(12), nullable=False)  # rounds | all_at_once (round robin)
    status: Mapped[str] = mapped_column(String(12), nullable=False)  # open | running | finished | cancelled
    organizer_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    rules: Mapped[dict] = mapped_column(JSON, nullable=False)  # every match's Rules.to_dict()
    rated: Mapped[bool] = mapped_column(Boolean, nullable=False)
    move_time_hours: Mapped[int | None] = mapped_column(Integer)
    round_hours: Mapped[int | None] = mapped_column(Integer)  # a round's deadline; null: none
    rounds: Mapped[int | None] = mapped_column(Integer)  # asked for a Swiss; the others' set at the start
    entry: Mapped[str] = mapped_column(String(12), nullable=False)  # anyone | people | bots | invitation
    house_bot: Mapped[bool] = mapped_column(Boolean, nullable=False)  # may the organizer enter the house bot
    min_entrants: Mapped[int] = mapped_column(Integer, nullable=False)
    max_entrants: Mapped[int] = mapped_column(Integer, nullable=False)
    tie_breaks: Mapped[list] = mapped_column(JSON, nullable=False)
    entry_closes_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    current_round: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    round_deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # HMAC key of the watch keys of the tournament's games (a crosstable links every replay); never shown.
    watch_secret: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_tournaments_status_created_at", "status", "created_at"),
                      Index("ix_tournaments_organizer_id_created_at", "organizer_id", "created_at"),
                      Index("ix_tournaments_status_round_deadline_at", "status", "round_deadline_at"))


class Entrant(db.Model):
    """A player entered in a tournament (the house bot at one level, entered by the organizer)."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    level: Mapped[int | None] = mapped_column(Integer)  # the house bot's level (1-5); null for anyone else
    seed: Mapped[int | None] = mapped_column(Integer)  # 1.. by rating, set at the start
    rating: Mapped[float | None] = mapped_column(Float)  # the rating at the start (seeding, tie-break)
    withdrawn_round: Mapped[int | None] = mapped_column(Integer)  # withdrew during this round (0: before round 1)
    place: Mapped[int | None] = mapped_column(Integer)  # once the tournament is over
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)

    __table_args__ = (Index("ix_tournament_entrants_player_id", "player_id"),)


class Invitation(db.Model):
    """A player the organizer invited to a tournament entered by invitation."""

    __tablename__ = "tournament_invitations"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)


class Round(db.Model):
    """A round: when it started, its deadline, and what its pairings were made from (a Swiss: every
    player's score, opponents, byes and first deals, as pairing.Entrant.to_dict(); anyone can pair
    the round again from it)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    paired_from: Mapped[list | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class Pairing(db.Model):
    """Two entrants paired in a round (`first` deals the first hand, at seat 0), or one with the bye
    (second_id null), and the outcome once decided: match points each, whether it was played, the
    gin points each scored over its games. A knockout pairing of several matches is a series."""

    __tablename__ = "tournament_pairings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    round: Mapped[int] = mapped_column(Integer, nullable=False)
    board: Mapped[int] = mapped_column(Integer, nullable=False)  # 1.. in the round (a knockout: bracket order)
    first_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    second_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    series_id: Mapped[str | None] = mapped_column(ForeignKey("series.id", ondelete="SET NULL"))
    score_first: Mapped[float | None] = mapped_column(Float)  # null until decided
    score_second: Mapped[float | None] = mapped_column(Float)
    played: Mapped[bool | None] = mapped_column(Boolean)
    points_first: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    points_second: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("tournament_id", "round", "board"),
                      Index("ix_tournament_pairings_series_id", "series_id"))


class PairingGame(db.Model):
    """A game played for a pairing (a series' games are linked through the series)."""

    __tablename__ = "tournament_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    pairing_id: Mapped[int] = mapped_column(ForeignKey("tournament_pairings.id", ondelete="CASCADE"), nullable=False)

    __table_args__ = (Index("ix_tournament_games_pairing_id", "pairing_id"),)
