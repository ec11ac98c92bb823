"""What a player's public profile shows: its rating (and the leaderboard of them), its rating history, its record against
each opponent, and its games (current and finished), each with a watch or replay link only when
the player made its games public (PATCH /me `public_games`). Never a seat token, an invite code
or a card: games are described from the player's own stored view, by its result and totals only."""
from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import bindparam, case, func, select
from sqlalchemy.orm import aliased

from ..core.extensions import db
from ..core.hooks import Registry
from ..core.tokens import new_token
from ..games import deadlines
from ..games.models import Game, Seat
from . import house_levels, ratings, table_ratings, watching
from .accounts import score_of
from .models import Player, PlayerSeat, RatingChange

SHOWN_STATUSES = ("active", "finished")  # a game still waiting for a seat is nobody's business yet
# Features that add to a profile page (tournaments: those entered and the places; the coach: the
# review average of a player whose games are public) register hook(player) -> {template variable:
# value}; site's profile page renders them (coach and site are siblings: neither imports the other).
page_parts = Registry("hook(player) -> template variables a profile page adds")


def profile(player: Player) -> dict:
    """The public profile (GET /players/{name}), and each row of the leaderboard."""
    return {"name": player.name, "bot": player.bot, "created_at": player.created_at.isoformat(),
            "rating": ratings.describe(player), "table_rating": table_ratings.describe(player),
            "public_games": player.public_games_secret is not None}


# On the board: enough rated matches, a settled rating, an account old enough and still open.
_BOARD = (select(Player)
          .where(Player.rated_games >= ratings.LEADERBOARD_GAMES, Player.rating_deviation <= ratings.PROVISIONAL_ABOVE,
                 Player.created_at <= bindparam("born_before"), Player.erased_at.is_(None),
                 Player.suspended_at.is_(None))
          .order_by(Player.rating.desc(), Player.name_key, Player.id)
          .limit(bindparam("limit")).offset(bindparam("offset")))


def board(limit: int, offset: int) -> dict:
    """A page of the leaderboard, highest rating first (GET /players?sort=rating, /leaderboard)."""
    rules = ratings.board_rules()
    born_before = deadlines.now() - timedelta(days=rules["min_account_age_days"])
    rows = db.session.execute(_BOARD, {"limit": limit + 1, "offset": offset,
                                       "born_before": born_before}).scalars().all()
    return {"players": [{"rank": offset + i + 1, **profile(p)} for i, p in enumerate(rows[:limit])],
            "next_offset": _next_offset(rows, limit, offset), "rules": rules}


def result_of(score: float) -> str:
    return "won" if score == 1 else "lost" if score == 0 else "drawn"


def _next_offset(rows: list, limit: int, offset: int) -> int | None:
    return offset + limit if len(rows) > limit else None


# -- rating history -----------------------------------------------------------------------------

_opponent = aliased(Player, name="opponent")
_HISTORY = (select(RatingChange, _opponent.name, _opponent.bot)
            .join(_opponent, _opponent.id == RatingChange.opponent_id)
            .where(RatingChange.player_id == bindparam("player"))
            .order_by(RatingChange.created_at.desc(), RatingChange.game_id.desc())
            .limit(bindparam("limit")).offset(bindparam("offset")))


def history(player: Player, limit: int, offset: int) -> dict:
    """Each rated match, newest first: what it did to the player's rating (the house bot's: to the
    rating of the level it played at, `level`); an opponent at a level is labelled 'House (level 4)'."""
    rows = db.session.execute(_HISTORY, {"player": player.id, "limit": limit + 1, "offset": offset}).all()
    return {"matches": [{
        "game_id": change.game_id, "at": change.created_at.isoformat(),
        "opponent": {"name": name, "bot": bot, "level": change.opponent_level,
                     "label": house_levels.label(name, change.opponent_level)},
        "level": change.level, "result": result_of(change.score),
        "before": round(change.value_before, 2), "after": round(change.value_after, 2),
        "delta": round(change.value_after - change.value_before, 2),
        "deviation": round(change.deviation_after, 2)} for change, name, bot in rows[:limit]],
        "next_offset": _next_offset(rows, limit, offset)}


# -- record against each opponent ---------------------------------------------------------------

def _count(score: float):
    return func.sum(case((RatingChange.score == score, 1), else_=0))


# The house bot at each level is an opponent of its own (each level is rated as an identity).
_RECORD = (select(_opponent.name, _opponent.bot, RatingChange.opponent_level, _count(1.0).label("won"),
                  _count(0.0).label("lost"), _count(0.5).label("drawn"), func.count().label("games"))
           .join(_opponent, _opponent.id == RatingChange.opponent_id)
           .where(RatingChange.player_id == bindparam("player"))
           .group_by(_opponent.id, _opponent.name, _opponent.bot, _opponent.name_key, RatingChange.opponent_level)
           .order_by(func.count().desc(), _opponent.name_key, RatingChange.opponent_level.nulls_first())
           .limit(bindparam("limit")).offset(bindparam("offset")))


def record(player: Player, limit: int, offset: int) -> dict:
    """Rated matches won, lost and drawn against each opponent (the house bot: against each of its
    levels), the most played first."""
    rows = db.session.execute(_RECORD, {"player": player.id, "limit": limit + 1, "offset": offset}).all()
    return {"opponents": [{"name": row.name, "bot": row.bot, "level": row.opponent_level,
                           "label": house_levels.label(row.name, row.opponent_level), "won": int(row.won),
                           "lost": int(row.lost), "drawn": int(row.drawn), "games": row.games}
                          for row in rows[:limit]],
            "next_offset": _next_offset(rows, limit, offset)}


# -- games --------------------------------------------------------------------------------------

_my_seat = aliased(Seat, name="my_seat")


def _games_query(statuses: tuple[str, ...]):
    return (select(Game.id, Game.status, Game.updated_at, PlayerSeat.seat, _my_seat.view_body)
            .join(Game, Game.id == PlayerSeat.game_id)
            .join(_my_seat, (_my_seat.game_id == Game.id) & (_my_seat.seat == PlayerSeat.seat))
            .where(PlayerSeat.player_id == bindparam("player"), Game.status.in_(statuses))
            .order_by(Game.updated_at.desc(), Game.id.desc())
            .limit(bindparam("limit")).offset(bindparam("offset")))


_SEATS = (select(Seat.game_id, Seat.seat, Seat.name, Player.name.label("player"), Player.bot)
          .outerjoin(PlayerSeat, (PlayerSeat.game_id == Seat.game_id) & (PlayerSeat.seat == Seat.seat))
          .outerjoin(Player, Player.id == PlayerSeat.player_id)
          .where(Seat.game_id.in_(bindparam("games", expanding=True)))
          .order_by(Seat.game_id, Seat.seat))
_CHANGES = select(RatingChange).where(RatingChange.game_id.in_(bindparam("games", expanding=True)),
                                      RatingChange.player_id == bindparam("player"))


def _outcome(result: dict | None, seat: int) -> str | None:
    """won, lost or drawn for this seat (at a table: its side), from the view's result; None: going on."""
    if not result:
        return None
    if "winner_seats" in result:
        return "drawn" if result["winner"] is None else "won" if seat in result["winner_seats"] else "lost"
    return "drawn" if result.get("winner") is None else "won" if result["winner"] == seat else "lost"


def _links(player: Player, game_id: str, status: str) -> dict:
    """The watch page of a current game, the replay of a finished one: only for a player whose games
    are public, with the game's public watch key in the fragment (never sent to a server by a browser)."""
    secret = player.public_games_secret
    if secret is None:
        return {"watch": None, "replay": None}
    key = watching.public_key(secret, game_id)
    return {"watch": f"/watch/{game_id}#key={key}" if status == "active" else None,
            "replay": f"/replay/{game_id}#key={key}" if status == "finished" else None}


def games(player: Player, status: str | None, limit: int, offset: int) -> dict:
    """The player's current and finished games, the most recently changed first."""
    statuses = (status,) if status else SHOWN_STATUSES
    rows = db.session.execute(_games_query(statuses), {"player": player.id, "limit": limit + 1,
                                                       "offset": offset}).all()
    page = rows[:limit]
    ids = [row.id for row in page]
    seats_of: dict[str, list] = {}
    changes = {}
    if ids:
        for seat_row in db.session.execute(_SEATS, {"games": ids}).all():
            seats_of.setdefault(seat_row.game_id, []).append(seat_row)
        changes = {change.game_id: change for change in
                   db.session.execute(_CHANGES, {"games": ids, "player": player.id}).scalars()}
    out = []
    for row in page:
        view = json.loads(row.view_body) if row.view_body else {}
        everyone = seats_of.get(row.id, [])
        mine, theirs = score_of(view, row.seat)
        change = changes.get(row.id)
        out.append({
            "game_id": row.id, "status": row.status, "seats": len(everyone), "seat": row.seat,
            "updated_at": row.updated_at.isoformat(),
            "opponents": [{"seat": s.seat, "name": s.name, "player": s.player,
                           "bot": s.bot if s.player is not None else None} for s in everyone if s.seat != row.seat],
            "result": _outcome(view.get("result"), row.seat), "score": {"player": mine, "opponents": theirs},
            "rating_change": None if change is None else {
                "before": round(change.value_before, 2), "after": round(change.value_after, 2),
                "delta": round(change.value_after - change.value_before, 2)},
            "links": _links(player, row.id, row.status)})
    return {"games": out, "next_offset": _next_offset(rows, limit, offset)}


# -- the setting --------------------------------------------------------------------------------

def set_public_games(player: Player, public: bool) -> None:
    """Open or close the player's games to profile viewers. Opening again makes a new secret, so
    keys given out before closing stay dead."""
    if public and player.public_games_secret is None:
        player.public_games_secret = new_token()
    elif not public:
        player.public_games_secret = None

