"""Transactions, the game's lock, and loading a game by the token that opens one of its seats.

Every change to a game happens inside `transaction()` (or a move's own, games/moves.py) after the
game's row lock was taken: SELECT ... FOR UPDATE on PostgreSQL; on SQLite every writing
transaction begins with BEGIN IMMEDIATE (see core/database.configure_sqlite). On top of the lock,
the games.version column is checked in the UPDATE itself, so two changes to one game can never
both be applied. Every change ends by storing every seat's view (views.py), which a GET answers.
"""
from __future__ import annotations

import functools
import hashlib
import json
from contextlib import contextmanager

from sqlalchemy import and_, bindparam, exists, not_, or_, select
from sqlalchemy.orm import contains_eager

from ..core.database import begin_read_only
from ..core.errors import Problem, invalid_token
from ..core.extensions import db
from ..core.tokens import hash_secret
from ..rules import Match
from . import changes
from .models import Deal, Event, Game, IdempotencyRecord, Seat
from .table_game import TableGame, is_table_state

WAITING, ACTIVE, FINISHED = "waiting_for_opponent", "active", "finished"


@contextmanager
def transaction():
    """Commit what the block did, or roll all of it back if it raised."""
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


# -- loading -----------------------------------------------------------------------------

def could_be_game_id(game_id: str) -> bool:
    """Game ids are URL-safe base64 text. Anything else names no game, and must not reach the
    database: PostgreSQL refuses a NUL in a text parameter with an error (a 500, not a 401)."""
    return 0 < len(game_id) <= 64 and game_id.isascii() and game_id.replace("-", "").replace("_", "").isalnum()


# The hot statements are built once, with bound parameters: building and keying a statement
# anew costs more than running it. The game's move clock comes along (Game.clock): every change
# reads it.
_games, _seats, _events, _deals = Game.__table__, Seat.__table__, Event.__table__, Deal.__table__


@functools.cache
def _opens_seat(openers: tuple, closers: tuple = ()):
    """The SQL truth value "the token (bindparam token_hash) opens this seat": as the seat's first
    token (seats.token_hash), or by any opener another feature registered (changes.seat_openers:
    a mail link's token, a player's token), each a unique-index probe inside the same statement;
    and no closer (changes.seat_closers: a suspended player's seat) shuts the seat."""
    game, token_hash = bindparam("game"), bindparam("token_hash")
    opens = or_(_seats.c.token_hash == token_hash, *(_seats.c.seat == opener(game, token_hash) for opener in openers))
    return and_(opens, *(not_(closer.closed(_seats.c.game_id, _seats.c.seat)) for closer in closers))


def token_opens_seat():
    return _opens_seat(changes.seat_openers(), changes.seat_closers())


@functools.cache
def _shut_by(openers: tuple, closer):
    """SELECT whether the token would open a seat of the game that `closer` shuts: built once (a
    move's driver SQL compiles and caches each statement object it is given)."""
    return select(exists().where(_seats.c.game_id == bindparam("game"), _opens_seat(openers),
                                 closer.closed(_seats.c.game_id, _seats.c.seat)).label("shut"))


def refusal(params: dict, connection=None):
    """The problem for a token that opened no seat (params: game, token_hash): a closer's when the
    token would open a seat that a closer shuts, else invalid-token. Only failed requests ask, on
    `connection` when given (a move's own, which holds SQLite's write lock), else the session's."""
    for closer in changes.seat_closers():
        found = (connection or db.session).execute(_shut_by(changes.seat_openers(), closer), params).all()
        if found and found[0][0]:
            return closer.problem()
    return invalid_token()


@functools.cache
def _closed(closer):
    return select(closer.closed(bindparam("game"), bindparam("seat")).label("shut"))


def closed_by(game_id: str, seat: int):
    """The problem of a closer that shuts this seat (changes.seat_closers), or None: for the ways
    into a seat that name it rather than bring a token (a move by mail, a mail's link)."""
    for closer in changes.seat_closers():
        if db.session.execute(_closed(closer), {"game": game_id, "seat": seat}).scalar():
            return closer.problem()
    return None


@functools.cache
def _seat_query(opens_seat, lock: bool):
    query = (select(Game, Seat.seat).join(Seat, Seat.game_id == Game.id)
             .outerjoin(Game.clock).options(contains_eager(Game.clock))
             .where(Game.id == bindparam("game"), opens_seat))
    return query.with_for_update(of=Game) if lock else query


def seat_query(lock: bool = False):
    """The game (its clock loaded) and the seat the token opens; locked with `lock`."""
    return _seat_query(token_opens_seat(), lock)


def seat_params(game_id: str, token: str) -> dict:
    if not could_be_game_id(game_id):
        raise invalid_token()
    return {"game": game_id, "token_hash": hash_secret(token)}


def lock_seat(game_id: str, token: str) -> tuple[Game, int]:
    """The game the token opens, locked until the transaction ends, and the token's seat."""
    params = seat_params(game_id, token)
    row = db.session.execute(seat_query(lock=True), params).first()
    if row is None:
        raise refusal(params)
    return row[0], row[1]


def read_seat(game_id: str, token: str) -> tuple[Game, int]:
    """Like lock_seat, for reading only: no lock, so readers never wait for writers."""
    params = seat_params(game_id, token)
    begin_read_only()
    row = db.session.execute(seat_query(), params).first()
    if row is None:
        raise refusal(params)
    return row[0], row[1]


def load_match(game: Game) -> Match | TableGame | None:
    """The game's match (None until every seat is taken)."""
    return None if game.state is None else match_from_state(game.state)


def match_from_state(state: dict) -> Match | TableGame:
    """A stored match: a `Match` for two seats, a `TableGame` for 3 to 8 (table_game.py)."""
    return TableGame.from_dict(state) if is_table_state(state) else Match.from_dict(state)


def lock_game(game_id: str) -> Game | None:
    """The game, locked until the transaction ends (for callers that know the seat already,
    like a move by email)."""
    return db.session.execute(select(Game).where(Game.id == game_id).with_for_update()).scalar()


def started_match(game: Game) -> Match:
    match = load_match(game)
    if match is None:
        raise Problem("game-not-started", "the game starts when every seat is taken with its invite code")
    return match


# -- idempotency ---------------------------------------------------------------------------

def body_hash(body) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def earlier_answer(game: Game, seat: int, key: str | None, body) -> IdempotencyRecord | None:
    """The stored first answer to this seat's request with this Idempotency-Key, if any."""
    if key is None:
        return None
    record = db.session.execute(select(IdempotencyRecord).filter_by(
        game_id=game.id, seat=seat, key=key)).scalar()
    if record is not None and record.request_hash != body_hash(body):
        raise Problem("idempotency-key-reused",
                      "this Idempotency-Key was used for a different request; use a new key per action")
    return record


def remember_answer(game: Game, seat: int, key: str | None, body, status: int, response: str) -> None:
    if key is not None:
        db.session.add(IdempotencyRecord(game_id=game.id, seat=seat, key=key, request_hash=body_hash(body),
                                         status=status, response=json.loads(response), version=game.version))
