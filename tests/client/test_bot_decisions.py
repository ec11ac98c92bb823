"""The bot's pure decision function, on views written by hand (the fields the service sends)."""
import pytest

from gin_client.bots import reference


def view(hand, phase, legal, pile=("2C",), stock=25, known=(), knock_limit=10):
    return {"seat": 0, "to_move": 0, "phase": phase, "hand": list(hand), "discard_pile": list(pile),
            "stock_count": stock, "knock_limit": knock_limit, "legal_actions": legal,
            "opponent": {"card_count": 10, "known_cards": list(known)}, "hand_number": 1}


def discard_phase(hand, banned=(), knock_ok=True, **kw):
    legal = [{"type": "discard", "card": c} for c in hand if c not in banned]
    if knock_ok:
        legal += [{"type": "knock", "discard": c} for c in hand
                  if c not in banned and reference.deadwood([x for x in hand if x != c]) <= kw.get("knock_limit", 10)]
    return view(hand, "discard", legal, **kw)


TEN = ["7C", "8C", "9C", "QD", "QH", "QS", "AS", "3H", "5D", "KH"]  # deadwood A+3+5+K = 19


def test_takes_an_upcard_that_completes_a_meld():
    v = view(TEN, "upcard_offer", [{"type": "take_upcard"}, {"type": "pass"}], pile=["TC"])
    assert reference.choose_action(v) == {"type": "take_upcard"}


def test_passes_on_an_upcard_that_does_not_help():
    v = view(TEN, "upcard_offer", [{"type": "take_upcard"}, {"type": "pass"}], pile=["9D"])
    assert reference.choose_action(v) == {"type": "pass"}


def test_draws_the_discard_when_it_builds_a_meld_and_the_stock_otherwise():
    legal = [{"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"}]
    assert reference.choose_action(view(TEN, "draw", legal, pile=["4S", "QC"])) == {"type": "draw", "from": "discard"}
    assert reference.choose_action(view(TEN, "draw", legal, pile=["QC", "8S"])) == {"type": "draw", "from": "stock"}


def test_discards_the_high_card_without_partners():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "5D", "KH", "4H"]
    # 2S-3S and 4H-5D are near-melds; KH is high and alone.
    decision = reference.decide(discard_phase(hand, knock_ok=False))
    assert decision.action == {"type": "discard", "card": "KH"}
    assert decision.deadwood_after == 2 + 3 + 5 + 4


def test_never_discards_a_meld_card_or_the_card_just_taken():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "AS", "3H", "5D", "KH", "KS"]
    action = reference.choose_action(discard_phase(hand, banned=("KS",), knock_ok=False))
    assert action["type"] == "discard" and action["card"] not in ("KS", "7C", "8C", "9C", "QD", "QH", "QS")


def test_knocks_early_in_the_hand_and_before_the_stock_runs_out():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "4D", "KH", "AH"]  # KH out leaves 10
    assert reference.choose_action(discard_phase(hand, stock=29)) == {"type": "knock", "discard": "KH"}
    assert reference.choose_action(discard_phase(hand, stock=2)) == {"type": "knock", "discard": "KH"}
    assert reference.choose_action(discard_phase(hand, stock=15)) == {"type": "discard", "card": "KH"}


def test_knock_at_sets_how_low_the_deadwood_must_be():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "JC", "JD", "JS", "3S", "KH"]  # KH out leaves 3
    assert reference.choose_action(discard_phase(hand, stock=15), knock_at=3) == {"type": "knock", "discard": "KH"}
    assert reference.choose_action(discard_phase(hand, stock=29), knock_at=2) == {"type": "discard", "card": "KH"}


def test_goes_gin_with_the_card_that_leaves_nothing():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "4S", "KH", "5S"]
    assert reference.choose_action(discard_phase(hand, stock=10)) == {"type": "knock", "discard": "KH"}


def test_declares_big_gin():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "4S", "5S", "6S"]
    legal = [{"type": "big_gin"}] + [{"type": "discard", "card": c} for c in hand]
    assert reference.choose_action(view(hand, "discard", legal)) == {"type": "big_gin"}


def test_avoids_feeding_a_card_the_opponent_picked_up():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "9D", "9H", "4H"]
    # 9D and 9H are a pair; with TD known in the opponent's hand, 9D is the dangerous one... but
    # the equal-cost choice between 9D/9H must avoid the one next to the opponent's known card.
    action = reference.choose_action(discard_phase(hand, knock_ok=False, known=["TD", "JD"]))
    assert action["card"] != "9D"


@pytest.mark.parametrize("knock_at, stock, expected", [(None, 30, True), (None, 10, False), (None, 2, True),
                                                       (10, 10, True), (3, 30, False)])
def test_knock_policy(knock_at, stock, expected):
    assert reference.should_knock(8, {"stock_count": stock, "knock_limit": 10}, knock_at) is expected


def test_every_choice_is_one_of_the_legal_actions():
    import random
    rng = random.Random(7)
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    for _ in range(200):
        cards = rng.sample(deck, 13)
        hand, pile = cards[:11], cards[11:]
        v = discard_phase(hand, banned=(hand[0],), pile=pile)
        assert reference.choose_action(v) in v["legal_actions"]
        ten = hand[:10]
        v = view(ten, "draw", [{"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"}], pile=pile)
        assert reference.choose_action(v) in v["legal_actions"]


def test_no_legal_action_is_an_error_not_a_guess():
    with pytest.raises(ValueError):
        reference.choose_action(view(TEN, "draw", []))
