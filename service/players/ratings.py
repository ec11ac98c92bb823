"""Players' Glicko-2 ratings (rules/glicko2.py): a two-seat match between two player accounts moves
both ratings when it ends, in the transaction that ends it (`after_change`, a games.changes hook
registered before the feed's, whose `game_over` event then carries each player's `rating_change`).

Not rated: a challenge made with `rated: false` (and its rematches) or a game made so by POST
/me/games, a game with an anonymous seat, a table (three seats or more: table_ratings.py rates
those), a match to a target below RATED_MIN_TARGET, and a match between two players who already
played RATED_PAIR_PER_DAY rated matches together in the last 24 hours (the house bot's levels
excepted: they play as they play). A resignation or a lost claim on time is a loss like any other,
whatever the hand: so nobody resigns a bad deal for free, nor sells points in one-hand matches.
The leaderboard (profiles.board) shows an account only once it is LEADERBOARD_MIN_AGE_DAYS old with
LEADERBOARD_GAMES rated matches and a settled rating (`board_rules()` says so to clients).

The house bot's levels are rated as identities of their own (house_levels.py): when the house bot
holds a seat at a level (the seat's bot_level), that side's rating is the level's, read, locked and
moved in place of the house account's, and the opponent is rated against it. The house account's
own rating is no longer moved by a game with a level; a house game without one (older games) still
moves it. Each RatingChange row says the level: `level` on the house bot's, `opponent_level` on
its opponent's.
"""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import bindparam, select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.settings import register, setting
from ..games import deadlines
from ..games.table_game import TableGame
from ..rules.glicko2 import Rating, games_to_settle, rate
from . import house_levels
from .models import Challenge, HouseLevelRating, Player, PlayerSeat, RatingChange, UnratedGame

PROVISIONAL_ABOVE = 110.0  # a deviation over this: the rating is provisional (and off the leaderboard)
LEADERBOARD_GAMES = 5  # rated matches a player needs to be on the leaderboard
register({"RATED_MIN_TARGET": 100, "RATED_PAIR_PER_DAY": 3, "LEADERBOARD_MIN_AGE_DAYS": 7},
         {"RATED_MIN_TARGET": int, "RATED_PAIR_PER_DAY": int, "LEADERBOARD_MIN_AGE_DAYS": int})

_BOUND = select(PlayerSeat.seat, PlayerSeat.player_id).where(PlayerSeat.game_id == bindparam("game"))
_CHALLENGE_RATED = select(Challenge.rated).where(Challenge.game_id == bindparam("game"))
_MADE_UNRATED = select(UnratedGame.game_id).where(UnratedGame.game_id == bindparam("game"))
_RATED_ALREADY = select(RatingChange.player_id).where(RatingChange.game_id == bindparam("game")).limit(1)
_PAIR_TODAY = (select(RatingChange.game_id).where(
    RatingChange.player_id == bindparam("player"), RatingChange.opponent_id == bindparam("opponent"),
    RatingChange.level.is_(None), RatingChange.opponent_level.is_(None), RatingChange.created_at > bindparam("since"))
    .limit(bindparam("most")))
_LOCKED = (select(Player).where(Player.id.in_(bindparam("ids", expanding=True))).order_by(Player.id)
           .with_for_update().execution_options(populate_existing=True))


def describe(player: Player | HouseLevelRating) -> dict:
    """The rating as GET /me and GET /players/{name} show it (and GET /house-bot each level's)."""
    return {"value": round(player.rating, 2), "deviation": round(player.rating_deviation, 2),
            "volatility": round(player.rating_volatility, 6), "games": player.rated_games,
            "provisional": player.rating_deviation > PROVISIONAL_ABOVE}


def is_rated(game_id: str) -> bool:
    """Whether the game may move ratings: neither its challenge nor POST /me/games said `rated: false`."""
    if db.session.execute(_CHALLENGE_RATED, {"game": game_id}).scalar() is False:
        return False
    return db.session.execute(_MADE_UNRATED, {"game": game_id}).first() is None


def board_rules() -> dict:
    """What it takes to be rated and on the leaderboard, as GET /players states it. The settled
    deviation, not the 5 matches, is what usually holds a newcomer back: `typical_rated_games` says
    how many rated matches a new account takes to reach it against settled opponents (11)."""
    return {"min_rated_games": LEADERBOARD_GAMES, "max_deviation": PROVISIONAL_ABOVE,
            "typical_rated_games": max(LEADERBOARD_GAMES, games_to_settle(Rating(), PROVISIONAL_ABOVE)),
            "min_account_age_days": setting("LEADERBOARD_MIN_AGE_DAYS"), "min_target": setting("RATED_MIN_TARGET"),
            "pair_rated_per_day": setting("RATED_PAIR_PER_DAY"), "forfeits_rated": True}


def board_standing(player: Player) -> dict:
    """Whether the player is on the leaderboard, and if not what is missing: about how many more
    rated matches (the 5, or a settled deviation: whichever is further) and from when the account is
    old enough. A suspended or erased account is not on it, whatever its figures."""
    rating = Rating(player.rating, player.rating_deviation, player.rating_volatility)
    needed = max(LEADERBOARD_GAMES - player.rated_games, games_to_settle(rating, PROVISIONAL_ABOVE), 0)
    from_ = deadlines.as_utc(player.created_at) + timedelta(days=setting("LEADERBOARD_MIN_AGE_DAYS"))
    old_enough = from_ <= deadlines.now()
    return {"on_board": needed == 0 and old_enough and player.suspended_at is None and player.erased_at is None,
            "rated_games_needed": needed, "eligible_from": None if old_enough else from_.isoformat()}


def resolve_rated(requested: bool | None, target: int) -> bool:
    """Whether a new match is rated: as asked, and by default when its target is at least
    RATED_MIN_TARGET. Asking a rated match to a lower target is refused: short matches are a coin toss."""
    least = setting("RATED_MIN_TARGET")
    if requested and target < least:
        raise Problem("rated-target-too-low", f"a rated match plays to at least {least} points (this one to "
                                              f"{target}): raise the target or send rated: false")
    return target >= least if requested is None else requested


def _pair_played_out(bound: dict[int, int], now) -> bool:
    """Whether these two players already played RATED_PAIR_PER_DAY rated matches together in 24 hours."""
    most = setting("RATED_PAIR_PER_DAY")
    played = db.session.execute(_PAIR_TODAY, {"player": bound[0], "opponent": bound[1], "most": most,
                                              "since": now - timedelta(hours=24)}).all()
    return len(played) >= most


def mark_unrated(game_id: str) -> None:
    db.session.add(UnratedGame(game_id=game_id))


def bound_players(game_id: str) -> dict[int, int]:
    """{seat: player id} of the game's seats held by players."""
    return dict(db.session.execute(_BOUND, {"game": game_id}).all())


def lock_players(ids) -> dict[int, Player]:
    """The players' rows, locked in id order (as the feed locks them), fresh from the database."""
    return {row.id: row for row in db.session.execute(_LOCKED, {"ids": sorted(set(ids))}).scalars()}


def _seats_to_rate(game, match) -> dict[int, int] | None:
    """{seat: player id} when this finished match is to be rated, else None."""
    if isinstance(match, TableGame) or (game.rules or {}).get("target", 100) < setting("RATED_MIN_TARGET"):
        return None  # a table (table_ratings.py), or a match too short to say anything
    bound = bound_players(game.id)
    if set(bound) != {0, 1} or bound[0] == bound[1]:
        return None  # an anonymous seat
    if not is_rated(game.id):
        return None
    if db.session.execute(_RATED_ALREADY, {"game": game.id}).first() is not None:
        return None  # rated once: a later change to the finished game changes nothing
    return bound


def _levels_played(game, bound: dict[int, int], rows: dict[int, Player]) -> dict[int, int]:
    """{seat: level} of the seat the house bot played at a level (none in a game from before levels)."""
    return {seat.seat: seat.bot_level for seat in game.seats
            if seat.bot_level is not None and seat.seat in bound and house_levels.is_house_bot(rows[bound[seat.seat]])}


def after_change(change, bound_seats) -> None:
    """The change hook: rate the match in the transaction that ends it (`bound_seats`: whether a
    player holds a seat, read with the move)."""
    match = change.match
    if not match.is_over or not bound_seats:
        return
    game = change.game()
    bound = _seats_to_rate(game, match)
    if bound is None:
        return
    rows = lock_players(bound.values())
    levels = _levels_played(game, bound, rows)
    if not levels and _pair_played_out(bound, deadlines.now()):
        return  # read under both players' locks: two matches ending at once count one after the other
    level_rows = house_levels.lock(levels.values())  # after the players' rows: one lock order everywhere
    # Whose rating each side is: the level's for the house bot at a level, else the player's own.
    sides = {seat: level_rows[levels[seat]] if seat in levels else rows[pid] for seat, pid in bound.items()}
    before = {seat: Rating(side.rating, side.rating_deviation, side.rating_volatility) for seat, side in sides.items()}
    winner, moment = match.result.get("winner"), deadlines.now()
    for seat, pid in bound.items():
        score = 0.5 if winner is None else 1.0 if winner == seat else 0.0
        after = rate(before[seat], [(before[1 - seat], score)])
        side = sides[seat]
        side.rating, side.rating_deviation, side.rating_volatility = after.value, after.deviation, after.volatility
        side.rated_games += 1
        db.session.add(RatingChange(game_id=game.id, player_id=pid, opponent_id=bound[1 - seat], score=score,
                                    value_before=before[seat].value, value_after=after.value,
                                    deviation_after=after.deviation, volatility_after=after.volatility,
                                    level=levels.get(seat), opponent_level=levels.get(1 - seat), created_at=moment))
    db.session.flush()


_CHANGES = select(RatingChange).where(RatingChange.game_id == bindparam("game"))


def changes_of(game_id: str) -> dict[int, dict]:
    """{player id: its `rating_change`} of a rated game (empty: not rated); `level` and
    `opponent_level` say which of the house bot's levels was rated (null: none)."""
    return {row.player_id: {"before": round(row.value_before, 2), "after": round(row.value_after, 2),
                            "delta": round(row.value_after - row.value_before, 2),
                            "deviation": round(row.deviation_after, 2),
                            "provisional": row.deviation_after > PROVISIONAL_ABOVE,
                            "level": row.level, "opponent_level": row.opponent_level}
            for row in db.session.execute(_CHANGES, {"game": game_id}).scalars()}

