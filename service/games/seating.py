"""Creating a game and taking its seats: the creator's seat with a token, an invite code per other
seat, and, when the last seat is taken, the first hand dealt."""
from __future__ import annotations

import hmac
import secrets

from sqlalchemy import select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.tokens import hash_secret, new_game_id, new_invite_code, new_token
from ..rules import InvalidRules, Match, Rules
from . import deadlines, deals, move_reads, move_transaction, moves, store
from .models import Game, Seat, utcnow
from .table_game import TableGame


def create_game(rules: Rules, name: str, move_time_hours: int | None = deadlines.DEFAULT_MOVE_TIME_HOURS
                ) -> tuple[Game, str, str]:
    """A new two-seat game with the creator in seat 0; returns it, the creator's token and the invite code."""
    game, token, invites = open_game(rules, name, 2, move_time_hours)
    return game, token, invites[1]


def check_seats(rules: Rules, seats: int) -> None:
    """InvalidRules (or ValueError) when these rules cannot be played by `seats` players."""
    if seats > 2:
        if rules.knock_card == "second_deck":  # its knock decks are numbered by hand: two seats only
            raise InvalidRules("knock_card", "a second-deck knock card is offered for two seats only")
        TableGame.new(rules, seats)  # what a table refuses (Mahjong gin), refused before anything is stored


def open_game(rules: Rules, name: str, seats: int = 2,
              move_time_hours: int | None = deadlines.DEFAULT_MOVE_TIME_HOURS) -> tuple[Game, str, dict[int, str]]:
    """A new game of `seats` seats (2, 3, 4, 6 or 8) with the creator in seat 0; returns it, the
    creator's token and an invite code per other seat ({seat: code}): each opens its own seat."""
    check_seats(rules, seats)
    token, invites = new_token(), {seat: new_invite_code() for seat in range(1, seats)}
    game = Game(id=new_game_id(), status=store.WAITING, rules=rules.to_dict(), state=None)
    game.seats = [Seat(seat=0, name=name, token_hash=hash_secret(token), joined_at=utcnow())] + [
        Seat(seat=seat, invite_hash=hash_secret(invite)) for seat, invite in invites.items()]
    db.session.add(game)
    db.session.flush()
    deadlines.start_clock(game.id, move_time_hours)
    return game, token, invites


def join_game(game_id: str, invite_code: str, name: str, first_dealer: int | None = None
              ) -> tuple[Game, Match, str]:
    """Seat 1 of a two-seat game takes its place with the invite code (see take_seat). Its callers
    (players, challenges, mail invitations) know two seats only: a table's invite is refused here,
    and the caller's transaction undoes the seat taken."""
    game, match, token, seat = take_seat(game_id, invite_code, name, first_dealer)
    if len(game.seats) != 2:
        raise Problem("invalid-invite", "this invite opens a seat at a table of three or four: join it with "
                                        "POST /games/{game_id}/join")
    return game, match, token


def _invited_seat(game: Game | None, invite_code: str) -> Seat | None:
    hashed = hash_secret(invite_code)
    return next((s for s in (game.seats[1:] if game is not None else [])
                 if hmac.compare_digest(s.invite_hash or "", hashed)), None)


def seat_of_invite(game: Game, invite_code: str) -> int | None:
    """The free seat the invite code opens in `game` (locked by the caller), if any."""
    seat = _invited_seat(game, invite_code)
    return seat.seat if seat is not None and seat.joined_at is None else None


def take_seat(game_id: str, invite_code: str, name: str, first_dealer: int | None = None
              ) -> tuple[Game, Match | TableGame | None, str, int]:
    """The seat the invite code opens is taken; when that was the last free seat the first hand is
    dealt (by `first_dealer`, else by the cut when the rules say so, else a seat drawn at random: a
    rematch gives the first deal to the other side). Returns the game, its match (None while seats are free), the token and the seat."""
    game = db.session.execute(select(Game).where(Game.id == game_id).with_for_update()).scalar() \
        if store.could_be_game_id(game_id) else None
    seat = _invited_seat(game, invite_code)
    if seat is None:
        raise Problem("invalid-invite", "this invite code does not open a seat in this game")
    if seat.joined_at is not None:  # not the token: a seat may have revoked its first token
        raise Problem("game-full", "this invite's seat is taken already: an invite code works once")
    token = new_token()
    seat.name, seat.token_hash, seat.joined_at = name, hash_secret(token), utcnow()
    if any(s.joined_at is None for s in game.seats):  # seats still free: the deal waits for them
        game.updated_at = utcnow()  # a change of the game's row: its version (the ETag) moves on
        db.session.flush()
        return game, None, token, seat.seat
    rules = Rules.from_dict(game.rules)
    cut = first_dealer is None and rules.first_dealer_by != "random"  # two seats only: a table refuses it
    if first_dealer is None and not cut:
        first_dealer = secrets.randbelow(2)
    match = TableGame.new(rules, len(game.seats), first_dealer) if len(game.seats) > 2 \
        else Match.new(rules, first_dealer=first_dealer)
    events = deals.cut_for_first_dealer(match) if cut else []
    db.session.flush()  # the seat taken, then the first hand dealt by the move path (its clock, hooks, views)
    connection = move_transaction.driver()
    moves.record(connection, move_reads.lock_seat(connection, game.id, seat.seat), match, None, None, events,
                 deadlines.now())
    game = db.session.get(Game, game.id, populate_existing=True)  # as the move path left it
    return game, match, token, seat.seat
