"""Players (accounts beside anonymous seats), challenges, rematches, watch links, and one stream
of events per player.

    models.py      players, player_seats, player_events, challenges, watch_links
    accounts.py    a player, its token, binding seats, my games
    feed.py        the player's events, and what a change to a game adds (a store.on_change hook)
    stream.py      GET /me/stream (Server-Sent Events)
    challenges.py  offer, accept (makes the game), decline, cancel, expiry, rematch
    watching.py    watch links and the public view
    routes.py, challenge_routes.py, table_routes.py, schemas.py   the HTTP side

Kept import-light: service.models imports .models from here.
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the routes, and the change hook that feeds players' streams (after notify's, so that
    a `your_turn` view shows the new deadline)."""
    from .. import store
    from ..extensions import api
    from .challenge_routes import challenge_routes
    from .feed import after_change
    from .routes import players
    from .table_routes import table
    for blueprint in (players, challenge_routes, table):
        api.register_blueprint(blueprint)
    store.on_change(after_change)
