"""Ways into a seat besides the first token: link keys carried by mails, and the seat's list of
bearer tokens (each revocable, for a lost phone). `routes.py` is the JSON API, `links.py` the logic.
A feature above games: a token of the seat's list opens the seat through games.changes.seat_openers.
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the routes, and the seat opener of a seat's further tokens."""
    from ..core.extensions import api
    from ..games import changes
    from .links import further_token_seat
    from .routes import access
    api.register_blueprint(access)
    changes.seat_openers.register(further_token_seat)
