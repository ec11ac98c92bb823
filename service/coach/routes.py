"""GET /games/{id}/review: a finished match's review, or how far it has come (answered at once:
a request never waits on the reviewer), for its seats and watch-link holders."""
from __future__ import annotations

import marshmallow as ma
from flask import jsonify
from flask_smorest import Blueprint
from marshmallow import fields as f

from ..core.errors import Problem
from ..core.extensions import db
from ..core.fields import doc
from ..core.web import BEARER, bearer_token, problems
from ..games import store
from ..players import accounts, watching
from ..players.profile_routes import player_named
from . import averages, hints
from .models import Review

coach_routes = Blueprint("coach", __name__, description="The computer as a coach: reviews of finished matches")


class ReviewSchema(ma.Schema):
    game_id = f.String(required=True, **doc("The game", example="3Yx9kQ"))
    status = f.String(required=True, **doc("queued, running, done, skipped (its players had "
                                            "COACH_QUEUE_PER_PLAYER reviews waiting) or failed", example="done"))
    done = f.Integer(required=True, **doc("Decisions weighed so far", example=42))
    total = f.Integer(allow_none=True, **doc("Decisions to weigh (null until counted)", example=58))
    review = f.Dict(allow_none=True, **doc("The figures once done (docs/coach.md): each decision's options, "
                                           "the chosen and the best, points given away with a standard error, a "
                                           "label; each hand's and the match's summary per seat"))


@coach_routes.route("/games/<game_id>/review", methods=["GET"])
@coach_routes.doc(operationId="getReview", security=BEARER)
@coach_routes.response(200, ReviewSchema)
@problems(coach_routes, "invalid-token", "match-not-over", "review-not-available")
def get_review(game_id):
    """A finished two-seat match's review (a seat's token or the watch key), or its status and
    progress while queued or running."""
    key = bearer_token()
    try:
        game, _ = store.read_seat(game_id, key)
    except Problem:
        game = watching.game_by_key(game_id, key)
        if game is None:
            raise
    if game.status != "finished":
        raise Problem("match-not-over", "a match is reviewed once it is over")
    row = db.session.get(Review, game.id)
    if row is None:
        raise Problem("review-not-available", "this match has no review: tables of 3 to 8 seats, Mahjong gin and "
                                              "other cards than the standard are not reviewed (yet)")
    return jsonify({"game_id": game.id, "status": row.status, "done": row.done, "total": row.total,
                    "review": row.figures})


class HintSchema(ma.Schema):
    game_id = f.String(required=True, **doc("The game", example="3Yx9kQ"))
    seat = f.Integer(required=True, **doc("The seat asking", example=0))
    best = f.Dict(required=True, **doc("The best option, as an action to POST", example={"type": "draw", "from": "stock"}))
    expected = f.Float(required=True, **doc("Its expected points for the seat, this hand", example=6.4))
    deals = f.Integer(required=True, **doc("Sampled deals weighed", example=32))
    options = f.List(f.Dict(), required=True, **doc("Every option weighed: action, expected, behind (the best's "
                                                    "mean less this one's) and se (its standard error)"))


@coach_routes.route("/games/<game_id>/hint", methods=["GET"])
@coach_routes.doc(operationId="getHint", security=BEARER)
@coach_routes.response(200, HintSchema)
@problems(coach_routes, "invalid-token", "hints-off", "hints-in-rated-game", "hints-not-in-tournaments",
          "no-decision-now")
def get_hint(game_id):
    """What the computer would do at the seat's decision now, from the seat's information only: in
    unrated games against the house bot (never rated games or tournaments). The game counts the hints asked."""
    game, seat = store.read_seat(game_id, bearer_token())
    return jsonify(hints.give(game, seat))


class ReviewAverageSchema(ma.Schema):
    matches = f.Integer(required=True, **doc("Reviewed matches of the player", example=12))
    decisions = f.Integer(required=True, **doc("Their decisions reviewed", example=640))
    given_away_per_decision = f.Float(allow_none=True, **doc("Points given away a decision (null: none yet)",
                                                             example=1.8))
    accuracy = f.Float(allow_none=True, **doc("Share of decisions within one standard error of the best",
                                              example=0.78))


@coach_routes.route("/me/review-average", methods=["GET"])
@coach_routes.doc(operationId="getMyReviewAverage", security=BEARER)
@coach_routes.response(200, ReviewAverageSchema)
@problems(coach_routes, "invalid-token", "account-suspended")
def my_review_average():
    """Your average over your reviewed matches (your player token)."""
    return jsonify(averages.average(accounts.current().id))


@coach_routes.route("/players/<name>/review-average", methods=["GET"])
@coach_routes.doc(operationId="getReviewAverage")
@coach_routes.response(200, ReviewAverageSchema)
@problems(coach_routes, "player-not-found", "review-average-private")
def review_average(name):
    """A player's average over their reviewed matches: shown when the player made its games public."""
    player = player_named(name)
    if player.public_games_secret is None:
        raise Problem("review-average-private", f"{name} has not made their games public")
    return jsonify(averages.average(player.id))
