"""A plan's notation (issue 39, docs/plans.md): the words read, the canonical text and the JSON
form round-trip, and a plan that does not say one thing is refused whatever the match."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules import AddOn, IllegalAction, LayMeld, Plan, full_deck, parse_cards
from service.rules.plan_rules import (
    DeclareBigGin,
    DiscardCard,
    DiscardDrawn,
    DiscardWorst,
    GinIfPossible,
    GoGin,
    KnockIf,
    KnockWith,
    parse_rule,
    rule_from_dict,
)


def card(text):
    return parse_cards(text)[0]


def refused(code, make, *args):
    with pytest.raises(IllegalAction) as info:
        make(*args)
    assert info.value.code == code, info.value.message
    return info.value.message


def test_the_issues_example_reads_as_a_stock_draw_and_two_rules():
    plan = Plan.parse("draw stock, discard drawn unless it melds, else 7H")
    assert plan == Plan("stock", rules=(DiscardDrawn(unless_melds=True), DiscardCard(card("7H"))))
    assert str(plan) == "draw stock, discard drawn unless it melds, else discard 7H"
    assert plan.to_dict() == {"type": "plan", "draw": "stock", "then": [
        {"do": "discard", "card": "drawn", "unless": "it_melds"}, {"do": "discard", "card": "7H"}]}


@pytest.mark.parametrize("text, canonical", [
    ("draw stock", "draw stock"),
    ("stock", "draw stock"),
    ("Draw from the stock\ndiscard worst", "draw stock, discard worst"),
    ("take; discard 10d", "take, discard TD"),
    ("draw discard, discard 9S", "take, discard 9S"),
    ("take the upcard, knock if possible, else discard worst",
     "take, knock if possible, else discard worst"),
    ("take 7h, gin if possible, otherwise worst", "take 7H, gin if possible, else discard worst"),
    ("take 3, meld 5H 6H 7H, add 8C to 2, discard KS", "take 3, meld 5H 6H 7H, add 8C to 2, discard KS"),
    ("pass", "pass"),
    ("discard KS", "discard KS"),
    ("knock KS.", "knock KS"),
    ("gin", "gin"),
    ("gin 7H", "gin 7H"),
    ("big gin", "big gin"),
    ("draw stock, gin if possible, else knock if deadwood at most 5, else discard drawn unless it melds, else KS",
     "draw stock, gin if possible, else knock if deadwood at most 5, else discard drawn unless it melds, "
     "else discard KS"),
    ("draw, knock if deadwood is at most 0, else drawn", "draw stock, knock if deadwood at most 0, else discard drawn"),
])
def test_the_words_read_and_print_canonically(text, canonical):
    plan = Plan.parse(text)
    assert str(plan) == canonical
    assert Plan.parse(canonical) == plan
    assert Plan.from_dict(json.loads(json.dumps(plan.to_dict()))) == plan


def test_the_mail_commands_of_a_turn_are_a_plan():
    # service/notify/commands.py's words for a turn read the same here.
    assert Plan.parse("draw stock").draw == "stock"
    assert Plan.parse("take").draw == "pile" and Plan.parse("take 3").count == 3
    assert Plan.parse("take 7H").top == card("7H")
    assert Plan.parse("meld 3H 4H 5H").table == (LayMeld(tuple(parse_cards("3H 4H 5H"))),)
    assert Plan.parse("add 6H to 2").table == (AddOn(card("6H"), 1),)  # people count melds from 1
    assert Plan.parse("gin").rules == (GoGin(),) and Plan.parse("big gin").rules == (DeclareBigGin(),)


@pytest.mark.parametrize("text, rule", [
    ("discard worst", DiscardWorst()), ("discard drawn", DiscardDrawn()),
    ("discard drawn unless it melds", DiscardDrawn(True)), ("knock 7H", KnockWith(card("7H"))),
    ("knock if possible", KnockIf()), ("knock if deadwood at most 7", KnockIf(7)),
    ("gin", GoGin()), ("gin 7H", GoGin(card("7H"))), ("gin if possible", GinIfPossible()),
    ("big gin", DeclareBigGin()), ("discard 7H", DiscardCard(card("7H"))),
])
def test_each_rule_in_words_and_json(text, rule):
    assert parse_rule(text) == rule and str(rule) == text
    assert rule_from_dict(rule.to_dict()) == rule


@pytest.mark.parametrize("text", [
    "draw stock, discard the lot", "draw stock, throw 7H", "draw stock, discard 7X", "fly away",
    "draw stock, knock if deadwood at most 11, else discard worst", "take 0", "meld 3H 4H",
    "add 6H to nothing", "draw stock, knock", "", ", ;",
])
def test_unreadable_words_are_an_invalid_plan(text):
    message = refused("invalid-plan", Plan.parse, text)
    assert message


@pytest.mark.parametrize("text, says", [
    ("draw stock, gin if possible", "needs an else"),
    ("draw stock, discard drawn unless it melds", "needs an else"),
    ("draw stock, discard 7H, discard 8H", "always decides"),
    ("draw stock, discard 7H, else 8H", "always decides"),
    ("draw stock, gin if possible, discard worst", "without else: write 'gin if possible, else discard worst'"),
    ("take, discard drawn", "needs 'draw stock'"),
    ("discard drawn unless it melds, else 7H", "needs 'draw stock'"),
    ("draw stock, discard drawn unless it melds, else discard drawn", "may come once"),
    ("pass, discard 7H", "nothing may follow"),
    ("discard 7H, draw stock", "the draw comes first"),
    ("draw stock, take", "the draw comes first"),
    ("take 3, discard KS, meld 5H 6H 7H", "before the discard rules"),
    ("else 7H", "needs a rule before it"),
])
def test_a_plan_that_says_two_things_or_none_is_ambiguous(text, says):
    assert says in refused("ambiguous-plan", Plan.parse, text)


@pytest.mark.parametrize("data, code", [
    ([], "invalid-plan"), ({"draw": "river"}, "invalid-plan"), ({"draw": "stock", "then": {}}, "invalid-plan"),
    ({"draw": "stock", "colour": "red"}, "invalid-plan"), ({"type": "discard", "draw": "stock"}, "invalid-plan"),
    ({"draw": "stock", "count": 2}, "invalid-plan"), ({"draw": "pile", "count": 2, "card": "7H"}, "invalid-plan"),
    ({"draw": "pile", "card": "7X"}, "invalid-plan"), ({"draw": None}, "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "fold"}]}, "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "discard", "card": "worst", "unless": "it_melds"}]}, "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "discard", "card": "drawn", "unless": "it_rains"}]}, "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "knock"}]}, "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "knock", "if_deadwood_at_most": 11}, {"do": "discard", "card": "worst"}]},
     "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "knock", "if_deadwood_at_most": True}, {"do": "discard", "card": "worst"}]},
     "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "gin", "if": "lucky"}, {"do": "discard", "card": "worst"}]}, "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "big_gin", "card": "7H"}]}, "invalid-plan"),
    ({"draw": "stock", "table": [{"type": "discard", "card": "7H"}]}, "invalid-plan"),
    ({"draw": "stock", "table": [{"type": "add_on", "card": "7H", "meld": -1}]}, "invalid-plan"),
    ({"draw": "stock", "then": [{"do": "gin", "if": "possible"}]}, "ambiguous-plan"),
    ({"draw": "pass", "then": [{"do": "discard", "card": "7H"}]}, "ambiguous-plan"),
])
def test_malformed_json_is_refused_with_its_code(data, code):
    assert refused(code, Plan.from_dict, data)


def test_json_takes_whole_numbers_written_as_floats():
    plan = Plan.from_dict({"draw": "pile", "count": 3.0, "then": [
        {"do": "knock", "if_deadwood_at_most": 5.0}, {"do": "discard", "card": "worst"}]})
    assert plan.count == 3 and plan.rules[0] == KnockIf(5)


def test_cards_named_are_the_table_moves_and_the_rules_cards():
    plan = Plan.parse("take 3, meld 5H 6H 7H, add 8C to 1, knock if possible, else discard KS")
    assert plan.cards_named() == parse_cards("5H 6H 7H 8C KS")


# -- every plan reads back from its text and its JSON ------------------------------------------------

CARDS = st.sampled_from(full_deck())
CONDITIONAL = st.one_of(st.just(GinIfPossible()), st.builds(KnockIf, st.none() | st.integers(0, 10)))
FINAL = st.one_of(st.builds(DiscardCard, CARDS), st.just(DiscardWorst()), st.builds(KnockWith, CARDS),
                  st.builds(GoGin, st.none() | CARDS), st.just(DeclareBigGin()))


@st.composite
def plans(draw):
    kind = draw(st.sampled_from(["stock", "pile", "pass", None]))
    if kind == "pass":
        return Plan("pass")
    count, top = 1, None
    if kind == "pile":
        count = draw(st.integers(1, 5))
        top = draw(st.none() | CARDS) if count == 1 else None
    table = ()
    if kind != "stock":
        table = tuple(draw(st.lists(st.one_of(
            st.builds(lambda cs: LayMeld(tuple(sorted(cs))), st.lists(CARDS, min_size=3, max_size=4, unique=True)),
            st.builds(AddOn, CARDS, st.integers(0, 8))), max_size=2)))
    rules = draw(st.lists(CONDITIONAL, max_size=3))
    if kind == "stock" and draw(st.booleans()):
        rules.insert(draw(st.integers(0, len(rules))), DiscardDrawn(unless_melds=True))
    last = draw(st.just(DiscardDrawn()) if kind == "stock" and draw(st.booleans())
                and not any(isinstance(r, DiscardDrawn) for r in rules) else FINAL)
    if kind is None or rules or draw(st.booleans()):
        rules.append(last)
    if kind is None and not table and not rules:
        rules = [last]
    return Plan(kind, count, top, table, tuple(rules))


@settings(max_examples=300, deadline=None)
@given(plans())
def test_every_plan_round_trips_through_text_and_json(plan):
    text = str(plan)
    assert Plan.parse(text) == plan
    assert str(Plan.parse(text)) == text
    assert Plan.from_dict(json.loads(json.dumps(plan.to_dict()))) == plan
    # The text, split the way a mail reply may be (one part a line), reads the same.
    assert Plan.parse(text.replace(", else ", "\nelse ").replace(", ", "\n")) == plan
