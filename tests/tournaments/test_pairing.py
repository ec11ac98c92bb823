"""Swiss pairings over many random tournaments (3 to 128 entrants, withdrawals, odd counts): no repeat
while one is avoidable, at most one bye each while avoidable, score groups respected, first deals
within one of half each player's matches. The checks do not ask pairing.py what is avoidable: they
count it themselves (a maximum matching of the pairs not met yet, every other perfect matching of a
small field, every exchange of partners between two pairs of a large one)."""
from __future__ import annotations

import itertools
import random

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.tournaments.pairing import BYE, Entrant, Pairing, deal_allowed, pair


def fewest_repeats(players: list[Entrant], exclude=None) -> int:
    """The fewest pairs that must repeat a meeting: pairs needed less the largest set of disjoint
    pairs not met yet (the bye, with an odd count, meets no one)."""
    field = [p for p in players if p.id != exclude]
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in field)
    if len(field) % 2:
        graph.add_edges_from((p.id, BYE) for p in field)
    graph.add_edges_from((a.id, b.id) for a, b in itertools.combinations(field, 2) if b.id not in a.opponents)
    needed = (len(field) + 1) // 2
    return needed - len(nx.max_weight_matching(graph, maxcardinality=True))


def repeats(pairings: list[Pairing], by_id) -> int:
    return sum(p.second is not None and p.second in by_id[p.first].opponents for p in pairings)


def cost(pairings: list[Pairing], by_id) -> tuple:
    """The rule's first four criteria as costs: repeats, a second bye, deal drift past 2, score spread."""
    lowest = min(p.score for p in by_id.values()) - 1
    bad_bye = deal = spread = 0
    for p in pairings:
        a = by_id[p.first]
        if p.second is None:
            bad_bye += a.byes > 0
            spread += (a.score - lowest) ** 2
            continue
        b = by_id[p.second]
        deal += not deal_allowed(a, b)
        spread += (a.score - b.score) ** 2
    return repeats(pairings, by_id), bad_bye, deal, spread


def perfect_matchings(ids: list) -> list[list[tuple]]:
    if not ids:
        return [[]]
    first, rest = ids[0], ids[1:]
    found = []
    for index, other in enumerate(rest):
        for tail in perfect_matchings(rest[:index] + rest[index + 1:]):
            found.append([(first, other)] + tail)
    return found


def as_pairings(pairs) -> list[Pairing]:
    return [Pairing(b, None) if a == BYE else Pairing(a, None if b == BYE else b) for a, b in pairs]


def check_round(players: list[Entrant], pairings: list[Pairing]) -> None:
    by_id = {p.id: p for p in players}
    seen = [p.first for p in pairings] + [p.second for p in pairings if p.second is not None]
    assert sorted(seen) == sorted(by_id), "every player still in is paired once, or has the bye"
    assert sum(p.second is None for p in pairings) == len(players) % 2, "one bye exactly when the count is odd"
    made = repeats(pairings, by_id)
    assert made == fewest_repeats(players), "a repeat only when no pairing avoids it"
    [bye] = [p.first for p in pairings if p.second is None] or [None]
    if bye is not None and by_id[bye].byes > 0:  # a second bye: every player without one would cost a repeat
        for p in players:
            if p.byes == 0:
                assert fewest_repeats(players, exclude=p.id) > made, f"{p.id} could have had the bye"
    chosen = cost(pairings, by_id)
    ids = [p.id for p in players] + ([BYE] if len(players) % 2 else [])
    if len(ids) <= 8:  # every pairing there is: none is better on the rule's first four criteria
        assert chosen == min(cost(as_pairings(m), by_id) for m in perfect_matchings(ids))
    else:  # no exchange of partners between two pairs (the bye as a player) does better
        pairs = [(p.first, BYE if p.second is None else p.second) for p in pairings]
        for (a, b), (c, d) in itertools.combinations(pairs, 2):
            others = [q for q in pairs if q not in ((a, b), (c, d))]
            for swapped in (((a, c), (b, d)), ((a, d), (b, c))):
                alternative = cost(as_pairings(others + list(swapped)), by_id)
                assert alternative >= chosen, f"exchanging partners of {a}-{b} and {c}-{d} does better"


def play_swiss(rng: random.Random, entrants: int, rounds: int, withdraw_rate: float) -> dict:
    """A whole Swiss with random results and withdrawals, every round checked; returns the players' state."""
    state = {i: {"score": 0, "rating": rng.randint(1000, 2200), "opponents": set(), "byes": 0, "first": 0,
                 "second": 0} for i in range(1, entrants + 1)}
    active = set(state)
    for number in range(1, rounds + 1):
        players = [Entrant(i, s["score"], s["rating"], frozenset(s["opponents"]), s["byes"], s["first"], s["second"])
                   for i, s in state.items() if i in active]
        pairings = pair(players, number)
        check_round(players, pairings)
        for p in pairings:
            if p.second is None:
                state[p.first]["byes"] += 1
                state[p.first]["score"] += 2
                continue
            a, b = state[p.first], state[p.second]
            a["opponents"].add(p.second)
            b["opponents"].add(p.first)
            a["first"] += 1
            b["second"] += 1
            outcome = rng.random()
            a["score"] += 2 if outcome < 0.45 else 1 if outcome > 0.92 else 0
            b["score"] += 0 if outcome < 0.45 else 1 if outcome > 0.92 else 2
        for s in state.values():  # first deals within one of half the matches
            assert abs(s["first"] - s["second"]) <= 2
        for i in sorted(active):
            if len(active) > 2 and rng.random() < withdraw_rate:
                active.discard(i)
    return state


PROPERTY = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.integers(3, 24), st.integers(0, 2**32), st.sampled_from([0.0, 0.0, 0.05, 0.15]))
def test_small_and_middling_swiss_tournaments_keep_every_pairing_rule(entrants, seed, withdraw_rate):
    rng = random.Random(seed)
    play_swiss(rng, entrants, rng.randint(1, entrants - 1), withdraw_rate)


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(25, 128), st.integers(0, 2**32), st.sampled_from([0.0, 0.03]))
def test_large_swiss_tournaments_keep_every_pairing_rule(entrants, seed, withdraw_rate):
    rng = random.Random(seed)
    play_swiss(rng, entrants, rng.randint(3, 7), withdraw_rate)


def test_swiss_tournaments_of_as_many_rounds_as_allowed_keep_every_pairing_rule():
    """n - 1 rounds, the most a Swiss may have: the late rounds leave few pairs not met yet, where
    a repeat or a second bye may be unavoidable (check_round counts whether it was)."""
    for seed in range(30):
        for entrants in (4, 5, 6, 7, 8):
            play_swiss(random.Random(seed), entrants, entrants - 1, 0.0)


def test_the_first_round_pairs_the_top_half_against_the_bottom_half_and_the_lowest_rated_has_the_bye():
    players = [Entrant(i, rating=2000 - 10 * i) for i in range(1, 10)]
    pairings = pair(players, 1)
    assert {frozenset((p.first, p.second)) for p in pairings[:-1]} == {
        frozenset(pair) for pair in ((1, 5), (2, 6), (3, 7), (4, 8))}
    assert pairings[-1] == Pairing(9, None)
    assert [p.first for p in pairings[:-1]] == [1, 2, 3, 4], "round 1, equal balances: the better-ranked deals first"


def test_the_player_who_dealt_second_more_often_deals_first():
    a = Entrant(1, score=2, opponents=frozenset({3}), first_deals=0, second_deals=1)
    b = Entrant(2, score=2, opponents=frozenset({4}), first_deals=1, second_deals=0)
    c = Entrant(3, opponents=frozenset({1}), first_deals=1)
    d = Entrant(4, opponents=frozenset({2}), second_deals=1)
    pairings = pair([a, b, c, d], 2)
    assert Pairing(1, 2) in pairings and Pairing(4, 3) in pairings


def test_a_round_pairs_the_same_again_from_its_stored_standings():
    rng = random.Random(7)
    players = [Entrant(i, rng.choice([0, 2, 4]), rng.randint(1200, 1800), frozenset(rng.sample(range(1, 15), 3)) - {i},
                       rng.randint(0, 1), rng.randint(0, 2), rng.randint(0, 2)) for i in range(1, 15)]
    stored = [p.to_dict() for p in players]
    assert pair([Entrant.from_dict(d) for d in stored], 4) == pair(players, 4)
