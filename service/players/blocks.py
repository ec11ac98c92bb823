"""Blocks between players: a player blocks another by name (PUT /me/blocks/{name}), lists and
removes them. A block is never told to the one blocked:

- their challenges and series offers to the blocker are declined at once (reason `other` for a
  challenge), as the blocker would decline them; a series offered before the block cannot be
  accepted (series/play.py);
- neither sees the other's open challenges (GET /challenges) nor may accept one (`challenge-not-found`);
- the blocker sees none of their messages (a games.changes.message_hiders hook: the listing, the
  game stream, the player's stream and the turn mails), while they still see their own as sent.
"""
from __future__ import annotations

from sqlalchemy import and_, delete, exists, or_, select

from ..core.errors import Problem
from ..core.extensions import db
from ..games.models import utcnow
from . import accounts, feed
from .models import Block, Player, PlayerSeat


def _target(player: Player, name: str) -> Player:
    target = accounts.by_name(name)
    if target is None:
        raise Problem("player-not-found", f"no player is called {name!r}")
    if target.id == player.id:
        raise Problem("block-self", "you cannot block yourself")
    return target


def block(player: Player, name: str) -> dict:
    """Block the named player (again: changes nothing). Returns the block as listed."""
    target = _target(player, name)
    row = db.session.get(Block, (player.id, target.id))
    if row is None:
        row = Block(blocker_id=player.id, blocked_id=target.id, created_at=utcnow())
        db.session.add(row)
        db.session.flush()
    return describe(row, target.name)


def unblock(player: Player, name: str) -> None:
    """Remove a block (none there: nothing to do)."""
    target = _target(player, name)
    db.session.execute(delete(Block).where(Block.blocker_id == player.id, Block.blocked_id == target.id))


def describe(row: Block, name: str) -> dict:
    moment = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=utcnow().tzinfo)
    return {"name": name, "blocked_at": moment.isoformat()}


def listing(player: Player) -> list[dict]:
    rows = db.session.execute(select(Block, Player.name).join(Player, Player.id == Block.blocked_id)
                              .where(Block.blocker_id == player.id).order_by(Player.name_key)).all()
    return [describe(row, name) for row, name in rows]


def blocks(blocker_id: int, blocked_id: int) -> bool:
    return db.session.get(Block, (blocker_id, blocked_id)) is not None


def either_blocks(one_id, other_id):
    """SQL truth value: one of the two players (columns or ids) blocked the other."""
    return exists().where(or_(and_(Block.blocker_id == one_id, Block.blocked_id == other_id),
                              and_(Block.blocker_id == other_id, Block.blocked_id == one_id)))


# -- messages (games.changes hooks) -----------------------------------------------------------

def hidden_seats(game_id: str, seat: int) -> set[int]:
    """The message_hiders hook: the seats of the game whose players the player of `seat` blocked."""
    me = select(PlayerSeat.player_id).where(PlayerSeat.game_id == game_id, PlayerSeat.seat == seat).scalar_subquery()
    return set(db.session.scalars(select(PlayerSeat.seat).join(Block, Block.blocked_id == PlayerSeat.player_id)
                                  .where(PlayerSeat.game_id == game_id, Block.blocker_id == me)))


def tell_players(game, message: dict) -> None:
    """The message_posted hook: a `message` event on the stream of each player holding a seat of the
    game (the writer's too: their other devices), but not of one who blocked the writer."""
    bound = feed.bound_seats(game.id)
    if not bound:
        return
    writer = bound.get(message["seat"])
    blockers = set(db.session.scalars(select(Block.blocker_id).where(Block.blocked_id == writer))) \
        if writer is not None else set()
    told = {seat: player for seat, player in bound.items() if player not in blockers}
    feed.lock_players(told.values())
    for seat, player in sorted(told.items()):
        feed.add(player, "message", game_id=game.id, seat=seat, version=game.version, message=message)
