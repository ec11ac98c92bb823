"""Per-seat views and event redaction on scripted hands (docs/engine-api.md: Match, events)."""
import json

import pytest

from service.rules import Discard, Draw, Knock, Pass, TakeUpcard, parse_cards, redact_event

from .helpers import brute_min_deadwood, build_deck, card_strings, cards, dealt, new_match

ND = "AC 2C 3C 4C 5D 6D 7D 9H 9S KS"
DEALER = "KH QS JD TC 8H 6S 4H 2D KD QH"


def card(text):
    return parse_cards(text)[0]


def test_view_fields():
    match = dealt(ND, DEALER, "9D", stock="3S", first_dealer=0)
    view = match.view(1)
    json.dumps(view)
    for key in ("seat", "phase", "to_move", "dealer", "hand_number", "hand", "arrangement", "opponent",
                "discard_pile", "stock_count", "knock_limit", "legal_actions", "scores", "last_hand",
                "result", "rules"):
        assert key in view, key
    assert (view["seat"], view["phase"], view["to_move"], view["dealer"], view["hand_number"]) == \
        (1, "upcard_offer", 1, 0, 1)
    assert view["hand"] == ["AC", "2C", "3C", "4C", "5D", "6D", "7D", "9H", "9S", "KS"]
    assert view["arrangement"]["deadwood_points"] == 28 and view["arrangement"]["deadwood"] == ["9H", "9S", "KS"]
    assert view["opponent"]["card_count"] == 10 and view["opponent"]["known_cards"] == []
    assert sorted(a["type"] for a in view["legal_actions"]) == ["pass", "take_upcard"]
    assert view["rules"]["preset"] == "standard" and view["knock_limit"] == 10
    assert match.view(0)["legal_actions"] == []
    # Neither seat sees the other's hand or the stock.
    assert card_strings(match.view(0)) & set(ND.split()) == set()
    assert "3S" not in card_strings(match.view(1)) | card_strings(match.view(0))


def test_eleven_card_view_suggests_a_discard_it_may_make():
    match = dealt(ND, DEALER, "9D", stock="3S", first_dealer=0)
    match.apply(1, TakeUpcard())
    arrangement = match.view(1)["arrangement"]
    assert arrangement["best_discard"] == "KS" and arrangement["deadwood_after_discard"] == 0
    # Here the best discard by count would be KS, the card just taken, which may not go back:
    # the suggestion is another card, leaving KS as 10 points of deadwood.
    match = dealt("AC 2C 3C 4C 5D 6D 7D 9H 9S 9C", DEALER, "KS", stock="3S", first_dealer=0)
    match.apply(1, TakeUpcard())
    arrangement = match.view(1)["arrangement"]
    assert arrangement["best_discard"] != "KS"
    hand = cards("AC 2C 3C 4C 5D 6D 7D 9H 9S 9C KS")
    allowed = [c for c in hand if str(c) != "KS"]
    assert arrangement["deadwood_after_discard"] == 10 == min(
        brute_min_deadwood([x for x in hand if x != c]) for c in allowed)


def test_known_cards_are_the_ones_taken_face_up():
    match = dealt(ND, DEALER, "9D", stock="3S 4S", first_dealer=0)
    match.apply(1, TakeUpcard())
    assert match.view(0)["opponent"]["known_cards"] == ["9D"]
    match.apply(1, Discard(card("KS")))
    match.apply(0, Draw("discard"))                       # dealer takes KS
    assert match.view(1)["opponent"]["known_cards"] == ["KS"]
    match.apply(0, Discard(card("QH")))
    match.apply(1, Draw("stock"))
    match.apply(1, Discard(card("3S")))
    match.apply(0, Draw("stock"))
    match.apply(0, Discard(card("KS")))                   # discarded again: no longer known
    assert match.view(1)["opponent"]["known_cards"] == []


def test_stock_draw_is_private_and_knock_discard_face_down():
    match = dealt(ND, DEALER, "9D", stock="9C", first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, Pass())
    [draw] = match.apply(1, Draw("stock"))
    assert redact_event(draw, 1)["card"] == "9C"
    assert "9C" not in card_strings(redact_event(draw, 0))
    assert "private" not in redact_event(draw, 0)
    assert redact_event(draw, 0)["stock_count"] == 30
    events = match.apply(1, Knock(card("KS")))
    knock = events[0]
    assert knock["type"] == "knock"
    assert "KS" not in card_strings(redact_event(knock, 0))        # face down to the defender
    assert redact_event(knock, 1)["discard"] == "KS"
    assert redact_event(knock, 0, reveal_all=True)["discard"] == "KS"


def test_deal_event_shows_each_seat_only_its_own_cards():
    fresh = new_match(first_dealer=0)
    [deal] = fresh.deal(build_deck(ND, DEALER, "9D"))
    for seat, own, other in ((1, ND, DEALER), (0, DEALER, ND)):
        seen = card_strings(redact_event(deal, seat))
        assert set(own.split()) <= seen
        assert not set(other.split()) & seen
        assert "9D" in seen                                           # the upcard is public
    everything = card_strings(redact_event(deal, 0, reveal_all=True))
    assert set(ND.split()) | set(DEALER.split()) <= everything


def test_views_copy_the_state_they_show():
    # A view is the caller's to change: it must share no list or dict with the match.
    from service.rules.plain import plain_copy
    data = {"sheet": [{"hand": 1, "points": [25, None], "melds": [["AC", "2C", "3C"]], "gin": True}]}
    copied = plain_copy(data)
    assert copied == data
    copied["sheet"][0]["melds"][0].append("4C")
    assert data["sheet"][0]["melds"][0] == ["AC", "2C", "3C"]
    with pytest.raises(ValueError):
        plain_copy({"card": object()})  # only plain data: anything else is a bug, not a copy
