"""Routes of series: offer, accept, decline, and read (the standings) by series or by game."""
from __future__ import annotations

from flask_smorest import Blueprint

from ..core.web import BEARER, bearer_token, problems, require_json_body_when_sent
from ..games import store
from ..players import accounts
from ..players.routes import LINKS_EXAMPLE, game_links
from ..rules import Rules
from . import play
from .schemas import NewSeriesSchema, SeriesSchema

series_routes = Blueprint("series", __name__, description="Tournaments and series between two players")
series_routes.before_request(require_json_body_when_sent)

_ROW = {"played": 1, "won": 1, "lost": 0, "drawn": 0}
SERIES_EXAMPLE = {
    "series_id": "sR7q0tq4s8m1PZk2w9lX3A", "status": "playing", "players": ["Ann", "Bob"], "kind": "best_of",
    "matches": 5, "target": None, "exactly_50_loses": False,
    "rules": {"preset": "wikipedia_tournament", "target": 250}, "move_time_hours": 72,
    "created_at": "2030-01-01T12:00:00+00:00", "current_game": "Zq8hW2cVt0bR4nYpLk6sJg",
    "games": [{"number": 1, "game_id": "MKsaxqYqE1pJxqt2oSEDug", "status": "finished", "seating": ["Ann", "Bob"],
               "result": {"winner": "Ann", "reason": "target", "totals": [412, 96]}, "links": dict(LINKS_EXAMPLE)},
              {"number": 2, "game_id": "Zq8hW2cVt0bR4nYpLk6sJg", "status": "active", "seating": ["Bob", "Ann"],
               "result": None, "links": dict(LINKS_EXAMPLE)}],
    "standings": {"rows": [{"player": "Ann", **_ROW, "points": 412, "net": 316},
                           {"player": "Bob", **_ROW, "won": 0, "lost": 1, "points": 96, "net": -316}],
                  "matches_played": 1, "leader": "Ann", "over": False, "winner": None, "exactly_50_rule": False},
}
OFFERED_EXAMPLE = {**SERIES_EXAMPLE, "status": "offered", "current_game": None, "games": [], "standings": {
    "rows": [{"player": p, "played": 0, "won": 0, "lost": 0, "drawn": 0, "points": 0, "net": 0} for p in ("Ann", "Bob")],
    "matches_played": 0, "leader": None, "over": False, "winner": None, "exactly_50_rule": False}}


@series_routes.route("/series", methods=["POST"])
@series_routes.doc(operationId="offerSeries", security=BEARER)
@series_routes.arguments(NewSeriesSchema, example={"to": "Bob", "kind": "best_of", "matches": 5})
@series_routes.response(201, SeriesSchema, example=OFFERED_EXAMPLE)
@problems(series_routes, "invalid-token", "malformed-json", "payload-too-large", "unsupported-media-type",
          "validation-error", "invalid-option", "invalid-series", "unknown-player", "challenge-to-self",
          "too-many-pending-offers", "too-many-offers-to-player")
def offer_series(args):
    """Offer a named player a series (with your player token): best of `matches` games, or games until a
    points `target`, each under `rules`. They hear `series_offered` on their stream and accept or decline.
    An offer to a player who blocked you is declined at once (`status` declined), as they would decline it."""
    rules = Rules.from_dict(args["rules"])
    with store.transaction():
        row = play.offer(accounts.current(), args["to"], args["kind"], args["matches"], args["target"],
                         args["exactly_50_loses"], rules, args["move_time_hours"])
        body = play.describe(row, game_links)
    return body, 201


@series_routes.route("/series/<series_id>/accept", methods=["POST"])
@series_routes.doc(operationId="acceptSeries", security=BEARER)
@series_routes.response(201, SeriesSchema, example={**SERIES_EXAMPLE, "games": SERIES_EXAMPLE["games"][:1]})
@problems(series_routes, "invalid-token", "malformed-json", "unsupported-media-type", "series-not-found",
          "series-closed", "challenge-to-self")
def accept_series(series_id):
    """Accept a series offered to you: game 1 is made (the offerer at seat 0) with both seats bound to the
    two players and its first hand dealt. Each later game is made when the one before ends."""
    with store.transaction():
        row = play.accept(series_id, accounts.current())
        body = play.describe(row, game_links)
    return body, 201


@series_routes.route("/series/<series_id>/decline", methods=["POST"])
@series_routes.doc(operationId="declineSeries", security=BEARER)
@series_routes.response(200, SeriesSchema, example={**OFFERED_EXAMPLE, "status": "declined"})
@problems(series_routes, "invalid-token", "malformed-json", "unsupported-media-type", "series-not-found",
          "series-closed")
def decline_series(series_id):
    """Decline a series offered to you, or withdraw your own offer, before it starts."""
    with store.transaction():
        row = play.decline(series_id, accounts.current())
        body = play.describe(row, game_links)
    return body


@series_routes.route("/series/<series_id>", methods=["GET"])
@series_routes.doc(operationId="getSeries", security=BEARER)
@series_routes.response(200, SeriesSchema, example=SERIES_EXAMPLE)
@problems(series_routes, "invalid-token", "series-not-found")
def get_series(series_id):
    """The series (with either player's token): its games in order with links and results, and the
    standings. Nothing of a hand in play is here."""
    return play.describe(play.find(series_id, accounts.current()), game_links)


@series_routes.route("/games/<game_id>/series", methods=["GET"])
@series_routes.doc(operationId="getSeriesOfGame", security=BEARER)
@series_routes.response(200, SeriesSchema, example=SERIES_EXAMPLE)
@problems(series_routes, "invalid-token", "not-in-series")
def get_series_of_game(game_id):
    """The series this game belongs to, with a token of one of its seats (seat or player token)."""
    store.read_seat(game_id, bearer_token())
    return play.describe(play.series_of_game(game_id), game_links)
