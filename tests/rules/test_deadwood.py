"""min_deadwood and best_arrangement against an exhaustive search written here (RULES.md: the
count is over the arrangement with the lowest deadwood, an exact search)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import Card, Meld, best_arrangement, full_deck, min_deadwood

from .helpers import (all_melds, brute_min_deadwood, brute_min_deadwood_11, cards, is_meld)

DECK = full_deck()
# Dense pools: few ranks in all four suits, or many ranks in two suits, so sets and runs
# compete for the same cards (where greedy searches go wrong).
POOLS = [
    DECK,
    [c for c in DECK if 4 <= c.rank <= 8],
    [c for c in DECK if c.rank <= 6],
    [c for c in DECK if c.suit in "CD"],
    [c for c in DECK if c.suit in "HS" and c.rank >= 6],
    [c for c in DECK if c.rank in (1, 2, 3, 4, 11, 12, 13)],
]

HAND_SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hands(size: int):
    return st.sampled_from(POOLS).flatmap(lambda pool: st.lists(
        st.sampled_from(pool), min_size=size, max_size=size, unique=True))


def check_arrangement(hand, arrangement):
    """The arrangement's melds are valid, disjoint and from the hand; the rest is its deadwood."""
    hand = list(hand)
    used = [c for m in arrangement.melds for c in m]
    assert len(used) == len(set(used)), "a card is in two melds"
    assert set(used) <= set(hand), "a meld card is not in the hand"
    for meld in arrangement.melds:
        assert is_meld(list(meld)), f"not a meld: {meld}"
        assert isinstance(meld, Meld)
    assert sorted(arrangement.deadwood) == sorted(set(hand) - set(used))
    assert arrangement.deadwood_points == sum(c.points for c in arrangement.deadwood)


def test_brute_force_sees_every_sub_meld():
    # Our reference must itself enumerate sub-runs and 3-subsets of a 4-set.
    melds = all_melds(cards("5C 6C 7C 8C 5D 5H 5S"))
    assert len([m for m in melds if len(m) == 3 and len({c.rank for c in m}) == 1]) == 4
    assert frozenset(cards("6C 7C 8C")) in melds and frozenset(cards("5C 6C 7C 8C")) in melds
    assert brute_min_deadwood(cards("7C 7D 7H 8H 9H")) == 14


@pytest.mark.parametrize("text, expected", [
    ("AS 2S 3S 4H 4D 4C 9C TC JC KD", 10),  # the example of docs/engine.md: KD left
    ("7C 7D 7H 7S 5C 6C 8C 9C 5D 5H", 0),   # 5C 5D 5H, 6C-9C, 7D 7H 7S (not 5C-9C + 7s: 10)
    ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC", 0),
    ("AC AD AH 2C 3C 2D 3D KS QS JS", 1),   # two A-2-3 runs and J-Q-K beat the set of aces
    ("QC KC AC 2C 3C 4D 5D 6D 7H 8S", 35),  # Q-K-A(-2-3) does not go round the corner
])
def test_hand_picked_ten_card_hands(text, expected):
    hand = cards(text)
    assert brute_min_deadwood(hand) == expected
    assert min_deadwood(hand) == expected
    assert best_arrangement(hand).deadwood_points == expected


def test_conflict_card_goes_where_it_saves_most():
    # 7C 8C 9C run or 7C 7D 7H set: both valid, the set leaves 8C 9C (17), the run 7D 7H (14).
    arrangement = best_arrangement(cards("7C 7D 7H 8C 9C"))
    assert arrangement.deadwood_points == 14
    assert [str(m) for m in arrangement.melds] == ["7C 8C 9C"]


def test_four_set_split_into_a_three_set_and_a_run():
    # 4C 4D 4H 4S with 5S 6S: 4S to the run, the other three stay a set: gin for these 6 cards.
    arrangement = best_arrangement(cards("4C 4D 4H 4S 5S 6S"))
    assert arrangement.deadwood_points == 0
    check_arrangement(cards("4C 4D 4H 4S 5S 6S"), arrangement)


def test_ace_is_low_only():
    assert best_arrangement(cards("QH KH AH")).deadwood_points == 21
    assert best_arrangement(cards("AH 2H 3H")).deadwood_points == 0


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 7, 9, 12])
def test_best_arrangement_takes_any_number_of_cards(size):
    hand = [c for c in DECK if c.suit in "CD" and c.rank <= 7][:size]
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood_points == brute_min_deadwood(hand)


@HAND_SETTINGS
@given(hands(10))
def test_min_deadwood_of_ten_cards_is_exact(hand):
    expected = brute_min_deadwood(hand)
    assert min_deadwood(hand) == expected
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood_points == expected


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(11))
def test_min_deadwood_of_eleven_cards_is_the_best_discard(hand):
    assert min_deadwood(hand) == brute_min_deadwood_11(hand)
    # best_arrangement on 11 cards discards nothing: it arranges all 11.
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood_points == brute_min_deadwood(hand)


@settings(max_examples=60, deadline=None)
@given(hands(10), st.permutations(range(10)))
def test_order_and_text_form_do_not_matter(hand, order):
    shuffled = [hand[i] for i in order]
    assert min_deadwood(shuffled) == min_deadwood(hand)
    assert min_deadwood([str(c) for c in shuffled]) == min_deadwood(hand)
    # Fresh equal Card objects give the same answer.
    assert min_deadwood([Card(c.rank, c.suit) for c in shuffled]) == min_deadwood(hand)
