"""The engine's hot path (service/rules/deadwood.py, on suit masks and per-suit tables) against
the plain brute force of variant_helpers (every combination of disjoint melds), under every
`runs` and `card_values` option of RULES.md: 10 cards, 11 cards after the best discard, the
deadwood after each discard, and the best arrangement."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import Card, full_deck, min_deadwood
from service.rules.deadwood import lowest, lowest_after_discard, tables_for
from service.rules.melds import hand_masks, suit_masks
from service.rules.runs import RUN_KINDS, VALUE_KINDS
from service.rules.scheme import CardScheme

from .helpers import cards
from .variant_helpers import brute_variant_deadwood, is_variant_meld, value

DECK = full_deck()
SCHEMES = [(runs, values) for runs in RUN_KINDS for values in VALUE_KINDS]
# Dense pools: sets and runs compete for the cards (several ranks held three and four times,
# long runs, aces and kings round the corner).
POOLS = [
    DECK,
    [c for c in DECK if c.rank in (1, 2, 3, 4, 12, 13)],
    [c for c in DECK if 4 <= c.rank <= 8],
    [c for c in DECK if c.rank in (1, 2, 3, 11, 12, 13) or c.suit == "H"],
    [c for c in DECK if c.suit in "CD"],
]


def hands(size):
    return st.sampled_from(POOLS).flatmap(lambda pool: st.lists(st.sampled_from(pool), min_size=size,
                                                                max_size=size, unique=True))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scheme=st.sampled_from(SCHEMES), hand=hands(10))
def test_ten_cards_and_their_arrangement_equal_the_brute_force(scheme, hand):
    runs, values = scheme
    expected = brute_variant_deadwood(hand, runs, values)
    assert lowest(*suit_masks(hand), tables_for(runs, values)) == expected
    arrangement = CardScheme(runs, values).best(hand)
    assert arrangement.deadwood_points == expected
    used = [c for m in arrangement.melds for c in m]
    assert len(used) == len(set(used)) and set(used) <= set(hand)
    assert all(is_variant_meld(list(m), runs) for m in arrangement.melds)
    assert sorted(arrangement.deadwood) == sorted(set(hand) - set(used))
    assert arrangement.deadwood_points == sum(value(c, values) for c in arrangement.deadwood)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scheme=st.sampled_from(SCHEMES), hand=hands(11))
def test_eleven_cards_after_each_discard_equal_the_brute_force(scheme, hand):
    runs, values = scheme
    after_each = [brute_variant_deadwood([c for c in hand if c != card], runs, values) for card in hand]
    assert lowest_after_discard(*suit_masks(hand), tables_for(runs, values)) == min(after_each)
    assert CardScheme(runs, values).min_deadwood(hand) == min(after_each)
    assert CardScheme(runs, values).deadwood_after_discards(hand) == after_each


@pytest.mark.parametrize("text, runs, values, expected", [
    ("QS KS AS 2S 3S", "ace_high_or_low", "standard", 5),    # Q K A or A 2 3, not both: 2S 3S left
    ("QS KS AS 2S 3S", "round_the_corner", "standard", 0),   # one run round the corner
    ("QS KS AS 2S 3S", "ace_low", "ace_15", 20),             # only A 2 3; Q K left
    ("AC AD AH AS 2S 3S KS QS", "ace_high_or_low", "ace_15", 5),  # three aces and Q K A: 2S 3S left
    ("AC AD AH QS KS", "round_the_corner", "mahjong", 20),   # a set of aces: Q K left (10 each)
])
def test_hand_picked_schemes(text, runs, values, expected):
    hand = cards(text)
    assert lowest(*suit_masks(hand), tables_for(runs, values)) == expected
    assert CardScheme(runs, values).best(hand).deadwood_points == expected
    assert brute_variant_deadwood(hand, runs, values) == expected


def test_the_edge_checks_the_cards_once():
    hand = cards("AS 2S 3S 4H 4D 4C 9C TC JC KD")
    assert hand_masks(hand) == hand_masks([str(c) for c in hand]) == hand_masks(iter(hand)) == suit_masks(hand)
    assert min_deadwood([str(c) for c in hand[:5]] + hand[5:]) == 10
    with pytest.raises(ValueError, match="9C is given twice"):
        min_deadwood(hand[:9] + [Card(9, "C")])
    with pytest.raises(ValueError, match="not a card"):
        min_deadwood(hand[:9] + ["1X"])
    with pytest.raises(ValueError, match="10 or 11"):
        min_deadwood(hand[:9])
    with pytest.raises(ValueError, match="AS is given twice"):
        CardScheme("round_the_corner", "ace_15").min_deadwood(hand[:9] + [hand[0]])
