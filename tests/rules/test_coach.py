"""The coach's reviewer (service/rules/coach, issue 41): it weighs a decision from the seat's
information only, marks bad choices in states whose best option is known, and is repeatable."""
from __future__ import annotations

import copy
import random

import pytest

from service.rules import Rules
from service.rules.coach import (
    NotReviewable,
    SeatView,
    Transcript,
    hint,
    label,
    review_match,
    seat_view,
    walk,
    weigh,
)
from service.rules.coach.hands import bits, deadwood
from service.rules.coach.selfplay import play_match
from service.rules.coach.weighing import reviewed

DEALS = 24


def _decision_points(transcript, limit):
    found = []
    for match, seat, action, record, index in walk(transcript):
        if match.to_move == seat and reviewed(seat_view(match, seat, record)):
            found.append((copy.deepcopy(match), seat, copy.deepcopy(record), index))
        if len(found) >= limit:
            break
    return found


def _swap_hidden(match, seat, rng):
    """The same match from `seat`'s view, with the opponent's unknown cards and the stock dealt
    again from the cards the seat cannot see."""
    other = 1 - seat
    swapped = copy.deepcopy(match)
    known = list(swapped.known[other])
    hidden = [c for c in swapped.hands[other] if c not in known] + list(swapped.stock)
    before = list(hidden)
    while hidden == before:
        rng.shuffle(hidden)
    count = len(swapped.hands[other]) - len(known)
    swapped.hands[other] = known + hidden[:count]
    swapped.stock = hidden[count:]
    return swapped


@pytest.mark.parametrize("game", [3, 8])
def test_a_decision_is_weighed_the_same_whatever_the_opponent_holds_and_the_stock_order(game):
    rng = random.Random(game)
    for match, seat, record, index in _decision_points(play_match(game), 12)[::3]:
        swapped = _swap_hidden(match, seat, rng)
        assert swapped.hands[1 - seat] != match.hands[1 - seat] or swapped.stock != match.stock
        seed = f"s:{index}"
        assert weigh(seat_view(swapped, seat, record), seed, DEALS) == weigh(seat_view(match, seat, record), seed, DEALS)


def test_a_review_is_the_same_with_the_same_seed_and_differs_with_another():
    transcript = play_match(5, max_hands=1)
    first, again = review_match(transcript, "a", deals=8), review_match(transcript, "a", deals=8)
    assert first == again
    other = review_match(transcript, "b", deals=8)
    assert [d["options"] for d in other["decisions"]] != [d["options"] for d in first["decisions"]]


def test_a_review_has_every_decision_and_the_summaries():
    transcript = play_match(7, max_hands=1)
    review = review_match(transcript, "x", deals=6)
    rows = review["decisions"]
    assert rows and {r["phase"] for r in rows} >= {"draw", "discard"}
    for row in rows:
        assert row["chosen_expected"] == pytest.approx(row["best_expected"] - row["given_away"], abs=0.02)
        assert any(o["action"] == row["best"] and o["behind"] == 0 for o in row["options"])
    seats = review["match"]["seats"]
    assert sum(s["decisions"] for s in seats) == len(rows)
    assert seats[0]["given_away"] == pytest.approx(sum(r["given_away"] for r in rows if r["seat"] == 0), abs=0.02)
    assert review["hands"][0]["seats"][1]["decisions"] == sum(1 for r in rows if r["seat"] == 1)


def test_labels_need_both_the_points_and_two_standard_errors():
    assert label(0.5, 1.0) == "best"
    assert label(3.0, 2.0) == "good"  # 3 points but not beyond noise
    assert label(3.0, 1.0) == "inaccuracy"
    assert label(6.0, 1.0) == "mistake"
    assert label(12.0, 1.0) == "blunder"


# -- constructed states: the best option is known -------------------------------------------------

def _view(hand, known=(), pile=("2C",), opp_count=10, stock=25, taken=None, knock_limit=10):
    """A seat at its discard with `hand` (11 cards): every discard legal, every knock within the limit."""
    legal = [{"type": "discard", "card": c} for c in hand if c != taken]
    legal += [{"type": "knock", "discard": c} for c in hand
              if c != taken and deadwood(bits([x for x in hand if x != c])) <= knock_limit]
    return SeatView(seat=0, hand_number=1, phase="discard", hand=tuple(sorted(hand)), pile=tuple(pile),
                    known=tuple(known), opp_count=opp_count, stock=stock, threw=frozenset(), passed=frozenset(),
                    first_offer=False, taken=taken, knock_limit=knock_limit, multiplier=1, rules=Rules(),
                    legal=tuple(tuple(sorted(a.items())) for a in legal))


def test_a_gin_available_is_the_best_and_playing_on_is_marked():
    deck_hand = ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "KD"]
    others = ["AC", "2C", "3C", "4C", "5C", "6C", "AD", "2D", "3D", "4D"]
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in deck_hand + others + ["TC"]]
    deck = [c for pair in zip(deck_hand, others) for c in pair] + ["TC"] + rest
    transcript = Transcript(rules={}, first_dealer=1, decks={1: deck},
                            moves=[(0, {"type": "take_upcard"}), (0, {"type": "discard", "card": "KD"})])
    review = review_match(transcript, "gin", deals=DEALS)
    discard = next(r for r in review["decisions"] if r["phase"] == "discard")
    assert discard["best"] == {"type": "knock", "discard": "KD"}
    assert discard["given_away"] > 0 and discard["label"] != "best"
    take = next(r for r in review["decisions"] if r["phase"] == "upcard_offer")
    assert take["best"] == {"type": "take_upcard"} and take["label"] == "best"


def test_a_discard_that_feeds_a_visible_run_is_marked():
    hand = ["AS", "2S", "3S", "4D", "5D", "6D", "JC", "QC", "TH", "KD", "9S"]  # TH and KD: loose tens; TH makes 8H 9H a run
    theirs = ("4C", "5C", "6C", "7S", "7D", "7C", "8H", "9H", "2H", "3D")  # taken from the pile, in view
    view = _view(hand, known=theirs, pile=("2C", "3H"), stock=28)  # early: a knock follows the feed
    weighing = weigh(view, "feed", 48, {"type": "discard", "card": "TH"})
    feeding = weighing.of({"type": "discard", "card": "TH"})
    assert weighing.best.action != {"type": "discard", "card": "TH"}
    assert feeding.behind > 2 * feeding.se and label(feeding.behind, feeding.se) != "best"


def test_a_knock_undercut_for_sure_is_marked_a_blunder():
    hand = ["AS", "2S", "3S", "4D", "5D", "6D", "JC", "QC", "KC", "9H", "8S"]  # knock with 8S: 9 points left
    theirs = ("AH", "2H", "3H", "3C", "7C", "7D", "7H", "TC", "TD", "TS")  # all known to the seat: 3 deadwood
    view = _view(hand, known=theirs, pile=("2C",), stock=20)  # mid-hand: the opponent holds on for gin
    weighing = weigh(view, "undercut", DEALS, {"type": "knock", "discard": "8S"})
    knock = weighing.of({"type": "knock", "discard": "8S"})
    assert knock.expected < -25  # the undercut bonus and more, on every deal
    assert weighing.best.action["type"] == "discard"
    assert label(knock.behind, knock.se) == "blunder"


def test_mahjong_and_other_cards_are_not_reviewed():
    with pytest.raises(NotReviewable) as caught:
        list(walk(Transcript(rules={"mahjong": True, "preset": "mahjong_gin"}, first_dealer=0, decks={}, moves=[])))
    assert caught.value.code == "review-not-available"


def test_a_hint_names_the_best_option_of_the_seat_to_move():
    transcript = play_match(11, max_hands=1)
    partial = Transcript(transcript.rules, transcript.first_dealer, transcript.decks, transcript.moves[:5])
    match = [m for m, *_ in walk(partial, stop_before=5)][-1]
    seat = match.to_move
    answer = hint(partial, seat, "h", deals=8)
    assert answer is not None and answer["best"] == answer["options"][0]["action"]
    assert answer["best"] in [a.to_dict() for a in match.legal_actions(seat)] or answer["best"]["type"] == "knock"
    assert hint(partial, 1 - seat, "h", deals=8) is None
