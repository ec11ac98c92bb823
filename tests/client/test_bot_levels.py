"""The house bot's levels (gin_client/bots/levels.py) on views the engine makes: every level's every
decision is one of the view's legal actions, at every preset and at Mahjong gin, over thousands
of views from random matches; no level reads a hidden card (a view whose hidden side, the stock's
order and the opponent's unseen cards, is scrambled gets the same decision with the same seed);
and the levels play as their sentences say. No assertion on time."""
from __future__ import annotations

import copy
import random

import pytest

from gin_client.bots import levels, model, reference
from service.rules import Match
from service.rules.actions import action_from_dict
from service.rules.options import PRESETS
from tests.rules.helpers import new_match, shuffled_deck

LEVELS = levels.LEVELS


def decide(view, level, seed=0, memory=None):
    """A level's decision with a fixed number of level-5 samples (a time budget would make it
    depend on the machine's speed)."""
    return levels.decide(view, level, random.Random(seed), memory, think_seconds=None, rollouts=8)


def random_views(preset: str, seed: int, limit: int):
    """Views of a match played by the levels in turn (each seat a level, changing every hand), with
    each seat's own Memory; yields (view, memory) before each decision."""
    rng = random.Random(seed)
    match = new_match(preset, first_dealer=rng.randrange(2))
    memories = {0: model.Memory(), 1: model.Memory()}
    for _ in range(limit):
        if match.is_over:
            return
        if match.needs_deal:  # Oklahoma's second deck: a knock card turned from a deck of its own
            second = rng.choice(shuffled_deck(rng)) if match.rules.knock_card == "second_deck" else None
            match.deal(shuffled_deck(rng), knock_card=second)
            continue
        seat = match.to_move
        view = match.view(seat)
        yield view, memories[seat]
        level = LEVELS[(seat + match.hand_number + rng.randrange(2)) % len(LEVELS)]
        match.apply(seat, action_from_dict(decide(view, level, rng.randrange(10**6), memories[seat]).action))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_level_decides_a_legal_action_on_random_views(preset):
    views = 0
    for seed in range(20):
        if views >= 220:
            break
        for view, memory in random_views(preset, seed, 130):
            legal = [a for a in view["legal_actions"] if a["type"] != "resign"]
            for level in LEVELS:
                action = decide(view, level, seed, copy.deepcopy(memory)).action
                assert action in legal, (preset, level, action, view["phase"])
            views += 1
    assert views >= 220  # 19 presets: over 4,000 views, each decided at the five levels


def scrambled(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match as `seat` sees it, with its hidden side changed: the opponent's cards that
    `seat` has not seen traded for others from the stock, and the stock shuffled."""
    state = match.to_dict()
    opponent = 1 - seat
    known = set(state["known"][opponent])
    unseen = [c for c in state["hands"][opponent] if c not in known]
    pool = unseen + state["stock"]
    rng.shuffle(pool)
    state["hands"][opponent] = sorted(known) + pool[:len(unseen)]
    state["stock"] = pool[len(unseen):]
    return Match.from_dict(state)


def with_hidden_parts(view: dict, match: Match, seat: int) -> dict:
    """The view with what the seat must never use added where a careless bot might look."""
    leaked = copy.deepcopy(view)
    leaked["stock"] = [str(c) for c in match.stock]
    leaked["opponent"]["hand"] = [str(c) for c in match.hands[1 - seat]]
    return leaked


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_reads_a_hidden_card(level):
    rng, compared, changed = random.Random(level), 0, 0
    for seed in range(4):
        match = new_match("standard", first_dealer=seed % 2)
        match.deal(shuffled_deck(random.Random(seed)))
        for _ in range(120):
            if match.is_over or match.needs_deal:
                break
            seat = match.to_move
            view = match.view(seat)
            other = scrambled(match, seat, rng)
            assert other.view(seat) == view  # the seat sees nothing of what was changed...
            changed += other.stock != match.stock
            mine = decide(with_hidden_parts(view, match, seat), level, seed)
            theirs = decide(with_hidden_parts(other.view(seat), other, seat), level, seed)
            assert mine.action == theirs.action and mine.reason == theirs.reason  # ...and decides alike
            compared += 1
            match.apply(seat, action_from_dict(decide(view, 3, seed).action))
    assert compared >= 100 and changed >= compared // 2


def discard_view(hand, stock=15, known=(), pile=("2C",)):
    legal = [{"type": "discard", "card": c} for c in hand]
    legal += [{"type": "knock", "discard": c} for c in hand if reference.deadwood([x for x in hand if x != c]) <= 10]
    return {"seat": 0, "to_move": 0, "phase": "discard", "hand": list(hand), "discard_pile": list(pile),
            "stock_count": stock, "knock_limit": 10, "legal_actions": legal, "hand_number": 1,
            "opponent": {"card_count": 10, "known_cards": list(known)}, "rules": {}}


KNOCKABLE = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "4D", "KH", "AH"]  # KH out leaves 10


def test_level_2_knocks_as_soon_as_it_may_where_level_3_plays_on():
    view = discard_view(KNOCKABLE)
    assert decide(view, 3).action == {"type": "discard", "card": "KH"}
    assert decide(view, 2).action == {"type": "knock", "discard": "KH"}


def test_level_1_throws_deadwood_at_random_and_level_3_always_the_same():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "5S", "9D", "KH", "4H"]
    view = discard_view(hand, stock=20)
    view["legal_actions"] = [a for a in view["legal_actions"] if a["type"] == "discard"]
    beginner = {decide(view, 1, seed).action["card"] for seed in range(40)}
    assert len(beginner) > 1 and beginner <= {"2S", "5S", "9D", "KH", "4H"}  # never a meld card
    assert len({decide(view, 3, seed).action["card"] for seed in range(40)}) == 1


def test_level_4_does_not_feed_a_meld_the_opponent_took_cards_for():
    # The opponent took 9H and 9S from the pile: 9D would give it a set; level 3 sees only deadwood.
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "9D", "TD", "KH"]
    view = discard_view(hand, stock=20, known=("9H", "9S"))
    view["legal_actions"] = [a for a in view["legal_actions"] if a["type"] == "discard"]
    assert decide(view, 4).action["card"] != "9D"


def test_levels_4_and_5_go_gin_when_they_can():
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "2S", "3S", "4S", "KH", "5S"]
    for level in (4, 5):
        assert decide(discard_view(hand, stock=20), level).action == {"type": "knock", "discard": "KH"}


def test_level_5_is_repeatable_with_its_seed_and_a_number_of_samples():
    hand = ["7C", "8C", "9C", "QD", "QH", "2S", "5S", "9D", "TD", "KH", "4H"]
    view = discard_view(hand, stock=20)
    assert len({decide(view, 5, seed=7).action["card"] for _ in range(3)}) == 1


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError):
        levels.decide(discard_view(KNOCKABLE), 6)
