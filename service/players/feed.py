"""Each player's stream of events (GET /me/stream), and what a change to a game adds to it.

Events are rows numbered 1, 2, ... per player: the number comes from players.last_event_seq,
bumped by an UPDATE that holds the player's row lock to the end of the transaction, so two games
moving at once never take the same number, and an event exists exactly when its change committed.
The stream's `id` is that number: a client resuming with Last-Event-ID gets every later event once.
"""
from __future__ import annotations

from sqlalchemy import bindparam, delete, exists, select, update

from ..core import wakeup
from ..core.extensions import db
from ..games import views
from ..games.models import Seat, utcnow
from ..games.table_game import TableGame, redact_table_event
from ..rules import redact_event
from . import ratings, table_ratings
from .models import Player, PlayerEvent, PlayerSeat

_players, _events, _bound = Player.__table__, PlayerEvent.__table__, PlayerSeat.__table__

_NEXT_SEQ = (update(_players).where(_players.c.id == bindparam("player"))
             .values(last_event_seq=_players.c.last_event_seq + 1).returning(_players.c.last_event_seq))
_LOCK_PLAYERS = select(_players.c.id).where(_players.c.id.in_(bindparam("ids", expanding=True))) \
    .order_by(_players.c.id).with_for_update()


def lock_players(player_ids) -> None:
    """Take the players' row locks in id order, before adding events to several players' streams:
    two transactions then never wait for each other in a circle (PostgreSQL; SQLite has one writer)."""
    if player_ids:
        db.session.execute(_LOCK_PLAYERS, {"ids": sorted(set(player_ids))})


def add(player_id: int, kind: str, **payload) -> int:
    """Append an event to the player's stream in the caller's transaction; its readers wake when
    that commits. Returns its seq."""
    connection = db.session.connection()
    seq = connection.execute(_NEXT_SEQ, {"player": player_id}).scalar_one()
    connection.execute(_events.insert(), {"player_id": player_id, "seq": seq, "type": kind,
                                          "payload": payload, "created_at": utcnow()})
    wakeup.player_changed(player_id, seq)
    return seq


_EVENTS_AFTER = (select(_events.c.seq, _events.c.type, _events.c.payload, _events.c.created_at)
                 .where(_events.c.player_id == bindparam("player"), _events.c.seq > bindparam("after"))
                 .order_by(_events.c.seq).limit(bindparam("limit")))


def events_after(connection, player_id: int, after: int, limit: int = 100) -> list[dict]:
    return [{"seq": row.seq, "type": row.type, "created_at": row.created_at.isoformat(), **row.payload}
            for row in connection.execute(_EVENTS_AFTER, {"player": player_id, "after": after, "limit": limit})]


def forget_before(cutoff) -> int:
    """Delete the stream events older than `cutoff` (notify's sweep of old rows calls it); the
    numbering lives on the player's row, so pruning never reuses an event id."""
    return db.session.execute(delete(_events).where(_events.c.created_at < cutoff)).rowcount


# What the wake-up's fallback reads of the players whose streams are waited on (core/wakeup.py).
NEWEST_EVENTS = select(_players.c.id, _players.c.last_event_seq).where(
    _players.c.id.in_(bindparam("ids", expanding=True)))


def bound_seat(game_id, token_hash):
    """The seat opener (games.changes.seat_openers) of a player's token: the seat of `game_id`
    bound to the player whose token has this hash (player_seats: at most one per game)."""
    return (select(_bound.c.seat).select_from(_bound.join(_players, _players.c.id == _bound.c.player_id))
            .where(_bound.c.game_id == game_id, _players.c.token_hash == token_hash).scalar_subquery())


# -- what a change to a game adds -----------------------------------------------------------

_BOUND = select(_bound.c.seat, _bound.c.player_id).where(_bound.c.game_id == bindparam("game"))
_NAMES = select(Seat.seat, Seat.name).where(Seat.game_id == bindparam("game"))


def bound_seats(game_id: str) -> dict[int, int]:
    """{seat: player id} for the seats of the game that players hold."""
    return dict(db.session.connection().execute(_BOUND, {"game": game_id}).all())


def has_bound_seats(game_id):
    """The SQL truth value under which after_change has work: a seat of the game is bound to a player."""
    return exists().where(_bound.c.game_id == game_id)


def after_change(game, match, actor: int | None, events: list[dict]) -> None:
    """The change hook (games.changes), in the change's transaction: each bound seat's player hears that the
    game started, that the opponent moved, that it is their turn (with the seat's view, so a bot
    needs no second request) and that the match is over (with the rating's change, when rated)."""
    bound = bound_seats(game.id)
    if not bound:
        return
    lock_players(bound.values())
    names = dict(db.session.connection().execute(_NAMES, {"game": game.id}).all())
    at_table = isinstance(match, TableGame)
    redact = redact_table_event if at_table else redact_event  # a table's events name boards' local seats
    rated = (table_ratings if at_table else ratings).changes_of(game.id) if match.is_over else {}  # by a hook before
    change_key = "table_rating_change" if at_table else "rating_change"
    for seat, player in sorted(bound.items()):
        base = {"game_id": game.id, "seat": seat, "version": game.version}
        if actor is None:
            add(player, "game_started", **base, opponent=None if at_table else names.get(1 - seat),
                rules=game.rules, **({"players": [names.get(s) for s in range(match.seats)]} if at_table else {}))
        elif actor != seat:
            add(player, "opponent_moved", **base,
                events=[{"seq": e["seq"], **redact({k: v for k, v in e.items() if k != "seq"}, seat)}
                        for e in events])
        if match.is_over:
            add(player, "game_over", **base, result=match.view(seat).get("result"),
                **({change_key: rated[player]} if player in rated else {}))
        elif _turn_begins(match, seat, actor, events):
            add(player, "your_turn", **base, view=views.views_for(game, match, seats=(seat,))[seat])


def _turn_begins(match, seat: int, actor: int | None, events: list[dict]) -> bool:
    """Whether `seat` is to move after this change, and hears so: after one's own draw too (a bot's
    one loop over its stream plays the whole turn). At a table several seats may be to move, one
    per board: a seat hears when the change touched its board (or the whole table)."""
    if not isinstance(match, TableGame):
        return seat == match.to_move
    return seat in match.table.to_move and (actor is None or any(
        e.get("seats") is None or seat in e["seats"] for e in events))
