"""Each player's stream of events (GET /me/stream), and what a change to a game adds to it.

Events are rows numbered 1, 2, ... per player: the number comes from players.last_event_seq,
bumped by an UPDATE that holds the player's row lock to the end of the transaction, so two games
moving at once never take the same number, and an event exists exactly when its change committed.
The stream's `id` is that number: a client resuming with Last-Event-ID gets every later event once.
"""
from __future__ import annotations

import functools

from sqlalchemy import Integer, String, bindparam, case, cast, delete, exists, func, literal_column, select, update

from ..core import driver_sql, wakeup
from ..core.extensions import db
from ..games import move_transaction
from ..games.models import utcnow
from ..games.table_game import TableGame, redact_table_event
from ..rules import redact_event
from . import ratings, table_ratings
from .models import Player, PlayerEvent, PlayerSeat

_players, _events, _bound = Player.__table__, PlayerEvent.__table__, PlayerSeat.__table__

_LOCK_PLAYERS = select(_players.c.id).where(_players.c.id.in_(bindparam("ids", expanding=True))) \
    .order_by(_players.c.id).with_for_update()


def lock_players(player_ids) -> None:
    """Take the players' row locks in id order, before adding events to several players' streams:
    two transactions then never wait for each other in a circle (PostgreSQL; SQLite has one writer)."""
    if player_ids:
        db.session.execute(_LOCK_PLAYERS, {"ids": sorted(set(player_ids))})


def add(player_id: int, kind: str, **payload) -> int:
    """Append an event to the player's stream in the caller's transaction (the session's); its
    readers wake when that commits. Returns its seq."""
    return add_all(move_transaction.driver(), [(player_id, kind, payload)])[0]


@functools.cache
def _bump(players: int, dialect: str):
    """UPDATE players' last_event_seq, each by its own count, locking their rows in id order (two
    games moving at once never wait for each other in a circle), RETURNING each one's new last
    seq; on PostgreSQL with its wake-up NOTIFY, queued with the transaction."""
    ids = [bindparam(f"player{n}") for n in range(players)]
    # (a CASE of bare parameters would be text to PostgreSQL's PREPARE: each is cast)
    counts = case(*((_players.c.id == ids[n], cast(bindparam(f"count{n}"), Integer)) for n in range(players)))
    locked = select(_players.c.id).where(_players.c.id.in_(ids)).order_by(_players.c.id).with_for_update()
    returned = [_players.c.id, _players.c.last_event_seq]
    if dialect == "postgresql":
        returned.append(func.pg_notify(literal_column(f"'{wakeup.CHANNEL}'"),
                                       wakeup.player_payload(_players.c.id, _players.c.last_event_seq)))
    return (update(_players).where(_players.c.id.in_(locked.scalar_subquery()))
            .values(last_event_seq=_players.c.last_event_seq + counts).returning(*returned))


_INSERT_EVENT = _events.insert()
_EVENT_KEYS = ("player_id", "seq", "type", "payload", "created_at")


def add_all(connection, entries: list[tuple[int, str, dict]]) -> list[int]:
    """Append events (player id, type, payload) to players' streams in the transaction of
    `connection` (core.driver_sql.Driver): two statements whatever their number, the insert
    held back to go with a move's COMMIT. Each player's readers wake when it commits. Returns
    each event's seq, in order."""
    counts: dict[int, int] = {}
    for player, _, _ in entries:
        counts[player] = counts.get(player, 0) + 1
    players = sorted(counts)
    params = {**{f"player{n}": player for n, player in enumerate(players)},
              **{f"count{n}": counts[player] for n, player in enumerate(players)}}
    last = {row[0]: row[1] for row in connection.execute(_bump(len(players), connection.dialect.name), params).all()}
    for player in players:
        wakeup.noted(wakeup.player_key(player), last[player], connection.pending)
    next_seq = {player: last[player] - counts[player] for player in players}
    rows, seqs, moment = [], [], utcnow()
    for player, kind, payload in entries:
        next_seq[player] += 1
        seqs.append(next_seq[player])
        rows.append({"player_id": player, "seq": next_seq[player], "type": kind, "payload": payload,
                     "created_at": moment})
    connection.write(driver_sql.multi_row_insert(_INSERT_EVENT, _EVENT_KEYS, len(rows)),
                     driver_sql.multi_row_params(rows, _EVENT_KEYS), None)
    return seqs


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


def bound_seats(game_id: str) -> dict[int, int]:
    """{seat: player id} for the seats of the game that players hold."""
    return dict(db.session.connection().execute(_BOUND, {"game": game_id}).all())


def bound_seats_read(game_id):
    """What the move path reads for after_change (ChangeHook.reads): the game's bound seats as text,
    "seat:player,seat:player" (None: no seat is a player's), in the move's one locked read."""
    pair = cast(_bound.c.seat, String) + literal_column("':'") + cast(_bound.c.player_id, String)
    listed = func.aggregate_strings(pair, literal_column("','"))  # (a literal: driver SQL binds no constant)
    return select(listed).where(_bound.c.game_id == game_id).scalar_subquery()


def has_bound_seats(game_id):
    """The SQL truth value: a seat of the game is bound to a player (the ratings hooks' read)."""
    return exists().where(_bound.c.game_id == game_id)


def after_change(change, bound_text: str | None) -> None:
    """The change hook (games.changes), in the change's transaction: each bound seat's player hears that the
    game started, that the opponent moved, that it is their turn (with the seat's view, so a bot
    needs no second request) and that the match is over (with the rating's change, when rated).
    Written in driver SQL on the move's connection: two statements for all of it."""
    if not bound_text:
        return
    bound = {int(seat): int(player) for seat, player in (pair.split(":") for pair in bound_text.split(","))}
    match, actor, events = change.match, change.actor, change.events
    at_table = isinstance(match, TableGame)
    redact = redact_table_event if at_table else redact_event  # a table's events name boards' local seats
    rated = (table_ratings if at_table else ratings).changes_of(change.game_id) if match.is_over else {}
    change_key = "table_rating_change" if at_table else "rating_change"
    entries = []
    for seat, player in sorted(bound.items()):
        base = {"game_id": change.game_id, "seat": seat, "version": change.version}
        if actor is None:
            names = [entry["name"] for entry in change.views[seat]["players"]]
            entries.append((player, "game_started", {
                **base, "opponent": None if at_table else names[1 - seat], "rules": match.rules.to_dict(),
                **({"players": names} if at_table else {})}))
        elif actor != seat:
            entries.append((player, "opponent_moved", {
                **base, "events": [{"seq": e["seq"], **redact({k: v for k, v in e.items() if k != "seq"}, seat)}
                                   for e in events]}))
        if match.is_over:
            entries.append((player, "game_over", {**base, "result": match.view(seat).get("result"),
                                                  **({change_key: rated[player]} if player in rated else {})}))
        elif _turn_begins(match, seat, actor, events):
            entries.append((player, "your_turn", {**base, "view": change.views[seat]}))
    if entries:
        add_all(change.connection, entries)


def _turn_begins(match, seat: int, actor: int | None, events: list[dict]) -> bool:
    """Whether `seat` is to move after this change, and hears so: after one's own draw too (a bot's
    one loop over its stream plays the whole turn). At a table several seats may be to move, one
    per board: a seat hears when the change touched its board (or the whole table)."""
    if not isinstance(match, TableGame):
        return seat == match.to_move
    return seat in match.table.to_move and (actor is None or any(
        e.get("seats") is None or seat in e["seats"] for e in events))
