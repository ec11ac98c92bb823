"""Games of 2 to 8 seats, the service's first feature: creating and joining, moves, views, the
history, deals committed to and revealed, move clocks, long-polls and streams.

    models.py        games, seats, events, deals, knock decks, idempotency records, move clocks
    store.py         transactions, the lock, loading a game by token; seating.py creating and joining
    moves.py         the move path: every move, two seats or a table, HTTP or mail, and the first
                     deal, recorded by one function (move_reads.py, move_writes.py its statements)
    views.py         what a seat sees, stored with each change; the history as a seat may see it
    clocks.py        the move clock of any game (deadlines.py two seats, table_clocks.py a table)
    deals.py, second_deck.py   shuffles and their commitments; Oklahoma's knock decks
    table_game.py    the engine's Table as a game of 3 to 8 seats keeps it
    waiting.py       the long-poll and the stream of a game's views; waiting_slots.py the caps on them
    messages.py      messages between a game's seats (message_routes.py their routes)
    plans.py         plans (a whole turn in one move) and standing orders (standing.py, which the
                     move path plays); plan_routes.py, plan_schemas.py their routes
    changes.py       the hooks other features register: a change, a seat taken, a seat opened
    routes.py; schemas.py, action_schemas.py, view_schemas.py, event_schemas.py, table_schemas.py,
    contact_fields.py, fields.py, examples.py   the HTTP side

It imports the core and the engine only; features above it hear of its changes through the hooks
in changes.py.
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the games' routes and the wake-up's fallback read of games' versions."""
    from sqlalchemy import bindparam, select

    from ..core import metrics, wakeup
    from ..core.extensions import api
    from .models import Game
    from .message_routes import chat
    from .plan_routes import planning
    from .routes import games
    api.register_blueprint(games)
    api.register_blueprint(chat)
    api.register_blueprint(planning)
    wakeup.watch_versions("game:", select(Game.id, Game.version).where(Game.id.in_(bindparam("ids", expanding=True))))
    metrics.scraped.register(("gin_games_active", "Games being played (every seat taken, not finished)",
                              active_games))


def active_games() -> int:
    from sqlalchemy import func, select

    from ..core.extensions import db
    from .models import Game
    from .store import ACTIVE
    return db.session.scalar(select(func.count()).select_from(Game).where(Game.status == ACTIVE))
