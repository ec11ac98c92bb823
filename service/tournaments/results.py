"""A pairing decided by its games: the change hook (games.changes) that hears a tournament game end,
records the pairing's outcome in the same transaction, and starts the next round when it was the
round's last (rounds.advance).

Locks, in the one order every transaction of the feature takes them: a game's, then its
tournament's, then players' rows in id order. A move takes its game's first; at a tournament
game's end `lock_first`, registered before every other change hook, takes the tournament's and its
entrants' before any hook locks a player (ratings, the streams), so the later hooks' locks (the
next round's players) are held already. Each hook reads, with the move, what tells it whether it
has work (`tournament_read`, `pairing_read`): a game of no tournament costs them no statement.

A pairing's outcome, from its games:
  - one match: its result (a won match 1 and 0, a drawn one 1/2 each), played unless it ended by a
    resignation or on time before any hand ended (then a forfeit, as ratings count it: unrated);
  - a knockout series: decided when the series is (series' own hook runs first), by its standings;
    stopped by a round deadline, by the games recorded: more won, then more points, then the seed;
  - a game the round's deadline settled in which neither side had moved: a double loss, 0 and 0;
  - a player who withdrew loses what they were playing.
Gin points: each side's final totals over the pairing's games.
"""
from __future__ import annotations

from contextvars import ContextVar

from sqlalchemy import func, select

from ..core.extensions import db
from ..games import deadlines
from ..players import feed, ratings
from ..rules import Series
from ..series.models import SeriesGame, SeriesRecord
from . import rounds
from .models import Entrant, Pairing, PairingGame, Tournament

# Games the round deadline is settling in which neither side moved (settling.py sets it).
double_losses: ContextVar[frozenset] = ContextVar("double_losses", default=frozenset())


def _of_game(column, game_id):
    """SQL scalar: `column` of the pairing the game is played for, its own or its series' (NULL:
    a game of no tournament). Each subquery names the game's column itself, so that it correlates
    with the move's read (a subquery nested one deeper would not)."""
    direct = (select(column).join(PairingGame, PairingGame.pairing_id == Pairing.id)
              .where(PairingGame.game_id == game_id).scalar_subquery())
    by_series = (select(column).join(SeriesGame, SeriesGame.series_id == Pairing.series_id)
                 .where(SeriesGame.game_id == game_id).scalar_subquery())
    return func.coalesce(direct, by_series)


def pairing_read(game_id):
    """What after_change reads with the move: the game's pairing (NULL: none)."""
    return _of_game(Pairing.id, game_id)


def tournament_read(game_id):
    """What lock_first reads with the move: the game's tournament (NULL: none)."""
    return _of_game(Pairing.tournament_id, game_id)


def lock_first(change, tournament_id) -> None:
    """The change hook registered first: at a tournament game's end, the tournament's lock, then
    its entrants' rows in id order, before any other hook locks a player. Without it the game's two
    players were locked first (by ratings and the streams), then the tournament and the next
    round's players: two tournaments' rounds ending at once could each hold a player the other
    waited for. Any other move of a tournament game costs nothing here."""
    if tournament_id is None or not change.match.is_over:
        return
    rounds.locked(tournament_id)
    feed.lock_players(list(db.session.scalars(select(Entrant.player_id).where(
        Entrant.tournament_id == tournament_id))))


def after_change(change, pairing_id) -> None:
    """The change hook (after series'): a series game of an unrated tournament is marked unrated
    as it starts; a game's end decides its pairing (unless decided already) and may start the next
    round. Any other move of a tournament game returns at once (`pairing_id`: read with the move)."""
    match, actor = change.match, change.actor
    if pairing_id is None or actor is not None and not match.is_over:
        return
    row = db.session.get(Pairing, pairing_id)
    if actor is None:
        if not db.session.get(Tournament, row.tournament_id).rated and ratings.is_rated(change.game_id):
            ratings.mark_unrated(change.game_id)
        return
    t = rounds.locked(row.tournament_id)  # held already (lock_first): read as it stands under the lock
    db.session.refresh(row)
    if row.decided_at is not None or t.status != rounds.RUNNING:
        return
    outcome = _outcome(row, change.game_id, match)
    if outcome is None:
        return  # a series goes on
    rounds.decide(row, *outcome, deadlines.now())
    rounds.advance(t, deadlines.now())


def _abandoned(match) -> bool:
    return match.result.get("reason") != "target" and not match.sheet


def _outcome(row: Pairing, game_id: str, match):
    """(first's match points, second's, played, gin points each), or None while a series goes on."""
    first_seat = _seat_of(game_id, row.first_id)
    if game_id in double_losses.get():
        return 0.0, 0.0, False, (0, 0)
    if row.series_id is None:
        totals = match.result.get("totals") or [0, 0]
        scores = _scores(match.result.get("winner"), first_seat)
        outcome = (*scores, not _abandoned(match), (totals[first_seat], totals[1 - first_seat]))
    else:
        outcome = _series_outcome(row, game_id, match)
        if outcome is None:
            return None
    return _after_withdrawals(row, outcome)


def _seat_of(game_id: str, player_id: int) -> int:
    bound = ratings.bound_players(game_id)
    return next(seat for seat, pid in bound.items() if pid == player_id)


def _scores(winner_seat, first_seat) -> tuple[float, float]:
    if winner_seat is None:
        return 0.5, 0.5
    return (1.0, 0.0) if winner_seat == first_seat else (0.0, 1.0)


def _series_outcome(row: Pairing, game_id: str, match):
    series_row = db.session.get(SeriesRecord, row.series_id)
    series = Series.from_dict(series_row.record)
    results = list(series.results)
    number = db.session.execute(select(SeriesGame.number).where(SeriesGame.game_id == game_id)).scalar()
    if number > len(results):  # stopped by the round deadline: this game was not recorded in the series
        seating = [p for p in series.next_seating()]
        results.append({"seating": seating, "result": match.result})
    elif series_row.status != "decided":
        return None
    names = series.players  # the first player, then the second (series.begin seats `first` first)
    won = {name: 0 for name in names}
    points = {name: 0 for name in names}
    played = False
    for entry in results:
        seating, result = entry["seating"], entry["result"]
        if result.get("winner") is not None:
            won[seating[result["winner"]]] += 1
        for seat, name in enumerate(seating):
            points[name] += result["totals"][seat]
        played = played or result.get("reason") == "target" or any(result["totals"])
    standing = series.standings()
    if standing["over"] and standing["winner"] is not None:
        top = standing["winner"]
    elif won[names[0]] != won[names[1]]:
        top = max(names, key=lambda n: won[n])
    elif points[names[0]] != points[names[1]]:
        top = max(names, key=lambda n: points[n])
    else:
        top = names[0]  # level on everything: the better seed (first) goes through
    scores = (1.0, 0.0) if top == names[0] else (0.0, 1.0)
    return (*scores, played, (points[names[0]], points[names[1]]))


def _after_withdrawals(row: Pairing, outcome):
    """A player who withdrew loses the pairing they were playing (the other keeps the points scored)."""
    gone = set(db.session.scalars(select(Entrant.player_id).where(
        Entrant.tournament_id == row.tournament_id, Entrant.withdrawn_round.is_not(None),
        Entrant.player_id.in_([row.first_id, row.second_id]))))
    if not gone or len(gone) == 2:
        return outcome
    first_won = row.second_id in gone
    return (1.0 if first_won else 0.0), (0.0 if first_won else 1.0), outcome[2], outcome[3]

