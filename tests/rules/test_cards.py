"""Card notation and meld validity (RULES.md: Cards; Melds and deadwood)."""
import pytest

from service.rules import Card, Meld, full_deck, parse_cards

from .helpers import cards


@pytest.mark.parametrize("text, rank, suit, points", [
    ("AS", 1, "S", 1), ("TD", 10, "D", 10), ("7H", 7, "H", 7), ("10D", 10, "D", 10),
    ("2C", 2, "C", 2), ("JC", 11, "C", 10), ("QH", 12, "H", 10), ("KS", 13, "S", 10),
])
def test_parse_notation(text, rank, suit, points):
    card = Card.parse(text)
    assert (card.rank, card.suit, card.points) == (rank, suit, points)


@pytest.mark.parametrize("text, canonical", [
    ("as", "AS"), ("td", "TD"), ("10d", "TD"), ("10D", "TD"), ("7h", "7H"), ("kS", "KS"), ("Qc", "QC"),
])
def test_lower_case_and_ten_spelled_out_are_accepted(text, canonical):
    assert str(Card.parse(text)) == canonical
    assert Card.parse(text) == Card.parse(canonical)


@pytest.mark.parametrize("bad", ["", "1S", "11H", "ZS", "AX", "A", "S", "TDX", "10", "XX", "AS 2S", "0C"])
def test_bad_text_raises_value_error_naming_it(bad):
    with pytest.raises(ValueError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value) or (bad and bad in str(info.value))


def test_parse_cards_names_the_bad_card_in_a_list():
    with pytest.raises(ValueError, match="QX"):
        parse_cards("AS 2S QX 4S")
    with pytest.raises(ValueError, match="1Z"):
        parse_cards(["AS", "1Z"])


def test_parse_cards_takes_text_or_list():
    assert parse_cards("AS 2s 10h") == [Card.parse("AS"), Card.parse("2S"), Card.parse("TH")]
    assert parse_cards(["AS", "2s", "10h"]) == parse_cards("AS 2S TH")


def test_every_card_round_trips_through_its_text():
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    texts = {str(c) for c in deck}
    assert len(texts) == 52
    for card in deck:
        text = str(card)
        assert len(text) == 2 and text[0] in "A23456789TJQK" and text[1] in "CDHS"
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert hash(Card.parse(text)) == hash(card)


def test_full_deck_is_a_fixed_order_and_a_fresh_list():
    first, second = full_deck(), full_deck()
    assert first == second
    first.reverse()
    assert full_deck() == second  # shuffling the caller's copy does not touch the engine's


def test_point_values():
    values = {str(c): c.points for c in full_deck()}
    for suit in "CDHS":
        assert [values[r + suit] for r in "A23456789TJQK"] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_cards_are_ordered_by_suit_then_rank_ace_low():
    assert sorted(cards("KS AS 2C AC TD")) == cards("AC 2C TD AS KS")
    assert Card.parse("AC") < Card.parse("2C") < Card.parse("KC") < Card.parse("AD")


# -- melds -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, kind", [
    ("7C 7D 7H", "set"), ("7C 7D 7H 7S", "set"), ("AC AD AS", "set"), ("KC KD KH KS", "set"),
    ("7C 8C 9C", "run"), ("AH 2H 3H", "run"), ("JD QD KD", "run"), ("3S 4S 5S 6S 7S 8S", "run"),
    ("9D TD JD QD KD", "run"), ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", "run"),
    ("9C 7C 8C", "run"), ("7h 7d 7c", "set"), ("10C JC QC", "run"),
])
def test_valid_melds(text, kind):
    meld = Meld.parse(text)
    assert meld.kind == kind
    assert sorted(meld.cards) == sorted(cards(text))
    assert Meld(cards(text)).kind == kind


@pytest.mark.parametrize("text", [
    "QC KC AC",         # ace is low only: Q-K-A is no run
    "KD AD 2D",         # no round-the-corner runs
    "7C 7D",            # two cards
    "7C 8C",
    "",
    "7C 8C TC",         # a gap
    "7C 8D 9C",         # two suits
    "7C 7D 8C",         # neither set nor run
    "7C 7C 7D",         # the same card twice
    "5C 6C 7C 7D",      # a run with a stray card
])
def test_invalid_melds_raise_value_error(text):
    with pytest.raises(ValueError):
        Meld(cards(text))


def test_meld_text_is_sorted_and_round_trips():
    meld = Meld.parse("9C 7C 8C")
    assert str(meld) == "7C 8C 9C"
    assert Meld.parse(str(meld)) == meld
    assert Meld.parse("7S 7C 7H") == Meld.parse("7C 7H 7S")
