"""Standings from results: match points, then the tie-breaks fixed when the tournament was made, as
the FIDE handbook defines them (C.07, Tie-Break Regulations), and each player's record round by
round (the crosstable's rows). Pure: no Flask, no database.

Match points: a won match 1, a lost one 0, a drawn one 1/2, a (Swiss) bye 1, a double loss 0 each.
Tie-breaks, higher first:
  gin_points        points scored in gin less points conceded, over the matches played (a Gin
                    Rummy tie-break: forfeits, byes and double losses add nothing)
  buchholz          BH (C.07 8.1): the sum of the opponents' scores
  median_buchholz   BH-M1 (14.3): BH less its least and then its most significant value
  sonneborn_berger  SB (9.1): the sum of each opponent's score times the points scored against them
  wins              WIN (7.1): rounds in which the player got a win's points, played or not
  direct_encounter  DE (6): among players tied on everything before it, the points they scored
                    against each other, when every two of them met; otherwise it separates none
  rating            the player's rating when the tournament started
In a Swiss, unplayed rounds follow C.07 article 16: for the opponents' tie-breaks a player's score
counts each round absent after a withdrawal as a draw (16.3); for the player's own, each unplayed
round is a game against a dummy whose score is the player's own, at most the scheduled opponent's
adjusted score for a forfeit or a double loss (16.4.1) and at most half the rounds played for a bye
or an absence (16.4.2); BH-M1's first cut takes the lowest contribution of a voluntary unplayed
round (a forfeit loss, an absence) when there is one (16.5). In a round robin forfeits count as
games (15.2). Players equal on every tie-break share their place.
"""
from __future__ import annotations

from dataclasses import dataclass

from .formats import (
    BUCHHOLZ,
    DIRECT_ENCOUNTER,
    GIN_POINTS,
    KNOCKOUT,
    MEDIAN_BUCHHOLZ,
    RATING,
    SONNEBORN_BERGER,
    SWISS,
    WINS,
)

GAME, BYE, FORFEIT, ABSENT = "game", "bye", "forfeit", "absent"


@dataclass(frozen=True)
class Result:
    """One pairing's outcome. `second` None: `first` had the bye. `scores`: match points each (a
    double loss 0 and 0). `played` False: decided without play (a forfeit, a double loss, a bye).
    `points`: gin points each scored over the pairing's games."""
    round: int
    first: int
    second: int | None
    scores: tuple[float, float] = (0.0, 0.0)
    played: bool = True
    points: tuple[int, int] = (0, 0)

    def to_dict(self) -> dict:
        return {"round": self.round, "first": self.first, "second": self.second, "scores": list(self.scores),
                "played": self.played, "points": list(self.points)}


@dataclass(frozen=True)
class Entry:
    """A player's round, as the tie-breaks see it."""
    round: int
    kind: str  # game, bye, forfeit (a double loss too) or absent
    opponent: int | None
    score: float
    points_for: int = 0
    points_against: int = 0


def records(players, results: list[Result], rounds_played: int, form: str) -> dict[int, list[Entry]]:
    """Each player's rounds in order. In a Swiss a round without a result (after a withdrawal) is an
    absence; in a round robin a rest is no round at all; in a knockout the rounds after elimination."""
    entries: dict[int, dict[int, Entry]] = {p: {} for p in players}
    for r in results:
        if r.second is None:
            entries[r.first][r.round] = Entry(r.round, BYE, None, r.scores[0])
            continue
        kind = GAME if r.played else FORFEIT
        entries[r.first][r.round] = Entry(r.round, kind, r.second, r.scores[0], r.points[0], r.points[1])
        entries[r.second][r.round] = Entry(r.round, kind, r.first, r.scores[1], r.points[1], r.points[0])
    if form == SWISS:
        for rounds in entries.values():
            for number in range(1, rounds_played + 1):
                rounds.setdefault(number, Entry(number, ABSENT, None, 0.0))
    return {p: [rounds[n] for n in sorted(rounds)] for p, rounds in entries.items()}


def _score(entries: list[Entry]) -> float:
    return sum(e.score for e in entries)


class _Swiss:
    """Article 16's adjusted scores and dummies, for BH, BH-M1 and SB in a Swiss."""

    def __init__(self, by_player: dict[int, list[Entry]], rounds_played: int):
        self.by_player, self.cap = by_player, 0.5 * rounds_played
        self.own = {p: _score(e) for p, e in by_player.items()}
        self.adjusted = {p: self.own[p] + 0.5 * sum(e.kind == ABSENT for e in entries)
                         for p, entries in by_player.items()}

    def contributions(self, p: int) -> list[tuple[float, bool, float]]:
        """(the opponent's or dummy's score, whether a voluntary unplayed round, the points scored)."""
        out = []
        for e in self.by_player[p]:
            if e.kind == GAME:
                out.append((self.adjusted[e.opponent], False, e.score))
            elif e.kind == FORFEIT:
                out.append((min(self.own[p], self.adjusted[e.opponent]), e.score == 0, e.score))
            else:
                out.append((min(self.own[p], self.cap), e.kind == ABSENT, e.score))
        return out


def median_cut(values: list[tuple[float, bool]]) -> float:
    """BH-M1: cut the least significant value (a voluntary unplayed round's lowest first, 16.5),
    then the most significant; the rest summed."""
    rest = sorted(values, key=lambda v: v[0])
    if not rest:
        return 0.0
    voluntary = [index for index, (_, vur) in enumerate(rest) if vur]
    rest.pop(voluntary[0] if voluntary else 0)
    if rest:
        rest.pop()
    return sum(v for v, _ in rest)


def tie_break_values(form: str, by_player: dict[int, list[Entry]], ratings: dict[int, float],
                     rounds_played: int, names: tuple[str, ...]) -> dict[int, dict[str, float]]:
    """Every tie-break but direct encounter (which depends on who is tied), per player."""
    swiss = _Swiss(by_player, rounds_played) if form == SWISS else None
    own = {p: _score(e) for p, e in by_player.items()}
    values = {}
    for p, entries in by_player.items():
        row = {}
        if GIN_POINTS in names:
            row[GIN_POINTS] = sum(e.points_for - e.points_against for e in entries if e.kind == GAME)
        if WINS in names:
            row[WINS] = sum(e.score == 1 for e in entries)
        if RATING in names:
            row[RATING] = ratings[p]
        if swiss is not None:
            contributions = swiss.contributions(p)
            row[BUCHHOLZ] = sum(c[0] for c in contributions)
            row[MEDIAN_BUCHHOLZ] = median_cut([(c[0], c[1]) for c in contributions])
            row[SONNEBORN_BERGER] = sum(c[0] * c[2] for c in contributions)
        elif SONNEBORN_BERGER in names:  # a round robin: forfeits as games (15.2)
            row[SONNEBORN_BERGER] = sum(own[e.opponent] * e.score for e in entries if e.opponent is not None)
        values[p] = {name: row[name] for name in names if name in row}
    return values


def direct_encounter(group: list[int], by_player: dict[int, list[Entry]]) -> dict[int, float] | None:
    """The points each of the tied players scored against the others, if every two of them met."""
    members = set(group)
    met = {p: {e.opponent for e in by_player[p] if e.opponent in members} for p in group}
    if any(met[p] != members - {p} for p in group):
        return None
    return {p: sum(e.score for e in by_player[p] if e.opponent in members) for p in group}


def _order(group: list[int], keys: list[str], values: dict, by_player) -> list[list[int]]:
    """The group split into tie groups, best first, by the keys in order."""
    if len(group) <= 1 or not keys:
        return [sorted(group)]
    key, rest = keys[0], keys[1:]
    if key == DIRECT_ENCOUNTER:
        scored = direct_encounter(group, by_player)
        if scored is None:
            return _order(group, rest, values, by_player)
        for p in group:
            values[p][DIRECT_ENCOUNTER] = scored[p]
    level = {}
    for p in group:
        level.setdefault(values[p][key], []).append(p)
    return [tied for value in sorted(level, reverse=True) for tied in _order(level[value], rest, values, by_player)]


def knockout_stage(entries: list[Entry]) -> int:
    """How far a knockout entrant went: twice the last round played, plus one if it won it."""
    if not entries:
        return 0
    last = entries[-1]
    return 2 * last.round + (last.score == 1)


def standings(form: str, ratings: dict[int, float], results: list[Result], rounds_played: int,
              tie_breaks: tuple[str, ...]) -> list[dict]:
    """The table, best first: each row the player's id, place (tied players share one), match
    points, tie-break values (in the tournament's order) and counts of matches."""
    by_player = records(ratings, results, rounds_played, form)
    values = tie_break_values(form, by_player, ratings, rounds_played, tie_breaks)
    for p, entries in by_player.items():
        values[p]["score"] = _score(entries)
        values[p]["stage"] = knockout_stage(entries)
    keys = (["stage"] if form == KNOCKOUT else []) + ["score", *tie_breaks]
    rows, place = [], 1
    for tied in _order(list(ratings), keys, values, by_player):
        for p in tied:
            entries = by_player[p]
            games = [e for e in entries if e.kind == GAME]
            rows.append({"id": p, "place": place, "score": values[p]["score"],
                         "tie_breaks": {name: values[p].get(name) for name in tie_breaks},
                         "played": len(games), "won": sum(e.score == 1 for e in games),
                         "drawn": sum(e.score == 0.5 for e in games), "lost": sum(e.score == 0 for e in games),
                         "byes": sum(e.kind == BYE for e in entries)})
        place += len(tied)
    return rows


def pairing_state(players, results: list[Result]) -> dict[int, dict]:
    """What a Swiss pairing needs of each player from the results so far: score in half points,
    opponents met (a forfeit counts), byes had, first and second deals (a Result's `first` dealt first)."""
    state = {p: {"score": 0, "opponents": set(), "byes": 0, "first_deals": 0, "second_deals": 0} for p in players}
    for r in results:
        if r.second is None:
            state[r.first]["byes"] += 1
            state[r.first]["score"] += round(2 * r.scores[0])
            continue
        for me, other, score in ((r.first, r.second, r.scores[0]), (r.second, r.first, r.scores[1])):
            state[me]["score"] += round(2 * score)
            state[me]["opponents"].add(other)
        state[r.first]["first_deals"] += 1
        state[r.second]["second_deals"] += 1
    return state

