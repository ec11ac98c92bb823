"""Tournament and series play (issue 14): a parent record linking the games of a series between
two players, each game made when the one before ends, with standings from the engine's Series.

    models.py    series, series_games
    play.py      offer, accept (makes game 1), decline, the game's-end hook (next game), describe
    routes.py, schemas.py, codes.py   the HTTP side

A feature above games and players: it hears of games' ends through games.changes.
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the routes, and the change hook that records a game's end and makes the next game
    (after players' feed hook, so the ended game's game_over comes before the next game_started);
    its pending offers to the caps on a player's pending offers."""
    from ..core.extensions import api
    from ..games import changes
    from ..players import limits
    from .play import after_change, in_a_series, pending_offers
    from .routes import series_routes
    api.register_blueprint(series_routes)
    changes.on_change(after_change, reads=in_a_series)
    limits.pending_offers.register(pending_offers)  # series offers count toward the caps on pending offers
