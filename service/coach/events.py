"""`review_ready`: a review done is told on the game's stream (after the final view: the game's
version moves on, as a rematch offer moves it, so its streams wake) and on the streams of the
players who hold its seats, each with that seat's summary of the match."""
from __future__ import annotations

from datetime import UTC, datetime

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.extensions import db
from ..core.fields import doc
from ..games import changes, store, views
from ..games.event_schemas import event_type
from ..games.models import Game
from ..players import feed
from ..players.stream_schemas import PlayerEventBase
from .models import DONE, Review

SUMMARY_DOC = doc("Your seat's figures over the match: decisions, given_away, given_away_per_decision, "
                  "accuracy and the count of each label (docs/coach.md)")


class ReviewReadyEventSchema(PlayerEventBase):
    """The computer's review of a finished match of yours is done."""
    type = event_type("review_ready")
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=v.Range(0, 1), **doc("Your seat in that game"))
    review = f.String(required=True, **doc("Where to read it: GET it with your token", example="/games/3Yx9kQ/review"))
    summary = f.Dict(required=True, **SUMMARY_DOC)


class GameReviewReadyEventSchema(ma.Schema):
    """The `review_ready` event of GET /games/{game_id}/stream: the review of the finished match is
    done. Sent after the final view, at the version the review's end made."""
    event = event_type("review_ready")
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=v.Range(0, 1), **doc("Your seat in it"))
    review = f.String(required=True, **doc("Where to read it", example="/games/3Yx9kQ/review"))
    summary = f.Dict(required=True, **SUMMARY_DOC)


COACH_STREAM_SCHEMAS = {"review_ready": ReviewReadyEventSchema}
COACH_GAME_STREAM_SCHEMAS = {"review_ready": GameReviewReadyEventSchema}


def _ready(game_id: str, seat: int, figures: dict) -> dict:
    return {"game_id": game_id, "seat": seat, "review": f"/games/{game_id}/review",
            "summary": figures["match"]["seats"][seat]}


def tell(game_id: str, figures: dict) -> None:
    """In the transaction that stores the review: the game's streams wake (its version moves on)
    and each player holding a seat hears `review_ready`."""
    game = db.session.get(Game, game_id)
    game.updated_at = datetime.now(UTC)
    views.publish_views(game, store.load_match(game))
    players = feed.bound_seats(game_id)
    feed.lock_players(list(players.values()))
    for seat, player in sorted(players.items()):
        feed.add(player, "review_ready", **_ready(game_id, seat, figures))


def after_the_end(game_id: str, seat: int) -> changes.AfterTheEnd:
    """The games.changes.after_the_end hook: a finished game's stream tells each seat of its review
    once done (it does not stay open for it: a client comes back, or hears it on /me/stream)."""
    row = db.session.get(Review, game_id)
    if row is None or row.status != DONE or seat not in (0, 1):
        return changes.AfterTheEnd()
    return changes.AfterTheEnd(events=({"event": "review_ready", **_ready(game_id, seat, row.figures)},))
