"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system", 2013) and a hand
computation of one match between two new players."""
from __future__ import annotations

import math

import pytest

from service.rules.glicko2 import Rating, rate


def test_the_papers_worked_example():
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    # The paper rounds its intermediate values and prints 1464.06; computed unrounded it is 1464.0507.
    assert after.value == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_one_match_between_two_new_players_by_hand():
    # Steps 2 to 8 for 1500/350/0.06 beating 1500/350: mu = 0, phi = 350 / 173.7178.
    phi = 350 / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi ** 2 / math.pi ** 2)
    v = 1 / (g * g * 0.5 * 0.5)  # E = 1/2 between equal ratings
    # The volatility barely moves in one game (tau 0.5): take it as found, then steps 6 to 8.
    winner = rate(Rating(), [(Rating(), 1.0)])
    phi_new = 1 / math.sqrt(1 / (phi ** 2 + winner.volatility ** 2) + 1 / v)
    assert winner.deviation == pytest.approx(173.7178 * phi_new)
    assert winner.value == pytest.approx(1500 + 173.7178 * phi_new ** 2 * g * 0.5)
    assert (round(winner.value, 2), round(winner.deviation, 2)) == (1662.31, 290.32)
    assert winner.volatility == pytest.approx(0.06, abs=0.00001)
    loser = rate(Rating(), [(Rating(), 0.0)])
    assert loser.value == pytest.approx(3000 - winner.value) and loser.deviation == pytest.approx(winner.deviation)


def test_no_games_only_widen_the_deviation():
    after = rate(Rating(1600, 100, 0.06), [])
    assert after.value == 1600 and after.deviation == pytest.approx(math.sqrt(100 ** 2 + (0.06 * 173.7178) ** 2))
