"""RULES.md 'After a knock' and 'Scoring a hand': layouts, layoffs and every scoring row."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import (Discard, Draw, IllegalAction, Knock, Meld, Pass, Rules, action_from_dict,
    best_arrangement, full_deck, parse_cards, settle_knock)

from .helpers import (brute_defender_points, brute_min_deadwood, cards, dealt, is_meld, layoffs_fit,
                      texts)

LOSER = "KH QS JD TC 8H 6S 4H 2D KS QH"   # no meld, nothing to lay off on the hands below: 80


def settle(knocker, defender, melds=None, **options):
    rules = Rules.from_options(**options) if options else None
    return settle_knock(cards(knocker), melds, cards(defender), rules)


def melds_text(result_melds):
    return sorted(str(m) for m in result_melds)


# -- scoring rows ------------------------------------------------------------------------------

def test_knock_row_knocker_scores_the_difference():
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D 3H", LOSER)
    assert (result.knocker_points, result.defender_points) == (3, 80)
    assert (result.result, result.winner, result.points) == ("knock", "knocker", 77)


def test_undercut_row_defender_scores_difference_plus_25():
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", "4S 5S 6S JC QC KC 8H 8C 8S 2H")
    assert (result.knocker_points, result.defender_points) == (10, 2)
    assert (result.result, result.winner, result.points) == ("undercut", "defender", 8 + 25)


def test_undercut_on_equal_counts():
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", "4S 5S 6S JC QC KC 8H 8C 8S TD")
    assert (result.knocker_points, result.defender_points) == (10, 10)
    assert (result.result, result.winner, result.points) == ("undercut", "defender", 25)


def test_no_undercut_on_a_tie_when_undercut_on_tie_is_false():
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", "4S 5S 6S JC QC KC 8H 8C 8S TD", undercut_on_tie=False)
    assert (result.result, result.winner, result.points) == ("tie", None, 0)
    # A real undercut still is one.
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", "4S 5S 6S JC QC KC 8H 8C 8S 2H", undercut_on_tie=False)
    assert (result.result, result.points) == ("undercut", 33)


@pytest.mark.parametrize("bonus", [10, 20, 25])
def test_undercut_bonus_option(bonus):
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", "4S 5S 6S JC QC KC 8H 8C 8S 2H", undercut_bonus=bonus)
    assert result.points == 8 + bonus


def test_undercut_through_layoffs():
    # Defender 4C 8D lay off (AC-3C and 5D-7D): 21 -> 9, under the knocker's 10.
    result = settle("AC 2C 3C 5D 6D 7D 9H 9S 9D TH", "4C 8D 4S 5S 6S JC QC KC 8H 9C")
    assert sorted(texts(result.defender_layoffs)) == ["4C", "8D", "9C"]
    assert result.defender_points == 8
    assert (result.result, result.winner, result.points) == ("undercut", "defender", 2 + 25)


@pytest.mark.parametrize("options, bonus", [({}, 25), ({"gin_bonus": 20}, 20)])
def test_gin_row(options, bonus):
    result = settle("AC 2C 3C 4C 5D 6D 7D 9H 9S 9D", LOSER, **options)
    assert (result.result, result.winner, result.points) == ("gin", "knocker", bonus + 80)
    assert result.knocker_points == 0


def test_gin_is_never_undercut_and_takes_no_layoffs():
    # The defender is all melded as well, and could lay off 5C, 8D, 9C: gin still wins, 25 + 0.
    result = settle("AC 2C 3C 4C 5D 6D 7D 9H 9S 9C", "5C 6C 7C 8D 9D TD JD QH KH JH")
    assert result.defender_layoffs == ()
    assert (result.result, result.winner, result.points) == ("gin", "knocker", 25 + 0)


# -- layoffs -----------------------------------------------------------------------------------

def test_layoffs_chain_along_a_run_at_both_ends_and_a_fourth_card_onto_a_set():
    result = settle("5H 6H 7H KC KD KS 2C 3C 4C AD", "8H 9H 4H 3H KH QC JD TS 9S 2D")
    assert sorted(texts(result.defender_layoffs)) == ["3H", "4H", "8H", "9H", "KH"]
    assert result.defender_points == 10 + 10 + 10 + 9 + 2
    assert layoffs_fit(result.knocker_melds, result.defender_layoffs)
    assert (result.result, result.points) == ("knock", 41 - 1)


def test_no_layoff_onto_a_four_card_set_or_deadwood_and_no_gap():
    # Knocker: four kings (full), 2C 2D as deadwood, run 5H-7H. Defender's 2H has nowhere to go;
    # 9H would need 8H first.
    result = settle("KC KD KH KS 5H 6H 7H 2C 2D AS", "2H 9H QC JD TS 9S 4D 3S 8C 6C")
    assert result.defender_layoffs == ()
    assert result.defender_points == sum(c.points for c in cards("2H 9H QC JD TS 9S 4D 3S 8C 6C"))


def test_defender_keeps_own_meld_when_that_beats_laying_off():
    # 8H could extend the knocker's 5H-7H, but it is worth more in the defender's 8H 8C 8S.
    result = settle("5H 6H 7H KC KD KS 2C 3C 4C AD", "8H 8C 8S QC JD TH 9D 2D 3D 4S")
    assert result.defender_layoffs == ()
    assert melds_text(result.defender_melds) == ["8C 8H 8S"]
    assert result.defender_points == 48


def test_a_card_from_a_long_own_run_may_go_either_way():
    # 8S may stay in the defender's 5S-8S or be laid off onto the knocker's 9S-JS (5S-7S stays a
    # run): the count is QC JD 6D = 26 either way, and whatever is laid off must fit.
    result = settle("9S TS JS KC KD KH 2C 3C 4C AD", "5S 6S 7S 8S QC JD 2H 3H 4H 6D")
    assert result.defender_points == 10 + 10 + 6
    assert layoffs_fit(result.knocker_melds, result.defender_layoffs)


# -- the knocker's layout -------------------------------------------------------------------

def test_engine_layout_ties_go_to_fewest_hidden_layoff_spots():
    # 5-6-7 of clubs, diamonds and spades: three sets or three runs, both leaving AS (1).
    # Sets leave 3 spots (the three missing hearts), runs 6 (4 and 8 of each suit): sets, even though
    # this defender holds 5H and 7H (the engine judges only on what the knocker knows).
    result = settle("5C 6C 7C 5D 6D 7D 5S 6S 7S AS", "5H 7H 2C 2D 9H JC QH KD TD 3S")
    assert melds_text(result.knocker_melds) == ["5C 5D 5S", "6C 6D 6S", "7C 7D 7S"]
    assert sorted(texts(result.defender_layoffs)) == ["5H", "7H"]


def knock_after_seeing(stock_cards):
    """Non-dealer holds the 5-6-7 block + AS; six cards pass through the discard pile (the upcard
    4C and the five in `stock_cards`); then the non-dealer draws KH and knocks with it."""
    match = dealt("5C 6C 7C 5D 6D 7D 5S 6S 7S AS", "5H 7H 2C 2D 9H JC QH KD TD 3S", "4C",
                  stock=stock_cards + " KH", first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, Pass())
    for card in cards(stock_cards):
        seat = match.to_move
        match.apply(seat, Draw("stock"))
        match.apply(seat, Discard(card))
    match.apply(1, Draw("stock"))
    events = match.apply(1, Knock(cards("KH")[0]))
    return [e for e in events if e["type"] == "hand_end"][0]["record"]


def test_engine_layout_uses_what_the_knocker_has_seen():
    # Every run spot (4 and 8 of clubs, diamonds, spades) went through the discard pile: runs now
    # leave 0 hidden spots, sets 3 -> runs. The defender's 5H 7H then have nowhere to go.
    record = knock_after_seeing("4D 4S 8C 8D 8S JH")
    assert sorted(map(" ".join, record["knocker_melds"])) == ["5C 6C 7C", "5D 6D 7D", "5S 6S 7S"]
    assert record["defender_layoffs"] == []
    # The same hand with unrelated discards keeps the sets.
    record = knock_after_seeing("TC 9C 3C 3D 4H JH")
    assert sorted(map(" ".join, record["knocker_melds"])) == ["5C 5D 5S", "6C 6D 6S", "7C 7D 7S"]
    assert sorted(record["defender_layoffs"]) == ["5H", "7H"]


def test_settle_knock_with_named_melds_uses_them():
    knocker = "3C 3D 3H 4H 5H TS JS QS KS AD"
    named = settle(knocker, LOSER.replace("4H", "3S").replace("8H", "6H").replace("QS", "QD").replace("KS", "KC"),
                   melds=[["3C", "3D", "3H"], ["TS", "JS", "QS", "KS"]])
    assert melds_text(named.knocker_melds) == ["3C 3D 3H", "TS JS QS KS"]
    assert named.knocker_points == 4 + 5 + 1
    assert "3S" in texts(named.defender_layoffs) and "6H" not in texts(named.defender_layoffs)
    chosen = settle(knocker, LOSER.replace("4H", "3S").replace("8H", "6H").replace("QS", "QD").replace("KS", "KC"))
    assert chosen.knocker_points == 3 + 3 + 1  # the engine picks the lowest: the hearts run
    assert "6H" in texts(chosen.defender_layoffs) and "3S" not in texts(chosen.defender_layoffs)


# -- naming an arrangement in play -----------------------------------------------------------

KNOCKER = "3C 3D 3H 4H 5H TS JS QS KS AD"


def ready_to_knock():
    match = dealt(KNOCKER, "KH QC JD TC 8H 6S 3S 2D KD QH", "9C", stock="8C", first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, Pass())
    match.apply(1, Draw("stock"))
    return match


def knock_code(match, action):
    with pytest.raises(IllegalAction) as info:
        match.check(1, action)
    before = match.to_dict()
    with pytest.raises(IllegalAction):
        match.apply(1, action)
    assert match.to_dict() == before  # a refused action changes nothing
    return info.value.code


def test_knocker_may_name_a_higher_but_legal_arrangement():
    match = ready_to_knock()
    melds = (Meld.parse("3C 3D 3H"), Meld.parse("TS JS QS KS"))
    match.check(1, Knock(parse_cards("8C")[0], melds))
    record = match.apply(1, Knock(parse_cards("8C")[0], melds))[1]["record"]
    assert sorted(map(" ".join, record["knocker_melds"])) == ["3C 3D 3H", "TS JS QS KS"]
    assert record["knocker_points"] == 10
    assert record["defender_layoffs"] == ["3S"]  # onto the named set


def test_named_arrangement_from_json():
    match = ready_to_knock()
    action = action_from_dict({"type": "knock", "discard": "8c", "melds": [["3h", "4h", "5h"], ["TS", "JS", "QS", "KS"]]})
    assert action.to_dict() == {"type": "knock", "discard": "8C", "melds": [["3H", "4H", "5H"], ["TS", "JS", "QS", "KS"]]}
    record = match.apply(1, action)[1]["record"]
    assert record["knocker_points"] == 7


def test_named_arrangement_over_the_limit_is_refused():
    match = ready_to_knock()
    melds = (Meld.parse("TS JS QS KS"),)  # leaves 3C 3D 3H 4H 5H AD: 19
    assert knock_code(match, Knock(parse_cards("8C")[0], melds)) == "deadwood-over-limit"


@pytest.mark.parametrize("melds", [
    ["3C 3D 3H", "3H 4H 5H"],          # 3H twice
    ["2C 3C 4C"],                      # not the knocker's cards
    ["8C 8D 8H"],                      # the discard is not in the remaining hand (nor 8D 8H)
    ["TS JS QS KS", "3C 3D 3H", "3C 3D 3H"],
])
def test_invalid_named_melds_are_refused(melds):
    match = ready_to_knock()
    action = Knock(parse_cards("8C")[0], tuple(Meld.parse(m) for m in melds))
    assert knock_code(match, action) == "invalid-meld"


@pytest.mark.parametrize("melds", [[["3C", "4D", "5H"]], [["3C", "3D"]], [["QS", "KS", "AS"]]])
def test_named_groups_that_are_no_meld_are_refused_with_invalid_meld(melds):
    match = ready_to_knock()
    before = match.to_dict()
    with pytest.raises(IllegalAction) as info:
        match.apply(1, action_from_dict({"type": "knock", "discard": "8C", "melds": melds}))
    assert info.value.code == "invalid-meld"
    assert match.to_dict() == before


def test_engine_arrangement_is_lowest_when_none_named():
    match = ready_to_knock()
    record = match.apply(1, Knock(parse_cards("8C")[0]))[1]["record"]
    assert record["knocker_points"] == best_arrangement(cards(KNOCKER)).deadwood_points == 7
    assert record["defender_layoffs"] == []   # 3S has no set to go to, 6H is not held here


# -- random knocks against an exhaustive defender ----------------------------------------------

DENSE = [c for c in full_deck() if 3 <= c.rank <= 9]   # 28 cards: many layoffs and chains


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([DENSE, full_deck()]).flatmap(
    lambda pool: st.lists(st.sampled_from(pool), min_size=20, max_size=20, unique=True)))
def test_random_knocks_settle_to_the_exhaustive_optimum(twenty):
    knocker, defender = twenty[:10], twenty[10:]
    if brute_min_deadwood(knocker) > 10:  # no knock: refused, not scored
        with pytest.raises(IllegalAction) as refused:
            settle_knock(knocker, None, defender)
        assert refused.value.code == "deadwood-over-limit"
        return
    result = settle_knock(knocker, None, defender)
    assert result.knocker_points == brute_min_deadwood(knocker)
    assert all(is_meld(list(m)) for m in result.knocker_melds)
    if result.knocker_points == 0:
        assert result.defender_layoffs == () and result.result == "gin"
        assert result.defender_points == brute_min_deadwood(defender)
    else:
        assert result.defender_points == brute_defender_points(result.knocker_melds, defender)
        assert layoffs_fit(result.knocker_melds, result.defender_layoffs)
    kept = [c for c in defender if c not in result.defender_layoffs]
    assert sorted([c for m in result.defender_melds for c in m] + list(result.defender_deadwood)) == sorted(kept)
    assert result.defender_points == sum(c.points for c in result.defender_deadwood)
    k, d = result.knocker_points, result.defender_points
    expected = ("gin", "knocker", 25 + d) if k == 0 else ("undercut", "defender", k - d + 25) if d <= k \
        else ("knock", "knocker", d - k)
    assert (result.result, result.winner, result.points) == expected


def test_settle_knock_refuses_what_no_knock_could_be():
    assert settle("AC 2C 3C 5D 6D 7D 9H 9S 9D 3H", LOSER).points == 77  # a real knock, for contrast
    with pytest.raises(IllegalAction) as over:
        settle("AC 2C 3C 5D 6D 7D 9H 9S JC QC", LOSER)
    assert over.value.code == "deadwood-over-limit" and "limit is 10" in over.value.message
    with pytest.raises(IllegalAction) as straight:
        settle("AC 2C 3C 5D 6D 7D 9H 9S 9D 3H", LOSER, preset="straight")
    assert straight.value.code == "knocking-not-allowed"
    with pytest.raises(ValueError, match="9D given twice"):
        settle("AC 2C 3C 5D 6D 7D 9H 9S 9D 3H", LOSER.replace("KH", "9D"))
    with pytest.raises(ValueError, match="10 cards, not 9"):
        settle("AC 2C 3C 5D 6D 7D 9H 9S 9D", LOSER)


def test_hands_may_be_given_as_text():
    assert best_arrangement("AS 2S 3S 4H 4D 4C 9C TC JC KD").deadwood_points == 10
    assert str(Meld("7C 8C 9C")) == "7C 8C 9C"


# -- the defender's own proposal (RULES.md: accepted only if legal) ------------------------------

KNOCKS = "AC 2C 3C 5D 6D 7D 9H 9S 9D 3H"   # runs A-3 clubs and 5-7 diamonds, nines, 3H: 3


def test_a_legal_defence_proposal_is_scored_as_proposed():
    defender = "4C 8D 9C TC JC KH QS JD 2S 4S"
    best = settle_knock(cards(KNOCKS), None, cards(defender))
    assert texts(best.defender_layoffs) == ["4C", "8D"]  # the engine's optimum lays both off
    proposed = settle_knock(cards(KNOCKS), None, cards(defender),
                            defender_melds=[["9C", "TC", "JC"]], defender_layoffs=["4C"])
    assert texts(proposed.defender_layoffs) == ["4C"] and melds_text(proposed.defender_melds) == ["9C TC JC"]
    assert proposed.defender_points == best.defender_points + 8  # keeping 8D costs its 8 points
    assert (proposed.result, proposed.points) == ("knock", proposed.defender_points - 3)


@pytest.mark.parametrize("melds, layoffs, code", [
    ([], ["5C"], "invalid-layoff"),              # 5C touches nothing the knocker laid down
    ([], ["KS"], "invalid-layoff"),              # not the defender's card
    ([["9C", "TC", "QS"]], [], "invalid-meld"),   # not a meld
    ([["4C", "5C", "6C"]], ["4C"], "invalid-meld"),  # 4C laid off and melded
])
def test_an_illegal_defence_proposal_is_refused(melds, layoffs, code):
    with pytest.raises(IllegalAction) as refused:
        settle_knock(cards(KNOCKS), None, cards("4C 5C 6C 8D 9C TC JC KH QS JD"),
                     defender_melds=melds, defender_layoffs=layoffs)
    assert refused.value.code == code


def test_nothing_may_be_proposed_as_a_layoff_against_gin():
    with pytest.raises(IllegalAction, match="against gin"):
        settle_knock(cards("AC 2C 3C 5D 6D 7D 9H 9S 9D 9C"), None, cards("4C 8D TC JC KH QS JD 2S 4S 5H"),
                     defender_melds=[], defender_layoffs=["4C"])
