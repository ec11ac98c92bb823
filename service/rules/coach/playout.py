"""A sampled deal played to the hand's end, both sides following the reference bot's policy
(hands.py): take the pile's top when it melds (or a low card replaces a high one), else draw;
knock with gin, or within the limit in the hand's first turns (stock 27 or more) or its last;
else throw by the reference bot's cost. Knocks are settled by the engine (knock.settle_knock),
so layoffs, undercuts and bonuses are the match's rules exactly. Points are the hand's, for the
seat under review (negative: the opponent's), times the hand's multiplier (Oklahoma's spades)."""
from __future__ import annotations

from ..knock import settle_knock
from .hands import best_discard, cards, deadwood, reference_takes, reference_throw
from .knowledge import SeatView

MAX_TURNS = 200  # a take lowers the taker's deadwood, so there is no loop: this is only a bound


class Settle:
    """A knock's worth under the view's rules."""

    def __init__(self, view: SeatView):
        self.rules, self.limit, self.multiplier = view.rules, view.knock_limit, view.multiplier

    def knock(self, knocker: int, defender: int) -> float:
        """The knocker's points (negative: undercut) for 10 cards against the defender's."""
        result = settle_knock(cards(knocker), None, cards(defender), self.rules, knock_limit=self.limit)
        sign = 1 if result.winner == "knocker" else -1 if result.winner == "defender" else 0
        return sign * result.points * self.multiplier

    def big_gin(self, knocker: int, defender: int) -> float:
        return (self.rules.big_gin_bonus + deadwood(defender)) * self.multiplier


def play_out(mine: int, theirs: int, stock: list[int], pile: list[int], their_turn: bool, settle: Settle,
             first_draw: str | None = None, took: tuple[int, int] = (0, 0)) -> float:
    """Our points when the hand ends. `first_draw` ("pile" or "stock") forces the first turn's
    draw; `took`: the pile cards each side is known to hold (the other avoids feeding them).
    `stock` is drawn from its end; both lists are used up."""
    hands, side, turns = [mine, theirs], 1 if their_turn else 0, 0
    took = list(took)
    gone = 0
    for card in pile:
        gone |= card
    while len(stock) > 2 and turns < MAX_TURNS:
        turns += 1
        hand = hands[side]
        top = pile[-1] if pile else 0
        taken = 0
        if top and first_draw != "stock" and (first_draw == "pile" or reference_takes(hand, top)):
            taken = pile.pop()
            gone ^= taken
            took[side] |= taken
            hand |= taken
        else:
            hand |= stock.pop()
        first_draw = None
        left, throw = best_discard(hand, taken)
        if left <= settle.limit and (left == 0 or len(stock) >= 27 or len(stock) <= 2):
            value = settle.knock(hand ^ throw, hands[1 - side])
            return value if side == 0 else -value
        throw = reference_throw(hand, taken, gone, took[1 - side])
        hands[side] = hand ^ throw
        took[side] &= ~throw
        pile.append(throw)
        gone |= throw
        side = 1 - side
    return 0.0  # the stock ran down: a void hand
