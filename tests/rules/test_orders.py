"""Standing orders (issue 39, docs/plans.md): each settles the decision it covers on constructed
hands and no other, gin is never a knock with deadwood, and the text and JSON forms read back."""
import itertools
import json

import pytest

from service.rules import (
    BigGin,
    Discard,
    Draw,
    IllegalAction,
    Knock,
    Orders,
    Pass,
    Rotation,
    TakeUpcard,
    check_orders,
    order_move,
    parse_cards,
)
from service.rules.plan_rules import KnockIf

from .helpers import build_deck, dealt
from .test_plan_settle import ALL_MELDED, DEALER, RUNS, SEVENS, drawing

EVERYTHING = Orders.parse("pass unless it melds; take the pile's top if it melds, else draw stock; always go gin")


def card(text):
    return parse_cards(text)[0]


def move(match, orders, seat=1):
    before = match.to_dict()
    ordered = order_move(match, seat, orders)
    assert match.to_dict() == before
    return ordered


# -- the upcard offer and the draw ----------------------------------------------------------------

@pytest.mark.parametrize("hand, upcard, taken, says", [
    (SEVENS, "7H", True, "7H melds with 7C 7D"),
    (SEVENS, "4C", True, "4C melds with AC 2C 3C"),
    (SEVENS, "2H", False, "melds with nothing (keeping it would only lower your deadwood from 58 to 50)"),
    (SEVENS, "KH", False, "no fewer"),  # KH for KS: no lower
    ("AC 2C 3C 5H 6H 7H 8D 9D TD 4S", "9H", False, "does not lower your deadwood (keeping it: 9, without it: 4)"),
])
def test_pass_unless_it_melds(hand, upcard, taken, says):
    match = dealt(hand, DEALER, upcard, first_dealer=0)
    ordered = move(match, Orders(upcard=True))
    assert ordered.action == (TakeUpcard() if taken else Pass()) and ordered.order == "pass unless it melds"
    assert says in ordered.why
    assert move(match, Orders(draw=True, gin=True, knock=KnockIf())) is None  # no upcard order: asked


@pytest.mark.parametrize("top, taken", [("7H", True), ("4C", True), ("2H", False), ("KH", False), ("9H", False)])
def test_take_the_piles_top_if_it_melds_else_draw_stock(top, taken):
    ordered = move(drawing(SEVENS, upcard=top), Orders(draw=True))
    assert ordered.action == (Draw("discard") if taken else Draw("stock"))
    assert move(drawing(SEVENS, upcard=top), Orders(upcard=True, gin=True)) is None


def test_the_draw_order_draws_from_the_stock_when_the_pile_may_not_be_taken():
    match = dealt(SEVENS, DEALER, "7H", first_dealer=0)
    match.apply(1, Pass())
    match.apply(0, Pass())  # both passed: seat 1 must draw from the stock, 7H or not
    ordered = move(match, Orders(draw=True))
    assert ordered.action == Draw("stock") and "may not be taken" in ordered.why


def test_orders_never_discard():
    match = dealt(SEVENS, DEALER, "7H", first_dealer=0)
    match.apply(1, move(match, EVERYTHING).action)
    assert match.phase == "discard" and move(match, EVERYTHING) is None


# -- gin and knock --------------------------------------------------------------------------------

def test_always_go_gin_takes_big_gin_first():
    match = drawing(ALL_MELDED, stock="QD")
    match.apply(1, Draw("stock"))
    ordered = move(match, Orders(gin=True))
    assert ordered.action == BigGin() and ordered.order == "always go gin"
    pagat = drawing(ALL_MELDED, stock="QD", preset="pagat")
    pagat.apply(1, Draw("stock"))
    assert move(pagat, Orders(gin=True)).action == Knock(card("QD"))


def test_gin_is_never_a_knock_with_deadwood():
    match = drawing(RUNS, stock="TD")
    match.apply(1, Draw("stock"))  # a knock with 10 is legal now, a gin is not
    assert move(match, Orders(upcard=True, draw=True, gin=True)) is None
    ordered = move(match, Orders(gin=True, knock=KnockIf(10)))
    assert ordered.action == Knock(card("KS")) and ordered.order == "knock if deadwood at most 10"
    assert move(match, Orders(knock=KnockIf(9))) is None
    assert move(match, Orders(knock=KnockIf())).action == Knock(card("KS"))


def test_a_knock_order_keeps_to_the_hands_limit():
    match = drawing(RUNS, stock="TD", preset="oklahoma")  # the upcard 5C: the limit is 5
    match.apply(1, Draw("stock"))
    assert move(match, Orders(knock=KnockIf(10))) is None and move(match, Orders(knock=KnockIf())) is None


def test_the_last_discard_is_taken_only_to_finish_as_ordered():
    match = drawing(RUNS, stock="2D TD", last_discard_rule="take_to_finish")
    match.stock = match.stock[:4]
    for seat, action in ((1, Draw("stock")), (1, Discard(card("2D"))), (0, Draw("stock")), (0, Discard(card("TD")))):
        match.apply(seat, action)
    assert match.phase == "last_discard_offer"
    assert move(match, Orders(gin=True)) is None  # TD allows a knock with 10, not a gin
    ordered = move(match, Orders(knock=KnockIf()))
    assert ordered.action == Draw("discard") and "taking the last discard TD" in ordered.why
    match.apply(1, ordered.action)
    assert move(match, Orders(knock=KnockIf())).action == Knock(card("KS"))


# -- none else ------------------------------------------------------------------------------------

def test_orders_settle_nothing_out_of_turn_or_between_hands():
    match = dealt(SEVENS, DEALER, "7H", first_dealer=0)
    assert move(match, EVERYTHING, seat=0) is None
    assert move(match, Orders()) is None
    match.apply(1, TakeUpcard())
    match.apply(1, Discard(card("KS")))
    assert move(match, EVERYTHING, seat=1) is None  # seat 0's turn now
    table = Rotation()
    assert order_move(table, 1, EVERYTHING) is None  # no board dealt
    table.deal(0, build_deck(SEVENS, DEALER, "7H"))
    assert order_move(table, 1, EVERYTHING).action == TakeUpcard()
    assert order_move(table, 2, EVERYTHING) is None  # sitting out


def test_a_knock_order_is_refused_where_only_gin_ends_a_hand():
    with pytest.raises(IllegalAction) as info:
        check_orders(drawing(RUNS, preset="straight"), Orders(knock=KnockIf()))
    assert info.value.code == "knocking-not-allowed"
    check_orders(drawing(RUNS, preset="straight"), EVERYTHING)
    check_orders(drawing(RUNS), Orders(knock=KnockIf(3)))


def test_orders_for_this_hand_end_with_it():
    hand = Orders(gin=True, until="hand_end")
    assert hand.ended_by([{"type": "discard"}, {"type": "hand_end"}])
    assert hand.ended_by([{"type": "hand_void"}])
    assert not hand.ended_by([{"type": "discard"}])
    assert not Orders(gin=True).ended_by([{"type": "hand_end"}])
    board = [{"type": "hand_end", "board": 0, "seats": [0, 2]}]
    assert hand.ended_by(board, seat=2) and not hand.ended_by(board, seat=1)


# -- notation -------------------------------------------------------------------------------------

ALL = [Orders(u, d, g, k, until) for u, d, g in itertools.product((False, True), repeat=3)
       for k in (None, KnockIf(), KnockIf(0), KnockIf(5), KnockIf(10)) for until in ("hand_end", "cancelled")]


@pytest.mark.parametrize("orders", ALL, ids=str)
def test_orders_round_trip_through_text_and_json(orders):
    assert Orders.parse(str(orders)) == orders
    assert Orders.parse(str(orders).replace("; ", "\n")) == orders
    assert Orders.from_dict(json.loads(json.dumps(orders.to_dict()))) == orders


def test_the_orders_words():
    assert str(EVERYTHING) == ("pass unless it melds; take the pile's top if it melds, else draw stock; "
                               "always go gin; until cancelled")
    assert Orders.parse("Take the pile\u2019s top if it melds else draw from the stock.\nalways gin\n"
                        "knock if deadwood at most 4\nfor this hand") == \
        Orders(draw=True, gin=True, knock=KnockIf(4), until="hand_end")
    assert Orders.parse("no orders") == Orders() and str(Orders()) == "no orders; until cancelled"
    assert EVERYTHING.to_dict() == {"type": "orders", "upcard": "pass_unless_it_melds", "draw": "pile_if_it_melds",
                                    "gin": "always", "knock": None, "until": "cancelled"}
    assert Orders.from_dict({"knock": {"if_deadwood_at_most": 3}}) == Orders(knock=KnockIf(3))


@pytest.mark.parametrize("text", [
    "pass", "always knock", "knock 7H", "knock if deadwood at most 11", "always go gin; always gin",
    "no orders; always go gin", "take the upcard if it melds", "forever",
])
def test_unreadable_orders_are_refused(text):
    with pytest.raises(IllegalAction) as info:
        Orders.parse(text)
    assert info.value.code == "invalid-orders"


@pytest.mark.parametrize("data", [
    [], {"upcard": "always"}, {"gin": True}, {"knock": 5}, {"knock": {"card": "7H"}},
    {"knock": {"if_deadwood_at_most": 12}}, {"until": "tuesday"}, {"type": "plan"}, {"colour": "red"},
])
def test_malformed_orders_json_is_refused(data):
    with pytest.raises(IllegalAction) as info:
        Orders.from_dict(data)
    assert info.value.code == "invalid-orders"
