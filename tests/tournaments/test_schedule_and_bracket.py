"""Round robins by FIDE's Berger tables, and knockout brackets for every entrant count 3 to 128."""
from __future__ import annotations

import itertools

import pytest

from service.tournaments import bracket, schedule

# FIDE Handbook C.05, annex 1 (Berger tables), copied by hand: white (here, the first deal) first.
FIDE_BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3", "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"],
}


@pytest.mark.parametrize("players", sorted(FIDE_BERGER))
def test_the_berger_tables_are_fides(players):
    expected = [[tuple(int(n) for n in pair.split("-")) for pair in row.split()] for row in FIDE_BERGER[players]]
    assert schedule.rounds(players) == expected


@pytest.mark.parametrize("players", range(3, 31))
@pytest.mark.parametrize("cycles", [1, 2])
def test_every_two_players_meet_once_a_cycle_and_first_deals_balance(players, cycles):
    rounds = schedule.rounds(players, cycles)
    per_cycle = players - 1 if players % 2 == 0 else players
    assert len(rounds) == cycles * per_cycle
    met, first = {}, {p: 0 for p in range(1, players + 1)}
    for round_pairs in rounds:
        seen = [p for pair in round_pairs for p in pair if p is not None]
        assert sorted(seen) == list(range(1, players + 1)), "each player once a round"
        assert sum(b is None for _, b in round_pairs) == players % 2, "one rests in each round of an odd count"
        for a, b in round_pairs:
            if b is not None:
                met.setdefault(frozenset((a, b)), []).append(a)
                first[a] += 1
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(range(1, players + 1), 2)}
    for pair, dealers in met.items():
        assert len(dealers) == cycles
        if cycles == 2:
            assert set(dealers) == set(pair), "the second cycle swaps the first deal"
    played = per_cycle - players % 2  # matches each player plays a cycle
    for p, count in first.items():
        assert abs(2 * count - cycles * played) <= cycles, f"player {p}: {count} first deals of {cycles * played}"


@pytest.mark.parametrize("entrants", range(3, 129))
def test_a_knockout_bracket_for_every_entrant_count(entrants):
    size = bracket.size(entrants)
    assert size >= entrants > size // 2
    assert bracket.round_count(entrants) == size.bit_length() - 1
    slots = bracket.first_round(entrants)
    assert len(slots) == size // 2
    seeds = [s for slot in slots for s in slot if s is not None]
    assert sorted(seeds) == list(range(1, entrants + 1)), "every entrant once in round 1"
    byes = sorted(a for a, b in slots if b is None)
    assert byes == list(range(1, size - entrants + 1)), "the byes go to the top seeds"
    for a, b in slots:
        assert b is None or a + b == size + 1, "seed s meets seed size + 1 - s"
    # Seeds 1..2^k sit in different parts of 2^k: they can meet only when the field is down to 2^k.
    order = [a for a, _ in slots]
    for part in (2, 4, 8, 16, 32, 64):
        if part <= size // 2:
            width = len(order) // part
            top = [min(order[i * width:(i + 1) * width]) for i in range(part)]
            assert sorted(top) == list(range(1, part + 1))
    # Played out, the better seed winning: the bracket ends with one winner, n - 1 matches or byes decided.
    decided, current = 0, slots
    while True:
        winners = bracket.winners_of(current, {(a, b): min(a, b) for a, b in current if b is not None})
        decided += sum(b is not None for _, b in current)
        if len(winners) == 1:
            break
        current = bracket.next_round(winners)
    assert winners == [1] and decided == entrants - 1


def test_a_double_loss_gives_the_next_opponent_a_walkover():
    slots = bracket.first_round(4)  # (1, 4), (2, 3)
    winners = bracket.winners_of(slots, {(1, 4): None, (2, 3): 3})
    assert winners == [None, 3]
    assert bracket.next_round(winners) == [(3, None)]
    assert bracket.winners_of([(3, None)], {}) == [3]


def test_the_bracket_as_data_fills_each_later_slot_from_the_two_that_feed_it():
    """Six entrants: a bracket of 8, 3 rounds. With round 1 paired (byes to seeds 1 and 2) and one
    of its matches decided, round 2 shows who is known to be there and the final nobody yet."""
    first = bracket.first_round(6)  # (1, None), (4, 5), (2, None), (3, 6)
    played = {(1, board): (a, b, a if b is None else None, b is None) for board, (a, b) in enumerate(first, 1)}
    played[(1, 2)] = (4, 5, 5, True)  # seed 5 beat seed 4
    layout = bracket.layout(3, played)
    assert [len(r) for r in layout] == [4, 2, 1]
    assert [(s["first"], s["second"], s["winner"]) for s in layout[0]] == [(1, None, 1), (4, 5, 5), (2, None, 2),
                                                                          (3, 6, None)]
    assert [(s["first"], s["second"], s["fed_by"]) for s in layout[1]] == [(1, 5, [1, 2]), (2, None, [3, 4])]
    assert [(s["first"], s["second"], s["decided"]) for s in layout[2]] == [(None, None, False)]
    assert [bracket.round_name(n, 3) for n in (1, 2, 3)] == ["Quarter-finals", "Semi-finals", "Final"]
    assert bracket.round_name(1, 5) == "Round 1"


def test_a_paired_slot_is_shown_as_paired_a_walkover_included():
    """Once a round is paired its stored slots stand, a walkover after a double loss among them."""
    played = {(1, 1): (1, 4, None, True), (1, 2): (2, 3, 3, True), (2, 1): (3, None, 3, True)}
    final = bracket.layout(2, played)[1][0]
    assert (final["first"], final["second"], final["winner"], final["decided"]) == (3, None, 3, True)
