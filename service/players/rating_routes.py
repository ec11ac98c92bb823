"""Routes of ratings: a player's public profile with its rating, and the leaderboard."""
from __future__ import annotations

from flask_smorest import Blueprint
from sqlalchemy import select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.web import BEARER, bearer_token, problems
from ..games import store
from . import accounts, house_levels, ratings, table_ratings
from .models import Player
from .profiles import board, profile
from .rating_schemas import GameRatingsSchema, LeaderboardQuerySchema, LeaderboardSchema, PublicProfileSchema

rating_routes = Blueprint("ratings", __name__, description="Ratings: players' profiles and the leaderboard")
RATING_EXAMPLE = {"value": 1662.31, "deviation": 290.32, "volatility": 0.059999, "games": 1, "provisional": True}
TABLE_RATING_EXAMPLE = {"mu": 26.9643, "sigma": 8.178, "ordinal": 2.43, "games": 1}


@rating_routes.route("/players", methods=["GET"])
@rating_routes.doc(operationId="getLeaderboard")
@rating_routes.arguments(LeaderboardQuerySchema, location="query")
@rating_routes.response(200, LeaderboardSchema, example={"players": [
    {"rank": 1, "name": "Ann", "bot": False, "created_at": "2030-01-01T12:00:00+00:00",
     "rating": {**RATING_EXAMPLE, "deviation": 95.2, "games": 12, "provisional": False},
     "table_rating": TABLE_RATING_EXAMPLE, "public_games": False}], "next_offset": None,
    "rules": {"min_rated_games": 5, "max_deviation": 110.0, "typical_rated_games": 11, "min_account_age_days": 7,
              "min_target": 100,
              "pair_rated_per_day": 3, "forfeits_rated": True}})
@problems(rating_routes, "validation-error")
def leaderboard(query):
    """The leaderboard (`sort=rating`, required), highest rating first, paged with limit and offset. Its
    rules, stated in `rules`: a player is on it with at least 5 rated matches, a rating no longer
    provisional (deviation at most 110: about 11 rated matches from a new account, `typical_rated_games`)
    and an account 7 days old (LEADERBOARD_MIN_AGE_DAYS). A match is
    rated when played to 100 points or more (RATED_MIN_TARGET); resigned or lost on time, it is a loss
    whatever the hand; past 3 rated matches of the same two players in 24 hours (RATED_PAIR_PER_DAY),
    the next ones are played unrated."""
    return board(query["limit"], query["offset"])


@rating_routes.route("/players/<name>", methods=["GET"])
@rating_routes.doc(operationId="getPlayer")
@rating_routes.response(200, PublicProfileSchema, example={
    "name": "Ann", "bot": False, "created_at": "2030-01-01T12:00:00+00:00", "rating": RATING_EXAMPLE,
    "table_rating": TABLE_RATING_EXAMPLE, "public_games": False,
    "leaderboard": {"on_board": False, "rated_games_needed": 6, "eligible_from": None}})
@problems(rating_routes, "player-not-found")
def get_player(name):
    """A player's public profile: the name, whether it is a bot, its rating (two seats) and its table
    rating (3 to 8 seats), and where it stands against the leaderboard's rules. A browser (asking for
    text/html first) gets the profile page at this address instead; its history, record and games: GET /players/{name}/rating-history, /record and /games."""
    player = accounts.by_name(name) if len(name) <= 40 else None
    if player is None:
        raise Problem("player-not-found", f"no player is called {name!r}")
    return {**profile(player), "leaderboard": ratings.board_standing(player)}


def game_ratings(game) -> dict:
    """What the game did (or, in play, will do) to its players' ratings, seat by seat."""
    bound = ratings.bound_players(game.id)
    table = len(game.seats) > 2
    kind, changes = ("table_rating", table_ratings.changes_of(game.id)) if table else ("rating",
                                                                                     ratings.changes_of(game.id))
    if game.status != "finished":
        return {"rated": len(set(bound.values())) == len(game.seats) and ratings.is_rated(game.id)
                and (game.rules or {}).get("target", 100) >= ratings.board_rules()["min_target"], "changes": []}
    names = dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_(list(changes)))).all())
    return {"rated": bool(changes), "changes": [  # the house bot at a level: the level's rating moved
        {"seat": seat, "player": names[pid], "level": changes[pid].get("level"),
         "label": house_levels.label(names[pid], changes[pid].get("level")), "kind": kind,
         **{k: changes[pid][k] for k in ("before", "after", "delta")}}
        for seat, pid in sorted(bound.items()) if pid in changes]}


@rating_routes.route("/games/<game_id>/ratings", methods=["GET"])
@rating_routes.doc(operationId="getGameRatings", security=BEARER)
@rating_routes.response(200, GameRatingsSchema, example={"rated": True, "changes": [
    {"seat": 0, "player": "Ann", "level": None, "label": "Ann", "kind": "rating", "before": 1500.0, "after": 1662.31,
     "delta": 162.31},
    {"seat": 1, "player": "House", "level": 4, "label": "House (level 4)", "kind": "rating", "before": 1500.0,
     "after": 1337.69, "delta": -162.31}]})
@problems(rating_routes, "invalid-token")
def get_game_ratings(game_id):
    """For a seat of the game: whether it is rated, and once over what it did to each player's rating
    (Glicko-2 at two seats, the table rating's ordinal at 3 to 8), as the result page shows it. The
    house bot playing at a level is rated as that level (`level`, `label` "House (level 4)")."""
    game, _ = store.read_seat(game_id, bearer_token())
    return game_ratings(game)
