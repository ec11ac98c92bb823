"""The procedures issue 14 added (RULES.md "Procedures"), each from its text's own words."""
import pytest

from service.rules import Discard, Draw, IllegalAction, Knock, Pass, Rules, TakeUpcard, parse_cards
from service.rules.scoring import match_result, new_games, record_hand_win

from .helpers import build_deck, dealt, new_match

ND_HAND = "AC 2C 3C 4C 5D 6D 7D 9H 9S KS"     # 9 melded + KS: 19, cannot knock as dealt
KNOCKABLE = "AS 2S 3S 4S 5S 7C 7D 7H 3H 2C"   # 3H 2C: 5, could knock before taking a card
D_HAND = "KH QS JD TC 8H 6S 4H 2D KD QH"      # no meld: 80 points


def card(text):
    return parse_cards(text)[0]


# -- 000: "If a player is able to knock before any cards are accepted, it is considered a misdeal."

@pytest.mark.parametrize("who", ["non_dealer", "dealer"])
def test_a_dealt_hand_that_can_knock_is_a_misdeal(who):
    hands = (KNOCKABLE, D_HAND) if who == "non_dealer" else (D_HAND, KNOCKABLE)
    match = new_match("wikipedia", first_dealer=1)
    events = match.deal(build_deck(*hands, "8D"))
    assert [e["type"] for e in events] == ["deal", "hand_void"]
    record = events[-1]["record"]
    assert record["void_reason"] == "misdeal" and record["points"] == 0 and record["winner"] is None
    assert match.needs_deal and match.dealer == 1  # the same dealer deals again
    assert match.view(0)["scores"]["sheet"][-1]["result"] == "void"


def test_without_the_option_001s_first_turn_knock_stands():
    # 001: "a player who can meet the requirement of not more than 10 deadwood can knock on any
    # turn, including the first".
    match = dealt(KNOCKABLE, D_HAND, "8D", first_dealer=1)
    assert match.phase == "upcard_offer"
    match.apply(0, TakeUpcard())
    assert Knock(card("8D")) not in match.legal_actions(0)  # just taken
    match.apply(0, Knock(card("3H")))
    # 2C 8D left (10); the defender lays 6S off on AS-5S: 80 - 6 = 74; the knocker scores 64.
    assert match.last_hand["result"] == "knock" and match.last_hand["knocker_points"] == 10
    assert match.last_hand["defender_layoffs"] == ["6S"] and match.last_hand["points"] == 64


def test_the_misdeal_counts_only_a_hand_as_dealt():
    # Under the limit only after taking a card is no misdeal: ND_HAND (19) plays on.
    match = new_match("wikipedia", first_dealer=1)
    assert [e["type"] for e in match.deal(build_deck(ND_HAND, D_HAND, "8D"))] == ["deal"]
    # Straight gin: only a dealt gin could "knock".
    match = new_match("wikipedia_straight_gin", first_dealer=1)
    assert [e["type"] for e in match.deal(build_deck(KNOCKABLE, D_HAND, "8D"))] == ["deal"]


# -- 000: "Dealership alternates from round to round" -- a void round too.

def stock_run_down(match):
    """Both players draw from the stock and throw the card drawn until the stock is down to 2."""
    match.apply(match.to_move, Pass())
    match.apply(match.to_move, Pass())
    events = []
    while not match.needs_deal:
        seat = match.to_move
        events = match.apply(seat, Draw("stock"))
        drawn = events[0]["private"][str(seat)]["card"]
        events = match.apply(seat, Discard(card(drawn)))
    return events


@pytest.mark.parametrize("option, next_dealer", [("same", 1), ("alternate", 0)])
def test_the_deal_after_a_void_hand(option, next_dealer):
    match = dealt(ND_HAND, D_HAND, "8D", first_dealer=1, dealer_after_void=option)
    events = stock_run_down(match)
    assert events[-1]["type"] == "hand_void" and events[-1]["record"]["void_reason"] == "stock"
    assert match.dealer == next_dealer


# -- 004: "The non-dealer begins the play by drawing either the faced card or the top card from
#    the stock. After drawing, the non-dealer must discard, and then the dealer draws and discards"

def test_004s_first_turn_has_no_offer_to_the_dealer():
    match = dealt(ND_HAND, D_HAND, "8D", first_dealer=1, first_turn="take_or_draw")
    assert match.phase == "draw" and match.to_move == 0
    assert match.legal_actions(0) == [Draw("stock"), Draw("discard")]
    assert match.legal_actions(1) == []
    with pytest.raises(IllegalAction) as info:
        match.apply(0, Pass())
    assert info.value.code == "wrong-phase"
    match.apply(0, Draw("discard"))
    match.apply(0, Discard(card("KS")))
    assert match.to_move == 1 and match.phase == "draw"


def test_the_knock_em_down_preset_uses_that_first_turn():
    match = dealt(ND_HAND, D_HAND, "8D", preset="knock_em_down")
    assert match.phase == "draw"


# -- the no-loop rule (RULES.md: no text has one)

def loop(match, turns):
    """Each player takes the other's discard and throws back the card they took last time."""
    events = []
    for _ in range(turns):
        seat = match.to_move
        if match.needs_deal:
            break
        taken = match.apply(seat, Draw("discard"))[0]["card"]
        hand = parse_cards(match.to_dict()["hands"][seat])
        throw = next(c for c in sorted(hand) if str(c) != taken and c.rank >= 11) \
            if any(c.rank >= 11 and str(c) != taken for c in hand) else next(c for c in hand if str(c) != taken)
        events = match.apply(seat, Discard(throw))
    return events


def test_the_hand_is_void_after_20_turns_without_a_stock_draw():
    match = dealt(ND_HAND, D_HAND, "8D", first_dealer=1)
    match.apply(0, Pass())
    match.apply(1, Pass())
    match.apply(0, Draw("stock"))
    match.apply(0, Discard(card("KS")))
    events = loop(match, 19)
    assert match.phase == "draw" and match.to_dict()["pile_draws"] == 19
    events = loop(match, 1)
    assert events[-1]["type"] == "hand_void" and events[-1]["record"]["void_reason"] == "no_stock_draw"
    assert match.to_dict()["stock"] and len(match.to_dict()["stock"]) == 30  # the stock never moved


def test_a_stock_draw_restarts_the_count_and_zero_turns_the_rule_off():
    match = dealt(ND_HAND, D_HAND, "8D", first_dealer=1, pile_draw_limit=4)
    match.apply(0, TakeUpcard())
    match.apply(0, Discard(card("KS")))
    loop(match, 2)
    assert match.to_dict()["pile_draws"] == 3
    seat = match.to_move
    drawn = match.apply(seat, Draw("stock"))[0]["private"][str(seat)]["card"]
    match.apply(seat, Discard(card(drawn)))
    assert match.to_dict()["pile_draws"] == 0
    off = dealt(ND_HAND, D_HAND, "8D", first_dealer=1, pile_draw_limit=0)
    off.apply(0, TakeUpcard())
    off.apply(0, Discard(card("KS")))
    loop(off, 300)
    assert not off.needs_deal and off.to_dict()["pile_draws"] == 301


def test_the_upcard_counts_and_a_knock_still_ends_the_hand():
    # The rule voids only a plain discard; a knock at the limit scores as usual.
    match = dealt(ND_HAND, D_HAND, "8D", first_dealer=1, pile_draw_limit=1)
    match.apply(0, TakeUpcard())
    assert match.apply(0, Discard(card("KS")))[-1]["type"] == "hand_void"
    match = dealt(KNOCKABLE, D_HAND, "8D", first_dealer=1, pile_draw_limit=1)
    match.apply(0, TakeUpcard())
    assert match.apply(0, Knock(card("3H")))[-1]["type"] == "hand_end"


# -- 000's Oklahoma, match play: "a second deck of cards will be used to determine the knock value
#    ... both players are dealt ten cards with the last hand winner picking first from the deck."

def second_deck_match(first_dealer=1):
    return new_match("wikipedia_oklahoma_match_play", first_dealer=first_dealer)


def test_the_knock_card_from_a_second_deck_sets_the_limit_and_doubles_on_a_spade():
    match = second_deck_match()
    deck = build_deck(ND_HAND, D_HAND, "8D")
    with pytest.raises(ValueError):
        match.deal(deck)  # the knock card is required
    events = match.deal(deck, knock_card="4S")
    assert events[0]["knock_card"] == "4S" and events[0]["upcard"] is None
    assert match.knock_limit == 4 and match.multiplier == 2
    assert match.view(0)["discard_pile"] == [] and match.view(0)["stock_count"] == 32
    assert match.view(0)["knock_card"] == "4S"
    # The first hand: the non-dealer picks first, from the stock (there is no upcard).
    assert match.phase == "draw" and match.to_move == 0
    assert match.legal_actions(0) == [Draw("stock")]
    assert Match_round_trip(match)


def Match_round_trip(match):
    from service.rules import Match
    return Match.from_dict(match.to_dict()) == match


def test_the_last_hands_winner_picks_first():
    match = second_deck_match(first_dealer=1)
    # The knock card comes from another deck: a 4H may be in a hand too. Limit 4: no misdeal at 5.
    match.deal(build_deck(KNOCKABLE, D_HAND, "AC"), knock_card="4H")
    assert match.to_move == 0
    match.apply(0, Draw("stock"))              # the AC
    match.apply(0, Knock(card("3H")))          # AC 2C left: 3, within the knock card's 4
    assert match.last_hand["winner"] == 0 and match.dealer == 0  # the deal alternates ...
    match.deal(build_deck(ND_HAND, D_HAND, "8D"), knock_card="TD")
    assert match.to_move == 0                  # ... but the winner, now the dealer, picks first


def test_a_first_deck_knock_card_is_refused_without_the_option():
    match = new_match("oklahoma")
    with pytest.raises(ValueError):
        match.deal(build_deck(ND_HAND, D_HAND, "8D"), knock_card="4S")


# -- result wording: 001 "the player with the lower score pays the player with the higher score
#    an amount proportional to the difference between their scores"

def test_the_result_names_the_target_reacher_and_the_net_result():
    rules = Rules.from_options()
    games = new_games(rules)
    for _ in range(6):
        record_hand_win(rules, games, 0, 1, 16)       # seat 1: six hands of 16 = 96
    record_hand_win(rules, games, 0, 0, 100)          # seat 0 reaches 100 with one hand
    result = match_result(rules, games, [1, 6], "target", None)
    # Seat 0: 100 + 100 game + 25 box = 225. Seat 1: 96 + 6 boxes of 25 = 246.
    assert result["totals"] == [225, 246]
    assert result["target_reached_by"] == 0 and result["winner"] == 0 and result["margin"] == -21
    assert result["net"] == {"leader": 1, "points": 21, "payer": 0, "payee": 1}


def test_exactly_50_ahead_at_the_end_loses():
    # 000: "if a match ends with one player in the lead by exactly 50 points, that player
    # automatically loses."
    for exactly_50, winner in ((False, 0), (True, 1)):
        rules = Rules.from_options(game_bonus=0, box_bonus=0, exactly_50_loses=exactly_50)
        games = new_games(rules)
        record_hand_win(rules, games, 0, 1, 25)
        record_hand_win(rules, games, 0, 0, 75)
        record_hand_win(rules, games, 1, 0, 25)       # 100 - 25... seat 0: 100, seat 1: 25
        result = match_result(rules, games, [2, 1], "target", None)
        assert result["totals"] == [100, 25] and result["net"]["points"] == 75
        games = new_games(rules)
        record_hand_win(rules, games, 0, 1, 50)
        record_hand_win(rules, games, 0, 0, 100)
        result = match_result(rules, games, [1, 1], "target", None)
        assert result["totals"] == [100, 50] and result["net"]["leader"] == 0
        assert result["winner"] == winner and result.get("exactly_50_rule", False) == exactly_50
