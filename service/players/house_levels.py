"""The house bot's levels as rated identities (issue 29): each level (1-5) has a Glicko-2 rating of
its own (HouseLevelRating), which a rated match against the house bot at that level moves in place
of the house account's, so a player sees "House (level 4), 1710".

The migration stores all five rows; a missing one (a database emptied by hand) is made on first use
with INSERT ... ON CONFLICT DO NOTHING, so two games ending at once never fail on it."""
from __future__ import annotations

from flask import current_app
from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from ..core.extensions import db
from .models import START_DEVIATION, START_RATING, START_VOLATILITY, HouseLevelRating, Player
from .names import name_key

LEVELS = (1, 2, 3, 4, 5)

_LOCKED = (select(HouseLevelRating).where(HouseLevelRating.level.in_(bindparam("levels", expanding=True)))
           .order_by(HouseLevelRating.level).with_for_update().execution_options(populate_existing=True))
_ALL = select(HouseLevelRating).order_by(HouseLevelRating.level)


def is_house_bot(player: Player | None) -> bool:
    """Whether `player` is the house bot (the bot account named HOUSE_BOT_NAME), which plays at levels."""
    name = current_app.config.get("HOUSE_BOT_NAME")
    return bool(player is not None and player.bot and name and player.name_key == name_key(name))


def label(name: str, level: int | None) -> str:
    """How a rated side is named to players: the house bot at a level as 'House (level 4)', else the name."""
    return name if level is None else f"{name} (level {level})"


def _insert_missing(levels: list[int]) -> None:
    """Store the levels' rows at a new player's start, unless there already (or being made by another
    transaction, which PostgreSQL waits for: then nothing is inserted)."""
    dialect = db.session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    rows = [{"level": level, "rating": START_RATING, "rating_deviation": START_DEVIATION,
             "rating_volatility": START_VOLATILITY, "rated_games": 0} for level in levels]
    db.session.execute(insert(HouseLevelRating).values(rows).on_conflict_do_nothing(index_elements=["level"]))


def lock(levels) -> dict[int, HouseLevelRating]:
    """The levels' rating rows, locked in level order (after the players' rows, as ratings.py locks
    them), fresh from the database; made first when missing."""
    wanted = sorted(set(levels))
    if not wanted:
        return {}
    rows = {row.level: row for row in db.session.execute(_LOCKED, {"levels": wanted}).scalars()}
    if len(rows) < len(wanted):
        _insert_missing([level for level in wanted if level not in rows])
        rows = {row.level: row for row in db.session.execute(_LOCKED, {"levels": wanted}).scalars()}
    return rows


def ratings_by_level() -> dict[int, HouseLevelRating]:
    """Every level's rating, as stored (a level without a row: the start, not stored by this read)."""
    stored = {row.level: row for row in db.session.execute(_ALL).scalars()}
    return {level: stored.get(level) or HouseLevelRating.fresh(level) for level in LEVELS}
