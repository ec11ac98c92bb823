"""Suspending, unsuspending and renaming a player, each written to the audit table.

A suspended player's token and every seat bound to it open nothing: the player's token is refused
in players.accounts, the seats by a closer (games.changes.seat_closers) inside the very statement
that finds the seat a token opens; both answer 403 account-suspended. Its opponents may claim its
running games at once (games.changes.forfeiting)."""
from __future__ import annotations

import getpass

import marshmallow as ma
from sqlalchemy import exists, or_, select, update

from ..core import wakeup
from ..core.extensions import db
from ..core.fields import NameField
from ..games import changes, deadlines, store, views
from ..games.models import Game, Seat
from ..players import accounts, names
from ..players.models import Challenge, Player, PlayerSeat, RematchSeat
from ..series.models import SeriesRecord
from .models import AdminAction

_bound, _players = PlayerSeat.__table__, Player.__table__


class AdminError(Exception):
    """A command that cannot be done as asked (no such player, a name taken): said to the operator."""


def closed_seat(game_id, seat):
    """The seat closer: the seat is bound to a suspended player (a primary-key probe)."""
    return exists().where(_bound.c.game_id == game_id, _bound.c.seat == seat,
                          _players.c.id == _bound.c.player_id, _players.c.suspended_at.is_not(None))


SEAT_CLOSER = changes.SeatCloser(closed=closed_seat, problem=accounts.account_suspended)


def suspended_seats(game_id: str) -> set[int]:
    """The forfeiting hook: the game's seats held by suspended players."""
    return set(db.session.execute(select(_bound.c.seat).join(_players, _players.c.id == _bound.c.player_id)
                                  .where(_bound.c.game_id == game_id, _players.c.suspended_at.is_not(None))).scalars())


def player_named(name: str) -> Player:
    player = accounts.by_name(name)
    if player is None:
        raise AdminError(f"no player is called {name!r}")
    return player


def audit(action: str, operator: str | None, player: Player | None = None, game_id: str | None = None,
          seat: int | None = None, reason: str | None = None) -> None:
    db.session.add(AdminAction(action=action, player_id=player.id if player else None, game_id=game_id, seat=seat,
                               reason=reason, operator=(operator or getpass.getuser())[:64],
                               created_at=deadlines.now()))


def withdraw_challenges(player: Player) -> int:
    """Cancel the player's pending challenges, made or received (rematches at a table too), and
    decline the series offered by or to it; how many were withdrawn."""
    asked = select(RematchSeat.challenge_id).where(RematchSeat.player_id == player.id)
    withdrawn = db.session.execute(
        update(Challenge).where(Challenge.status == "pending",
                                or_(Challenge.challenger_id == player.id, Challenge.target_id == player.id,
                                    Challenge.id.in_(asked)))
        .values(status="cancelled")).rowcount
    withdrawn += db.session.execute(
        update(SeriesRecord).where(SeriesRecord.status == "offered",
                                   or_(SeriesRecord.offered_by == player.id, SeriesRecord.opponent_id == player.id))
        .values(status="declined")).rowcount
    return withdrawn


def running_games(player: Player) -> list[str]:
    return list(db.session.execute(select(PlayerSeat.game_id).join(Game, Game.id == PlayerSeat.game_id)
                                   .where(PlayerSeat.player_id == player.id, Game.status == store.ACTIVE)
                                   .order_by(Game.created_at)).scalars())


def suspend(name: str, reason: str | None, operator: str | None = None) -> dict:
    with store.transaction():
        player = player_named(name)
        if player.suspended_at is not None:
            raise AdminError(f"{player.name} is suspended already")
        player.suspended_at = deadlines.now()
        withdrawn = withdraw_challenges(player)
        games = running_games(player)
        audit("suspend", operator, player, reason=reason)
        wakeup.player_changed(player.id, None)  # its open streams look, find it suspended, and end
    return {"player": player.id, "challenges_withdrawn": withdrawn, "running_games": games}


def unsuspend(name: str, operator: str | None = None) -> dict:
    with store.transaction():
        player = player_named(name)
        if player.erased_at is not None:
            raise AdminError(f"{player.name} was erased: the account stays closed")
        if player.suspended_at is None:
            raise AdminError(f"{player.name} is not suspended")
        player.suspended_at = None
        audit("unsuspend", operator, player)
    return {"player": player.id}


def valid_name(text: str) -> str:
    """A name as registration takes it (core.fields.NameField), or AdminError saying why not."""
    try:
        return NameField().deserialize(text)
    except ma.ValidationError as exc:
        raise AdminError(f"{text!r} is not a valid name: {'; '.join(map(str, exc.messages))}") from exc


def rename(name: str, new: str, operator: str | None = None, reason: str | None = None) -> dict:
    new = names.normalised(valid_name(new))
    with store.transaction():
        player = player_named(name)
        taken = accounts.by_name(new)
        if taken is not None and taken.id != player.id:
            raise AdminError(f"the name {new!r} is taken (names are compared ignoring case)")
        alike = db.session.execute(select(Player.id).where(Player.name_skeleton == names.skeleton(new),
                                                           Player.id != player.id)).first()
        if alike is not None:
            raise AdminError(f"the name {new!r} looks like another player's")
        games = rename_seats(player, player.name, new)
        player.name, player.name_key, player.name_skeleton = new, accounts.name_key(new), names.skeleton(new)
        audit("rename", operator, player, reason=reason)
    return {"player": player.id, "name": new, "games": games}


def rename_seats(player: Player, old: str, new: str) -> list[str]:
    """The seats bound to the player that show its account name show the new one, and their games'
    stored views are written again (at the same version) so that no view shows the old one."""
    games = list(db.session.execute(select(PlayerSeat.game_id).where(PlayerSeat.player_id == player.id)).scalars())
    for game_id in games:
        bound = select(PlayerSeat.seat).where(PlayerSeat.game_id == game_id, PlayerSeat.player_id == player.id)
        db.session.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat.in_(bound), Seat.name == old)
                           .values(name=new))
        republish(game_id)
    return games


def republish(game_id: str) -> None:
    """Store every seat's view of the game again, from the seats' names as they are now."""
    game = db.session.get(Game, game_id)
    if game is not None and game.seats:
        db.session.flush()
        views.publish_views(game, store.load_match(game))
