"""A match to a target (RULES.md 'The game'), next dealer, Oklahoma, straight and Hollywood."""
import pytest

from service.rules import Discard, Draw, IllegalAction, Knock, Pass, Resign, best_arrangement, full_deck

from .helpers import build_deck, cards, dealt, new_match

GIN_A = "AC 2C 3C 4C 5D 6D 7D 9H 9S 9D"   # all melded
GIN_B = "5H 6H 7H 8H JC JD JS KC KD KH"   # all melded
LOSER = "KH QS JD TC 8H 6S 4H 2D KS QH"   # no meld: 80
# Whoever is the non-dealer gets GIN_A, the dealer GIN_B; either can go gin for 25 (+0).
BOTH_GIN = build_deck(GIN_A, GIN_B, "2S", stock="3S 4S")


def play_gin(match, winner: int, deck=BOTH_GIN) -> list[dict]:
    """Deal `deck` and let `winner` go gin at their first chance (no card changes hands)."""
    match.deal(deck)
    non_dealer = match.to_move
    dealer = 1 - non_dealer
    match.apply(non_dealer, Pass())
    match.apply(dealer, Pass())
    match.apply(non_dealer, Draw("stock"))
    drawn = cards(deck[21:22])[0]
    if winner == non_dealer:
        return match.apply(non_dealer, Knock(drawn))
    match.apply(non_dealer, Discard(drawn))
    match.apply(dealer, Draw("stock"))
    return match.apply(dealer, Knock(cards(deck[22:23])[0]))


def play_match(match, winners):
    dealers, events = [], []
    for winner in winners:
        assert not match.is_over
        events = play_gin(match, winner)
        dealers.append(match.view(0)["last_hand"]["dealer"])
        record = [e for e in events if e["type"] == "hand_end"][0]["record"]
        assert (record["result"], record["winner"]) == ("gin", winner)
    return dealers, events


def final(events):
    return [e for e in events if e["type"] == "match_end"][0]["result"]


# -- the game ---------------------------------------------------------------------------------

def test_match_to_100_with_shutout_doubled_game_and_box_bonus():
    match = new_match(first_dealer=0)
    _, events = play_match(match, [1, 1, 1, 1])          # 4 x 25 = 100
    assert match.is_over and match.winner == 1 and match.phase == "match_over"
    result = final(events)
    # Hand points 100 doubled (shutout) = 200, + game 100, + 4 boxes of 25.
    assert result["totals"] == [0, 200 + 100 + 100]
    assert result["margin"] == 400 and result["winner"] == 1
    assert match.view(0)["result"] == result


def test_box_bonus_for_each_hand_won_by_either_player_and_no_shutout():
    match = new_match(first_dealer=0)
    _, events = play_match(match, [0, 1, 0, 0, 0])
    result = final(events)
    assert result["totals"] == [100 + 100 + 4 * 25, 25 + 1 * 25]
    assert result["margin"] == 300 - 50 and result["winner"] == 0


def test_match_not_over_below_the_target():
    match = new_match(first_dealer=0)
    play_match(match, [0, 0, 0])
    assert not match.is_over and match.needs_deal and match.winner is None
    assert match.view(0)["result"] is None


@pytest.mark.parametrize("shutout, total", [("double", 200 + 100 + 100), ("none", 100 + 100 + 100),
                                            ("plus_100", 100 + 100 + 100 + 100)])
def test_shutout_options(shutout, total):
    match = new_match(first_dealer=0, shutout=shutout)
    _, events = play_match(match, [0, 0, 0, 0])
    assert final(events)["totals"] == [total, 0]


def test_game_bonus_and_box_bonus_options():
    match = new_match(first_dealer=0, game_bonus=0, box_bonus=20, shutout="none")
    _, events = play_match(match, [0, 1, 0, 0, 0])
    assert final(events)["totals"] == [100 + 0 + 4 * 20, 25 + 20]


def test_target_option():
    match = new_match(first_dealer=0, target=150, shutout="none")
    _, events = play_match(match, [1] * 6)
    assert final(events)["totals"] == [0, 150 + 100 + 6 * 25]


def test_gin_bonus_option_counts_in_the_match():
    match = new_match(first_dealer=0, gin_bonus=20, shutout="none")
    _, events = play_match(match, [0] * 5)                # 5 x 20 = 100
    assert final(events)["totals"] == [100 + 100 + 5 * 25, 0]


def test_hand_points_include_the_defender_count():
    match = new_match(first_dealer=0)
    events = play_gin(match, 1, build_deck(GIN_A, LOSER, "2S", stock="3S"))
    assert match.is_over                                  # 25 + 80 = 105 >= 100 at once
    assert final(events)["totals"] == [0, 2 * 105 + 100 + 25]


# -- next dealer -------------------------------------------------------------------------------

@pytest.mark.parametrize("rule, expected", [
    ("alternate", [0, 1, 0, 1, 0]),
    ("winner", [0, 1, 0, 0, 1]),     # the previous hand's winner deals
    ("loser", [0, 0, 1, 1, 0]),      # the previous hand's loser deals
])
def test_next_dealer(rule, expected):
    match = new_match(first_dealer=0, next_dealer=rule, target=1000)
    dealers, _ = play_match(match, [1, 0, 0, 1, 1])
    assert dealers == expected


def test_void_hand_keeps_the_dealer_under_every_next_dealer_rule():
    for rule in ("alternate", "winner", "loser"):
        match = new_match(first_dealer=1, next_dealer=rule)
        match.deal(full_deck())
        match.apply(0, Pass())
        match.apply(1, Pass())
        while not match.needs_deal:
            seat = match.to_move
            match.apply(seat, Draw("stock"))
            discard = [a for a in match.legal_actions(seat) if isinstance(a, Discard)][0]
            match.apply(seat, discard)
        assert match.view(0)["last_hand"]["result"] == "void"
        match.deal(full_deck())
        assert match.view(0)["dealer"] == 1, rule


def test_classic_preset_plays_to_100_with_loser_dealing():
    match = new_match("classic", first_dealer=0)
    dealers, events = play_match(match, [1, 1, 1, 1, 1])  # gin is 20 in classic: 5 hands
    assert dealers == [0, 0, 0, 0, 0]                      # seat 0 keeps losing, keeps dealing
    assert final(events)["totals"] == [0, 2 * 100 + 100 + 5 * 20]


# -- Oklahoma --------------------------------------------------------------------------------

OTHER = "KH QS JD TD 8H 6S 5H 2D KC QH"   # no meld


@pytest.mark.parametrize("upcard, limit", [("4H", 4), ("AH", 1), ("KD", 10), ("TC", 10), ("7C", 7), ("2S", 2)])
def test_oklahoma_knock_limit_is_the_upcard_value(upcard, limit):
    match = dealt("AC 2C 3C 4C 5D 6D 7D 8D 9H 3S", OTHER, upcard, preset="oklahoma")
    assert match.view(0)["knock_limit"] == limit == match.view(1)["knock_limit"]


@pytest.mark.parametrize("hand, upcard, ok", [
    ("AC 2C 3C 4C 5D 6D 7D 8D AH 3S", "4H", True),    # 4 against 4
    ("AC 2C 3C 4C 5D 6D 7D 8D 2H 3S", "4H", False),   # 5 against 4
    ("2C 3C 4C 5D 6D 7D 9H 9S 9C AH", "AD", True),    # 1 against an ace: 1
    ("2C 3C 4C 5D 6D 7D 9H 9S 9C 2H", "AD", False),   # 2 against 1
])
def test_oklahoma_knocks_against_the_upcard_limit(hand, upcard, ok):
    match = dealt(hand, OTHER, upcard, stock="KS", preset="oklahoma")
    match.apply(1, Pass())
    match.apply(0, Pass())
    match.apply(1, Draw("stock"))
    knock = Knock(cards("KS")[0])
    assert (knock in match.legal_actions(1)) is ok
    if not ok:
        with pytest.raises(IllegalAction) as info:
            match.check(1, knock)
        assert info.value.code == "deadwood-over-limit"
    else:
        record = match.apply(1, knock)[1]["record"]
        assert record["knocker_points"] == best_arrangement(cards(hand)).deadwood_points


@pytest.mark.parametrize("upcard, factor", [("2S", 2), ("2H", 1)])
def test_oklahoma_spade_upcard_doubles_the_hand(upcard, factor):
    match = new_match("oklahoma", first_dealer=0, target=1000)
    events = play_gin(match, 1, build_deck(GIN_A, LOSER, upcard, stock="3S"))
    record = [e for e in events if e["type"] == "hand_end"][0]["record"]
    assert record["points"] == factor * 105
    assert match.view(0)["scores"]["games"][0]["totals"] == [0, factor * 105]


def test_oklahoma_limit_comes_from_each_hands_own_upcard():
    match = new_match("oklahoma", first_dealer=0, target=1000)
    play_gin(match, 1, build_deck(GIN_A, GIN_B, "2S", stock="3S"))
    match.deal(build_deck(GIN_A, GIN_B, "9C", stock="3S"))
    assert match.view(0)["knock_limit"] == 9


# -- straight gin ----------------------------------------------------------------------------

def test_straight_gin_only_gin_ends_a_hand():
    match = dealt("AC 2C 3C 4C 5D 6D 7D 8D 9H AH", LOSER, "QC", stock="KC 9S", preset="straight")
    match.apply(1, Pass())
    match.apply(0, Pass())
    match.apply(1, Draw("stock"))
    assert not any(isinstance(a, Knock) for a in match.legal_actions(1))   # 1 point: no knock
    with pytest.raises(IllegalAction) as info:
        match.check(1, Knock(cards("KC")[0]))
    assert info.value.code == "knocking-not-allowed"
    assert match.view(1)["knock_limit"] == 0


def test_straight_gin_allows_gin():
    match = new_match("straight", first_dealer=0)
    events = play_gin(match, 1, build_deck(GIN_A, LOSER, "2S", stock="3S"))
    record = [e for e in events if e["type"] == "hand_end"][0]["record"]
    assert (record["result"], record["points"]) == ("gin", 105)


# -- Hollywood -------------------------------------------------------------------------------

def test_hollywood_three_games_at_once():
    match = new_match("hollywood", first_dealer=0, target=50)
    _, events = play_match(match, [0, 1, 0, 0, 0])
    assert match.is_over
    sheet = match.view(0)["scores"]["sheet"]
    # Seat 0's 1st win counts in game 1, its 2nd in games 1-2, later ones in every game still open.
    assert [row["games_credited"] for row in sheet] == [[0], [0], [0, 1], [1, 2], [2]]
    games = final(events)["games"]
    g1, g2, g3 = (g["final"] for g in games)
    # Game 1: 50 v 25, closed by seat 0's 2nd win; no shutout; boxes 2 v 1.
    assert g1["winner"] == 0 and g1["hand_points"] == [50, 25]
    assert g1["totals"] == [50 + 100 + 2 * 25, 25 + 1 * 25]
    # Games 2 and 3: seat 1 never scored in them: shutout, hand points doubled.
    for game in (g2, g3):
        assert game["winner"] == 0 and game["hand_points"] == [50, 0]
        assert game["totals"] == [2 * 50 + 100 + 2 * 25, 0]
    result = final(events)
    assert result["totals"] == [200 + 250 + 250, 50]
    assert result["winner"] == 0 and result["margin"] == 700 - 50


def test_hollywood_is_not_over_until_all_three_games_close():
    match = new_match("hollywood", first_dealer=0, target=50)
    play_match(match, [0, 0, 0])                          # game 1 and game 2 closed, game 3 at 25
    assert not match.is_over
    games = match.view(1)["scores"]["games"]
    assert [g["closed"] for g in games] == [True, True, False]


# -- resigning -------------------------------------------------------------------------------

@pytest.mark.parametrize("when", ["before_deal", "upcard_offer", "not_my_turn", "after_a_hand"])
def test_resign_any_time_by_either_seat_and_the_opponent_wins(when):
    match = new_match(first_dealer=0)
    if when == "after_a_hand":
        play_gin(match, 0)
    elif when != "before_deal":
        match.deal(full_deck())
    seat = 0 if when == "not_my_turn" else 1       # seat 1 (non-dealer) is to move after the deal
    events = match.apply(seat, Resign())
    assert [e["type"] for e in events] == ["resign", "match_end"]
    assert match.is_over and match.winner == 1 - seat
    for action in (Resign(), Pass(), Draw("stock")):
        for who in (0, 1):
            with pytest.raises(IllegalAction) as info:
                match.apply(who, action)
            assert info.value.code == "game-over" and info.value.status == 409
            assert match.legal_actions(who) == []
    with pytest.raises((IllegalAction, ValueError)):
        match.deal(full_deck())


# -- who wins ----------------------------------------------------------------------------------

KNOCKER_3 = "AC 2C 3C 5D 6D 7D 9H 9S 9D 3H"        # knocks with 3 (3H)
DEFENDER_19 = "JC QC KC 5H 6H 7H 8H TS 7S 2S"      # 19 (TS 7S 2S), nothing to lay off: 16 a hand


def deal_for(match, hand_index, seat_a_hand, seat_b_hand, first_dealer=0):
    """Deal so that seat 0 holds `seat_a_hand` and seat 1 `seat_b_hand` (dealer alternates)."""
    dealer = (first_dealer + hand_index) % 2
    hands = {0: seat_a_hand, 1: seat_b_hand}
    match.deal(build_deck(hands[1 - dealer], hands[dealer], "2H", stock="3D 4S"))
    return dealer


def first_chance_knock(match, knocker):
    """Both pass; the knocker knocks at its first draw with the card drawn (the other, if it draws
    first, throws its draw back)."""
    non_dealer = match.to_move
    match.apply(non_dealer, Pass())
    match.apply(1 - non_dealer, Pass())
    match.apply(non_dealer, Draw("stock"))
    if knocker == non_dealer:
        return match.apply(non_dealer, Knock(cards("3D")[0]))
    match.apply(non_dealer, Discard(cards("3D")[0]))
    match.apply(knocker, Draw("stock"))
    return match.apply(knocker, Knock(cards("4S")[0]))


def test_the_player_who_reaches_the_target_wins_even_with_the_lower_final_total():
    # RULES.md: "Hands are played until a player's total reaches the target (100) or more; that
    # player wins." (004: "The first player scoring 100 points wins the game".) Seat 1 wins six
    # knocks of 16 (96, short of 100); seat 0 then goes gin for 105 and reaches the target.
    # Final totals: seat 0: 105 + 100 game + 1 box = 230; seat 1: 96 + 6 boxes = 246.
    match = new_match(first_dealer=0)
    for index in range(6):
        deal_for(match, index, DEFENDER_19, KNOCKER_3)
        events = first_chance_knock(match, 1)
        record = [e for e in events if e["type"] == "hand_end"][0]["record"]
        assert (record["result"], record["winner"], record["points"]) == ("knock", 1, 16)
    assert not match.is_over
    deal_for(match, 6, GIN_A, LOSER)
    events = first_chance_knock(match, 0)
    record = [e for e in events if e["type"] == "hand_end"][0]["record"]
    assert (record["result"], record["winner"], record["points"]) == ("gin", 0, 25 + 80)
    assert match.is_over
    result = final(events)
    assert result["games"][0]["final"]["totals"] == [230, 246]
    assert result["totals"] == [230, 246]
    assert match.winner == 0 and result["winner"] == 0
