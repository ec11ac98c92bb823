"""Playing a tournament round by round: the start (seeds by rating), each round's pairings (Swiss by
pairing.py, stored with the standings they were made from; round robin by the Berger tables; knockout
by the bracket) and their games, and the end (places, each entrant told).

A round robin played all at once makes every round's games at the start (ICCF's way); otherwise a
round starts when the last pairing of the round before is decided (results.py, a games.changes
hook), or when the round's deadline settles what is left (settling.py).
"""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from ..core.extensions import db
from ..games import seating, views
from ..players import accounts, feed, house_levels, ratings
from ..players.models import Player
from ..rules import Rules
from ..series import play as series_play
from ..series.models import SeriesGame
from . import bracket, formats, mail, pairing, schedule, standings
from .formats import KNOCKOUT, ROUND_ROBIN, SWISS
from .models import Entrant, Pairing, PairingGame, Round, Tournament

OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
STATUSES = (OPEN, RUNNING, FINISHED, CANCELLED)


def locked(tournament_id: str) -> Tournament | None:
    return db.session.execute(select(Tournament).where(Tournament.id == tournament_id).with_for_update()
                              .execution_options(populate_existing=True)).scalar()


def entrants_of(t: Tournament) -> list[Entrant]:
    return list(db.session.scalars(select(Entrant).where(Entrant.tournament_id == t.id)
                                   .order_by(Entrant.seed, Entrant.joined_at, Entrant.player_id)))


def pairings_of(t: Tournament, number: int | None = None) -> list[Pairing]:
    query = select(Pairing).where(Pairing.tournament_id == t.id)
    if number is not None:
        query = query.where(Pairing.round == number)
    return list(db.session.scalars(query.order_by(Pairing.round, Pairing.board)))


def results_of(t: Tournament) -> list[standings.Result]:
    """Every decided pairing as the standings read it (a round robin's rests are no result)."""
    out = []
    for p in pairings_of(t):
        if p.decided_at is None or p.second_id is None and t.format == ROUND_ROBIN:
            continue
        out.append(standings.Result(p.round, p.first_id, p.second_id, (p.score_first, p.score_second or 0.0),
                                    bool(p.played), (p.points_first, p.points_second)))
    return out


def table(t: Tournament, entrants: list[Entrant] | None = None) -> list[dict]:
    """The standings now: every entrant, best first (standings.standings)."""
    entrants = entrants_of(t) if entrants is None else entrants
    played = max([p.round for p in pairings_of(t) if p.decided_at is not None], default=0)
    return standings.standings(t.format, {e.player_id: e.rating or 0.0 for e in entrants}, results_of(t), played,
                               tuple(t.tie_breaks))


def _rating_of(entrant: Entrant, player: Player, levels) -> float:
    return levels[entrant.level].rating if entrant.level is not None else player.rating


def start(t: Tournament, moment) -> None:
    """Seed the entrants by rating (the house bot by its level's), fix the number of rounds, tell
    every entrant, and start round 1 (a round robin all at once: every round)."""
    entrants = entrants_of(t)
    players = {p.id: p for p in db.session.scalars(select(Player).where(
        Player.id.in_([e.player_id for e in entrants])))}
    levels = house_levels.ratings_by_level()
    for e in entrants:
        e.rating = _rating_of(e, players[e.player_id], levels)
    entrants.sort(key=lambda e: (-e.rating, e.joined_at, e.player_id))
    for seed, e in enumerate(entrants, start=1):
        e.seed = seed
    t.rounds = formats.rounds_for(t.format, len(entrants), t.cycles, t.rounds)
    t.status, t.started_at = RUNNING, moment
    feed.lock_players([e.player_id for e in entrants])
    for e in entrants:
        feed.add(e.player_id, "tournament_started", tournament_id=t.id, name=t.name, format=t.format,
                 rounds=t.rounds, entrants=len(entrants))
    if t.pace == "all_at_once":  # every round's games at once, and one mail listing them
        games: dict[int, list[dict]] = {}
        for number in range(1, t.rounds + 1):
            for pid, mine in start_round(t, number, moment, entrants, mailed=False).items():
                games.setdefault(pid, []).extend(mine)
        mail.games_started(t, 1, games, t.round_deadline_at, [], _names(entrants), moment)
    else:
        start_round(t, 1, moment, entrants)


def _swiss_pairs(t: Tournament, number: int, entrants: list[Entrant]) -> tuple[list, list]:
    playing = [e for e in entrants if e.withdrawn_round is None]
    state = standings.pairing_state([e.player_id for e in entrants], results_of(t))
    field = [pairing.Entrant(e.player_id, s["score"], e.rating, frozenset(s["opponents"]), s["byes"],
                             s["first_deals"], s["second_deals"])
             for e in playing for s in [state[e.player_id]]]
    made = pairing.pair(field, number)
    return [(p.first, p.second) for p in made], [f.to_dict() for f in pairing.ranked(field)]


def _knockout_pairs(t: Tournament, number: int, entrants: list[Entrant]) -> list:
    if number == 1:
        by_seed = {e.seed: e.player_id for e in entrants}
        return [(by_seed[a], by_seed[b] if b is not None else None) for a, b in bracket.first_round(len(entrants))]
    slots = 1 << (t.rounds - number + 1)  # the previous round's slots, boards 1..
    boards = {p.board: p for p in pairings_of(t, number - 1)}
    return bracket.next_round([winner(boards[b]) if b in boards else None for b in range(1, slots + 1)])


def winner(p: Pairing):
    """Who goes through a knockout pairing: the player with more match points (a drawn pairing: the
    better seed, which is `first` there); nobody after a double loss."""
    if p.second_id is None:
        return p.first_id
    if p.score_first == p.score_second:
        return None if p.score_first == 0 else p.first_id
    return p.first_id if p.score_first > p.score_second else p.second_id


def pairs_for(t: Tournament, number: int, entrants: list[Entrant]) -> tuple[list, list | None]:
    """The round's pairs (deals first, deals second or None), and what a Swiss paired them from."""
    if t.format == SWISS:
        return _swiss_pairs(t, number, entrants)
    if t.format == KNOCKOUT:
        return _knockout_pairs(t, number, entrants), None
    by_seed = {e.seed: e.player_id for e in entrants}
    return [(by_seed[a], by_seed.get(b)) for a, b in schedule.rounds(len(entrants), t.cycles)[number - 1]], None


def start_round(t: Tournament, number: int, moment, entrants: list[Entrant] | None = None,
                mailed: bool = True) -> dict[int, list[dict]]:
    """Pair round `number`, make its games (or series), decide its byes, walkovers and forfeits,
    and tell each entrant paired (the stream; mail unless `mailed` is False: the caller mails);
    the round's deadline runs from now. Returns each player's games of the round, as mailed."""
    entrants = entrants_of(t) if entrants is None else entrants
    pairs, paired_from = pairs_for(t, number, entrants)
    deadline = moment + timedelta(hours=t.round_hours) if t.round_hours else None
    db.session.add(Round(tournament_id=t.id, number=number, paired_from=paired_from, started_at=moment,
                         deadline_at=deadline))
    t.current_round, t.round_deadline_at = number, deadline
    withdrawn = {e.player_id for e in entrants if e.withdrawn_round is not None}
    levels = {e.player_id: e.level for e in entrants}
    feed.lock_players([p for pair in pairs for p in pair if p is not None])
    games: dict[int, list[dict]] = {}
    for board, (first, second) in enumerate(pairs, start=1):
        if first is None:
            continue  # a knockout slot nobody reached
        row = Pairing(tournament_id=t.id, round=number, board=board, first_id=first, second_id=second)
        db.session.add(row)
        db.session.flush()
        if second is None:  # a bye (Swiss: a win), a walkover (knockout), a rest (round robin: nothing)
            decide(row, 0.0 if t.format == ROUND_ROBIN else 1.0, None, False, (0, 0), moment)
            feed.add(first, "round_started", tournament_id=t.id, round=number, game_id=None, series_id=None,
                     opponent=None, bye=True, deadline=_iso(deadline))
            games[first] = [{"round": number, "opponent": None, "game_id": None, "first": True}]
        elif first in withdrawn or second in withdrawn:  # a round robin's games after a withdrawal: forfeits
            decide(row, float(first not in withdrawn), float(second not in withdrawn), False, (0, 0), moment)
        else:
            games.update(_begin(t, row, levels, deadline))
    if mailed:
        mail.games_started(t, number, games, deadline, table(t, entrants) if number > 1 else [], _names(entrants),
                           moment)
    if t.pace != "all_at_once":
        advance(t, moment)  # a round of byes and walkovers only is decided already
    return games


def advance(t: Tournament, moment) -> None:
    """Once every pairing of the current round is decided (all at once: of every round): the round
    is over, and the next one starts, or the tournament ends (a knockout: after its final)."""
    if t.status != RUNNING:
        return
    current = pairings_of(t) if t.pace == "all_at_once" else pairings_of(t, t.current_round)
    if any(p.decided_at is None for p in current):
        return
    for number in range(1, t.current_round + 1):
        row = db.session.get(Round, (t.id, number))
        if row is not None and row.finished_at is None:
            row.finished_at = moment
    if t.current_round < t.rounds:
        start_round(t, t.current_round + 1, moment)
    else:
        finish(t, moment)


def _begin(t: Tournament, row: Pairing, levels: dict, deadline) -> dict[int, list[dict]]:
    first, second = db.session.get(Player, row.first_id), db.session.get(Player, row.second_id)
    rules = Rules.from_dict(t.rules)
    if t.best_of > 1:
        series = series_play.begin(first, second, t.best_of, rules, t.move_time_hours,
                                   {p: levels[p] for p in (first.id, second.id) if levels.get(p) is not None})
        row.series_id = series.id
        game_id = db.session.execute(select(SeriesGame.game_id).where(SeriesGame.series_id == series.id)).scalar()
        if not t.rated:  # game 1 was dealt before the pairing named its series; the hook marks the next ones
            ratings.mark_unrated(game_id)
    else:
        game_id = make_game(t, row, first, second, rules, levels)
    for me, other in ((first, second), (second, first)):
        feed.add(me.id, "round_started", tournament_id=t.id, round=row.round, game_id=game_id, series_id=row.series_id,
                 opponent=other.name, bye=False, deadline=_iso(deadline))
    return {me.id: [{"round": row.round, "opponent": other.name, "game_id": game_id, "first": me is first}]
            for me, other in ((first, second), (second, first))}


def make_game(t: Tournament, row: Pairing, first: Player, second: Player, rules: Rules, levels: dict) -> str:
    """The pairing's game: `first` at seat 0 dealing the first hand, both seats bound to the players,
    the house bot at its entered level, linked to the pairing before the deal's change hooks run."""
    game, _, invite = seating.create_game(rules, first.name, t.move_time_hours)
    for seat, player in ((0, first), (1, second)):
        if levels.get(player.id) is not None:
            game.seats[seat].bot_level = levels[player.id]
        accounts.bind(game.id, seat, player)
    db.session.add(PairingGame(game_id=game.id, pairing_id=row.id))
    if not t.rated:
        ratings.mark_unrated(game.id)
    db.session.flush()
    game, match, _ = seating.join_game(game.id, invite, second.name, first_dealer=0)
    views.publish_views(game, match)
    return game.id


def decide(row: Pairing, first: float, second: float | None, played: bool, points: tuple[int, int], moment) -> None:
    row.score_first, row.score_second, row.played = first, second, played
    row.points_first, row.points_second = points
    row.decided_at = moment


def finish(t: Tournament, moment) -> None:
    """The final standings: each entrant's place stored and told (tournament_over)."""
    entrants = entrants_of(t)
    rows = table(t, entrants)
    places = {row["id"]: row["place"] for row in rows}
    t.status, t.finished_at, t.round_deadline_at = FINISHED, moment, None
    feed.lock_players([e.player_id for e in entrants])
    for e in entrants:
        e.place = places[e.player_id]
        feed.add(e.player_id, "tournament_over", tournament_id=t.id, name=t.name, place=e.place,
                 entrants=len(entrants))
    mail.final_standings(t, places, rows, _names(entrants), moment)


def _names(entrants: list[Entrant]) -> dict[int, str]:
    return dict(db.session.execute(select(Player.id, Player.name).where(
        Player.id.in_([e.player_id for e in entrants]))).all()) if entrants else {}


def cancel(t: Tournament, moment, reason: str) -> None:
    """Cancelled before it started (by its organizer, or short of entrants when the entry closed):
    each entrant told."""
    t.status, t.finished_at = CANCELLED, moment
    entrants = entrants_of(t)
    feed.lock_players([e.player_id for e in entrants])
    for e in entrants:
        feed.add(e.player_id, "tournament_cancelled", tournament_id=t.id, name=t.name, reason=reason)


def _iso(moment) -> str | None:
    return moment.isoformat() if moment is not None else None
