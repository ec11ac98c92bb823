"""The first dealer by the cut (issue 25, finding 14; RULES.md "The first dealer"): 001's "the
player who draws the lower card deals" and 002's "higher has choice of dealing first or not ...
spades (high), hearts, diamonds, clubs", each from the cards the caller drew."""
import json
from itertools import combinations

import pytest

from service.rules import (ChooseDealer, IllegalAction, InvalidRules, Match, Pass, Resign, Rules, TakeUpcard,
                           action_from_dict, full_deck, parse_cards)
from service.rules.first_deal import cut_outcome
from service.rules.tables import Partnership, Rotation

from .helpers import build_deck

DECK = build_deck("AS 2S 3S 4S 5S 7C 7D 7H 3H 2C", "KH QS JD TC 8H 6S 4H 2D KD QH", "8D")


def cutting(rule: str) -> Match:
    match = Match.new(Rules.from_options("standard", first_dealer_by=rule), first_dealer=None)
    assert match.phase == "cut" and match.needs_cut and not match.needs_deal
    assert match.dealer is None and match.to_move is None
    return match


def roundtrip(match: Match) -> Match:
    again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert again == match
    return again


def refused(code, call):
    with pytest.raises(IllegalAction) as info:
        call()
    assert info.value.code == code
    return info.value


# -- 001: "the player who draws the lower card deals" ---------------------------------------------

@pytest.mark.parametrize("cards, dealer", [("3H KD", 0), ("KS AH", 1), ("AC 2C", 0), ("TD 9D", 1)])
def test_001_the_lower_card_deals(cards, dealer):
    match = cutting("cut_lower_deals")
    [event] = match.cut(*parse_cards(cards))
    assert event == {"type": "cut", "hand": 0, "cards": dict(zip("01", cards.split())), "outcome": "deals",
                     "dealer": dealer, "chooser": None}
    assert (match.first_dealer, match.dealer, match.phase) == (dealer, dealer, "awaiting_deal")
    match.deal(DECK)
    assert match.to_move == 1 - dealer and match.phase == "upcard_offer"
    assert roundtrip(match).cuts == [dict(zip("01", cards.split()))]


def test_001_cards_of_one_rank_cut_again():
    # 001 names no lower card among equals: the players cut again, every try kept.
    match = cutting("cut_lower_deals")
    [tie] = match.cut("7H", "7C")
    assert tie["outcome"] == "tie" and tie["dealer"] is None and match.needs_cut
    refused("wrong-phase", lambda: match.deal(DECK))
    match = roundtrip(match)
    match.cut("QD", "2S")
    assert match.dealer == 1 and match.cuts == [{"0": "7H", "1": "7C"}, {"0": "QD", "1": "2S"}]


# -- 002: "higher has choice of dealing first or not" -----------------------------------------

def test_002_precedence_rank_then_spades_hearts_diamonds_clubs():
    order = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "CDHS"]  # low to high, as 002 has it
    for low, high in combinations(order, 2):
        low_card, high_card = parse_cards([low, high])
        assert cut_outcome("cut_higher_chooses", (high_card, low_card)) == ("chooses", 0)
        assert cut_outcome("cut_higher_chooses", (low_card, high_card)) == ("chooses", 1)


def test_002_the_higher_card_chooses_and_may_let_the_other_deal():
    match = cutting("cut_higher_chooses")
    [event] = match.cut("7H", "7S")  # equal rank: the spade is higher
    assert (event["outcome"], event["chooser"], event["dealer"]) == ("chooses", 1, None)
    assert match.phase == "dealer_choice" and match.to_move == 1 and not match.needs_deal
    assert match.legal_actions(1) == [ChooseDealer(True), ChooseDealer(False)]
    assert match.legal_actions(0) == []
    view = match.view(1)
    assert view["cuts"] == [{"0": "7H", "1": "7S"}] and view["dealer"] is None
    assert view["legal_actions"] == [{"type": "choose_dealer", "deal": True}, {"type": "choose_dealer", "deal": False}]
    refused("not-your-turn", lambda: match.apply(0, ChooseDealer(True)))
    refused("wrong-phase", lambda: match.apply(1, TakeUpcard()))
    match = roundtrip(match)
    events = match.apply(1, action_from_dict({"type": "choose_dealer", "deal": False}))
    assert events == [{"type": "choose_dealer", "hand": 0, "seat": 1, "deal": False, "dealer": 0}]
    assert (match.first_dealer, match.phase, match.to_move) == (0, "awaiting_deal", None)
    match.deal(DECK)
    assert match.to_move == 1
    refused("wrong-phase", lambda: match.apply(1, ChooseDealer(True)))  # chosen once, at the start only


def test_002_choosing_to_deal():
    match = cutting("cut_higher_chooses")
    match.cut("KC", "QS")
    match.apply(0, ChooseDealer(True))
    assert match.dealer == 0 and match.first_dealer == 0


# -- what every cut shares ----------------------------------------------------------------------

def test_the_cut_refuses_what_is_not_due_or_not_two_cards():
    match = cutting("cut_lower_deals")
    refused("wrong-phase", lambda: match.apply(0, Pass()))
    with pytest.raises(ValueError):
        match.cut("7H", "7H")
    match.cut("2H", "9H")
    refused("wrong-phase", lambda: match.cut("3C", "4C"))
    refused("wrong-phase", lambda: match.apply(1, ChooseDealer(True)))  # 001 has no choice


def test_a_seat_may_resign_before_the_first_deal():
    match = cutting("cut_higher_chooses")
    match.cut("AS", "KS")
    match.apply(0, Resign())
    assert match.is_over and match.winner == 1


def test_a_first_dealer_given_skips_the_cut_and_none_needs_a_cut_rule():
    match = Match.new(Rules.from_options(first_dealer_by="cut_lower_deals"), first_dealer=1)
    assert match.phase == "awaiting_deal" and match.dealer == 1 and "cuts" not in match.to_dict()
    refused("invalid-seat", lambda: Match.new(Rules(), first_dealer=None))


def test_choose_dealer_is_a_well_formed_action_only_with_a_bool():
    assert action_from_dict({"type": "choose_dealer", "deal": True}) == ChooseDealer(True)
    for bad in ({"type": "choose_dealer"}, {"type": "choose_dealer", "deal": 1},
                {"type": "choose_dealer", "deal": True, "card": "7H"}):
        refused("invalid-action", lambda: action_from_dict(bad))


def test_tables_refuse_the_cut():
    rules = Rules.from_options(first_dealer_by="cut_lower_deals")
    for make in (lambda: Rotation(rules), lambda: Partnership(rules)):
        with pytest.raises(InvalidRules) as info:
            make()
        assert info.value.option == "first_dealer_by"


def test_stored_rules_and_states_without_the_cut_read_back_unchanged():
    match = Match.new(Rules(), first_dealer=0)
    match.deal(full_deck())
    assert "first_dealer_by" not in match.rules.to_dict() and "cuts" not in match.to_dict()
    assert "cuts" not in match.view(0)
