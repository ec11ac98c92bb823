"""Tedesco gin (000: "aces can be used high or low, and runs can be formed 'around the corner'
(such as K A 2). If you are caught with an unmelded ace, it counts as 15 points against you."):
the engine's exact search and layoffs against variant_helpers' brute force over random hands."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import Meld, Rules, full_deck, settle_knock
from service.rules.scheme import CardScheme

from .helpers import cards, texts
from .variant_helpers import (brute_variant_deadwood, brute_variant_defence, is_variant_meld,
                              variant_layoffs_fit)

DECK = full_deck()
# Dense around the corner: aces, kings, queens, twos and threes in all suits, or two suits.
POOLS = [DECK,
         [c for c in DECK if c.rank in (1, 2, 3, 11, 12, 13)],
         [c for c in DECK if c.rank in (1, 2, 12, 13) or c.suit == "H"],
         [c for c in DECK if c.suit in "CD"]]
SCHEMES = [("round_the_corner", "ace_15"), ("ace_high_or_low", "ace_15"), ("round_the_corner", "standard"),
           ("ace_high_or_low", "standard"), ("ace_low", "ace_15"), ("round_the_corner", "mahjong")]
HAND_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hands(size):
    return st.sampled_from(POOLS).flatmap(lambda pool: st.lists(st.sampled_from(pool), min_size=size,
                                                                max_size=size, unique=True))


@pytest.mark.parametrize("text, runs", [("KS AS 2S", "round_the_corner"), ("QS KS AS", "round_the_corner"),
                                        ("QS KS AS", "ace_high_or_low"), ("AS 2S 3S", "ace_high_or_low"),
                                        ("JH QH KH AH 2H 3H", "round_the_corner")])
def test_the_texts_runs(text, runs):
    meld = Meld(cards(text), runs)
    assert meld.kind == "run" and is_variant_meld(cards(text), runs)


@pytest.mark.parametrize("text, runs", [("KS AS 2S", "ace_high_or_low"), ("QS KS AS", "ace_low"),
                                        ("KS AS 2S", "ace_low")])
def test_runs_the_option_refuses(text, runs):
    with pytest.raises(ValueError):
        Meld(cards(text), runs)


def test_a_round_the_corner_run_reads_in_playing_order():
    assert str(Meld(cards("2S AS KS"), "round_the_corner")) == "KS AS 2S"


def test_an_unmelded_ace_counts_15():
    tedesco = CardScheme("round_the_corner", "ace_15")
    hand = cards("AS 5C 5D 5H 7C 8C 9C TD JD QD")
    assert tedesco.best(hand).deadwood_points == 15
    assert CardScheme().best(hand).deadwood_points == 1
    # Melded, the ace costs nothing: K-A-2 round the corner.
    assert tedesco.best(cards("KS AS 2S 5C 5D 5H 7C 8C 9C TD")).deadwood_points == 10


@pytest.mark.parametrize("runs, values", SCHEMES)
@HAND_SETTINGS
@given(hand=hands(10))
def test_min_deadwood_of_ten_cards_is_exact(runs, values, hand):
    scheme = CardScheme(runs, values)
    expected = brute_variant_deadwood(hand, runs, values)
    arrangement = scheme.best(hand)
    assert arrangement.deadwood_points == expected == scheme.deadwood(hand)
    used = [c for m in arrangement.melds for c in m]
    assert len(used) == len(set(used)) and set(used) <= set(hand)
    assert all(is_variant_meld(list(m), runs) for m in arrangement.melds)
    assert sorted(arrangement.deadwood) == sorted(set(hand) - set(used))


@pytest.mark.parametrize("runs, values", SCHEMES[:2])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(11))
def test_min_deadwood_of_eleven_cards_is_the_best_discard(runs, values, hand):
    expected = min(brute_variant_deadwood([c for c in hand if c != d], runs, values) for d in hand)
    assert CardScheme(runs, values).min_deadwood(hand) == expected


@pytest.mark.parametrize("runs", ["round_the_corner", "ace_high_or_low"])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(both=hands(20))
def test_the_defenders_layoffs_are_exact(runs, both):
    """Knocker's melds from the first ten cards (their best layout), defender the other ten:
    the engine's best defence equals the brute force over every legal set of layoffs."""
    scheme = CardScheme(runs, "ace_15")
    knocker, defender = both[:10], both[10:]
    melds = scheme.best(knocker).melds
    arrangement, layoffs = scheme.best_defence(melds, defender, layoffs_allowed=True)
    assert variant_layoffs_fit([list(m) for m in melds], layoffs, runs)
    assert arrangement.deadwood_points == brute_variant_defence([list(m) for m in melds], defender, runs, "ace_15")


def test_a_layoff_goes_round_the_corner():
    # Knocker: QS KS AS; the defender's 2S and 3S chain on past the ace.
    rules = Rules.from_options("tedesco_gin")
    result = settle_knock(cards("QS KS AS 5C 5D 5H 7C 8C 9C 4D"), None,
                          cards("2S 3S TH TD 9H 8H 6D 6H JC JD"), rules, knock_limit=10)
    assert result.knocker_points == 4 and texts(result.defender_layoffs) == ["2S", "3S"]
    # The defender melds 8H 9H TH; JC 6D TD JD 6H remain: 42, and the knocker scores 38.
    assert result.defender_points == 42 and (result.result, result.points) == ("knock", 38)
    # Aces low only, the same cards lay nothing off past the ace, and Q-K-A is no meld at all.
    assert settle_knock(cards("5C 5D 5H 7C 8C 9C 4D 3D 2D AD"), None, cards("2S 3S TH TD 9H 8H 6D 6H JC JD"),
                        Rules(), knock_limit=10).defender_layoffs == ()
