"""Routes of a player's public profile beyond GET /players/{name}: its rating history, its record
against each opponent, and its games (with watch and replay links when the player allows them)."""
from __future__ import annotations

from flask_smorest import Blueprint

from ..core.errors import Problem
from ..core.web import problems
from . import accounts, profiles
from .models import Player
from .profile_schemas import (
    ProfileGamesQuerySchema,
    ProfileGamesSchema,
    ProfilePageQuerySchema,
    RatingHistorySchema,
    RecordSchema,
)

profile_routes = Blueprint("profiles", __name__, description="A player's public profile: rating history, "
                                                             "record against each opponent, games")
GAME_ID = "MKsaxqYqE1pJxqt2oSEDug"


def player_named(name: str) -> Player:
    """The player of that name (404 player-not-found otherwise)."""
    player = accounts.by_name(name) if len(name) <= 40 else None
    if player is None:
        raise Problem("player-not-found", f"no player is called {name!r}")
    return player


@profile_routes.route("/players/<name>/rating-history", methods=["GET"])
@profile_routes.doc(operationId="getRatingHistory")
@profile_routes.arguments(ProfilePageQuerySchema, location="query")
@profile_routes.response(200, RatingHistorySchema, example={"matches": [{
    "game_id": GAME_ID, "at": "2030-01-02T12:00:00+00:00",
    "opponent": {"name": "House", "bot": True, "level": 4, "label": "House (level 4)"}, "level": None,
    "result": "won", "before": 1500.0, "after": 1662.31, "delta": 162.31, "deviation": 290.32}], "next_offset": None})
@problems(profile_routes, "player-not-found", "validation-error")
def rating_history(query, name):
    """The player's rated matches, newest first: when, against whom, the result, and the rating before
    and after; paged with limit and offset. The house bot at a level is rated as that level: the
    opponent is labelled 'House (level 4)'."""
    return profiles.history(player_named(name), query["limit"], query["offset"])


@profile_routes.route("/players/<name>/record", methods=["GET"])
@profile_routes.doc(operationId="getRecord")
@profile_routes.arguments(ProfilePageQuerySchema, location="query")
@profile_routes.response(200, RecordSchema, example={"opponents": [
    {"name": "Bob", "bot": False, "level": None, "label": "Bob", "won": 3, "lost": 1, "drawn": 0, "games": 4},
    {"name": "House", "bot": True, "level": 4, "label": "House (level 4)", "won": 1, "lost": 2, "drawn": 0,
     "games": 3}], "next_offset": None})
@problems(profile_routes, "player-not-found", "validation-error")
def opponent_record(query, name):
    """Rated matches won, lost and drawn against each opponent, the most played first; paged. The
    house bot at each level it played is a row of its own, labelled 'House (level 4)'."""
    return profiles.record(player_named(name), query["limit"], query["offset"])


@profile_routes.route("/players/<name>/games", methods=["GET"])
@profile_routes.doc(operationId="getPlayerGames")
@profile_routes.arguments(ProfileGamesQuerySchema, location="query")
@profile_routes.response(200, ProfileGamesSchema, example={"games": [{
    "game_id": GAME_ID, "status": "finished", "seats": 2, "seat": 0, "updated_at": "2030-01-02T12:00:00+00:00",
    "opponents": [{"seat": 1, "name": "Bob", "player": "Bob", "bot": False}], "result": "won",
    "score": {"player": 112, "opponents": 40}, "rating_change": {"before": 1500.0, "after": 1662.31, "delta": 162.31},
    "links": {"watch": None, "replay": f"/replay/{GAME_ID}#key=pUbl1c..."}}], "next_offset": None})
@problems(profile_routes, "player-not-found", "validation-error")
def player_games(query, name):
    """The player's current and finished games, the most recently changed first (`status` picks one
    kind); paged. Links to watch a current game or replay a finished one only when the player made
    its games public (`public_games`); a game waiting for its seats is not listed."""
    return profiles.games(player_named(name), query.get("status"), query["limit"], query["offset"])
