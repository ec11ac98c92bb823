"""One test per rule of RULES.md's 'The deal' and 'A turn', on scripted deck orders."""
import pytest

from service.rules import (BigGin, Discard, Draw, IllegalAction, Knock, Pass, TakeUpcard, full_deck,
    parse_cards)

from .helpers import build_deck, cards, dealt, hand_of, new_match, texts

ND_HAND = "AC 2C 3C 4C 5D 6D 7D 9H 9S KS"    # 9 melded + KS
D_HAND = "KH QS JD TC 8H 6S 4H 2D KD QH"      # no meld: 80 points
UPCARD = "9D"


def card(text):
    return parse_cards(text)[0]


def code_of(match, seat, action) -> str:
    with pytest.raises(IllegalAction) as info:
        match.check(seat, action)
    with pytest.raises(IllegalAction) as again:
        match.apply(seat, action)
    assert again.value.code == info.value.code
    return info.value.code


def pass_both(match):
    dealer = match.view(0)["dealer"]
    match.apply(1 - dealer, Pass())
    match.apply(dealer, Pass())


# -- the deal -------------------------------------------------------------------------------

@pytest.mark.parametrize("first_dealer", [0, 1])
def test_deal_is_one_at_a_time_starting_with_the_non_dealer(first_dealer):
    deck = full_deck()  # unshuffled: the pattern is easy to see
    match = new_match(first_dealer=first_dealer)
    assert match.needs_deal and match.phase == "awaiting_deal" and match.to_move is None
    match.deal(deck)
    dealer, non_dealer = first_dealer, 1 - first_dealer
    assert match.hand_number == 1 and not match.needs_deal
    assert match.view(non_dealer)["hand"] == texts(sorted(deck[0:20:2]))
    assert match.view(dealer)["hand"] == texts(sorted(deck[1:20:2]))
    view = match.view(non_dealer)
    assert view["dealer"] == dealer
    assert view["discard_pile"] == [str(deck[20])]  # the 21st card is the upcard
    assert view["stock_count"] == 31
    assert (match.phase, match.to_move) == ("upcard_offer", non_dealer)
    # The stock is the rest, top first: after both pass the non-dealer draws deck[21], then deck[22].
    match.apply(non_dealer, Pass())
    match.apply(dealer, Pass())
    events = match.apply(non_dealer, Draw("stock"))
    assert str(deck[21]) in match.view(non_dealer)["hand"]
    assert events[0]["private"][str(non_dealer)]["card"] == str(deck[21])
    match.apply(non_dealer, Discard(deck[21]))
    match.apply(dealer, Draw("stock"))
    assert str(deck[22]) in match.view(dealer)["hand"]
    assert match.to_dict()["stock"] == texts(deck[23:])


def test_scripted_deck_helper_gives_the_chosen_hands():
    match = dealt(ND_HAND, D_HAND, UPCARD, stock="5C 8D", first_dealer=1)
    assert sorted(hand_of(match, 0)) == sorted(cards(ND_HAND))
    assert sorted(hand_of(match, 1)) == sorted(cards(D_HAND))
    assert match.view(0)["discard_pile"] == [UPCARD]
    assert match.to_dict()["stock"][:2] == ["5C", "8D"]


@pytest.mark.parametrize("deck", [
    full_deck()[:51],
    full_deck() + [full_deck()[0]],
    full_deck()[:51] + [full_deck()[0]],
])
def test_deal_rejects_a_deck_that_is_not_the_52_cards(deck):
    match = new_match()
    before = match.to_dict()
    with pytest.raises(ValueError):
        match.deal(deck)
    assert match.to_dict() == before


def test_cannot_deal_while_a_hand_is_in_play():
    match = dealt(ND_HAND, D_HAND, UPCARD)
    before = match.to_dict()
    with pytest.raises((IllegalAction, ValueError)):
        match.deal(full_deck())
    assert match.to_dict() == before


# -- the upcard offer ------------------------------------------------------------------------

def test_upcard_offer_goes_non_dealer_then_dealer_then_non_dealer_draws_from_stock():
    match = dealt(ND_HAND, D_HAND, UPCARD, first_dealer=0)
    assert set(match.legal_actions(1)) == {TakeUpcard(), Pass()}
    assert match.legal_actions(0) == []
    assert code_of(match, 0, Pass()) == "not-your-turn"
    match.apply(1, Pass())
    assert (match.phase, match.to_move) == ("upcard_offer", 0)
    assert set(match.legal_actions(0)) == {TakeUpcard(), Pass()}
    assert code_of(match, 1, TakeUpcard()) == "not-your-turn"
    match.apply(0, Pass())
    assert (match.phase, match.to_move) == ("draw", 1)
    # Both passed: the non-dealer must draw from the stock.
    assert match.legal_actions(1) == [Draw("stock")]
    code_of(match, 1, Draw("discard"))
    assert code_of(match, 1, TakeUpcard()) == "wrong-phase"
    match.apply(1, Draw("stock"))
    match.apply(1, Discard(card("KS")))
    # From then on, either pile.
    assert (match.phase, match.to_move) == ("draw", 0)
    assert set(match.legal_actions(0)) == {Draw("stock"), Draw("discard")}


def test_non_dealer_takes_the_upcard_and_completes_the_turn_with_a_discard():
    match = dealt(ND_HAND, D_HAND, UPCARD, first_dealer=0)
    events = match.apply(1, TakeUpcard())
    assert events[0]["type"] == "take_upcard" and events[0]["card"] == UPCARD
    assert (match.phase, match.to_move) == ("discard", 1)
    assert len(match.view(1)["hand"]) == 11 and match.view(1)["discard_pile"] == []
    match.apply(1, Discard(card("KS")))
    assert (match.phase, match.to_move) == ("draw", 0)
    assert set(match.legal_actions(0)) == {Draw("stock"), Draw("discard")}


def test_dealer_may_take_the_upcard_after_the_non_dealer_passes():
    match = dealt(ND_HAND, D_HAND, UPCARD, first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, TakeUpcard())
    assert (match.phase, match.to_move) == ("discard", 0)
    match.apply(0, Discard(card("KH")))
    # Play alternates from the one who took: now the non-dealer draws, from either pile.
    assert (match.phase, match.to_move) == ("draw", 1)
    assert set(match.legal_actions(1)) == {Draw("stock"), Draw("discard")}


# -- discards ------------------------------------------------------------------------------

def test_cannot_discard_the_card_just_taken_from_the_discard_pile():
    match = dealt(ND_HAND, D_HAND, UPCARD, first_dealer=0)
    match.apply(1, TakeUpcard())
    assert Discard(card(UPCARD)) not in match.legal_actions(1)
    assert Knock(card(UPCARD)) not in match.legal_actions(1)
    assert code_of(match, 1, Discard(card(UPCARD))) == "cannot-discard-taken-card"
    assert code_of(match, 1, Knock(card(UPCARD))) == "cannot-discard-taken-card"
    match.apply(1, Discard(card("KS")))
    # The dealer takes KS from the pile: KS may not go straight back.
    match.apply(0, Draw("discard"))
    assert code_of(match, 0, Discard(card("KS"))) == "cannot-discard-taken-card"
    match.apply(0, Discard(card("QH")))
    # ... but it may be discarded on a later turn.
    match.apply(1, Draw("stock"))
    drawn = set(hand_of(match, 1)) - set(cards(ND_HAND)) - {card(UPCARD)}
    match.apply(1, Discard(drawn.pop()))
    match.apply(0, Draw("stock"))
    assert Discard(card("KS")) in match.legal_actions(0)
    match.apply(0, Discard(card("KS")))
    assert match.view(0)["discard_pile"][-1] == "KS"


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    match = dealt(ND_HAND, D_HAND, UPCARD, stock="8S", first_dealer=0)
    pass_both(match)
    match.apply(1, Draw("stock"))
    assert Discard(card("8S")) in match.legal_actions(1)
    match.apply(1, Discard(card("8S")))
    assert match.view(0)["discard_pile"] == [UPCARD, "8S"]


def test_discarding_a_card_not_held_or_out_of_phase():
    match = dealt(ND_HAND, D_HAND, UPCARD, first_dealer=0)
    match.apply(1, TakeUpcard())
    assert code_of(match, 1, Discard(card("KH"))) == "card-not-in-hand"   # the dealer's card
    assert code_of(match, 1, Knock(card("8C"))) == "card-not-in-hand"     # in the stock
    assert code_of(match, 1, Draw("stock")) == "wrong-phase"
    match.apply(1, Discard(card("KS")))
    assert code_of(match, 0, Discard(card("KH"))) == "wrong-phase"         # must draw first


# -- knocking ----------------------------------------------------------------------------------

@pytest.mark.parametrize("deadwood, ok", [("AH 9S", True), ("2H 9S", False)])
def test_knock_limit_is_ten(deadwood, ok):
    # Two 4-card runs plus two deadwood cards worth 10 (may knock) or 11 (may not).
    match = dealt("AC 2C 3C 4C 5D 6D 7D 8D " + deadwood, D_HAND, "QC", stock="KC", first_dealer=0)
    pass_both(match)
    match.apply(1, Draw("stock"))
    knock = Knock(card("KC"))
    assert (knock in match.legal_actions(1)) is ok
    if ok:
        events = match.apply(1, knock)
        record = [e for e in events if e["type"] == "hand_end"][0]["record"]
        assert record["knocker_points"] == 10 and record["result"] == "knock"
    else:
        assert code_of(match, 1, knock) == "deadwood-over-limit"


@pytest.mark.parametrize("limit, ok", [(5, True), (4, False)])
def test_knock_limit_option(limit, ok):
    match = dealt("AC 2C 3C 4C 5D 6D 7D 8D 2H 3S", D_HAND, "QC", stock="KC", first_dealer=0,
                  knock_limit=limit)
    pass_both(match)
    match.apply(1, Draw("stock"))
    assert (Knock(card("KC")) in match.legal_actions(1)) is ok
    assert match.view(1)["knock_limit"] == limit
    if not ok:
        assert code_of(match, 1, Knock(card("KC"))) == "deadwood-over-limit"


def test_knocking_is_allowed_on_the_first_turn():
    # The non-dealer takes the upcard and knocks at once (gin here: 9D completes the nines).
    match = dealt(ND_HAND, D_HAND, UPCARD, first_dealer=0)
    match.apply(1, TakeUpcard())
    assert Knock(card("KS")) in match.legal_actions(1)
    events = match.apply(1, Knock(card("KS")))
    types = [e["type"] for e in events]
    assert types[:2] == ["knock", "hand_end"]
    record = events[1]["record"]
    assert (record["result"], record["winner"], record["points"]) == ("gin", 1, 25 + 80)


def test_dealer_may_knock_on_the_first_turn_too():
    match = dealt(D_HAND, ND_HAND, UPCARD, first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, TakeUpcard())
    events = match.apply(0, Knock(card("KS")))
    record = [e for e in events if e["type"] == "hand_end"][0]["record"]
    assert (record["result"], record["winner"], record["points"]) == ("gin", 0, 105)


def test_knocking_is_never_compulsory():
    match = dealt(ND_HAND, D_HAND, UPCARD, first_dealer=0)
    match.apply(1, TakeUpcard())
    assert Discard(card("KS")) in match.legal_actions(1)
    match.apply(1, Discard(card("KS")))
    assert (match.phase, match.to_move) == ("draw", 0)


def test_gin_scores_bonus_plus_all_defender_deadwood_without_layoffs():
    # The defender holds 5C (would extend AC-4C), 8D (extends 5D-7D) and 9C (the 4th nine):
    # after gin none of them may be laid off.
    defender = "5C 8D 9C KH QS JD TC 6S 2H KD"
    match = dealt(ND_HAND, defender, UPCARD, first_dealer=0)
    match.apply(1, TakeUpcard())
    record = match.apply(1, Knock(card("KS")))[1]["record"]
    full_count = sum(c.points for c in cards(defender))
    assert record["result"] == "gin" and record["defender_layoffs"] == []
    assert record["defender_points"] == full_count
    assert record["points"] == 25 + full_count


# -- Big Gin -----------------------------------------------------------------------------------

GIN10 = "AC 2C 3C 4C 5D 6D 7D 9H 9S 9D"


def big_gin_ready(**options):
    match = dealt(GIN10, D_HAND, "QC", stock="5C", first_dealer=0, **options)
    pass_both(match)
    match.apply(1, Draw("stock"))  # 5C: AC..5C, all 11 cards melded
    return match


def test_big_gin_right_after_drawing_without_a_discard():
    match = big_gin_ready()
    assert BigGin() in match.legal_actions(1)
    events = match.apply(1, BigGin())
    record = [e for e in events if e["type"] == "hand_end"][0]["record"]
    assert (record["result"], record["winner"], record["points"]) == ("big_gin", 1, 31 + 80)
    assert record["defender_layoffs"] == []
    assert len(record["hands"]["1"]) == 11  # the declarer keeps all 11 cards


def test_big_gin_after_taking_the_upcard():
    match = dealt(GIN10, D_HAND, "5C", first_dealer=0)
    match.apply(1, TakeUpcard())
    assert BigGin() in match.legal_actions(1)
    record = match.apply(1, BigGin())[1]["record"]
    assert record["result"] == "big_gin" and record["points"] == 111


def test_big_gin_bonus_option():
    match = big_gin_ready(big_gin_bonus=50)
    assert match.apply(1, BigGin())[1]["record"]["points"] == 50 + 80


def test_big_gin_option_off():
    match = big_gin_ready(big_gin=False)
    assert BigGin() not in match.legal_actions(1)
    assert code_of(match, 1, BigGin()) == "big-gin-not-allowed"
    # Plain gin is still there: discard any card and the 10 left are melded.
    assert Knock(card("5C")) in match.legal_actions(1)


def test_big_gin_needs_all_eleven_melded():
    match = dealt(GIN10, D_HAND, "QC", stock="KC", first_dealer=0)
    pass_both(match)
    match.apply(1, Draw("stock"))
    assert BigGin() not in match.legal_actions(1)
    assert code_of(match, 1, BigGin()) == "big-gin-not-allowed"


def test_big_gin_is_not_a_draw_phase_action():
    match = dealt(GIN10, D_HAND, "QC", stock="5C", first_dealer=0)
    pass_both(match)
    assert code_of(match, 1, BigGin()) == "wrong-phase"


# -- stock exhausted -------------------------------------------------------------------------

def run_down_stock(match, stop_before_last=False):
    """Both pass, then each turn draws from the stock and throws the drawn card straight back.
    Returns the events of the discard that leaves the stock at 2 cards."""
    pass_both(match)
    while True:
        seat = match.to_move
        before = set(hand_of(match, seat))
        match.apply(seat, Draw("stock"))
        drawn = (set(hand_of(match, seat)) - before).pop()
        if match.view(seat)["stock_count"] == 2 and stop_before_last:
            return seat, drawn
        events = match.apply(seat, Discard(drawn))
        if match.view(seat)["stock_count"] == 2:
            return events


def test_stock_exhausted_voids_the_hand_and_the_same_dealer_deals_again():
    match = dealt("AC 2C 3C 4C 5D 6D 7D 8D 2H 9S", D_HAND, "QC", first_dealer=0)
    events = run_down_stock(match)
    assert [e["type"] for e in events] == ["discard", "hand_void"]
    assert match.needs_deal and match.phase == "awaiting_deal"
    view = match.view(0)
    assert view["scores"]["sheet"][-1]["result"] == "void"
    assert view["last_hand"]["result"] == "void" and view["last_hand"]["points"] == 0
    assert all(g["totals"] == [0, 0] for g in view["scores"]["games"])
    match.deal(full_deck())
    assert match.hand_number == 2
    assert match.view(1)["dealer"] == 0 and match.to_move == 1   # same dealer


def test_the_player_who_leaves_two_cards_may_still_knock():
    # The non-dealer draws the 29th stock card (odd draws are theirs) and may knock with 10.
    match = dealt("AC 2C 3C 4C 5D 6D 7D 8D AH 9S", D_HAND, "QC", first_dealer=0)
    seat, drawn = run_down_stock(match, stop_before_last=True)
    assert seat == 1
    assert Knock(drawn) in match.legal_actions(1)
    events = match.apply(1, Knock(drawn))
    assert [e["type"] for e in events][:2] == ["knock", "hand_end"]


# -- last_discard_rule take_to_finish -------------------------------------------------------

def take_to_finish_match(last_card: str):
    """The non-dealer's 29th draw (and discard) is `last_card`; the dealer then holds GIN-but-one."""
    dealer_hand = "AC 2C 3C 4C 5D 6D 7D 9H 9S KS"
    nd_hand = "KH QS JD TC 8H 6S 4H 2D KD QH"
    used = set(cards(dealer_hand + " " + nd_hand + " QC " + last_card))
    rest = [c for c in full_deck() if c not in used]
    stock = rest[:28] + cards(last_card) + rest[28:]
    match = new_match(first_dealer=0, last_discard_rule="take_to_finish")
    match.deal(build_deck(nd_hand, dealer_hand, "QC", stock))
    events = run_down_stock(match)
    assert events[-1] == {**events[-1], "type": "discard", "card": last_card, "seat": 1}
    return match


def test_take_to_finish_offers_the_last_discard_only_to_knock():
    match = take_to_finish_match("9D")
    assert (match.phase, match.to_move) == ("last_discard_offer", 0)
    assert set(match.legal_actions(0)) == {Draw("discard"), Pass()}
    match.apply(0, Draw("discard"))
    assert code_of(match, 0, Discard(card("KS"))) == "knock-required"
    assert code_of(match, 0, Knock(card("9D"))) == "cannot-discard-taken-card"
    # Any knock that keeps 10 or less: KS (gin), AC or 4C (KS left, 10).
    assert set(match.legal_actions(0)) == {Knock(c) for c in cards("KS AC 4C")}
    record = match.apply(0, Knock(card("KS")))[1]["record"]
    assert (record["result"], record["winner"]) == ("gin", 0)


def test_take_to_finish_pass_voids_the_hand():
    match = take_to_finish_match("9D")
    events = match.apply(0, Pass())
    assert [e["type"] for e in events][-1] == "hand_void"
    assert match.needs_deal


def test_take_to_finish_refuses_a_card_that_does_not_let_you_knock():
    match = take_to_finish_match("8C")
    assert match.legal_actions(0) == [Pass()]
    assert code_of(match, 0, Draw("discard")) == "deadwood-over-limit"
    assert code_of(match, 0, Draw("stock")) == "wrong-phase"


def test_void_rule_ends_at_once_without_an_offer():
    match = dealt("KH QS JD TC 8H 6S 4H 2D KD QH", "AC 2C 3C 4C 5D 6D 7D 9H 9S KS", "QC", first_dealer=0)
    events = run_down_stock(match)
    assert events[-1]["type"] == "hand_void"
