"""A player's average over their reviewed matches (the profile's figure): points given away a
decision and the share of decisions within one standard error of the best, weighted by decisions.
Shown to the player (GET /me/review-average), and to anyone when the player made its games public
(GET /players/{name}/review-average), as its finished games' replays are."""
from __future__ import annotations

from sqlalchemy import select

from ..core.extensions import db
from ..players.models import PlayerSeat
from .models import DONE, Review


def average(player_id: int) -> dict:
    rows = db.session.execute(select(Review.figures, PlayerSeat.seat)
                              .join(PlayerSeat, PlayerSeat.game_id == Review.game_id)
                              .where(PlayerSeat.player_id == player_id, Review.status == DONE)).all()
    seats = [figures["match"]["seats"][seat] for figures, seat in rows if seat in (0, 1)]
    decisions = sum(s["decisions"] for s in seats)
    if not decisions:
        return {"matches": len(seats), "decisions": 0, "given_away_per_decision": None, "accuracy": None}
    return {"matches": len(seats), "decisions": decisions,
            "given_away_per_decision": round(sum(s["given_away"] for s in seats) / decisions, 2),
            "accuracy": round(sum((s["accuracy"] or 0) * s["decisions"] for s in seats) / decisions, 3)}


def profile_part(player) -> dict:
    """The profile page's review average (players.profiles.page_parts): only when the player made
    its games public, as GET /players/{name}/review-average; the player sees its own on /player."""
    if player.public_games_secret is None:
        return {}
    return {"review_average": average(player.id)}
