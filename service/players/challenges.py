"""Challenges and rematches: offering a game, accepting it (the game is made with both seats bound
and the first hand dealt), declining with a reason, cancelling; challenges expire.

A challenge past its expires_at is expired whatever its stored status says (`pending` rows are
never swept): reads compare with the clock, so nothing has to run for a challenge to expire."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.tokens import new_game_id
from ..games import deadlines, seating, store, views
from ..games.models import Game
from ..rules import Rules
from . import accounts, blocks, feed, house_games, limits, ratings, table_rematch
from .house_levels import is_house_bot
from .models import Challenge, Player

PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED = "pending", "accepted", "declined", "cancelled", "expired"
DECLINE_REASONS = ("busy", "rules", "move-time", "opponent", "other")
OPPONENT_KINDS = ("any", "bot", "human")
DEFAULT_BOT_LEVEL = 3  # the house bot's level unless the challenge says (levels 1-5: client/gin_client/bots/levels.py)
REMATCH_HOURS = 72  # how long a rematch offer stands


def status_of(challenge: Challenge, now) -> str:
    return EXPIRED if challenge.status == PENDING and _aware(challenge.expires_at) <= now else challenge.status


def _aware(moment):
    # SQLite hands back naive datetimes for timezone-aware columns: they were stored as UTC.
    from datetime import timezone
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def describe(challenge: Challenge, now) -> dict:
    names = dict(db.session.execute(select(Player.id, Player.name).where(
        Player.id.in_([i for i in (challenge.challenger_id, challenge.target_id) if i is not None]))).all())
    seats = table_rematch.describe_seats(challenge) if challenge.rematch_of else None
    return {"challenge_id": challenge.id, "from": names[challenge.challenger_id],
            "to": None if seats else names.get(challenge.target_id), "seats": seats, "rules": challenge.rules,
            "move_time_hours": challenge.move_time_hours, "opponent": challenge.opponent,
            "status": status_of(challenge, now), "reason": challenge.reason, "game_id": challenge.game_id,
            "rematch_of": challenge.rematch_of, "rated": challenge.rated, "level": challenge.level,
            "created_at": _aware(challenge.created_at).isoformat(),
            "expires_at": _aware(challenge.expires_at).isoformat()}


def _fits(player: Player, kind: str) -> bool:
    return kind == "any" or (kind == "bot") == player.bot


def _level_for(target: Player | None, level: int | None) -> int | None:
    """The level the house bot is asked to play at (3 when not said); a level for anyone else is refused."""
    if not is_house_bot(target):
        if level is not None:
            raise Problem("level-not-house-bot", "a level is asked of the house bot only (GET /house-bot names it): "
                                                 "leave `level` out for another player or an open challenge")
        return None
    return DEFAULT_BOT_LEVEL if level is None else level


def offer(challenger: Player, to: str | None, rules: Rules, move_time_hours: int | None, opponent: str,
          expires_in_hours: int, now, rated: bool | None = None, level: int | None = None) -> Challenge:
    """A challenge (`rated` None: rated when the target is long enough, ratings.resolve_rated)."""
    rated = ratings.resolve_rated(rated, rules.target)
    target = None
    if to is not None:
        target = accounts.by_name(to)
        # No such name and a name that is not of the kind asked for answer alike: a challenge must
        # not tell whether a person of that name exists (to bots only).
        if target is None or not _fits(target, opponent):
            kind = "player" if opponent == "any" else opponent
            raise Problem("unknown-player", f"no {kind} is called {to!r}")
        if target.id == challenger.id:
            raise Problem("challenge-to-self", "you cannot challenge yourself")
    level = _level_for(target, level)
    limits.check(challenger.id, target.id if target else None, now)  # (locks both players' rows)
    house_games.check_share(challenger, target, now)
    move_time_hours = house_games.move_hours(move_time_hours, target)
    challenge = Challenge(id=new_game_id(), challenger_id=challenger.id, target_id=target.id if target else None,
                          rules=rules.to_dict(), move_time_hours=move_time_hours, opponent=opponent,
                          challenger_seat=0, status=PENDING, rated=rated, level=level, created_at=now,
                          expires_at=now + timedelta(hours=expires_in_hours))
    db.session.add(challenge)
    db.session.flush()
    if target is not None and blocks.blocks(target.id, challenger.id):
        _declined_for_a_block(challenge, challenger, target)
    elif target is not None:
        feed.add(target.id, "challenge_received", challenge=describe(challenge, now))
    return challenge


def _declined_for_a_block(challenge: Challenge, challenger: Player, target: Player) -> None:
    """A player who blocked the challenger does not play them: the challenge is declined at once,
    as the player would decline it (reason `other`, which is true), and never shown to them. The
    challenger is told a decline, not a block, and not that the name is unknown (a profile shows it)."""
    challenge.status, challenge.reason = DECLINED, "other"
    feed.add(challenger.id, "challenge_declined", challenge_id=challenge.id, by=target.name,
             reason="other", rematch_of=None)


def _locked(challenge_id: str) -> Challenge | None:
    if not store.could_be_game_id(challenge_id):
        return None
    return db.session.execute(select(Challenge).where(Challenge.id == challenge_id).with_for_update()).scalar()


def _visible(challenge: Challenge | None, player: Player) -> Challenge:
    """A challenge the player may see: theirs, to them (a table rematch: to each of its seats), or
    open and not between players one of whom blocked the other. Anything else is not found."""
    if challenge is None or (challenge.target_id not in (None, player.id) and challenge.challenger_id != player.id
                             and not table_rematch.may_answer(challenge, player)) or (
            challenge.target_id is None and challenge.challenger_id != player.id
            and db.session.scalar(select(blocks.either_blocks(challenge.challenger_id, player.id)))):
        raise Problem("challenge-not-found", "no such challenge for this player")
    return challenge


def _still_pending(challenge: Challenge, now) -> None:
    status = status_of(challenge, now)
    if status == EXPIRED:
        raise Problem("challenge-expired", f"the challenge expired at {_aware(challenge.expires_at).isoformat()}")
    if status != PENDING:
        raise Problem("challenge-closed", f"the challenge was {status} already")


def accept(challenge_id: str, player: Player, now) -> tuple[Challenge, Game | None, int]:
    """Make the game: the challenger's seat and the accepter's, bound; the first hand dealt.
    Returns the challenge, the game and the accepter's seat. A rematch at a table is made when
    its last seat accepts: until then the game is None."""
    challenge = _visible(_locked(challenge_id), player)
    _still_pending(challenge, now)
    if table_rematch.needs_all(challenge):
        table_rematch.refuse_unless_asked(challenge, player)
        game, seat = table_rematch.accept(challenge, player, now)
        if game is not None:
            challenge.status, challenge.game_id = ACCEPTED, game.id
        return challenge, game, seat
    if challenge.challenger_id == player.id:
        raise Problem("challenge-to-self", "you cannot accept your own challenge")
    if not _fits(player, challenge.opponent):
        raise Problem("opponent-kind-mismatch", f"this challenge is for {challenge.opponent}s only")
    challenger = db.session.get(Player, challenge.challenger_id)
    feed.lock_players([challenger.id, player.id])  # in id order, before any event is added
    if challenge.target_id is None:  # an open challenge the house bot takes: its share and deadline too
        house_games.check_share(challenger, player, now)
    challenge.move_time_hours = house_games.move_hours(challenge.move_time_hours, challenger, player)
    seat_of = {challenge.challenger_seat: challenger, 1 - challenge.challenger_seat: player}
    game, _, invite = seating.create_game(Rules.from_dict(challenge.rules), seat_of[0].name, challenge.move_time_hours)
    for seat in game.seats:  # before the deal, so that every view (the bot's first your_turn too) shows it
        if challenge.level is not None and is_house_bot(seat_of[seat.seat]):
            seat.bot_level = challenge.level
    for seat, who in seat_of.items():
        accounts.bind(game.id, seat, who)
    challenge.status, challenge.game_id = ACCEPTED, game.id
    feed.add(challenger.id, "challenge_accepted", challenge_id=challenge.id, game_id=game.id, by=player.name)
    # The join deals, and the store's change hook tells both players the game started, and whose turn it is.
    game, match, _ = seating.join_game(game.id, invite, seat_of[1].name, first_dealer=challenge.first_dealer)
    views.publish_views(game, match)
    return challenge, game, 1 - challenge.challenger_seat


def decline(challenge_id: str, player: Player, reason: str, now) -> Challenge:
    challenge = _visible(_locked(challenge_id), player)
    at_table = table_rematch.needs_all(challenge)
    named = table_rematch.may_answer(challenge, player) if at_table else challenge.target_id == player.id
    if not named:  # an open challenge is simply not taken; one's own is cancelled
        raise Problem("challenge-not-found", "only the player a challenge names may decline it")
    _still_pending(challenge, now)
    challenge.status, challenge.reason = DECLINED, reason
    told = table_rematch.others_of(challenge, player.id) if at_table else [challenge.challenger_id]
    feed.lock_players(told)
    for player_id in told:  # at a table, one decline ends the rematch for every seat
        feed.add(player_id, "challenge_declined", challenge_id=challenge.id, by=player.name,
                 reason=reason, rematch_of=challenge.rematch_of)
    return challenge


def cancel(challenge_id: str, player: Player, now) -> Challenge:
    challenge = _visible(_locked(challenge_id), player)
    if challenge.challenger_id != player.id:
        raise Problem("challenge-not-found", "only the player who made a challenge may cancel it")
    _still_pending(challenge, now)
    challenge.status = CANCELLED
    told = table_rematch.others_of(challenge, player.id) if table_rematch.needs_all(challenge) else \
        [challenge.target_id] if challenge.target_id is not None else []
    feed.lock_players(told)
    for player_id in told:
        feed.add(player_id, "challenge_cancelled", challenge_id=challenge.id)
    return challenge


# -- rematch ---------------------------------------------------------------------------------

def offer_rematch(game: Game, seat: int, now) -> Challenge:
    """A challenge from this seat's player to the other's: the same rules and move time, the same
    seats, the first deal to the other side. Once per finished game. At a table, to every other
    seat's player, each to accept (table_rematch.py)."""
    players = feed.bound_seats(game.id)
    if game.status != store.FINISHED or set(players) != set(range(len(game.seats))):
        raise Problem("rematch-unavailable", "a rematch is offered when the match is over, between players "
                                             "(every seat held by a player account)")
    if db.session.execute(select(Challenge.id).where(Challenge.rematch_of == game.id)).first() is not None:
        raise Problem("rematch-unavailable", "a rematch of this game was offered already")
    if any(blocks.blocks(other, players[seat]) for other_seat, other in players.items() if other_seat != seat):
        # As a challenge to a blocker is: refused, and the block never told.
        raise Problem("rematch-unavailable", "a rematch of this game cannot be offered")
    clock = deadlines.clock_of(game.id)
    at_table = len(game.seats) > 2
    challenge = Challenge(id=new_game_id(), challenger_id=players[seat], target_id=players[1 - seat] if not at_table
                          else None, rules=game.rules, move_time_hours=clock.move_time_hours if clock else None,
                          opponent="any", challenger_seat=seat, rated=_was_rated(game.id), level=_level_of(game.id),
                          first_dealer=None if at_table else 1 - (game.first_dealer or 0), status=PENDING,
                          rematch_of=game.id, created_at=now, expires_at=now + timedelta(hours=REMATCH_HOURS))
    db.session.add(challenge)
    asked = table_rematch.offer(challenge, players) if at_table else [players[1 - seat]]
    db.session.flush()
    feed.lock_players(asked)
    for player_id in asked:
        feed.add(player_id, "rematch_offered", game_id=game.id, challenge=describe(challenge, now))
    return challenge


def _was_rated(game_id: str) -> bool:
    """A rematch is rated as the game it follows was (by its challenge, or as POST /me/games made it)."""
    return ratings.is_rated(game_id)


def _level_of(game_id: str) -> int | None:
    """A rematch of a game against the house bot is played at the same level."""
    return db.session.execute(select(Challenge.level).where(Challenge.game_id == game_id)).scalar()


def rematch_links(game_id: str) -> dict:
    """The game this one is a rematch of, and the rematch offered after it (with its game, once made)."""
    before = db.session.execute(select(Challenge.rematch_of).where(Challenge.game_id == game_id,
                                                                   Challenge.rematch_of.is_not(None))).scalar()
    after = db.session.execute(select(Challenge).where(Challenge.rematch_of == game_id)).scalar()
    return {"rematch_of": before, "rematch": describe(after, deadlines.now()) if after else None}


