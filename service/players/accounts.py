"""Players: creating one, finding the player a token opens, rotating and revoking the token,
binding seats to players, and the player's games."""
from __future__ import annotations

import functools
import hmac
import json

from flask import current_app, has_request_context
from sqlalchemy import bindparam, case, cast, exists, func, or_, select
from sqlalchemy.dialects.postgresql import JSONB

from ..core import wakeup
from ..core.errors import Problem
from ..core.extensions import db
from ..core.tokens import hash_secret, new_token
from ..core.web import bearer_token, bearer_token_or_none
from ..games.models import Game, GameClock, Seat, utcnow
from ..notify.push import subscriptions as push_subscriptions
from . import ratings, table_ratings
from .models import Player, PlayerSeat
from .names import name_key, normalised, refuse_if_reserved, refuse_if_unfit, skeleton

__all__ = ["name_key"]  # kept here for the callers that import it from accounts


def create(name: str, email: str | None, bot: bool, reserved: str = "", local: bool = False) -> tuple[Player, str]:
    """A new account. `reserved`: the house bot's name, which only a bot registered from this host
    (`local`) may take."""
    name = normalised(name)
    refuse_if_unfit(name)
    refuse_if_reserved(name, reserved, bot, local)
    key = name_key(name)
    if db.session.execute(select(Player.id).where(Player.name_key == key)).first() is not None:
        raise Problem("name-taken", f"the name {name!r} is taken (names are compared ignoring case)")
    if db.session.execute(select(Player.id).where(Player.name_skeleton == skeleton(name))).first() is not None:
        raise Problem("name-confusable", f"the name {name!r} looks like a name already taken (letters of other "
                                         "scripts or shapes that pass for the same): choose another")
    token, moment = new_token(), utcnow()
    player = Player(name=name, name_key=key, name_skeleton=skeleton(name), email=email, bot=bot,
                    token_hash=hash_secret(token), token_created_at=moment, last_event_seq=0, created_at=moment)
    db.session.add(player)
    db.session.flush()  # the unique index still guards a race between two requests for one name
    return player, token


def check_seat_name(name: str) -> None:
    """An anonymous seat's name (games.changes.seat_names): fit to show (as an account's), not the
    house bot's, a look-alike or a name beginning like it, and not a player's name or one that looks
    like it (409 name-taken, name-confusable, as at account creation): no seat passes for the
    computer or for a member. Only the player whose name it is may sit anonymously under it, the
    request carrying its token (a bearer token on POST /games or /join)."""
    name = normalised(name)
    refuse_if_unfit(name)
    refuse_if_reserved(name, current_app.config.get("HOUSE_BOT_NAME") or "", bot=False, local=False)
    key, own = name_key(name), _requester_token_hash()
    for found_key, token_hash, suspended in db.session.execute(_PLAYERS_LIKE, {"key": key, "skeleton": skeleton(name)}):
        if own is not None and token_hash is not None and suspended is None and hmac.compare_digest(token_hash, own):
            continue  # the player's own name (or a look-alike of it) under its own token
        if found_key == key:
            raise Problem("name-taken", f"the name {name!r} is a registered player's (names are compared ignoring "
                                        "case): an anonymous seat takes another")
        raise Problem("name-confusable", f"the name {name!r} looks like a registered player's (letters of other "
                                         "scripts or shapes that pass for the same): an anonymous seat takes another")


# One query on the two unique indexes (players.name_key, players.name_skeleton): at most two rows.
_PLAYERS_LIKE = select(Player.name_key, Player.token_hash, Player.suspended_at).where(
    or_(Player.name_key == bindparam("key"), Player.name_skeleton == bindparam("skeleton")))


def _requester_token_hash() -> str | None:
    """The hash of the request's bearer token, if it sends one (an anonymous seat's request needs none)."""
    if not has_request_context():
        return None  # a mail's join or start: no player speaks for it
    token = bearer_token_or_none()
    return hash_secret(token) if token is not None else None


def invalid_player_token() -> Problem:
    return Problem("invalid-token", "missing, revoked or invalid player token")


_BY_TOKEN = select(Player).where(Player.token_hash == bindparam("token_hash"))


def current(lock: bool = False) -> Player:
    """The player the request's bearer token opens (401 invalid-token otherwise)."""
    statement = _BY_TOKEN.with_for_update() if lock else _BY_TOKEN
    player = db.session.execute(statement, {"token_hash": hash_secret(bearer_token())}).scalar()
    if player is None:
        raise invalid_player_token()
    if player.suspended_at is not None:
        raise account_suspended()
    return player


def account_suspended() -> Problem:
    return Problem("account-suspended", "an operator suspended this account: its token and its seats open "
                                        "nothing for now")


def by_name(name: str) -> Player | None:
    if "\x00" in name:  # no name holds one, and PostgreSQL refuses it in a parameter (a 500, not a 404)
        return None
    return db.session.execute(select(Player).where(Player.name_key == name_key(name))).scalar()


def rotate(player: Player) -> str:
    """A new token; the browsers the old one subscribed to Web Push are forgotten (a leaked token
    may have subscribed a stranger's)."""
    token = new_token()
    player.token_hash, player.token_created_at = hash_secret(token), utcnow()
    push_subscriptions.forget_player(player.id)
    wakeup.player_changed(player.id, None)  # its open streams look, find the token gone, and end
    return token


def revoke(player: Player) -> None:
    player.token_hash, player.token_created_at = None, None
    push_subscriptions.forget_player(player.id)
    wakeup.player_changed(player.id, None)


def describe(player: Player) -> dict:
    return {"id": player.id, "name": player.name, "email": player.email, "bot": player.bot,
            "created_at": player.created_at.isoformat(), "rating": ratings.describe(player),
            "table_rating": table_ratings.describe(player),
            "public_games": player.public_games_secret is not None,
            "token_created_at": player.token_created_at.isoformat() if player.token_created_at else None}


# -- seats ---------------------------------------------------------------------------------

def bind(game_id: str, seat: int, player: Player) -> None:
    """The seat is the player's from now on (in the caller's transaction, under the game's lock)."""
    taken = db.session.execute(select(PlayerSeat.seat).where(PlayerSeat.game_id == game_id,
                                                             PlayerSeat.player_id == player.id)).first()
    if taken is not None:
        raise Problem("already-seated", "this player already holds a seat of this game: the other seat "
                                        "is for someone else")
    db.session.add(PlayerSeat(game_id=game_id, seat=seat, player_id=player.id))
    db.session.flush()


# -- my games ------------------------------------------------------------------------------

_mine, _opponent = PlayerSeat.__table__.alias("mine"), Seat.__table__.alias("opponent")
_my_seat, _games, _clocks = Seat.__table__.alias("my_seat"), Game.__table__, GameClock.__table__
_opponent_player = PlayerSeat.__table__.alias("opponent_binding")
_players, _all_seats = Player.__table__, Seat.__table__.alias("any_seat")
_IS_TABLE = exists().where(_all_seats.c.game_id == _games.c.id, _all_seats.c.seat >= 2)  # three seats or more


def _among_movers(dialect: str):
    """Whether my seat is one of the seats to move, as its stored view says: at a table every
    board's mover (a list), at two seats the one (the view's `to_move` is then a number)."""
    if dialect == "postgresql":
        return cast(_my_seat.c.view_body, JSONB)["to_move"].op("@>", is_comparison=True)(func.to_jsonb(_mine.c.seat))
    movers = func.json_each(_my_seat.c.view_body, "$.to_move").table_valued("value")
    return exists(select(1).select_from(movers).where(movers.c.value == _mine.c.seat))


@functools.cache
def _my_games(dialect: str):
    your_turn = (_games.c.status == "active") & (
        (_games.c.to_move == _mine.c.seat) | (_IS_TABLE & _among_movers(dialect)))
    order = case((your_turn, 0), (_games.c.status == "active", 1), (_games.c.status == "waiting_for_opponent", 2),
                 else_=3)
    # At a table the opponent is read from the view (the seat on my board now): not 1 - my seat.
    facing = case((_IS_TABLE, -1), else_=1 - _mine.c.seat)
    return (
        select(_games.c.id, _games.c.status, _games.c.to_move, _games.c.version, _mine.c.seat,
               _opponent.c.name.label("opponent_name"), _players.c.name.label("opponent_player"),
               _players.c.bot.label("opponent_bot"), _my_seat.c.view_body, _clocks.c.deadline_at,
               order.label("rank"))
        .select_from(_mine.join(_games, _games.c.id == _mine.c.game_id)
                     .join(_my_seat, (_my_seat.c.game_id == _games.c.id) & (_my_seat.c.seat == _mine.c.seat))
                     .outerjoin(_opponent, (_opponent.c.game_id == _games.c.id) & (_opponent.c.seat == facing))
                     .outerjoin(_opponent_player, (_opponent_player.c.game_id == _games.c.id)
                                & (_opponent_player.c.seat == facing))
                     .outerjoin(_players, _players.c.id == _opponent_player.c.player_id)
                     .outerjoin(_clocks, _clocks.c.game_id == _games.c.id))
        .where(_mine.c.player_id == bindparam("player"))
        # Your turn first, then the other active games, those waiting for an opponent, finished ones;
        # each by deadline (none last), then the most recently changed.
        .order_by(order, _clocks.c.deadline_at.is_(None), _clocks.c.deadline_at, _games.c.updated_at.desc(),
                  _games.c.id)
        .limit(bindparam("limit")).offset(bindparam("offset")))


_TABLE_PLAYERS = (select(PlayerSeat.game_id, PlayerSeat.seat, Player.name, Player.bot)
                  .join(Player, Player.id == PlayerSeat.player_id)
                  .where(PlayerSeat.game_id.in_(bindparam("games", expanding=True))))


def score_of(view: dict, seat: int) -> tuple[int, int]:
    """(mine, the other side's) of the current game: its hand points, or once it closed its final
    total (bonuses in), the one score of a finished match; at a table, my side's and the best other side's."""
    game = ((view.get("scores") or {}).get("games") or [{}])[-1]
    totals = (game.get("final") or game).get("totals") or [0, 0]
    sides = view.get("sides")
    if not sides:
        return totals[seat], totals[1 - seat]
    mine = next((i for i, side in enumerate(sides) if seat in side), 0)
    others = [t for i, t in enumerate(totals) if i != mine]
    return (totals[mine] if mine < len(totals) else 0), max(others, default=0)


def my_games(player: Player, limit: int, offset: int, links_of) -> dict:
    rows = db.session.execute(_my_games(db.engine.dialect.name),
                              {"player": player.id, "limit": limit + 1, "offset": offset}).all()
    views = {row.id: json.loads(row.view_body) if row.view_body else {} for row in rows[:limit]}
    tables = [row.id for row in rows[:limit] if len(views[row.id].get("players") or ()) > 2]
    bound = {(game, seat): (name, bot) for game, seat, name, bot in
             db.session.execute(_TABLE_PLAYERS, {"games": tables}).all()} if tables else {}
    games = []
    for row in rows[:limit]:
        view = views[row.id]
        you, opponent = score_of(view, row.seat)
        seats = len(view.get("players") or ()) or 2
        rival = _rival(row, view, bound) if seats > 2 else {
            "name": row.opponent_name, "player": row.opponent_player,
            "bot": row.opponent_bot if row.opponent_player is not None else None}
        games.append({
            "game_id": row.id, "seat": row.seat, "seats": seats, "status": row.status, "version": row.version,
            "your_turn": row.rank == 0, "phase": view.get("phase"), "opponent": rival,
            "score": {"you": you, "opponent": opponent},
            "deadline": row.deadline_at.isoformat() if row.deadline_at else None,
            "links": links_of(row.id)})
    return {"games": games, "next_offset": offset + limit if len(rows) > limit else None}


def _rival(row, view: dict, bound: dict) -> dict:
    """At a table: the seat mine plays on its board now (all null while mine sits out or waits)."""
    board = view.get("my_board")
    seat = next((s for s in board["seats"] if s != row.seat), None) if board else None
    name = next((p["name"] for p in view.get("players") or () if p["seat"] == seat), None)
    player, bot = bound.get((row.id, seat), (None, None))
    return {"name": name, "player": player, "bot": bot}
