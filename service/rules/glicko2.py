"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation and
its volatility, updated once per rating period from the games played in it. The service rates
each two-seat match as a period of its own. Pure arithmetic: no clock, no randomness."""
from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # the Glicko-2 scale's unit, in rating points
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
TAU = 0.5  # the system constant: how much the volatility may change in one period
_EPSILON = 0.000001  # the paper's convergence tolerance for the new volatility


@dataclass(frozen=True)
class Rating:
    value: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one period; `games` are (opponent's rating before, score) with
    score 1 for a win, 0.5 a draw, 0 a loss. No games: only the deviation grows (step 6)."""
    mu, phi, sigma = (player.value - START_RATING) / SCALE, player.deviation / SCALE, player.volatility
    if not games:
        return Rating(player.value, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    terms = []
    for opponent, score in games:
        mu_j, phi_j = (opponent.value - START_RATING) / SCALE, opponent.deviation / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement
    sigma = _new_volatility(phi, sigma, v, delta, tau)
    # Steps 6 to 8: the pre-period deviation, then the new deviation and rating, back on the Glicko scale.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu = mu + phi * phi * improvement
    return Rating(SCALE * mu + START_RATING, SCALE * phi, sigma)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)


SETTLED_OPPONENT = Rating(START_RATING, 100.0, START_VOLATILITY)  # a regular's deviation, for estimates


def games_to_settle(player: Rating, at_most: float, opponent: Rating = SETTLED_OPPONENT, limit: int = 200) -> int:
    """About how many more rated matches, each a period of its own, bring the deviation to `at_most`
    or less: matches against an equal opponent whose rating is settled, won and lost in turn (what
    the leaderboard's rule tells a newcomer; against new players it takes longer). 0 when it is there."""
    for played in range(limit + 1):
        if player.deviation <= at_most:
            return played
        player = rate(player, [(Rating(player.value, opponent.deviation, opponent.volatility), played % 2)])
    return limit
