"""Legality has one source of truth: legal_actions, check and apply agree (docs/engine-api.md)."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import (BigGin, Discard, Draw, IllegalAction, Knock, Match, Meld, Pass, Resign,
    TakeUpcard, action_from_dict, full_deck)

from .helpers import choose_action, dealt, new_match, shuffled_deck

CODES = {"not-your-turn", "wrong-phase", "card-not-in-hand", "cannot-discard-taken-card",
         "deadwood-over-limit", "invalid-meld", "knocking-not-allowed", "big-gin-not-allowed",
         "knock-required", "game-over", "invalid-action"}
STATUS = {"not-your-turn": 409, "game-over": 409, "invalid-action": 400}

UNIVERSE = ([TakeUpcard(), Pass(), Draw("stock"), Draw("discard"), BigGin()]
            + [Discard(c) for c in full_deck()] + [Knock(c) for c in full_deck()])

VARIANTS = [
    ("standard", {}), ("straight", {}), ("oklahoma", {}), ("hollywood", {}), ("classic", {}),
    ("standard", {"last_discard_rule": "take_to_finish"}), ("standard", {"knock_limit": 0}),
    ("standard", {"big_gin": False}),
]


def refused(match, seat, action, compare_state=True):
    before = match.to_dict() if compare_state else None
    with pytest.raises(IllegalAction) as info:
        match.check(seat, action)
    with pytest.raises(IllegalAction) as again:
        match.apply(seat, action)
    assert again.value.code == info.value.code
    if compare_state:
        assert match.to_dict() == before, "a refused action changed the state"
    assert info.value.code in CODES
    assert info.value.status == STATUS.get(info.value.code, 422)
    assert str(info.value)  # a message for people
    return info.value.code


def check_state(match: Match, rng: random.Random, sample: int = 12):
    snapshot = match.to_dict()
    for seat in (0, 1):
        legal = match.legal_actions(seat)
        if seat != match.to_move:
            assert legal == []
        for action in legal:
            match.check(seat, action)
            copy = Match.from_dict(snapshot)
            events = copy.apply(seat, action)
            assert isinstance(events, list) and events
            json.dumps(events)
            # The JSON form in the view is postable unchanged.
            assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
        assert match.view(seat)["legal_actions"] == [a.to_dict() for a in legal]
        others = [a for a in UNIVERSE if a not in legal]
        for action in rng.sample(others, min(sample, len(others))):
            code = refused(match, seat, action, compare_state=False)  # compared once, below
            if seat != match.to_move and not match.is_over and not match.needs_deal:
                assert code == "not-your-turn"
            if match.is_over:
                assert code == "game-over"
    assert match.to_dict() == snapshot, "a refused action changed the state"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS))
def test_legal_actions_check_and_apply_agree_on_reachable_states(seed, variant):
    preset, options = variant
    rng = random.Random(seed)
    match = new_match(preset, first_dealer=rng.randrange(2), target=60, **options)
    steps = 0
    while not match.is_over and steps < 250:
        if match.needs_deal:
            check_state(match, rng, sample=4)
            match.deal(shuffled_deck(rng))
            continue
        if rng.random() < 0.15:
            check_state(match, rng)
        seat = match.to_move
        match.apply(seat, choose_action(match, seat, rng))
        steps += 1
    check_state(match, rng, sample=6)


# -- specific situations ----------------------------------------------------------------------

ND = "AC 2C 3C 4C 5D 6D 7D 9H 9S KS"
DEALER = "KH QS JD TC 8H 6S 4H 2D KD QH"


def C(text):  # noqa: N802
    return full_deck()[[str(c) for c in full_deck()].index(text)]


def test_codes_for_specific_situations():
    match = new_match(first_dealer=0)
    assert refused(match, 1, Pass()) == "wrong-phase"                 # nothing dealt yet
    match = dealt(ND, DEALER, "9D", stock="3S", first_dealer=0)
    assert refused(match, 0, TakeUpcard()) == "not-your-turn"
    assert refused(match, 1, Draw("stock")) == "wrong-phase"
    assert refused(match, 1, Discard(C("KS"))) == "wrong-phase"
    match.apply(1, TakeUpcard())
    assert refused(match, 1, Discard(C("QH"))) == "card-not-in-hand"
    assert refused(match, 1, Discard(C("9D"))) == "cannot-discard-taken-card"
    assert refused(match, 1, Knock(C("9H"))) == "deadwood-over-limit"    # breaks the nines
    assert refused(match, 1, Knock(C("KS"), (Meld.parse("9H 9S 9C"),))) == "invalid-meld"
    assert refused(match, 1, BigGin()) == "big-gin-not-allowed"
    assert refused(match, 1, Pass()) == "wrong-phase"
    assert refused(match, 0, Discard(C("QH"))) == "not-your-turn"
    match.apply(0, Resign())
    assert refused(match, 1, Discard(C("KS"))) == "game-over"


def message_of(match, seat, action) -> str:
    with pytest.raises(IllegalAction) as info:
        match.apply(seat, action)
    return info.value.message


def test_every_refusal_names_the_phase_and_the_card():
    match = dealt(ND, DEALER, "9D", stock="3S", first_dealer=0)
    assert "KS" in (text := message_of(match, 1, Discard(C("KS")))) and "upcard offer" in text
    match.apply(1, TakeUpcard())
    for action, card in ((Discard(C("QH")), "QH"), (Discard(C("9D")), "9D"), (Knock(C("9H")), "9H"),
                         (Knock(C("KS"), (Meld.parse("9H 9S 9C"),)), "KS")):
        text = message_of(match, 1, action)
        assert card in text and "the discard" in text, text
    assert "the discard" in message_of(match, 1, BigGin())
    assert "the discard" in message_of(match, 0, Discard(C("QH")))  # not your turn, in the discard
    match.apply(1, Discard(C("KS")))
    assert "the draw" in (text := message_of(match, 0, Knock(C("AS")))) and "AS" in text


def test_knocking_not_allowed_code():
    match = dealt("AC 2C 3C 4C 5D 6D 7D 8D 9H AH", DEALER, "QC", stock="KC", preset="straight")
    match.apply(1, Pass())
    match.apply(0, Pass())
    match.apply(1, Draw("stock"))
    assert refused(match, 1, Knock(C("KC"))) == "knocking-not-allowed"


def test_seat_numbers_other_than_0_and_1_are_refused():
    match = dealt(ND, DEALER, "9D")
    for seat in (2, -1):
        with pytest.raises((IllegalAction, ValueError)):
            match.apply(seat, Pass())
    assert match.to_move == 1


@pytest.mark.parametrize("data", [
    None, [], "pass", 7, {}, {"type": None}, {"type": 3}, {"type": "fold"}, {"type": "PASS"},
    {"type": "pass", "card": "7H"},
    {"type": "draw"}, {"type": "draw", "from": "hand"}, {"type": "draw", "from": 1},
    {"type": "draw", "from": "stock", "card": "7H"},
    {"type": "discard"}, {"type": "discard", "card": "1Z"}, {"type": "discard", "card": 7},
    {"type": "discard", "card": None}, {"type": "discard", "card": ["7H"]},
    {"type": "knock"}, {"type": "knock", "discard": "ZZ"}, {"type": "knock", "discard": "7H", "melds": "7C 8C 9C"},
    {"type": "knock", "discard": "7H", "melds": ["7C", "8C", "9C"]},
    {"type": "big_gin", "discard": "7H"}, {"type": "take_upcard", "from": "discard"},
    {"type": "resign", "seat": 1},
])
def test_malformed_action_dicts_are_invalid_action(data):
    with pytest.raises(IllegalAction) as info:
        action_from_dict(data)
    assert info.value.code == "invalid-action" and info.value.status == 400
    assert str(info.value)


def test_bad_card_text_inside_melds_is_invalid_action():
    # engine-api.md: action_from_dict raises invalid-action for "bad card text"; a group that is no
    # meld is invalid-meld, but "9X" is not a card at all.
    with pytest.raises(IllegalAction) as info:
        action_from_dict({"type": "knock", "discard": "7H", "melds": [["7C", "8C", "9X"]]})
    assert info.value.code == "invalid-action" and info.value.status == 400


@pytest.mark.parametrize("action, data", [
    (TakeUpcard(), {"type": "take_upcard"}),
    (Pass(), {"type": "pass"}),
    (Draw("stock"), {"type": "draw", "from": "stock"}),
    (Draw("discard"), {"type": "draw", "from": "discard"}),
    (Discard(C("7H")), {"type": "discard", "card": "7H"}),
    (Knock(C("7H")), {"type": "knock", "discard": "7H"}),
    (Knock(C("7H"), (Meld.parse("7C 8C 9C"),)), {"type": "knock", "discard": "7H", "melds": [["7C", "8C", "9C"]]}),
    (BigGin(), {"type": "big_gin"}),
    (Resign(), {"type": "resign"}),
])
def test_action_json_forms(action, data):
    assert action.to_dict() == data
    assert action_from_dict(data) == action
    assert action_from_dict(json.loads(json.dumps(data))) == action


def test_action_json_accepts_the_input_spellings_of_cards():
    assert action_from_dict({"type": "discard", "card": "10h"}) == Discard(C("TH"))
