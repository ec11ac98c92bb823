"""Standings and tie-breaks against examples computed by hand from the FIDE handbook's definitions
(C.07: Buchholz 8.1, Median-1 14.3, Sonneborn-Berger 9.1, wins 7.1, direct encounter 6, unplayed
rounds in a Swiss 16.3-16.5, forfeits in a round robin 15.2)."""
from __future__ import annotations

import pytest

from service.tournaments.formats import DEFAULT_TIE_BREAKS, KNOCKOUT, ROUND_ROBIN, SWISS, FormatError, check, rounds_for
from service.tournaments.standings import Result, standings

A, B, C, D, E = 1, 2, 3, 4, 5
RATINGS = {A: 1900, B: 1800, C: 1700, D: 1600, E: 1500}

# A Swiss of five, three rounds. Round 1: A beats B (100-40), C and D draw (50-50), E has the bye.
# Round 2: C beats A (110-30), B beats E (120-20), D has the bye. E withdraws. Round 3: D forfeits
# to A, B and C lose both (a game neither moved in), E is absent.
SWISS_RESULTS = [
    Result(1, A, B, (1, 0), True, (100, 40)), Result(1, C, D, (0.5, 0.5), True, (50, 50)), Result(1, E, None, (1, 0)),
    Result(2, A, C, (0, 1), True, (30, 110)), Result(2, B, E, (1, 0), True, (120, 20)), Result(2, D, None, (1, 0)),
    Result(3, A, D, (1, 0), False), Result(3, B, C, (0, 0), False),
]
# By hand. Scores: A 2, B 1, C 1.5, D 1.5, E 1 (bye 1, loss, absent 0). For the opponents' sake
# E's absence counts as a draw (16.3.2): E's adjusted score is 1.5; the others' are their own.
# Contributions (opponent's adjusted score, or the dummy's: the player's own score, at most the
# forfeit opponent's adjusted score, at most 3 rounds x 0.5 = 1.5 for a bye or an absence):
#   A: B 1, C 1.5, forfeit win v D min(2, 1.5) = 1.5            BH 4.0  M1 1.5  SB 1x1 + 1.5x0 + 1.5x1 = 2.5
#   B: A 2, E 1.5, double loss v C min(1, 1.5) = 1 (voluntary)   BH 4.5  M1 cut 1 (VUR), 2 -> 1.5  SB 1.5
#   C: D 1.5, A 2, double loss v B min(1.5, 1) = 1 (voluntary)   BH 4.5  M1 1.5  SB 0.75 + 2 = 2.75
#   D: C 1.5, bye min(1.5, 1.5) = 1.5, forfeit loss v A 1.5 (vol.) BH 4.5  M1 1.5  SB 0.75 + 1.5 = 2.25
#   E: bye min(1, 1.5) = 1, B 1, absent 1 (voluntary)           BH 3.0  M1 1.0  SB 1
# Wins (played or not): A 2, B 1, C 1, D 1 (the bye), E 1 (the bye). Gin points over the games
# played: A 60 - 80 = -20, B -60 + 100 = 40, C 0 + 80 = 80, D 0, E -100.
EXPECTED = {
    A: {"buchholz": 4.0, "median_buchholz": 1.5, "sonneborn_berger": 2.5, "wins": 2, "gin_points": -20},
    B: {"buchholz": 4.5, "median_buchholz": 1.5, "sonneborn_berger": 1.5, "wins": 1, "gin_points": 40},
    C: {"buchholz": 4.5, "median_buchholz": 1.5, "sonneborn_berger": 2.75, "wins": 1, "gin_points": 80},
    D: {"buchholz": 4.5, "median_buchholz": 1.5, "sonneborn_berger": 2.25, "wins": 1, "gin_points": 0},
    E: {"buchholz": 3.0, "median_buchholz": 1.0, "sonneborn_berger": 1.0, "wins": 1, "gin_points": -100},
}
NAMES = ("buchholz", "median_buchholz", "sonneborn_berger", "wins", "gin_points")


def test_swiss_tie_breaks_follow_the_fide_definitions_with_byes_forfeits_a_double_loss_and_a_withdrawal():
    rows = standings(SWISS, RATINGS, SWISS_RESULTS, 3, NAMES)
    assert {row["id"]: row["tie_breaks"] for row in rows} == EXPECTED
    assert {row["id"]: row["score"] for row in rows} == {A: 2, B: 1, C: 1.5, D: 1.5, E: 1}
    by_id = {row["id"]: row for row in rows}
    assert (by_id[A]["played"], by_id[A]["won"], by_id[A]["lost"]) == (2, 1, 1)
    assert (by_id[C]["played"], by_id[C]["drawn"], by_id[D]["byes"]) == (2, 1, 1)


def test_the_swiss_default_tie_breaks_rank_the_example():
    # C and D: 1.5 each, equal Buchholz and median Buchholz: gin points put C first.
    # B and E: 1 each: B's Buchholz 4.5 against E's 3.
    rows = standings(SWISS, RATINGS, SWISS_RESULTS, 3, DEFAULT_TIE_BREAKS[SWISS])
    assert [(row["id"], row["place"]) for row in rows] == [(A, 1), (C, 2), (D, 3), (B, 4), (E, 5)]


# A round robin of four: P beats Q and S, R beats P; Q beats R and S; S beats R.
# Scores: P 2, Q 2, R 1, S 1. Direct encounter: P beat Q, S beat R. Sonneborn-Berger: P 2 + 1 = 3,
# Q 1 + 1 = 2, R 2, S 1.
W, X, Y, Z = 11, 12, 13, 14
ROUND_ROBIN_RESULTS = [Result(1, W, X, (1, 0), True, (120, 60)), Result(1, Y, Z, (0, 1), True, (40, 110)),
                       Result(2, Y, W, (1, 0), True, (105, 90)), Result(2, X, Z, (1, 0), True, (100, 0)),
                       Result(3, W, Z, (1, 0), True, (101, 99)), Result(3, X, Y, (1, 0), True, (130, 20))]
RR_RATINGS = {W: 1500, X: 1500, Y: 1500, Z: 1500}


def test_direct_encounter_and_sonneborn_berger_in_the_order_the_tournament_fixed():
    first = standings(ROUND_ROBIN, RR_RATINGS, ROUND_ROBIN_RESULTS, 3, ("direct_encounter", "sonneborn_berger"))
    assert [(row["id"], row["place"]) for row in first] == [(W, 1), (X, 2), (Z, 3), (Y, 4)]
    assert {row["id"]: row["tie_breaks"]["direct_encounter"] for row in first} == {W: 1, X: 0, Z: 1, Y: 0}
    second = standings(ROUND_ROBIN, RR_RATINGS, ROUND_ROBIN_RESULTS, 3, ("sonneborn_berger", "direct_encounter"))
    assert {row["id"]: row["tie_breaks"]["sonneborn_berger"] for row in second} == {W: 3, X: 2, Y: 2, Z: 1}
    assert [(row["id"], row["place"]) for row in second] == [(W, 1), (X, 2), (Y, 3), (Z, 4)]


def test_direct_encounter_separates_nobody_unless_every_tied_player_met_and_a_tie_left_shares_its_place():
    # A cycle among three (each beat one), all beating the fourth: level on points, on direct
    # encounter (1 each) and Sonneborn-Berger (2 each): their gin points decide, then nothing does.
    results = [Result(1, W, X, (1, 0), True, (100, 50)), Result(1, Y, Z, (1, 0), True, (100, 0)),
               Result(2, X, Y, (1, 0), True, (100, 50)), Result(2, W, Z, (1, 0), True, (100, 0)),
               Result(3, Y, W, (1, 0), True, (100, 50)), Result(3, X, Z, (1, 0), True, (100, 0))]
    rows = standings(ROUND_ROBIN, RR_RATINGS, results, 3, ("direct_encounter", "sonneborn_berger", "gin_points"))
    assert [row["place"] for row in rows] == [1, 1, 1, 4]
    assert {row["tie_breaks"]["direct_encounter"] for row in rows[:3]} == {1}
    assert rows[3]["id"] == Z and rows[3]["tie_breaks"]["direct_encounter"] is None
    # Tied players who never met (a Swiss): direct encounter passes to the next tie-break.
    swiss = standings(SWISS, {A: 1600, B: 1500, C: 1400, D: 1300}, [Result(1, A, B, (1, 0)), Result(1, C, D, (1, 0))],
                      1, ("direct_encounter", "rating"))
    assert [row["id"] for row in swiss] == [A, C, B, D]
    assert [row["tie_breaks"]["direct_encounter"] for row in swiss] == [None] * 4


def test_a_round_robin_counts_forfeits_as_games_in_sonneborn_berger_and_no_points_for_a_rest():
    # Three players; Y withdrew after losing to W: X wins the remaining game by forfeit.
    results = [Result(1, X, W, (0, 1), True, (20, 100)), Result(2, W, Y, (1, 0), True, (100, 10)),
               Result(3, Y, X, (0, 1), False)]
    rows = standings(ROUND_ROBIN, {W: 1500, X: 1500, Y: 1500}, results, 3, ("sonneborn_berger", "gin_points"))
    by_id = {row["id"]: row for row in rows}
    assert (by_id[W]["score"], by_id[X]["score"], by_id[Y]["score"]) == (2, 1, 0)
    assert by_id[X]["tie_breaks"] == {"sonneborn_berger": 0, "gin_points": -80}  # Y's 0 x 1, W's 2 x 0
    assert by_id[W]["tie_breaks"] == {"sonneborn_berger": 1, "gin_points": 170}  # X's 1 x 1 + Y's 0 x 1
    assert by_id[X]["played"] == 1 and by_id[X]["byes"] == 0


def test_a_knockout_ranks_by_the_round_reached_then_its_tie_breaks():
    # Five entrants, a bracket of eight: seeds 1-3 have byes, 4 beats 5. Round 2: 1 beats 4, 3 beats
    # 2. The final: 3 beats 1. Knocked out in round 2, 2 and 4 have a match point each: gin points
    # put 2 (90 - 100) before 4 (100 - 80 + 40 - 110).
    one, two, three, four, five = 1, 2, 3, 4, 5
    results = [Result(1, one, None, (1, 0)), Result(1, two, None, (1, 0)), Result(1, three, None, (1, 0)),
               Result(1, four, five, (1, 0), True, (100, 80)),
               Result(2, one, four, (1, 0), True, (110, 40)), Result(2, two, three, (0, 1), True, (90, 100)),
               Result(3, one, three, (0, 1), True, (60, 101))]
    ratings = {one: 1900, two: 1800, three: 1700, four: 1600, five: 1500}
    rows = standings(KNOCKOUT, ratings, results, 3, ("gin_points", "rating"))
    assert [(row["id"], row["place"]) for row in rows] == [(three, 1), (one, 2), (two, 3), (four, 4), (five, 5)]
    assert rows[2]["tie_breaks"]["gin_points"] == -10 and rows[3]["tie_breaks"]["gin_points"] == -50


def test_formats_refuse_what_does_not_hold_together():
    with pytest.raises(FormatError) as unknown:
        check("ladder", 4, 8, None, 1, 1, "rounds", None)
    assert unknown.value.code == "unknown-format"
    with pytest.raises(FormatError) as too_many:
        check(SWISS, 5, 12, 5, 1, 1, "rounds", None)
    assert (too_many.value.code, too_many.value.field) == ("too-many-rounds", "rounds")
    assert check(SWISS, 5, 12, 4, 1, 1, "rounds", None) == DEFAULT_TIE_BREAKS[SWISS]
    with pytest.raises(FormatError) as buchholz:
        check(ROUND_ROBIN, 3, 8, None, 1, 1, "all_at_once", ["buchholz"])
    assert buchholz.value.code == "invalid-tie-breaks"
    for bad in ((KNOCKOUT, 4, 8, None, 2, 1, "rounds"), (SWISS, 4, 8, 3, 1, 3, "rounds"),
                (KNOCKOUT, 4, 8, None, 1, 3, "all_at_once"), (KNOCKOUT, 2, 8, None, 1, 1, "rounds"),
                (KNOCKOUT, 4, 129, None, 1, 1, "rounds"), (ROUND_ROBIN, 4, 8, 3, 1, 1, "rounds")):
        with pytest.raises(FormatError) as refused:
            check(*bad, None)
        assert refused.value.code == "invalid-tournament"
    assert rounds_for(ROUND_ROBIN, 5, 2) == 10 and rounds_for(ROUND_ROBIN, 6) == 5
    assert rounds_for(KNOCKOUT, 3) == 2 and rounds_for(KNOCKOUT, 128) == 7 and rounds_for(KNOCKOUT, 9) == 4
