"""Mahjong gin (000's "Variations"), each rule from the text's words, and whole random matches
scored again from the hand records."""
import random

import pytest

from service.rules import Discard, Draw, IllegalAction, Knock, Match, Pass, parse_cards
from service.rules.actions import AddOn, LayMeld, action_from_dict
from service.rules.scheme import CardScheme

from .helpers import build_deck, new_match, shuffled_deck
from .variant_helpers import is_variant_meld, value

ND_HAND = "8C 8D 2H 4S 6S TD QC KH 3H 9S"
D_HAND = "AC 2C 4C 6C 7D 9D JD JH QS KS"


def card(text):
    return parse_cards(text)[0]


def pile_of_three():
    """000's example: "<bottom> 8 3 5 <top>": the upcard 8H, then 3C and 5D discarded onto it."""
    match = new_match("mahjong_gin", first_dealer=1)
    match.deal(build_deck(ND_HAND, D_HAND, "8H", stock="3C 5D"))
    match.apply(0, Pass())
    match.apply(1, Pass())
    match.apply(0, Draw("stock"))
    match.apply(0, Discard(card("3C")))
    match.apply(1, Draw("stock"))
    match.apply(1, Discard(card("5D")))
    assert match.view(0)["discard_pile"] == ["8H", "3C", "5D"]
    return match


def code(match, seat, action):
    with pytest.raises(IllegalAction) as info:
        match.apply(seat, action)
    return info.value.code


def test_the_values_of_the_text():
    # "2 through 9 = 5 points, 10 through K = 10 points, A = 15 points"
    scheme = CardScheme("ace_low", "mahjong")
    assert [scheme.points(card(t)) for t in ("AS", "2S", "9S", "TS", "JS", "QS", "KS")] == [15, 5, 5, 10, 10, 10, 10]


def test_several_discards_and_the_deepest_must_be_used():
    match = pile_of_three()
    assert Draw("discard", 3) in match.legal_actions(0)
    events = match.apply(0, Draw("discard", 3))
    assert events[0]["cards"] == ["8H", "3C", "5D"] and match.view(0)["must_use"] == "8H"
    # "8 is the lowest position card and must be used in a hand": no discard before it is.
    assert code(match, 0, Discard(card("KH"))) == "wrong-phase"
    assert code(match, 0, Discard(card("3C"))) == "cannot-discard-taken-card"
    match.apply(0, LayMeld(tuple(parse_cards("8C 8D 8H"))))
    assert match.view(1)["table"] == [{"cards": ["8C", "8D", "8H"], "owners": [0, 0, 0]}]
    match.apply(0, Discard(card("KH")))           # "continue with one discard"
    assert match.to_move == 1 and match.view(0)["discard_pile"] == ["KH"]


def test_several_discards_only_when_the_deepest_can_be_used():
    match = pile_of_three()
    match.apply(0, Draw("stock"))                 # seat 0 draws instead
    match.apply(0, Discard(card("KH")))
    # Seat 1 holds no 8 and no 7H/9H: taking down to the 8H is refused.
    assert Draw("discard", 4) not in match.legal_actions(1)
    assert code(match, 1, Draw("discard", 4)) == "invalid-meld"


def test_only_mahjong_takes_several():
    match = new_match("standard", first_dealer=1)
    match.deal(build_deck(ND_HAND, D_HAND, "8H"))
    match.apply(0, Pass())
    match.apply(1, Pass())
    assert code(match, 0, Draw("discard", 2)) == "wrong-phase"
    assert action_from_dict({"type": "draw", "from": "discard", "count": 2}) == Draw("discard", 2)
    assert code(match, 0, action_from_dict({"type": "draw", "from": "stock", "count": 2})) == "wrong-phase"
    with pytest.raises(IllegalAction):
        action_from_dict({"type": "draw", "from": "stock", "count": 0})


def test_opponents_add_on_for_points_and_gin_scores_table_less_hand():
    match = pile_of_three()
    match.apply(0, Draw("discard", 3))
    match.apply(0, LayMeld(tuple(parse_cards("8C 8D 8H"))))
    match.apply(0, Discard(card("KH")))
    match.apply(1, Draw("stock"))
    # "opponents being able to ... finish a three of a kind with the fourth card for points"
    state = match.to_dict()
    state["hands"][1] = [c for c in state["hands"][1]] + ["8S"]
    state["stock"] = [c for c in state["stock"] if c != "8S"]
    match = Match.from_dict(state)
    match.apply(1, AddOn(card("8S"), 0))
    assert match.view(0)["table"][0] == {"cards": ["8C", "8D", "8H", "8S"], "owners": [0, 0, 0, 1]}
    # Now give seat 1 a gin: ten cards in melds and a drawn 7S to discard.
    state = match.to_dict()
    gin = parse_cards("AD 2D 3D 4D JC JD JS JH QH KH 7S")
    state["hands"][1] = [str(c) for c in gin]
    state["stock"] = [c for c in state["stock"] if card(c) not in gin]
    state["discard_pile"] = [c for c in state["discard_pile"] if card(c) not in gin]
    match = Match.from_dict(state)
    assert sorted(match.to_dict()["hands"][0]) == sorted("2H 4S 6S TD QC 3H 9S 3C 5D".split())
    record = match.apply(1, Knock(card("7S")))[-1]
    record = record.get("record") or match.last_hand
    assert record["result"] == "gin" and record["winner"] == 1 and record["hands"]["1"] == []
    # Seat 1: 8S (5) + AD-4D (15 + 3 x 5) + JC JD JS (30) + JH QH KH (30) = 95 on the table,
    # nothing in hand, and "the player who gins receives 25 additional points": 120.
    assert record["table_points"] == [15, 95] and record["hand_points"] == [55, 0]
    # Seat 0: 8C 8D 8H on the table (15) less 2H 4S 6S 3H 9S 3C 5D (7 x 5) + TD + QC (20): -40.
    assert record["scores"] == [-40, 120]
    # 120 reaches the target of 100: the game closes with the standard bonuses (the text names
    # none): seat 1's 120 doubled (seat 0 won no hand), 100 for the game, a box of 25.
    assert match.is_over and match.result["totals"] == [-40, 120 + 120 + 100 + 25]
    assert match.result["net"] == {"leader": 1, "points": 405, "payer": 0, "payee": 1}


# -- whole matches -----------------------------------------------------------------------------

def choose(match, seat, rng):
    actions = match.legal_actions(seat)
    gins = [a for a in actions if isinstance(a, Knock)]
    if gins:
        return rng.choice(gins)
    placing = [a for a in actions if isinstance(a, (LayMeld, AddOn))]
    if placing and rng.random() < 0.7:
        return rng.choice(placing)
    takes = [a for a in actions if isinstance(a, Draw) and a.count > 1]
    if takes and rng.random() < 0.3:
        return rng.choice(takes)
    discards = [a for a in actions if isinstance(a, Discard)]
    if discards:
        return max(discards, key=lambda a: (value(a.card, "mahjong"), rng.random()))
    return rng.choice(actions)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_whole_mahjong_matches_score_table_less_hand(seed):
    rng = random.Random(seed)
    match = new_match("mahjong_gin", first_dealer=rng.randrange(2))
    rules = match.rules
    totals, wins, records = [0, 0], [0, 0], []
    while not match.is_over:
        assert match.hand_number < 300
        if match.needs_deal:
            events = match.deal(shuffled_deck(rng))
        else:
            events = match.apply(match.to_move, choose(match, match.to_move, rng))
        for event in events:
            if event["type"] == "hand_end":
                records.append(event["record"])
        assert Match.from_dict(match.to_dict()) == match
    for record in records:
        # Every table meld is a meld; the ginner holds nothing; the scores are table less hand.
        assert all(is_variant_meld(parse_cards(m["cards"]), "ace_low") for m in record["table"])
        winner = record["winner"]
        assert record["hands"][str(winner)] == []
        for seat in (0, 1):
            table = sum(value(c, "mahjong") for m in record["table"]
                        for c, o in zip(parse_cards(m["cards"]), m["owners"]) if o == seat)
            hand = sum(value(c, "mahjong") for c in parse_cards(record["hands"][str(seat)]))
            assert record["scores"][seat] == table - hand + (rules.gin_bonus if seat == winner else 0)
            totals[seat] += record["scores"][seat]
        wins[winner] += 1
    final = match.result["games"][0]["final"]
    assert final["hand_points"] == totals
    reached = [s for s in (0, 1) if totals[s] >= rules.target]
    assert reached and final["winner"] in reached
    loser = 1 - final["winner"]
    assert final["totals"][final["winner"]] == totals[final["winner"]] + rules.game_bonus + \
        rules.box_bonus * wins[final["winner"]] + (totals[final["winner"]] if wins[loser] == 0 else 0)
    assert final["totals"][loser] == totals[loser] + rules.box_bonus * wins[loser]
