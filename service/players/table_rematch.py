"""Rematches at tables (3 or more seats, every seat held by a player): any seat offers, every other
seat must accept before the game is made; one decline ends it; it expires as a two-seat rematch.

The offer is a Challenge (same rules and move time, rematch_of the finished game) with a
RematchSeat row per other seat. Its target_id names one of them, only so that the challenge is
never taken for an open one by the queries of challenges.py; who may answer is read from the rows.
The new game keeps every player in the seat they had, and so the partnerships: the players chose
them when they took their seats, and a rematch is the same game again (a new table reseats).
The first dealer is drawn at random, as at any new table."""
from __future__ import annotations

from sqlalchemy import select

from ..core.errors import Problem
from ..core.extensions import db
from ..games import seating, views
from ..games.models import Game
from ..rules import Rules
from . import accounts, feed
from .models import Challenge, Player, RematchSeat


def seat_rows(challenge_id: str) -> list[RematchSeat]:
    return list(db.session.scalars(select(RematchSeat).where(RematchSeat.challenge_id == challenge_id)
                                   .order_by(RematchSeat.seat)))


def describe_seats(challenge: Challenge) -> list[dict] | None:
    """Every seat of a table rematch and its answer (None for a two-seat challenge)."""
    rows = seat_rows(challenge.id)
    if not rows:
        return None
    names = dict(db.session.execute(select(Player.id, Player.name).where(
        Player.id.in_([challenge.challenger_id] + [r.player_id for r in rows]))).all())
    seats = [{"seat": challenge.challenger_seat, "player": names[challenge.challenger_id], "answer": "offered"}]
    seats += [{"seat": r.seat, "player": names[r.player_id], "answer": "accepted" if r.accepted_at else "pending"}
              for r in rows]
    return sorted(seats, key=lambda s: s["seat"])


def offer(challenge: Challenge, players: dict[int, int]) -> list[int]:
    """Add a row per seat but the offering one; returns the players asked."""
    others = sorted(seat for seat in players if seat != challenge.challenger_seat)
    challenge.target_id = players[others[0]]
    db.session.flush()  # the challenge's row before its seats'
    db.session.add_all(RematchSeat(challenge_id=challenge.id, seat=seat, player_id=players[seat]) for seat in others)
    return [players[seat] for seat in others]


def may_answer(challenge: Challenge, player: Player) -> bool:
    return any(r.player_id == player.id for r in seat_rows(challenge.id))


def accept(challenge: Challenge, player: Player, now) -> tuple[Game | None, int]:
    """Note this player's acceptance; when it is the last one, make the game with every seat
    bound and the first hand dealt. Returns the game (None while others have still to accept)
    and the player's seat."""
    rows = seat_rows(challenge.id)
    mine = next(r for r in rows if r.player_id == player.id)
    mine.accepted_at = mine.accepted_at or now
    if any(r.accepted_at is None for r in rows):
        db.session.flush()
        return None, mine.seat
    players = {r.seat: db.session.get(Player, r.player_id) for r in rows}
    players[challenge.challenger_seat] = db.session.get(Player, challenge.challenger_id)
    feed.lock_players([p.id for p in players.values()])  # in id order, before any event is added
    game, _, invites = seating.open_game(Rules.from_dict(challenge.rules), players[0].name, len(players),
                                       challenge.move_time_hours)
    for seat, who in players.items():
        accounts.bind(game.id, seat, who)
    for seat, who in players.items():
        if who.id != player.id:
            feed.add(who.id, "challenge_accepted", challenge_id=challenge.id, game_id=game.id, by=player.name)
    match = None
    for seat, code in invites.items():  # the last seat taken deals; the change hook tells every player
        game, match, _, _ = seating.take_seat(game.id, code, players[seat].name)
    views.publish_views(game, match)
    return game, mine.seat


def others_of(challenge: Challenge, player_id: int) -> list[int]:
    """The players of a table rematch to tell of an answer: everyone in it but `player_id`."""
    return [p for p in [challenge.challenger_id] + [r.player_id for r in seat_rows(challenge.id)] if p != player_id]


def needs_all(challenge: Challenge) -> bool:
    return bool(seat_rows(challenge.id))


def refuse_unless_asked(challenge: Challenge, player: Player) -> None:
    if challenge.challenger_id == player.id:
        raise Problem("challenge-to-self", "you cannot accept your own challenge")
    if not may_answer(challenge, player):
        raise Problem("challenge-not-found", "no such challenge for this player")
