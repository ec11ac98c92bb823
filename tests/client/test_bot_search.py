"""Level 5's look-ahead (gin_client/bots/search.py): its deadwood on bits agrees with the exact search
of cli/cards.py on random hands (sets of three and four among them), a sampled deal plays out to the
points the rules give, the play-outs take and throw as the reference bot does, and the search
leaves the default only for an option that does better."""
from __future__ import annotations

import itertools
import random

from gin_client.bots import levels, model, reference, search
from gin_client.cli import cards
from service.rules.actions import action_from_dict
from tests.client.test_bot_levels import decide, discard_view
from tests.rules.helpers import new_match, shuffled_deck

DECK = list(model.ALL_CARDS)


def random_hands(count: int, seed: int):
    """Hands of 10 to 12 cards; every second one holds three or four of a rank."""
    rng = random.Random(seed)
    for n in range(count):
        size = rng.choice([10, 11, 12])
        hand = rng.sample(DECK, size)
        if n % 2:
            rank = rng.choice(cards.RANKS)
            hand = list(dict.fromkeys([rank + s for s in cards.SUITS][:rng.choice([3, 4])] + hand))[:size]
        yield hand


def test_deadwood_on_bits_is_the_exact_search():
    for hand in random_hands(4000, seed=1):
        assert search.deadwood(search.bits(hand)) == cards.deadwood(hand), hand


def test_best_discard_leaves_the_least_and_names_a_card_that_does():
    for hand in random_hands(3000, seed=2):
        hand = hand[:11]
        left, card = search.best_discard(search.bits(hand))
        least = min(cards.deadwood([c for c in hand if c != d]) for d in hand)
        (thrown,) = search.cards(card)
        assert left == least and cards.deadwood([c for c in hand if c != thrown]) == least, hand
    left, card = search.best_discard(search.bits(["AC", "2C", "3C", "KD", "KH"]), search.bit("KD"))
    assert search.cards(card) == ["KH"] and left == 10  # never the forbidden card


def test_cards_round_trip_through_bits():
    assert search.cards(search.bits(["TD", "AC", "KS"])) == ["AC", "TD", "KS"]


SCORING = search.Scoring(model.Model({"knock_limit": 10, "rules": {"gin_bonus": 25, "undercut_bonus": 25}}))


def test_a_knock_is_settled_with_layoffs_undercuts_and_gin():
    knocker = search.bits(["AC", "2C", "3C", "7D", "7H", "7S", "9C", "TC", "JC", "4H"])  # 4 deadwood
    loose = search.bits(["KS", "KH", "QD", "2D", "5D", "8S", "9S", "6H", "4C", "5S"])  # 69, 4C lays off
    assert SCORING.settle(knocker, 4, loose) == 65 - 4
    # 4C lays off on A-2-3C and 7C on the sevens: 2H and AD left, 3 under the knocker's 4.
    close = search.bits(["4C", "7C", "2H", "QS", "QH", "QD", "8D", "9D", "TD", "AD"])
    assert SCORING.settle(knocker, 4, close) == -(25 + 4 - 3)
    gin = search.bits(["AC", "2C", "3C", "7D", "7H", "7S", "9C", "TC", "JC", "QC"])
    assert SCORING.settle(gin, 0, close) == 25 + cards.deadwood(search.cards(close))  # no layoffs on gin


def test_a_deal_plays_out_to_the_opponents_gin():
    # The opponent, to move, draws the 6H it needs (the stock is drawn from its end) and goes gin.
    theirs = search.bits(["2H", "3H", "4H", "5H", "9S", "9D", "9C", "JD", "QD", "KD"])
    mine = search.bits(["AC", "2C", "3C", "7D", "7H", "7S", "9H", "TC", "JC", "QS"])
    stock = [search.bit(c) for c in ("4S", "8C", "3D", "6H")]
    points = search.play_out(mine, theirs, stock, [search.bit("KS")], True, SCORING)
    assert points == -(25 + cards.deadwood(search.cards(mine)))


def test_a_deal_with_nothing_to_knock_on_ends_void_when_the_stock_runs_down():
    theirs = search.bits(["2H", "4H", "6H", "8H", "TH", "QS", "AS", "3D", "5D", "7D"])
    mine = search.bits(["2C", "4C", "6C", "8C", "TC", "QD", "AD", "3S", "5S", "7S"])
    stock = [search.bit(c) for c in ("KC", "KH", "KD", "KS")]  # nothing melds: both throw a king
    assert search.play_out(mine, theirs, stock, [search.bit("JS")], True, SCORING) == 0.0


class OneDeal:
    """A model stand-in that always deals the same opponent hand and stock (the search's input)."""
    stock, unseen, threw = 2, ["5H", "6H", "KS", "QS"], set()

    def sample_hand(self, rng, extra=None):
        return ["5H", "6H"]


def test_weigh_keeps_the_default_unless_another_option_does_clearly_better():
    rng = random.Random(0)
    even = {"default": lambda theirs, stock: 1.0, "other": lambda theirs, stock: 1.0}
    assert search.weigh(even, OneDeal(), rng, None, deals=10) == "default"
    noisy = iter([5.0, -5.0] * 10)
    maybe = {"default": lambda theirs, stock: 0.0, "other": lambda theirs, stock: next(noisy)}
    assert search.weigh(maybe, OneDeal(), rng, None, deals=20) == "default"  # mean 0: no reason to move
    better = {"default": lambda theirs, stock: 0.0, "other": lambda theirs, stock: 3.0}
    assert search.weigh(better, OneDeal(), rng, None, deals=10) == "other"


class ThreeOfEight:
    """A model stand-in whose opponent holds three of eight unseen cards, and threw `threw`."""
    stock, unseen = 5, ["5H", "6H", "8H", "9H", "AS", "2D", "3C", "KD"]

    def __init__(self, threw: set[str]):
        self.threw = threw

    def sample_hand(self, rng, extra=None):
        return rng.sample(self.unseen, 3)


def test_a_thrown_card_would_have_been_kept_by_a_hand_it_melds_with_or_holding_a_higher_loose_card():
    seven = search.bit("7H")
    assert search._would_keep(search.bits(["5H", "6H", "2D"]), seven)  # 5-6-7 of hearts
    assert search._would_keep(search.bits(["AS", "2D", "KD"]), seven)  # 7H left less than KD
    assert not search._would_keep(search.bits(["AS", "2D", "3C"]), seven)
    assert not search._would_keep(search.bits(["AS", "2D", "5H"]), seven)


def test_sampled_hands_seldom_hold_what_would_have_kept_a_card_the_opponent_threw():
    seven = search.bit("7H")
    hands = [search.bits(h) for h in itertools.combinations(ThreeOfEight.unseen, 3)]
    share = sum(search._would_keep(h, seven) for h in hands) / len(hands)
    kept = share * search.THREW_KEPT / (share * search.THREW_KEPT + 1 - share)  # one in five of them

    def measured(threw: set[str]) -> float:
        deals = search.sampled_deals(ThreeOfEight(threw), random.Random(3))
        return sum(search._would_keep(next(deals)[0], seven) for _ in range(4000)) / 4000
    assert 0.3 < share < 0.9 and kept < share - 0.2
    assert abs(measured(set()) - share) < 0.03  # without a thrown card, every hand as drawn
    assert abs(measured({"7H"}) - kept) < 0.03


def test_level_5_knocks_on_the_last_turns_when_playing_on_can_only_end_void():
    # Thirteen cards are unseen (ten in the opponent's hand, three in the stock) and no three of
    # them meld: the opponent cannot knock, so playing on ends void, and a knock with 1 scores.
    hand = ["7C", "8C", "9C", "QD", "QH", "QS", "5S", "6S", "7S", "AH", "2D"]
    unseen = ["KC", "KD", "JC", "JD", "9D", "9H", "5C", "5H", "3C", "3H", "TH", "TS", "4D"]
    pile = [c for c in DECK if c not in hand + unseen]
    view = discard_view(hand, stock=3, pile=pile)
    assert decide(view, 3).action == {"type": "discard", "card": "2D"}  # it knocks at 2 cards or fewer
    for seed in range(5):
        assert levels.decide(view, 5, random.Random(seed), None, think_seconds=None, rollouts=20).action == \
            {"type": "knock", "discard": "2D"}


def reference_decisions(seeds: range):
    """(view, the reference bot's action) at each turn of reference-bot self-play, standard rules."""
    for seed in seeds:
        rng = random.Random(seed)
        match = new_match("standard", first_dealer=seed % 2)
        while not match.is_over:
            if match.needs_deal:
                match.deal(shuffled_deck(rng))
                continue
            view = match.view(match.to_move)
            action = reference.decide(view).action
            yield view, action
            match.apply(match.to_move, action_from_dict(action))


def test_the_play_outs_take_and_throw_as_the_reference_bot_does():
    # The play-outs model the opponent (and our own later turns) as the reference bot: on bits, its
    # take-or-draw and its discard (live partners kept, cards the opponent took not fed) agree with
    # reference.decide but for ties between equal arrangements, which cards.arrange breaks its own way.
    takes, throws = [], []
    for view, action in reference_decisions(range(12)):
        legal, hand = view["legal_actions"], search.bits(view["hand"])
        if action["type"] == "discard":
            allowed = search.bits(a["card"] for a in legal if a["type"] == "discard")
            thrown = search.reference_throw(hand, hand & ~allowed, search.bits(view["discard_pile"]),
                                            search.bits(view["opponent"]["known_cards"]))
            throws.append(search.cards(thrown) == [action["card"]])
        elif {a.get("from") for a in legal if a["type"] == "draw"} == {"stock", "discard"}:
            takes.append(search.reference_takes(hand, search.bit(view["discard_pile"][-1]))
                         == (action["from"] == "discard"))
    assert len(throws) > 500 and len(takes) > 500
    assert sum(throws) >= 0.99 * len(throws) and sum(takes) >= 0.99 * len(takes)


def test_the_reference_throw_keeps_live_partners_and_does_not_feed_a_card_the_opponent_took():
    hand = search.bits(["AD", "2D", "3D", "7D", "7H", "7S", "QC", "KC", "JH", "4H", "2S"])
    throw = lambda gone=(), took=(): search.cards(  # noqa: E731
        search.reference_throw(hand, 0, search.bits(gone), search.bits(took)))
    assert search.cards(search.best_discard(hand)[1]) == ["QC"]  # three tens: the least deadwood ties
    assert throw() == ["JH"]  # Q-K of clubs wait for the JC
    assert throw(gone=["JC"]) == ["QC"]  # the JC is discarded: the pair is dead
    assert throw(took=["JS"]) == ["QC"]  # the opponent took the JS: the JH would feed it
