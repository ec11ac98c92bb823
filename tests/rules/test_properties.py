"""Properties over random legal play from seeded decks: card conservation, no leaks in views or
events, exact serialisation, deterministic replay, and every hand ends."""
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import Match, full_deck, parse_cards, redact_event

from .helpers import card_strings, choose_action, new_match, shuffled_deck

VARIANTS = [
    ("standard", {}), ("straight", {}), ("oklahoma", {}), ("hollywood", {}), ("classic", {}),
    ("standard", {"last_discard_rule": "take_to_finish"}), ("classic", {"next_dealer": "winner"}),
]
ALL_CARDS = {str(c) for c in full_deck()}
PROPERTY_SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Tracker:
    """What each seat may know, kept from the events alone: the cards the opponent took from the
    discard pile this hand and has not discarded since."""

    def __init__(self):
        self.known = [set(), set()]  # known[s]: cards seat s took face up and still holds

    def see(self, events):
        for event in events:
            kind, seat = event["type"], event.get("seat")
            if kind == "deal":
                self.known = [set(), set()]
            elif kind == "take_upcard" or (kind == "draw" and event.get("from") == "discard"):
                self.known[seat].add(event["card"])
            elif kind == "discard":
                self.known[seat].discard(event["card"])


def check_conservation(match: Match, data: dict):
    held = data["hands"][0] + data["hands"][1] + data["stock"] + data["discard_pile"]
    if match.hand_number == 0:
        assert held == []
        return
    last = data["last_hand"]
    in_play = match.phase not in ("awaiting_deal", "match_over")
    if not in_play and last and last.get("hand") == match.hand_number and last.get("knock_discard"):
        held = held + [last["knock_discard"]]  # the face-down knock discard, recorded with the hand
    assert len(held) == 52 and set(held) == ALL_CARDS, f"cards lost or doubled in {match!r}"


def check_views(match: Match, data: dict, tracker: Tracker):
    for seat in (0, 1):
        view = match.view(seat)
        json.dumps(view)
        own = set(data["hands"][seat])
        assert set(view["hand"]) == own and view["hand"] == sorted(view["hand"], key=_order)
        assert view["opponent"]["card_count"] == len(data["hands"][1 - seat])
        assert view["stock_count"] == len(data["stock"])
        assert view["discard_pile"] == data["discard_pile"]
        in_play = match.phase not in ("awaiting_deal", "match_over")
        if in_play:
            assert set(view["opponent"]["known_cards"]) == tracker.known[1 - seat]
            assert set(view["opponent"]["known_cards"]) <= set(data["hands"][1 - seat])
        visible = own | set(data["discard_pile"]) | set(view["opponent"]["known_cards"])
        shown = card_strings({k: v for k, v in view.items() if k != "last_hand"})
        assert shown <= visible, f"seat {seat} sees {sorted(shown - visible)} in {match!r}"
        if in_play:
            assert not shown & set(data["stock"])
            hidden = set(data["hands"][1 - seat]) - tracker.known[1 - seat]
            assert not shown & hidden


def check_events(events, seat_views_checked=True):
    for event in events:
        json.dumps(event)
        private = event.get("private") or {}
        public_cards = card_strings({k: v for k, v in event.items() if k != "private"})
        for viewer in (0, 1):
            seen = redact_event(event, viewer)
            assert "private" not in seen
            own = card_strings(private.get(str(viewer), {}))
            assert own <= card_strings(seen), "a seat's own private part is missing"
            assert card_strings(seen) <= public_cards | own, f"event {event['type']} leaks to seat {viewer}"
            everything = redact_event(event, viewer, reveal_all=True)
            assert card_strings(everything) == public_cards | card_strings(private)


def check_round_trip(match: Match, data: dict):
    restored = Match.from_dict(json.loads(json.dumps(data)))
    assert restored.to_dict() == data
    assert restored == match


def _order(text):
    card = parse_cards(text)[0]
    return (card.suit_index, card.rank)


def play(seed, variant, checks=True, max_steps=250):
    """Random legal play from seeded decks; returns (match, decks, actions, events)."""
    preset, options = variant
    rng = random.Random(seed)
    match = new_match(preset, first_dealer=rng.randrange(2), target=40, **options)
    tracker = Tracker()
    decks, actions, all_events = [], [], []
    steps_this_hand = 0
    while not match.is_over and len(actions) < max_steps:
        if match.needs_deal:
            deck = shuffled_deck(rng)
            decks.append(deck)
            events = match.deal(deck)
            actions.append(("deal", len(decks) - 1))
            steps_this_hand = 0
        else:
            seat = match.to_move
            action = choose_action(match, seat, rng) if rng.random() < 0.7 else rng.choice(match.legal_actions(seat))
            events = match.apply(seat, action)
            actions.append((seat, action))
            steps_this_hand += 1
            # Draws from the discard pile do not run the stock down, so a hand has no fixed
            # length; this only guards against an engine that never ends one.
            assert steps_this_hand < 3000, "a hand that never ends"
        tracker.see(events)
        all_events.extend(events)
        if checks:
            data = match.to_dict()
            check_conservation(match, data)
            check_views(match, data, tracker)
            check_events(events)
            check_round_trip(match, data)
    return match, decks, actions, all_events


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS))
def test_random_play_keeps_every_invariant(seed, variant):
    play(seed, variant)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS))
def test_replaying_the_same_actions_gives_the_same_state(seed, variant):
    match, decks, actions, events = play(seed, variant, checks=False)
    again = new_match(variant[0], first_dealer=match.first_dealer, target=40, **variant[1])
    replayed = []
    for step in actions:
        if step[0] == "deal":
            replayed += again.deal(decks[step[1]])
        else:
            replayed += again.apply(*step)
    assert again == match
    assert replayed == events


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_restored_match_plays_on_exactly_like_the_original(seed):
    rng = random.Random(seed)
    match = new_match(first_dealer=0)
    match.deal(shuffled_deck(rng))
    for _ in range(rng.randrange(0, 40)):
        if match.needs_deal or match.is_over:
            break
        match.apply(match.to_move, choose_action(match, match.to_move, rng))
    if match.needs_deal or match.is_over:
        return
    copy = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    for _ in range(30):
        if match.needs_deal or match.is_over:
            break
        seat = match.to_move
        action = rng.choice(match.legal_actions(seat))
        assert copy.legal_actions(seat) == match.legal_actions(seat)
        assert copy.apply(seat, action) == match.apply(seat, action)
        assert copy == match


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_uniform_random_play_ends_every_hand(seed):
    # No nudging at all: each hand still ends, by a knock or the stock running down (hands can be
    # long: drawing from the discard pile leaves the stock as it is).
    rng = random.Random(seed)
    for preset in ("standard", "straight", "oklahoma", "hollywood", "classic"):
        match = new_match(preset, first_dealer=0)
        for _ in range(3):
            if match.is_over:
                break
            match.deal(shuffled_deck(rng))
            steps = 0
            while not match.needs_deal and not match.is_over:
                match.apply(match.to_move, rng.choice(match.legal_actions(match.to_move)))
                steps += 1
                assert steps < 3000
            assert match.view(0)["last_hand"]["hand"] == match.hand_number
