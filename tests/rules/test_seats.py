"""A seat is a whole number: everywhere a seat enters the engine (actions, views, tables, the
first dealer), anything else, a bool included, is refused with `invalid-seat` (issue 25,
finding 12: `True` used to play as seat 1, since Python counts it an int equal to 1)."""
import pytest

from service.rules import IllegalAction, Match, Pass, Resign, Rules, TakeUpcard, redact_event
from service.rules.tables import Partnership, Rotation

from .helpers import build_deck, new_match

NOT_SEATS = [True, False, 1.0, "1", None, -1, 2]
DECK = build_deck("AS 2S 3S 4S 5S 7C 7D 7H 3H 2C", "KH QS JD TC 8H 6S 4H 2D KD QH", "8D")


def refused(call):
    with pytest.raises(IllegalAction) as info:
        call()
    assert info.value.code == "invalid-seat" and info.value.status == 400
    assert str(info.value)


def dealt_match() -> Match:
    match = new_match(first_dealer=0)
    match.deal(DECK)
    assert match.to_move == 1  # the seat True would have passed for
    return match


@pytest.mark.parametrize("seat", NOT_SEATS)
def test_a_match_refuses_what_is_no_seat(seat):
    match = dealt_match()
    before = match.to_dict()
    refused(lambda: match.check(seat, TakeUpcard()))
    refused(lambda: match.apply(seat, TakeUpcard()))
    refused(lambda: match.apply(seat, Resign()))
    refused(lambda: match.legal_actions(seat))
    refused(lambda: match.view(seat))
    refused(lambda: match.views((0, seat)))
    refused(lambda: match.forfeit(seat))
    assert match.to_dict() == before


@pytest.mark.parametrize("seat", [True, False, 1.0, None, 2])
def test_the_first_dealer_is_a_seat(seat):
    refused(lambda: Match.new(Rules(), first_dealer=seat))


def test_an_event_is_redacted_for_a_seat_only():
    event = dealt_match().apply(1, Pass())[0]
    refused(lambda: redact_event(event, True))
    assert redact_event(event, 1)["type"] == "pass"


@pytest.mark.parametrize("seat", NOT_SEATS[:5] + [3])
def test_a_rotation_refuses_what_is_no_seat(seat):
    table = Rotation(Rules(), first_pair=(0, 1), first_dealer=0)
    table.deal(0, DECK)
    assert table.to_move == [1]
    before = table.to_dict()
    refused(lambda: table.check(seat, TakeUpcard()))
    refused(lambda: table.apply(seat, TakeUpcard()))
    refused(lambda: table.legal_actions(seat))
    refused(lambda: table.view(seat))
    refused(lambda: table.board_of(seat))
    refused(lambda: table.forfeit(seat))
    refused(lambda: table.redact({"type": "pass", "seats": [0, 1]}, seat))
    assert table.to_dict() == before


@pytest.mark.parametrize("pair, dealer", [((0, True), None), ((True, 2), None), ((0, 1), True), ((0, 1), 1.0)])
def test_a_rotation_is_made_of_seats(pair, dealer):
    refused(lambda: Rotation(Rules(), first_pair=pair, first_dealer=dealer))


def test_a_partnership_refuses_what_is_no_seat():
    table = Partnership(Rules(), team_size=2)
    for seat in (True, 1.0, 4):
        refused(lambda: table.view(seat))
        refused(lambda: table.side_of(seat))
        refused(lambda: table.apply(seat, Resign()))
