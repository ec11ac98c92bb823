"""Settling a plan (issue 39, docs/plans.md) on constructed hands: every conditional decides as
specified, `discard worst` breaks its ties as documented, and a plan that cannot be played is
refused whole, before anything moves, with a reason that depends only on what the seat sees."""
import pytest

from service.rules import (
    BigGin,
    Discard,
    Draw,
    IllegalAction,
    Knock,
    LayMeld,
    Match,
    Pass,
    Plan,
    Resign,
    TakeUpcard,
    parse_cards,
    settle_plan,
)

from .helpers import brute_min_deadwood, build_deck, card_strings, dealt, new_match
from .test_mahjong import pile_of_three  # seat 0 to draw, the pile 8H 3C 5D (top)

DEALER = "AS 2S 3S 4H 4D 6C 9C TC JC KD"  # seat 0's cards; seat 1 is the one planning
SEVENS = "7C 7D AC 2C 3C 9S JH QS KS 5D"  # 58 points of deadwood: AC 2C 3C is its one meld
RUNS = "AC 2C 3C 5H 6H 7H 8D 9D QS KS"   # 37 points: 8D 9D waits for 7D or TD
ALL_MELDED = "AC 2C 3C 5H 6H 7H 8D 9D TD JD"


def card(text):
    return parse_cards(text)[0]


def drawing(hand, stock=(), upcard="5C", preset="standard", **options):
    """Seat 1 to draw, the upcard on the pile (004's first turn: take it or draw)."""
    return dealt(hand, DEALER, upcard, stock=stock, first_dealer=0, preset=preset, first_turn="take_or_draw",
                 **options)


def settle(match, text, seat=1):
    return settle_plan(match, seat, Plan.parse(text))


def refused(match, text, code, seat=1):
    before = match.to_dict()
    with pytest.raises(IllegalAction) as info:
        settle(match, text, seat)
    assert info.value.code == code, info.value.message
    assert match.to_dict() == before  # refused whole: nothing moved
    return info.value.message


# -- discard drawn unless it melds ------------------------------------------------------------------

def test_a_drawn_card_that_melds_is_kept_and_the_else_card_thrown():
    settled = settle(drawing(SEVENS, stock="7H"), "draw stock, discard drawn unless it melds, else KS")
    assert settled.actions == (Draw("stock"), Discard(card("KS")))
    assert settled.drawn == card("7H")
    [decision] = settled.decisions
    assert not decision.played and "7H melds with 7C 7D" in decision.why and "so you kept it" in decision.why
    kept = parse_cards(SEVENS + " 7H")
    assert f"leaves {brute_min_deadwood([c for c in kept if c != card('KS')])} points" in decision.why
    assert settled.answer().startswith("You drew 7H from the stock; 7H melds with 7C 7D")
    assert settled.answer().endswith("you threw KS.")


def test_a_drawn_card_that_lowers_the_deadwood_without_melding_is_kept():
    settled = settle(drawing(SEVENS, stock="2H"), "draw stock, discard drawn unless it melds, else KS")
    assert settled.actions[-1] == Discard(card("KS"))
    assert "2H melds with nothing, but keeping it lowers your deadwood from 58 to 50" in settled.decisions[0].why


def test_a_tie_throws_the_drawn_card():
    # KH for KS: the same 58 points either way, so the hand stays as it was.
    settled = settle(drawing(SEVENS, stock="KH"), "draw stock, discard drawn unless it melds, else KS")
    assert settled.actions[-1] == Discard(card("KH")) and settled.decisions[0].played
    assert "no fewer" in settled.decisions[0].why


def test_a_drawn_card_that_raises_the_deadwood_is_thrown():
    settled = settle(drawing(SEVENS, stock="9H"), "draw stock, discard drawn unless it melds, else 5D")
    assert settled.actions[-1] == Discard(card("9H"))
    assert "keeping it: 62, without it: 58" in settled.decisions[0].why


def test_the_else_decides_what_keeping_means():
    # With else 7C (a card the drawn 7H would meld with), keeping 7H lowers nothing: it is thrown.
    settled = settle(drawing(SEVENS, stock="7H"), "draw stock, discard drawn unless it melds, else 7C")
    assert settled.actions[-1] == Discard(card("7H"))
    # With else worst, the worst of the other cards goes, and its decision follows.
    settled = settle(drawing(SEVENS, stock="7H"), "draw stock, discard drawn unless it melds, else worst")
    assert settled.actions[-1] == Discard(card("KS"))
    assert [d.rule for d in settled.decisions] == list(Plan.parse("draw stock, discard drawn unless it melds, "
                                                                 "else worst").rules)


def test_keeping_is_only_chosen_when_the_rest_can_be_played():
    # Keeping 7H and knocking with KS would leave 34 points: not a legal knock, so 7H goes.
    settled = settle(drawing(SEVENS, stock="7H"), "draw stock, discard drawn unless it melds, else knock KS")
    assert settled.actions[-1] == Discard(card("7H")) and "no way to play the rest" in settled.decisions[0].why
    # Keeping TD completes 8D 9D TD; knocking with KS then leaves 10, within the limit.
    settled = settle(drawing(RUNS, stock="TD"), "draw stock, discard drawn unless it melds, else knock KS")
    assert settled.actions[-1] == Knock(card("KS"))


# -- discard worst ----------------------------------------------------------------------------------

def test_discard_worst_throws_the_card_leaving_least_then_the_highest():
    # KS, QS and JH each leave 48: the king goes (rank), not the queen or the jack.
    settled = settle(drawing(SEVENS, stock="4S"), "draw stock, discard worst")
    assert settled.actions[-1] == Discard(card("KS"))
    assert "so would QS JH" in settled.decisions[0].why
    # Two kings: the spade goes before the heart (suits S, H, D, C).
    settled = settle(drawing("7C 7D AC 2C 3C 9S KH QS KS 5D", stock="4S"), "draw stock, discard worst")
    assert settled.actions[-1] == Discard(card("KS"))
    # Leaving less deadwood comes before any tie-break: KS in JS QS KS stays, and 7D goes.
    settled = settle(drawing("JS QS KS AC 2C 3C 5D 7D 9H TH", stock="8H"), "draw stock, discard worst")
    assert settled.actions[-1] == Discard(card("7D"))


def test_discard_worst_never_throws_the_card_just_taken():
    settled = settle(drawing(SEVENS, upcard="KH"), "take, discard worst")
    assert settled.actions == (Draw("discard"), Discard(card("KS")))


def test_discard_worst_is_the_views_suggestion():
    match = drawing(SEVENS, stock="4S")
    match.apply(1, Draw("stock"))
    assert match.view(1)["arrangement"]["best_discard"] == "KS"
    assert settle(match, "discard worst").actions == (Discard(card("KS")),)


def test_discard_worst_counts_the_rules_card_values():
    # Tedesco: an unmelded ace counts 15, so it is worse than a king.
    match = dealt("AD 5H 7C 7D 9S 2C 3C 4C JH KS", DEALER, "5C", stock="QH", first_dealer=0,
                  preset="tedesco_gin", first_turn="take_or_draw")
    assert settle(match, "draw stock, discard worst").actions[-1] == Discard(card("AD"))


# -- knock and gin --------------------------------------------------------------------------------

def test_knock_if_deadwood_at_most_knocks_with_the_best_discard_or_hands_over():
    settled = settle(drawing(RUNS, stock="TD"), "draw stock, knock if deadwood at most 10, else discard worst")
    assert settled.actions[-1] == Knock(card("KS"))  # KS and QS each leave 10: the king goes
    assert "knocked with 10 points of deadwood" in settled.answer()
    settled = settle(drawing(RUNS, stock="TD"), "draw stock, knock if deadwood at most 9, else discard worst")
    assert settled.actions[-1] == Discard(card("KS"))
    assert not settled.decisions[0].played and "over 9" in settled.decisions[0].why


def test_a_knock_never_goes_over_the_hands_own_limit():
    # Oklahoma: the upcard 5C sets this hand's limit to 5.
    match = drawing(RUNS, stock="TD", preset="oklahoma")
    assert match.knock_limit == 5
    settled = settle(match, "draw stock, knock if deadwood at most 10, else discard worst")
    assert settled.actions[-1] == Discard(card("KS"))
    assert "over this hand's knock limit 5" in settled.decisions[0].why
    settled = settle(match, "draw stock, knock if possible, else discard worst")
    assert settled.actions[-1] == Discard(card("KS"))


def test_gin_if_possible_prefers_big_gin():
    settled = settle(drawing(ALL_MELDED, stock="QD"), "draw stock, gin if possible, else discard worst")
    assert settled.actions[-1] == BigGin() and settled.answer().endswith("you declared Big Gin.")
    # A knock that leaves nothing is a gin too: the better one when there is one.
    settled = settle(drawing(ALL_MELDED, stock="QD"), "draw stock, knock if deadwood at most 3, else discard worst")
    assert settled.actions[-1] == BigGin()


def test_without_big_gin_a_gin_throws_the_highest_card_that_leaves_nothing():
    # 001 has no Big Gin: 8D and QD each leave 8D..QD's run whole; QD is worth more.
    settled = settle(drawing(ALL_MELDED, stock="QD", preset="pagat"), "draw stock, gin if possible, else discard worst")
    assert settled.actions[-1] == Knock(card("QD")) and "you went gin" in settled.answer()


def test_gin_if_possible_hands_over_when_there_is_none():
    settled = settle(drawing(RUNS, stock="TD"), "draw stock, gin if possible, else discard worst")
    assert settled.actions[-1] == Discard(card("KS"))
    assert "no discard leaves you without deadwood (the least is 10" in settled.decisions[0].why


def test_unconditional_gin_and_knock_must_be_certain_whatever_is_drawn():
    message = refused(drawing(RUNS, stock="TD"), "draw stock, gin", "deadwood-over-limit")
    assert message.startswith("if you drew ") and "no discard leaves you without deadwood" in message
    message = refused(drawing(RUNS, stock="TD"), "draw stock, knock KS", "deadwood-over-limit")
    assert message.startswith("if you drew ")
    # Once the card is known, gin KS is a knock with KS that must leave nothing.
    match = drawing(RUNS, stock="TD")
    match.apply(1, Draw("stock"))
    assert "gin needs none" in refused(match, "gin KS", "deadwood-over-limit")
    assert settle(match, "knock KS").actions == (Knock(card("KS")),)


# -- refused whole ----------------------------------------------------------------------------------

def test_a_plan_out_of_turn_or_phase_is_refused():
    match = drawing(SEVENS, stock="7H")
    refused(match, "draw stock, discard worst", "not-your-turn", seat=0)
    refused(match, "discard KS", "wrong-phase")
    refused(match, "take 3, discard worst", "wrong-phase")                 # several cards: Mahjong gin's
    refused(match, "take, meld 5H 6H 7H, discard worst", "wrong-phase")     # table moves: Mahjong gin's
    match.apply(1, Draw("stock"))
    assert "you have drawn already" in refused(match, "draw stock, discard KS", "wrong-phase")
    upcard = dealt(SEVENS, DEALER, "5C", stock="7H", first_dealer=0)
    refused(upcard, "draw stock, discard KS", "wrong-phase")
    refused(upcard, "take 2, discard KS", "wrong-phase")
    upcard.apply(1, Pass())
    upcard.apply(0, Pass())
    assert "draw from the stock" in refused(upcard, "take, discard KS", "wrong-phase")
    refused(new_match(), "draw stock", "wrong-phase")  # no hand dealt yet
    upcard.apply(0, Resign())
    refused(upcard, "draw stock", "game-over")


def test_a_plan_naming_a_card_not_held_is_refused():
    match = drawing(SEVENS, stock="7H")
    assert refused(match, "draw stock, discard 8H", "card-not-in-hand") == "8H is not in your hand"
    refused(match, "draw stock, knock if possible, else 8H", "card-not-in-hand")
    # The card taken from the pile is the player's to name (here: not to throw back).
    refused(match, "take, discard 5C", "cannot-discard-taken-card")
    assert "the top of the discard pile is 5C, not 8H" in refused(match, "take 8H, discard KS", "ambiguous-plan")


def test_rules_that_the_game_does_not_have_are_refused():
    straight = drawing(RUNS, stock="TD", preset="straight")
    assert "gin if possible" in refused(straight, "draw stock, knock if possible, else discard worst",
                                        "knocking-not-allowed")
    refused(drawing(ALL_MELDED, stock="QD", preset="pagat"), "draw stock, big gin", "big-gin-not-allowed")


def test_the_last_discard_taken_to_finish_allows_only_a_knock():
    match = drawing(RUNS, stock="2D TD", last_discard_rule="take_to_finish")
    match.stock = match.stock[:4]  # two draws leave two cards: the second discard is the last
    match.apply(1, Draw("stock"))
    match.apply(1, Discard(card("2D")))
    match.apply(0, Draw("stock"))
    match.apply(0, Discard(card("TD")))  # 8D 9D TD for seat 1, if it takes it
    assert match.phase == "last_discard_offer" and match.to_move == 1
    refused(match, "take, discard worst", "knock-required")
    settled = settle(match, "take, knock if possible, else discard worst")
    assert settled.actions == (Draw("discard"), Knock(card("KS")))


def test_a_refusal_depends_only_on_what_the_seat_sees():
    # Two deals alike for seat 1 (its hand, the pile) but not in the stock or seat 0's hand: the
    # same plan is refused with the same words, whatever card is really on top of the stock.
    messages = set()
    for stock in ("TD", "KH", "2H"):
        match = drawing(RUNS, stock=stock)
        messages.add(refused(match, "draw stock, knock KS", "deadwood-over-limit"))
    other = dealt(RUNS, "AS 2S 3S 4H 4D 6C 9C TC JC KH", "5C", stock="KD", first_dealer=0,
                  first_turn="take_or_draw")
    messages.add(refused(other, "draw stock, knock KS", "deadwood-over-limit"))
    assert len(messages) == 1


def test_the_decisions_name_only_cards_the_seat_sees():
    match = drawing(SEVENS, stock="7H")
    view = match.view(1)
    settled = settle(match, "draw stock, gin if possible, else knock if possible, else discard drawn unless it "
                            "melds, else worst")
    visible = set(view["hand"]) | set(view["discard_pile"]) | {"7H"}
    assert card_strings(settled.to_dict()) <= visible


def test_settling_plays_on_a_copy():
    match = drawing(SEVENS, stock="7H")
    before = match.to_dict()
    settled = settle(match, "draw stock, discard worst")
    assert match.to_dict() == before and settled.after is not match
    for action in settled.actions:
        match.apply(1, action)
    assert match == settled.after


# -- variants and tables ----------------------------------------------------------------------------

def test_mahjong_gin_takes_several_lays_the_deepest_and_discards():
    match = pile_of_three()
    settled = settle(match, "take 3, meld 8C 8D 8H, discard worst", seat=0)
    assert settled.actions[:2] == (Draw("discard", 3), LayMeld(tuple(parse_cards("8C 8D 8H"))))
    thrown = settled.actions[2].card
    assert thrown not in parse_cards("3C 5D")  # taken this turn: may not go back
    assert "you laid 8C 8D 8H on the table" in settled.answer()
    # Without the meld the deepest card taken would stay in hand: the plan is refused whole.
    refused(match, "take 3, discard worst", "wrong-phase", seat=0)
    refused(match, "take 3, knock if possible, else discard worst", "knocking-not-allowed", seat=0)
    refused(match, "take 3, meld 8C 8D 8H, add 9S to 1, discard worst", "invalid-meld", seat=0)


def test_mahjong_gin_plans_draw_from_the_stock_too():
    match = pile_of_three()
    settled = settle(match, "draw stock, gin if possible, else discard drawn unless it melds, else worst", seat=0)
    assert settled.actions[0] == Draw("stock") and isinstance(settled.actions[1], (Discard, Knock))
    for action in settled.actions:
        match.apply(0, action)
    assert match == settled.after


def test_a_table_seat_plans_on_its_own_board():
    from service.rules import Rotation
    table = Rotation()
    table.deal(0, build_deck(SEVENS, DEALER, "5C", stock="7H"))
    [seat] = table.to_move
    assert seat == 1
    before = table.to_dict()
    with pytest.raises(IllegalAction) as info:
        settle_plan(table, 2, Plan.parse("draw stock, discard worst"))  # sitting out
    assert info.value.code == "not-your-turn"
    settled = settle_plan(table, 1, Plan.parse("take, discard worst"))
    assert settled.actions == (TakeUpcard(), Discard(card("KS"))) and table.to_dict() == before
    for action in settled.actions:
        table.apply(1, action)
    assert table == settled.after


def test_mahjong_gin_goes_out_by_throwing_the_last_card():
    data = pile_of_three().to_dict()
    meld = ["5H", "6H", "7H"]  # seat 0 holds these three only; its other cards go where they were
    dropped = [c for c in data["hands"][0] if c not in meld]
    for place in (data["hands"][1], data["stock"], data["discard_pile"]):
        for i, text in enumerate(place):
            if text in meld:
                place[i] = dropped.pop()
    data["hands"][0], data["discard_pile"] = meld, dropped + data["discard_pile"]
    match = Match.from_dict(data)
    settled = settle(match, "draw stock, meld 5H 6H 7H, gin if possible, else discard worst", seat=0)
    drawn = settled.drawn
    assert settled.actions == (Draw("stock"), LayMeld(tuple(parse_cards("5H 6H 7H"))), Discard(drawn))
    assert settled.answer().endswith(f"you threw your last card, {drawn}, and went out.")
    assert settled.after.last_hand["winner"] == 0 and settled.after.last_hand["result"] == "gin"
