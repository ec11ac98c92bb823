"""The coach (issue 41): every finished two-seat match reviewed decision by decision, off the web
path, by the engine's reviewer (service/rules/coach).

    models.py    reviews: one row a match, its status, progress, lease and figures
    queue.py     the game's-end hook that queues a review, and the match's transcript read from the store
    worker.py    `flask coach worker`: one review at a time, leased, within the CPU budget
    events.py    review_ready on the game's stream and the players' streams
    hints.py     GET /games/{id}/hint: given and refused
    routes.py    GET /games/{id}/review, /games/{id}/hint, /me/review-average, /players/{name}/review-average
    averages.py  a player's average over their reviewed matches
    config.py, codes.py, cli.py   settings, problem codes, the command

A feature above players (a watch key opens a review as it opens the replay); it hears of games'
ends through games.changes.
"""
from __future__ import annotations


def init_app(app) -> None:
    from ..core.extensions import api
    from ..games import changes
    from ..players import profiles
    from . import (
        averages,
        config,  # noqa: F401  (registers the settings)
        events,
        hints,
    )
    from .cli import coach_cli
    from .queue import after_change
    from .routes import coach_routes
    api.register_blueprint(coach_routes)
    changes.on_change(after_change)
    changes.after_the_end.register(events.after_the_end)
    changes.seat_taken.register(hints.seat_taken)  # a seat agreeing to hints as it is taken
    profiles.page_parts.register(averages.profile_part)  # a public player's profile shows its average
    app.cli.add_command(coach_cli)
