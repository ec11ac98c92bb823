"""Players' table ratings: OpenSkill's Plackett-Luce model (the `openskill` package, its defaults:
mu 25, sigma 25/3), apart from the two-seat Glicko-2 of ratings.py. A table of 3, 4, 6 or 8 seats
whose every seat holds a player moves each player's table rating when it ends, in the transaction
that ends it (`after_change`, a games.changes hook registered before the feed's, whose `game_over`
event then carries each player's `table_rating_change`).

The sides are the engine's (`Table.sides`): at three seats each player is a side of their own
(free-for-all), at four, six and eight two partnerships, whose members are rated as one team.
The sides are ranked by the result: the winner first, then the others by their totals, and a side
that resigned or lost on time last (a resignation is a loss). Equal places are a tie.

Not rated, as a two-seat match: an anonymous seat, `rated: false` (the game's challenge, its
rematches, or POST /me/games), and a target below RATED_MIN_TARGET. A table given up (resigned or
lost on time) is rated whatever the hand, the side that gave up last. The rating people compare is the ordinal, mu - 3 sigma (openskill's `ordinal()`).
"""
from __future__ import annotations

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, select

from ..core.extensions import db
from ..core.settings import setting
from ..games.models import utcnow
from ..games.table_game import TableGame
from .models import Player, TableRatingChange
from .ratings import bound_players, is_rated, lock_players

MODEL = PlackettLuce()  # the package's recommended model, with its published defaults
FORFEITS = ("resign", "timeout")  # the events of a side giving the match up

_RATED_ALREADY = (select(TableRatingChange.player_id).where(TableRatingChange.game_id == bindparam("game"))
                  .limit(1))
_CHANGES = select(TableRatingChange).where(TableRatingChange.game_id == bindparam("game"))


def ordinal(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def describe(player: Player) -> dict:
    """The table rating as GET /me and GET /players/{name} show it."""
    return {"mu": round(player.table_mu, 4), "sigma": round(player.table_sigma, 4),
            "ordinal": round(ordinal(player.table_mu, player.table_sigma), 2), "games": player.table_games}


def side_ranks(sides: list[list[int]], result: dict, forfeited_by: int | None) -> list[int]:
    """Each side's place (0 first; equal places tie): the winner, then by totals, a forfeit last."""
    def key(side: int) -> tuple:
        return (side != result.get("winner"), forfeited_by is not None and forfeited_by in sides[side],
                -result["totals"][side])
    places = sorted({key(side) for side in range(len(sides))})
    return [places.index(key(side)) for side in range(len(sides))]


def _forfeiter(events: list[dict]) -> int | None:
    """The seat that resigned or lost on time in this change, if any."""
    return next((e.get("seat") for e in events if e.get("type") in FORFEITS), None)


def _seats_to_rate(game, match) -> dict[int, int] | None:
    """{seat: player id} when this finished table is to be rated, else None."""
    if not isinstance(match, TableGame) or (game.rules or {}).get("target", 100) < setting("RATED_MIN_TARGET"):
        return None  # two seats (ratings.py), or a table too short to say anything
    bound = bound_players(game.id)
    if set(bound) != set(range(match.seats)) or len(set(bound.values())) != match.seats:
        return None  # an anonymous seat
    if not is_rated(game.id) or db.session.execute(_RATED_ALREADY, {"game": game.id}).first() is not None:
        return None  # unrated, or rated once already: a later change to a finished table changes nothing
    return bound


def after_change(change, bound_seats) -> None:
    """The change hook: rate the table in the transaction that ends it (`bound_seats`: whether a
    player holds a seat, read with the move)."""
    match, events = change.match, change.events
    if not match.is_over or not bound_seats:
        return
    game = change.game()
    bound = _seats_to_rate(game, match)
    if bound is None:
        return
    rows = lock_players(bound.values())
    sides = match.table.sides
    ranks = side_ranks(sides, match.result, _forfeiter(events))
    teams = [[MODEL.rating(mu=rows[bound[s]].table_mu, sigma=rows[bound[s]].table_sigma) for s in side]
             for side in sides]
    rated, moment = MODEL.rate(teams, ranks=ranks), utcnow()
    for side, seats in enumerate(sides):
        for before, after, seat in zip(teams[side], rated[side], seats):
            player = rows[bound[seat]]
            player.table_mu, player.table_sigma = after.mu, after.sigma
            player.table_games += 1
            db.session.add(TableRatingChange(game_id=game.id, player_id=player.id, seat=seat, rank=ranks[side],
                                             mu_before=before.mu, sigma_before=before.sigma, mu_after=after.mu,
                                             sigma_after=after.sigma, created_at=moment))
    db.session.flush()


def changes_of(game_id: str) -> dict[int, dict]:
    """{player id: its `table_rating_change`} of a rated table (empty: not rated)."""
    changes = {}
    for row in db.session.execute(_CHANGES, {"game": game_id}).scalars():
        before, after = ordinal(row.mu_before, row.sigma_before), ordinal(row.mu_after, row.sigma_after)
        changes[row.player_id] = {"before": round(before, 2), "after": round(after, 2),
                                  "delta": round(after - before, 2), "mu": round(row.mu_after, 4),
                                  "sigma": round(row.sigma_after, 4), "rank": row.rank}
    return changes
