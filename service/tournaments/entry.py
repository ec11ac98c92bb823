"""Entry and control: a player makes a tournament (its organizer), players join and leave while it
is open, the organizer enters the house bot at a level, starts it early or cancels it before it
starts, and a player withdraws while it runs.

Who may enter: anyone, people only, bots only, or by invitation (the organizer names them when
making it). Blocks stand: a player the organizer blocked cannot enter, nor may two players one of
whom blocked the other both be entered. Caps: TOURNAMENTS_CREATED_PER_DAY tournaments made in 24
hours, TOURNAMENTS_ENTERED_MAX open or running tournaments entered at once.

Locks, in the feature's one order (results.py): a game's, then the tournament's, then players'
rows. Joining locks the tournament, then the player (the cap on entries at once); a withdrawal
locks the games being played, then the tournament, and marks the entry before it resigns them.
"""
from __future__ import annotations

from datetime import timedelta

from flask import current_app
from sqlalchemy import func, or_, select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.settings import register, setting
from ..core.tokens import new_game_id, new_token
from ..games import store
from ..games.deadlines import as_utc
from ..players import accounts, blocks, feed, house_levels
from ..players.models import Block, Player
from . import formats, rounds, settling
from .models import Entrant, Invitation, Tournament

register({"TOURNAMENTS_CREATED_PER_DAY": 5, "TOURNAMENTS_ENTERED_MAX": 10},
         {"TOURNAMENTS_CREATED_PER_DAY": int, "TOURNAMENTS_ENTERED_MAX": int})


def _format_problem(error: formats.FormatError) -> Problem:
    return Problem(error.code, error.message, field=error.field)


def create(organizer: Player, args: dict, rules, now) -> Tournament:
    """A new tournament, open for entry for `entry_hours`; every field checked first."""
    try:
        tie_breaks = formats.check(args["format"], args["min_entrants"], args["max_entrants"], args["rounds"],
                                   args["cycles"], args["best_of"], args["pace"], args["tie_breaks"])
    except formats.FormatError as error:
        raise _format_problem(error) from None
    move, per_round = args["move_time_hours"], args["round_hours"]
    if per_round is not None and move is not None and per_round < move:
        raise Problem("invalid-tournament", f"a round deadline ({per_round} h) leaves each game at least one move "
                                            f"time ({move} h)", field="round_hours")
    if args["invite"] and args["entry"] != "invitation":
        raise Problem("invalid-tournament", "invitations are for a tournament entered by invitation", field="invite")
    invited = []
    for name in args["invite"]:
        player = accounts.by_name(name)
        if player is None:
            raise Problem("unknown-player", f"no player is called {name!r}", field="invite")
        invited.append(player)
    feed.lock_players([organizer.id])  # two requests at once cannot both slip under the cap
    made = db.session.scalar(select(func.count()).select_from(Tournament).where(
        Tournament.organizer_id == organizer.id, Tournament.created_at > now - timedelta(hours=24)))
    if made >= setting("TOURNAMENTS_CREATED_PER_DAY"):
        raise Problem("too-many-tournaments-created", f"you made {made} tournaments in the last 24 hours, the most "
                                                      "allowed: wait a while")
    t = Tournament(id=new_game_id(), name=args["name"], format=args["format"], cycles=args["cycles"],
                   best_of=args["best_of"], pace=args["pace"], status=rounds.OPEN, organizer_id=organizer.id,
                   rules=rules.to_dict(), rated=args["rated"], move_time_hours=move, round_hours=per_round,
                   rounds=args["rounds"], entry=args["entry"], house_bot=args["house_bot"],
                   min_entrants=args["min_entrants"], max_entrants=args["max_entrants"], tie_breaks=list(tie_breaks),
                   entry_closes_at=now + timedelta(hours=args["entry_hours"]), current_round=0,
                   watch_secret=new_token(), created_at=now)
    db.session.add(t)
    db.session.flush()
    for player in {p.id: p for p in invited}.values():
        db.session.add(Invitation(tournament_id=t.id, player_id=player.id))
    return t


def find(tournament_id: str) -> Tournament:
    t = db.session.get(Tournament, tournament_id) if store.could_be_game_id(tournament_id) else None
    if t is None:
        raise Problem("tournament-not-found", "no such tournament")
    return t


def _locked(tournament_id: str) -> Tournament:
    t = rounds.locked(tournament_id) if store.could_be_game_id(tournament_id) else None
    if t is None:
        raise Problem("tournament-not-found", "no such tournament")
    return t


def _still_open(t: Tournament, now) -> None:
    if t.status == rounds.CANCELLED:
        raise Problem("tournament-cancelled", "the tournament was cancelled")
    if t.status != rounds.OPEN:
        raise Problem("tournament-started", f"the tournament is {t.status}: entry is over")
    if as_utc(t.entry_closes_at) <= now:
        raise Problem("entry-closed", f"entry closed at {as_utc(t.entry_closes_at).isoformat()}")


def _organizer(t: Tournament, player: Player) -> None:
    if t.organizer_id != player.id:
        raise Problem("not-organizer", "only the tournament's organizer may do this")


def _admits(t: Tournament, player: Player) -> None:
    if house_levels.is_house_bot(player):
        raise Problem("not-admitted", "the house bot is entered by the organizer, at a level")
    if t.entry == "people" and player.bot or t.entry == "bots" and not player.bot:
        raise Problem("not-admitted", f"this tournament is for {t.entry} only")
    if t.entry == "invitation" and db.session.get(Invitation, (t.id, player.id)) is None:
        raise Problem("not-admitted", "this tournament is by invitation, and you were not invited")


def _no_block(t: Tournament, player_id: int) -> None:
    """The organizer blocked the player, or the player and an entrant: one blocked the other."""
    others = select(Entrant.player_id).where(Entrant.tournament_id == t.id)
    blocked = db.session.scalar(select(func.count()).select_from(Block).where(or_(
        (Block.blocker_id == player_id) & Block.blocked_id.in_(others),
        (Block.blocked_id == player_id) & Block.blocker_id.in_(others))))
    if blocked or blocks.blocks(t.organizer_id, player_id):
        raise Problem("entry-refused", "you may not enter this tournament")


def _room(t: Tournament, player_id: int) -> None:
    count = db.session.scalar(select(func.count()).select_from(Entrant).where(Entrant.tournament_id == t.id))
    if count >= t.max_entrants:
        raise Problem("tournament-full", f"the tournament has its {t.max_entrants} entrants")
    most = setting("TOURNAMENTS_ENTERED_MAX")
    entered = db.session.scalar(select(func.count()).select_from(Entrant).join(
        Tournament, Tournament.id == Entrant.tournament_id).where(
        Entrant.player_id == player_id, Entrant.withdrawn_round.is_(None),
        Tournament.status.in_((rounds.OPEN, rounds.RUNNING))))
    if entered >= most:
        raise Problem("too-many-tournament-entries", f"you are entered in {entered} open or running tournaments, "
                                                     f"the most allowed: leave one, or wait for one to end")


def _enter(t: Tournament, player: Player, level: int | None, now) -> Entrant:
    if db.session.get(Entrant, (t.id, player.id)) is not None:
        raise Problem("already-entered", "you are entered in this tournament already" if level is None else
                      "the house bot is entered in this tournament already (once, at one level)")
    _no_block(t, player.id)
    _room(t, player.id)
    row = Entrant(tournament_id=t.id, player_id=player.id, level=level, joined_at=now)
    db.session.add(row)
    db.session.flush()
    return row


def join(tournament_id: str, player: Player, now) -> Tournament:
    t = _locked(tournament_id)
    feed.lock_players([player.id])  # two joins at once cannot both slip under the cap on entries
    _still_open(t, now)
    _admits(t, player)
    _enter(t, player, None, now)
    return t


def enter_house_bot(tournament_id: str, organizer: Player, level: int, now) -> Tournament:
    """The organizer enters the house bot, at a level (once per tournament: a player holds one seat of
    a game, so two of its levels could not meet)."""
    house = accounts.by_name(_house_name())
    t = find(tournament_id)
    _organizer(t, organizer)
    if not t.house_bot or house is None or not house_levels.is_house_bot(house):
        raise Problem("house-bot-not-allowed", "this tournament does not admit the house bot's levels" if house
                      else "this server runs no house bot")
    t = _locked(tournament_id)
    feed.lock_players([house.id])
    _still_open(t, now)
    _enter(t, house, level, now)
    return t


def _house_name() -> str:
    return current_app.config.get("HOUSE_BOT_NAME") or ""


def leave(tournament_id: str, player: Player, now) -> Tournament:
    """Leave before the start; the organizer may take out the house bot (`house_bot`)."""
    t = _locked(tournament_id)
    _still_open(t, now)
    row = db.session.get(Entrant, (t.id, player.id))
    if row is None:
        raise Problem("not-entered", "you are not entered in this tournament")
    db.session.delete(row)
    return t


def remove_house_bot(tournament_id: str, organizer: Player, now) -> Tournament:
    t = _locked(tournament_id)
    _organizer(t, organizer)
    _still_open(t, now)
    house = accounts.by_name(_house_name())
    row = db.session.get(Entrant, (t.id, house.id)) if house is not None else None
    if row is None:
        raise Problem("not-entered", "the house bot is not entered in this tournament")
    db.session.delete(row)
    return t


def withdraw(tournament_id: str, player: Player, now) -> Tournament:
    """Withdraw from a running tournament: the games being played are resigned; a Swiss pairs the
    player no more, a round robin forfeits the player's remaining games (those played stand), a
    knockout pairing is lost."""
    t = find(tournament_id)
    settling.lock_games_of(t.id, player.id)  # the games' locks before the tournament's, as a move's
    t = _locked(tournament_id)
    if t.status != rounds.RUNNING:
        raise Problem("tournament-not-running", f"the tournament is {t.status}: you may leave an open one "
                                                "(POST .../leave), and a finished one is over")
    row = db.session.get(Entrant, (t.id, player.id))  # every writer of entries holds the tournament's lock
    if row is None or row.withdrawn_round is not None:
        raise Problem("not-entered", "you are not playing in this tournament")
    row.withdrawn_round = t.current_round
    db.session.flush()
    settling.resign_games(t, player.id, now)
    return db.session.get(Tournament, t.id)


def _before_start(tournament_id: str, organizer: Player) -> Tournament:
    """The tournament, locked, for its organizer to start or cancel: not yet started nor cancelled."""
    t = _locked(tournament_id)
    _organizer(t, organizer)
    if t.status == rounds.CANCELLED:
        raise Problem("tournament-cancelled", "the tournament was cancelled already")
    if t.status != rounds.OPEN:
        raise Problem("tournament-started", f"the tournament is {t.status}: it can be started or cancelled only "
                                            "before it starts")
    return t


def start_early(tournament_id: str, organizer: Player, now) -> Tournament:
    t = _before_start(tournament_id, organizer)
    count = db.session.scalar(select(func.count()).select_from(Entrant).where(Entrant.tournament_id == t.id))
    if count < t.min_entrants:
        raise Problem("not-enough-entrants", f"{count} entrants, fewer than the minimum {t.min_entrants}")
    rounds.start(t, now)
    return t


def cancel(tournament_id: str, organizer: Player, now) -> Tournament:
    t = _before_start(tournament_id, organizer)
    rounds.cancel(t, now, "cancelled by the organizer")
    return t
