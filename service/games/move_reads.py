"""What a move reads, in one statement: the game's row, the seat, both names (and the house bot's
level, if it holds a seat), both seats' standing orders, the last event
number, the latest deal's commitment and the revealed deals, the move clock, what each change
hook needs to know whether it has work, whether the game has vacations, and with an Idempotency-Key its first answer. On
PostgreSQL the game's row lock is taken in a statement of its own, sent in the same message."""
from __future__ import annotations

import functools

from sqlalchemy import and_, bindparam, exists, func, literal_column, select

from ..core import fastjson
from ..core.errors import Problem, invalid_token
from ..core.tokens import hash_secret
from . import changes, store
from .models import Deal, Event, Game, GameClock, IdempotencyRecord, Seat, Vacation

_games, _seats, _events, _deals = Game.__table__, Seat.__table__, Event.__table__, Deal.__table__
_clocks, _vacations, _records = GameClock.__table__, Vacation.__table__, IdempotencyRecord.__table__
CLOCK_FIELDS = ("move_time_hours", "turn_seat", "turn_started_at", "deadline_at", "reminder_at", "reminded",
                "expiry_noticed")
DEAL_FIELDS = ("hand", "deck", "salt", "commitment")


def _name_of(seat: int, column: str = "name"):
    named = _seats.alias(f"seat{seat}")  # not the token's seats row, which the outer query joins
    return select(named.c[column]).where(named.c.game_id == _games.c.id, named.c.seat == seat).scalar_subquery()


def _revealed_deals(dialect: str):
    """The revealed deals as one JSON array (one value, however many hands were played)."""
    pairs = []
    for name in DEAL_FIELDS:
        value = _deals.c[name]
        if name == "deck" and dialect != "postgresql":
            value = func.json(value)  # SQLite stores JSON as text: embed it as an array, not a string
        pairs += [literal_column(f"'{name}'"), value]
    aggregate = (func.json_agg(func.json_build_object(*pairs)) if dialect == "postgresql"
                 else func.json_group_array(func.json_object(*pairs)))
    return select(aggregate).where(_deals.c.game_id == _games.c.id, _deals.c.revealed).scalar_subquery()


@functools.cache
def _built_read_statement(dialect: str, with_key: bool, hooks: tuple, opens_seat):
    latest_deal = select(_deals.c.hand, _deals.c.commitment).where(_deals.c.game_id == _games.c.id) \
        .order_by(_deals.c.hand.desc()).limit(1)
    columns = [
        _games.c.id, _games.c.version, _games.c.state, _seats.c.seat,
        _name_of(0).label("name0"), _name_of(1).label("name1"),
        _name_of(0, "bot_level").label("level0"), _name_of(1, "bot_level").label("level1"),  # the house bot's
        _name_of(0, "orders").label("orders0"), _name_of(1, "orders").label("orders1"),  # standing orders
        select(func.max(_events.c.seq)).where(_events.c.game_id == _games.c.id).scalar_subquery().label("last_seq"),
        latest_deal.with_only_columns(_deals.c.hand).scalar_subquery().label("latest_hand"),
        latest_deal.with_only_columns(_deals.c.commitment).scalar_subquery().label("latest_commitment"),
        _revealed_deals(dialect).label("revealed"),
        _clocks.c.game_id.label("clock_game"), *(_clocks.c[name] for name in CLOCK_FIELDS),
        # what each change hook needs to know whether it has work (ChangeHook.reads)
        *(hook.reads(_games.c.id).label(f"hook{n}_read") for n, hook in enumerate(hooks) if hook.reads),
        exists().where(_vacations.c.game_id == _games.c.id).label("has_vacations"),
    ]
    tables = (_games.join(_seats, _seats.c.game_id == _games.c.id)
              .outerjoin(_clocks, _clocks.c.game_id == _games.c.id))
    if with_key:  # the seat's first answer under this key, if any (unique on game, seat, key)
        tables = tables.outerjoin(_records, and_(_records.c.game_id == _games.c.id, _records.c.seat == _seats.c.seat,
                                                 _records.c.key == bindparam("key")))
        columns += [_records.c.request_hash, _records.c.status.label("answer_status"),
                    _records.c.response.label("answer"), _records.c.version.label("answer_version")]
    return select(*columns).select_from(tables).where(_games.c.id == bindparam("game"), opens_seat)


# PostgreSQL takes the row lock in a statement of its own, before the read: a statement that
# waited for a lock still reads every row but the locked one as of its start (READ COMMITTED),
# so the last event number, the clock or a key's first answer could be the previous move's.
# SQLite's writers hold the write lock from BEGIN IMMEDIATE on: the read alone is enough there.
@functools.cache
def lock_statement(opens_seat):
    return (select(_games.c.id).select_from(_games.join(_seats, _seats.c.game_id == _games.c.id))
            .where(_games.c.id == bindparam("game"), opens_seat).with_for_update(of=_games))


def is_claim(body) -> bool:
    return isinstance(body, dict) and body.get("type") == "claim_timeout" and len(body) == 1


def lock(connection, game_id: str, token: str, key: str | None):
    """The row of everything the move reads for the seat the token opens, the game locked until
    the transaction ends."""
    if not store.could_be_game_id(game_id):
        raise invalid_token()
    params = {"game": game_id, "token_hash": hash_secret(token)}
    if key is not None:
        params["key"] = key
    row = _locked_row(connection, store.token_opens_seat(), params, key is not None)
    if row is None:
        raise store.refusal({"game": game_id, "token_hash": params["token_hash"]}, connection)
    return row


# The seat named by the caller, who knows it already (a move by mail, the join that deals).
SEAT_GIVEN = _seats.c.seat == bindparam("seat")


def lock_seat(connection, game_id: str, seat: int):
    """As lock, for `seat` of the game (a move by mail, the join that deals the first hand); None
    when the game has no such seat."""
    return _locked_row(connection, SEAT_GIVEN, {"game": game_id, "seat": seat}, False)


def _locked_row(connection, opens_seat, params: dict, with_key: bool):
    dialect = connection.dialect.name
    read = _built_read_statement(dialect, with_key, changes.changed(), opens_seat)
    if dialect == "postgresql":  # one round trip (with the transaction's BEGIN): driver_sql.Driver.together
        locked, rows = connection.together([(lock_statement(opens_seat), params), (read, params)])
    else:
        locked, rows = True, connection.execute(read, params).all()
    return rows[0] if locked and rows else None


def earlier_answer(row, key: str | None, body) -> tuple[dict, int, int] | None:
    """(answer, status, version) stored for this seat's first request with this key, if any."""
    if key is None or row.request_hash is None:
        return None
    if row.request_hash != store.body_hash(body):
        raise Problem("idempotency-key-reused",
                      "this Idempotency-Key was used for a different request; use a new key per action")
    return row.answer, row.answer_status, row.answer_version


def hook_reads(row) -> dict[int, object]:
    """What each change hook's `reads` found (its column hook<n>_read, n its place among the
    registered), by its place."""
    return {n: getattr(row, f"hook{n}_read") for n, hook in enumerate(changes.changed()) if hook.reads}


def revealed_of(aggregated) -> list[tuple]:
    found = fastjson.deserialize(aggregated) if isinstance(aggregated, str) else aggregated or []
    return [tuple(deal[name] for name in DEAL_FIELDS) for deal in sorted(found, key=lambda deal: deal["hand"])]
