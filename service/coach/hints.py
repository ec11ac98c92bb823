"""A hint at the seat's decision now ("what would the computer do?"): the best option with its
expected points, from the seat's information only (rules.coach.hint). Given in unrated games
against the house bot, and where both seats agreed as they created or joined the game
(`seat_taken`, `HintConsent`); never in rated games, nor in tournaments (a feature above says which games
are its own through `hint_refusers`). Each hint asked is counted on the game (`HintAsked`), so the
game records that hints were on."""
from __future__ import annotations

import time

from sqlalchemy import func, select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.hooks import Registry
from ..games.models import Game
from ..games.table_game import is_table_state
from ..players import ratings
from ..players.house_levels import is_house_bot
from ..players.models import Player, PlayerSeat
from ..rules.coach import NotReviewable, hint
from .config import setting
from .models import HintAsked, HintConsent
from .queue import transcript

hint_refusers = Registry("hook(game_id) -> (code, detail) when hints are refused in the game (a tournament's), or None")


def check_hints_allowed(game: Game) -> None:
    """Raise the problem that refuses a hint in this game, if any."""
    if game.status != "active" or game.state is None or is_table_state(game.state) or len(game.seats) != 2:
        raise Problem("hints-off", "hints are given during a two-seat match in play")
    for refuser in hint_refusers():
        refused = refuser(game.id)
        if refused:
            raise Problem(*refused)
    players = db.session.execute(select(Player).join(PlayerSeat, PlayerSeat.player_id == Player.id)
                                 .where(PlayerSeat.game_id == game.id)).scalars().all()
    if len(players) == 2 and ratings.is_rated(game.id):  # both seats players': the match moves ratings
        raise Problem("hints-in-rated-game", "no hints in a rated game: they would move ratings")
    agreed = db.session.execute(select(func.count()).select_from(HintConsent)
                                .where(HintConsent.game_id == game.id)).scalar()
    if agreed < 2 and not any(is_house_bot(player) for player in players):
        raise Problem("hints-off", "hints are on in unrated games against the house bot, and where both seats "
                                   "asked for them (`hints: true`) as they created or joined the game")


def seat_taken(game, match, seat: int, args: dict, moment, invites=None) -> None:
    """The games.changes.seat_taken hook: a seat created or joined with `hints: true` agrees to
    hints, before the first deal (the join deals it, after this)."""
    if args.get("hints") is True and len(game.seats) == 2:
        db.session.add(HintConsent(game_id=game.id, seat=seat))


def give(game: Game, seat: int) -> dict:
    check_hints_allowed(game)
    try:
        answer = hint(transcript(game), seat, f"hint:{game.id}", deals=setting("COACH_DEALS"),
                      seconds=setting("COACH_DECISION_SECONDS"), clock=time.process_time)
    except NotReviewable as exc:
        raise Problem("hints-off", exc.detail) from None
    if answer is None:
        raise Problem("no-decision-now", "hints are for the seat's own decision with two options or more")
    row = db.session.get(HintAsked, (game.id, seat))
    if row is None:
        db.session.add(HintAsked(game_id=game.id, seat=seat, count=1))
    else:
        row.count += 1
    db.session.commit()
    return {"game_id": game.id, "seat": seat, **answer}
