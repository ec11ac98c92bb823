"""Worked examples with numbers from the source texts in docs/rules/seeds/, reproduced exactly.

003 writes some cards in Polish letters: D (dama) = queen, W (walet) = jack."""
import pytest

from service.rules import Discard, Draw, IllegalAction, Knock, Pass, Rules, best_arrangement, settle_knock

from .helpers import cards, dealt, new_match, build_deck, texts


def settle(knocker, melds, defender, **options):
    rules = Rules.from_options(**options) if options else None
    return settle_knock(cards(knocker), melds, cards(defender), rules)


# -- 003: "If knocking player has less points of deadwood ..." -------------------------------

def test_003_scoring_example_1_knock_worth_22():
    # Text: A holds 5H 5D 5C 5S 7C 8C 9C 10C AH 7D (8: AH 7D); B holds JC JS JD 10C 10S 10D QH QD
    # 2S 8S (30: QH QD 2S 8S); A wins 22. The text deals 10C to both players. We give the
    # defender TH in its place (unrelated to the knocker's cards; it keeps B's three tens a set).
    knocker = "5H 5D 5C 5S 7C 8C 9C TC AH 7D"
    defender = "JC JS JD TH TS TD QH QD 2S 8S"
    for melds in ([["5H", "5D", "5C", "5S"], ["7C", "8C", "9C", "TC"]], None):
        result = settle(knocker, melds, defender)
        assert result.knocker_points == 8
        assert sorted(texts(result.knocker_deadwood)) == ["7D", "AH"]
        assert result.defender_points == 30
        assert sorted(texts(result.defender_deadwood)) == ["2S", "8S", "QD", "QH"]
        assert (result.result, result.winner, result.points) == ("knock", "knocker", 22)


def test_003_scoring_example_2_knock_worth_5_after_a_layoff():
    # Text: A holds QH QD QC QS 3C 4C 5C 6C 3H 7D (10: 3H 7D); B holds 4D 4S 4H 10C JC QC 7C KH 5S
    # and lays off 7C onto A's run: KH 5S = 15; A wins 5. The text gives QC to both players. We give
    # the defender 9C in its place (unrelated to the knocker; it keeps B's clubs a run, 9C 10C JC).
    # B's hand is as the text lists it: nine cards.
    knocker = "QH QD QC QS 3C 4C 5C 6C 3H 7D"
    defender = "4D 4S 4H TC JC 9C 7C KH 5S"
    for melds in ([["QH", "QD", "QC", "QS"], ["3C", "4C", "5C", "6C"]], None):
        result = settle(knocker, melds, defender)
        assert result.knocker_points == 10
        assert texts(result.defender_layoffs) == ["7C"]
        assert sorted(texts(result.defender_deadwood)) == ["5S", "KH"]
        assert result.defender_points == 15
        assert (result.result, result.winner, result.points) == ("knock", "knocker", 5)


def test_003_knocking_example_1_may_knock_with_7():
    # 4D 4S 4H 10C JC QC KC 2H 5S (as listed: nine cards): deadwood 2H 5S = 7.
    arrangement = best_arrangement(cards("4D 4S 4H TC JC QC KC 2H 5S"))
    assert arrangement.deadwood_points == 7
    assert sorted(texts(arrangement.deadwood)) == ["2H", "5S"]


def test_003_knocking_example_2_may_not_knock_with_16():
    hand = "2D 3D 4D 5D 6D 7D AC 2S 3H JC"
    arrangement = best_arrangement(cards(hand))
    assert arrangement.deadwood_points == 16
    assert sorted(texts(arrangement.deadwood)) == ["2S", "3H", "AC", "JC"]
    # In play: holding these ten and drawing KS, no knock is possible.
    match = dealt(hand, "KH QS JD TC 8H 6S 4H 2H KD QH", "9C", stock="KS", first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, Pass())
    match.apply(1, Draw("stock"))
    assert not any(isinstance(a, Knock) for a in match.legal_actions(1))
    with pytest.raises(IllegalAction) as info:
        match.apply(1, Knock(cards("KS")[0]))
    assert info.value.code == "deadwood-over-limit"


# -- 000 (Wikipedia) -------------------------------------------------------------------------

def test_000_knock_with_8_against_10_after_layoffs_scores_2():
    # "if a player knocks with 8, and the defender has 10 deadwood points in their hand after
    # laying off, the knocking player receives 2 points". Defender: 16 before laying off 6C.
    knocker = "5H 5D 5C 5S 7C 8C 9C TC AH 7D"
    defender = "JS JD JH JC 2S 3S 4S 6C 3D 7H"
    assert best_arrangement(cards(defender)).deadwood_points == 16
    result = settle(knocker, None, defender)
    assert (result.knocker_points, result.defender_points) == (8, 10)
    assert "6C" in texts(result.defender_layoffs)
    assert (result.result, result.winner, result.points) == ("knock", "knocker", 2)


def test_000_fourth_king_laid_off_reduces_deadwood_by_10():
    knocker = "KC KD KH 2C 3C 4C 6D 7D 8D AS"
    defender = "KS QH JH 9S 7S 5H 3H 2S 9C TD"
    before = best_arrangement(cards(defender)).deadwood_points
    result = settle(knocker, None, defender)
    assert texts(result.defender_layoffs) == ["KS"]
    assert result.defender_points == before - 10 == 65
    assert result.points == 65 - 1


@pytest.mark.parametrize("hand, deadwood", [
    ("7C 7H 7D 8D 9D", 14),        # 000: the seven of diamonds in the set or the run, not both
    ("7C 7S 7H 8H 9H", 14),        # 001: the 7H either way ...
    ("7C 7S 7H 8H 9H 7D", 0),      # ... "to form a set AND a sequence you would need a sixth
    ("7C 7S 7H 8H 9H TH", 0),      # card - either a 7 or a 10"
    ("AC 2C 3C", 0),               # 001: "AC 2 3 is a valid sequence but AC K Q is not"
    ("AC KC QC", 21),
])
def test_000_and_001_intersecting_melds(hand, deadwood):
    assert best_arrangement(cards(hand)).deadwood_points == deadwood


# -- 001 (pagat-style text) ------------------------------------------------------------------

def test_001_no_layoff_onto_the_knockers_deadwood():
    # "if the knocker has a pair of Twos as deadwood and the opponent has a third Two, this cannot
    # be laid off on the Twos to make a set"
    result = settle("2C 2D 5H 6H 7H 9S TS JS QS AC", None, "2H KD QC JD 9C 7C 4D 3S AH 6S")
    assert result.knocker_points == 5
    assert result.defender_layoffs == ()
    assert result.defender_points == 62


def test_001_classic_undercut_and_gin_bonuses():
    classic = dict(preset="classic")
    # "the knocker's opponent scores the difference between the counts plus a 10 point bonus"
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", None, "4S 5S 6S JC QC KC 8H 8C 8S 7H", **classic)
    assert (result.result, result.points) == ("undercut", 3 + 10)
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", None, "4S 5S 6S JC QC KC 8H 8C 8S TD", **classic)
    assert (result.result, result.points) == ("undercut", 10)  # equal counts: undercut too
    # "a player who goes gin can never be undercut - even if the other player has no unmatched
    # cards at all, the person who going gin gets the 20 point bonus and the other player scores nothing"
    result = settle("AC 2C 3C 4C 5D 6D 7D 9H 9S 9D", None, "5S 6S 7S JC QC KC 8H 8C 8D 8S", **classic)
    assert result.defender_points == 0
    assert (result.result, result.winner, result.points) == ("gin", "knocker", 20)


# -- 002 ---------------------------------------------------------------------------------------

def test_002_equal_counts_undercut_scores_the_20_bonus_but_nothing_for_the_difference():
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", None, "4S 5S 6S JC QC KC 8H 8C 8S TD",
                    undercut_bonus=20)
    assert (result.knocker_points, result.defender_points) == (10, 10)
    assert (result.result, result.winner, result.points) == ("undercut", "defender", 20)


def test_002_the_player_drawing_the_fiftieth_card_ends_the_hand_by_discarding():
    # 20 dealt + the upcard + 29 stock draws = 50 cards; that discard (no knock) abandons the hand.
    match = dealt("KH QS JD TC 8H 6S 4H 2D KD QH", "AC 2C 3C 4C 5D 6D 7D 9H 9S KS", "QC", first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, Pass())
    draws = 0
    while True:
        seat = match.to_move
        before = set(match.view(seat)["hand"])
        match.apply(seat, Draw("stock"))
        draws += 1
        drawn = (set(match.view(seat)["hand"]) - before).pop()
        events = match.apply(seat, Discard(cards(drawn)[0]))
        if events[-1]["type"] == "hand_void":
            break
        assert draws < 29
    assert draws == 29 and 21 + draws == 50
    assert match.needs_deal


# -- 004 ---------------------------------------------------------------------------------------

def test_004_gin_scores_25_plus_the_opponents_unmatched_cards():
    result = settle("AC 2C 3C 4C 5D 6D 7D 9H 9S 9D", None, "KH QS JD TC 8H 6S 4H 2D KS QH")
    assert (result.result, result.points) == ("gin", 25 + 80)


def test_004_same_or_more_than_opponent_gives_difference_plus_25():
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", None, "4S 5S 6S JC QC KC 8H 8C 8S 7H")
    assert (result.result, result.winner, result.points) == ("undercut", "defender", 3 + 25)


def test_004_box_20_and_schneider_100():
    # "A bonus of 20 points is given to each player for each box scored. If the losing player fails
    # to score any points in a game, the winner scores a 'Schneider' ... bonus of 100 points."
    # 004 has no game bonus: game_bonus 0. One gin of 105 ends a game to 100.
    match = new_match(first_dealer=0, box_bonus=20, shutout="plus_100", game_bonus=0)
    match.deal(build_deck("AC 2C 3C 4C 5D 6D 7D 9H 9S 9D", "KH QS JD TC 8H 6S 4H 2D KS QH", "8C", "5S"))
    match.apply(1, Pass())
    match.apply(0, Pass())
    match.apply(1, Draw("stock"))
    events = match.apply(1, Knock(cards("5S")[0]))
    assert match.is_over and match.winner == 1
    result = events[-1]["result"]
    assert result["totals"] == [0, 105 + 20 + 100]
    assert result["margin"] == 225
