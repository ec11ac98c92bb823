"""Fair shares of the house bot (issue 38): one account held all of its games, none with a move
deadline, and kept them for ever. So a player holds at most HOUSE_BOT_GAMES_PER_PLAYER games and
pending challenges with the house bot at once (409 house-bot-games-max), and every game with it has
a move deadline: a challenge that asks for none (`move_time_hours: null`) gets HOUSE_BOT_MOVE_HOURS,
so a game left alone ends on time (claim_timeout) rather than holding a slot of the bot."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from ..core.errors import Problem
from ..core.extensions import db
from ..core.settings import register, setting
from ..games.models import Game
from .house_levels import is_house_bot
from .models import Challenge, Player, PlayerSeat

register({"HOUSE_BOT_GAMES_PER_PLAYER": 3, "HOUSE_BOT_MOVE_HOURS": 24},
         {"HOUSE_BOT_GAMES_PER_PLAYER": int, "HOUSE_BOT_MOVE_HOURS": int})

_mine, _its = aliased(PlayerSeat), aliased(PlayerSeat)


def move_hours(hours: int | None, *sides: Player | None) -> int | None:
    """The move time of a game with these sides: as asked, but never none against the house bot."""
    if hours is None and any(is_house_bot(side) for side in sides):
        return setting("HOUSE_BOT_MOVE_HOURS")
    return hours


def held_with(player_id: int, bot_id: int, now) -> int:
    """The player's games in play with the house bot, and its pending challenges to it."""
    games = db.session.scalar(select(func.count()).select_from(_mine)
                              .join(_its, (_its.game_id == _mine.game_id) & (_its.player_id == bot_id))
                              .join(Game, Game.id == _mine.game_id)
                              .where(_mine.player_id == player_id, Game.status.in_(("waiting", "active"))))
    pending = db.session.scalar(select(func.count()).select_from(Challenge).where(
        Challenge.challenger_id == player_id, Challenge.target_id == bot_id, Challenge.status == "pending",
        Challenge.expires_at > now))
    return games + pending


def check_share(player: Player, bot: Player | None, now) -> None:
    """Refuse a new game with the house bot past the player's share (players' rows are locked first)."""
    if not is_house_bot(bot) or player.id == bot.id:
        return
    most, held = setting("HOUSE_BOT_GAMES_PER_PLAYER"), held_with(player.id, bot.id, now)
    if held >= most:
        raise Problem("house-bot-games-max", f"you hold {held} games and challenges with the house bot, the most "
                                             f"one player may is {most}: finish one (or cancel a challenge) first, "
                                             "so the computer is there for everyone")
