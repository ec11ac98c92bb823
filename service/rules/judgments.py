"""What plans and standing orders judge (docs/plans.md): the worst card, the best knock, a gin,
and whether a card "melds", each on a match and a seat, only from what that seat may see (its own
hand and the face-up cards), and each only among moves the engine's `check` allows.

- The worst card is the one whose loss leaves the least deadwood; among equals, the one worth
  the most points, then the higher rank (K Q J T ... A), then the higher suit (S H D C). The
  views' `best_discard` suggestion is the same card.
- Keeping a card lowers your deadwood when the deadwood you are left with once you keep it (and
  throw another card) is strictly below the deadwood you have without it; a tie does not lower.
  It *melds with* cards when it lies in a meld of that lower arrangement; otherwise it lowers
  your deadwood without melding (a low card kept for a high one). A plan's `discard drawn unless
  it melds` keeps the drawn card when keeping it (and throwing what `else` says) lowers your
  deadwood, as issue 39 defines it: the player named the card to give up. An order has no such
  card, so its "if it melds" takes a face-up card only when it melds (`Keeping.melds`): a lower
  count alone is not worth showing the opponent what you collect.
- A gin is Big Gin when the rules have it and all 11 cards meld (it scores more), else a knock
  whose discard leaves no deadwood (the worst of such cards), else, in Mahjong gin, discarding
  one's last card.
"""
from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, BigGin, Discard, Knock
from .cards import Card


def throw_key(scheme, card: Card, left: int) -> tuple:
    """The order of discards, best first: least deadwood left, then most points, higher rank, suit."""
    return left, -scheme.points(card), -card.rank, -card.suit_index


@dataclass(frozen=True)
class Throw:
    """A chosen discard: the card, the deadwood it leaves, and the other cards leaving as little."""
    card: Card
    left: int
    tied: tuple[Card, ...] = ()


class Turn:
    """A seat's discard decision, read once: the deadwood each card's loss leaves, and what the
    engine allows (its `allows`, the one source of legality), asked card by card, best first, only
    as far as a judgment needs."""

    def __init__(self, match, seat: int):
        self.match, self.seat, self.scheme = match, seat, match.scheme
        self.hand = list(match.hands[seat])
        lefts = zip(self.hand, self.scheme.deadwood_after_discards(self.hand))
        self.ranked = sorted(lefts, key=lambda pair: throw_key(self.scheme, *pair))
        self.lefts = dict(self.ranked)
        self._allows: dict[Action, bool] = {}

    def allows(self, action: Action) -> bool:
        if action not in self._allows:
            self._allows[action] = self.match.allows(self.seat, action)
        return self._allows[action]

    def may_discard(self, card: Card) -> bool:
        return self.allows(Discard(card))

    def may_knock(self, card: Card) -> bool:
        return self.allows(Knock(card))

    def may_leave(self, card: Card) -> bool:
        return self.may_discard(card) or self.may_knock(card)

    def choose(self, may, keep: Card | None, at_most: int | None = None) -> Throw | None:
        """The best card to throw of those `may` allows (not `keep`; leaving at most `at_most`),
        with the others that leave as little."""
        found: Throw | None = None
        tied: list[Card] = []
        for card, left in self.ranked:
            if at_most is not None and left > at_most:
                break  # ranked by what they leave: none after this one leaves less
            if card == keep:
                continue
            if found is not None and left != found.left:
                break
            if may(card):
                if found is None:
                    found = Throw(card, left)
                else:
                    tied.append(card)
        return Throw(found.card, found.left, tuple(tied)) if found and tied else found


def worst(turn: Turn, keep: Card | None = None) -> Throw | None:
    """The worst card the seat may throw now as a plain discard (not `keep`), or None."""
    return turn.choose(turn.may_discard, keep)


def least_left(turn: Turn, keep: Card | None = None) -> Throw | None:
    """The card whose loss leaves the least deadwood among the cards that may leave the hand now
    (by a discard or a knock), knock limit or not: what the trace of a knock that fails names."""
    return turn.choose(turn.may_leave, keep)


def gin_move(turn: Turn, keep: Card | None = None) -> Action | None:
    """The gin the seat can make now, or None (see the module's docstring)."""
    if turn.allows(BigGin()):
        return BigGin()
    if len(turn.hand) == 1 and turn.hand[0] != keep and turn.may_discard(turn.hand[0]):
        return Discard(turn.hand[0])  # Mahjong gin: the last card's discard goes out
    best = turn.choose(turn.may_knock, keep, at_most=0)
    return Knock(best.card) if best else None


def knock_move(turn: Turn, at_most: int | None, keep: Card | None = None) -> tuple[Action | None, str]:
    """The knock `knock if deadwood at most N` makes (None: any the hand's limit allows), with why:
    the knock leaving the least deadwood; with none left, the gin (Big Gin when there is one)."""
    limit = turn.match.knock_limit
    # No knock leaves more than the hand's limit (RULES.md): the engine is asked about the others.
    best = turn.choose(turn.may_knock, keep, at_most=limit if at_most is None else min(at_most, limit))
    bound = f"at most {at_most}" if at_most is not None else f"within this hand's knock limit {limit}"
    if best is not None:
        if best.left == 0:
            return gin_move(turn, keep), "no deadwood is left: a gin"
        return Knock(best.card), f"throwing {best.card} leaves {best.left} points of deadwood, {bound}"
    least = least_left(turn, keep)
    if least is None:
        return None, "no card may leave your hand now"
    over = f"over this hand's knock limit {limit}" if least.left > limit else f"over {at_most}"
    return None, f"the least deadwood you can leave is {least.left} (throwing {least.card}), {over}"


def meld_holding(scheme, cards: list[Card], card: Card) -> tuple[Card, ...] | None:
    """The other cards of the meld holding `card` in the lowest-deadwood arrangement of `cards`."""
    for meld in scheme.best(cards).melds:
        if card in meld.cards:
            return tuple(c for c in meld.cards if c != card)
    return None


@dataclass(frozen=True)
class Keeping:
    """Whether keeping `card` lowers the deadwood: `without` it, `kept` (throwing `throw`), the
    cards it would meld with (None: none)."""
    card: Card
    without: int
    kept: int
    throw: Card | None
    melds_with: tuple[Card, ...] | None

    @property
    def lowers(self) -> bool:
        return self.kept < self.without

    @property
    def melds(self) -> bool:
        """Lowers the deadwood by lying in a meld (the orders' test; a plan's is `lowers`)."""
        return self.lowers and self.melds_with is not None

    def why(self, meld_needed: bool = False) -> str:
        if meld_needed and self.lowers and not self.melds_with:
            return (f"{self.card} melds with nothing (keeping it would only lower your deadwood from "
                    f"{self.without} to {self.kept})")
        if self.lowers and self.melds_with:
            return (f"{self.card} melds with {' '.join(map(str, self.melds_with))}: keeping it leaves "
                    f"{self.kept} points of deadwood, against {self.without} without it")
        if self.lowers:
            return (f"{self.card} melds with nothing, but keeping it lowers your deadwood from "
                    f"{self.without} to {self.kept}")
        if self.kept == self.without:
            return f"keeping {self.card} would leave {self.kept} points of deadwood, no fewer than without it"
        return f"{self.card} does not lower your deadwood (keeping it: {self.kept}, without it: {self.without})"


def keeping_top(match, seat: int, card: Card) -> Keeping:
    """Whether taking the face-up `card` (the upcard, the pile's top) and throwing the worst other
    card lowers the seat's deadwood. The taken card may not go back this turn, so it is kept."""
    hand = list(match.hands[seat])
    scheme = match.scheme
    with_card = hand + [card]
    without = scheme.deadwood(hand)
    options = [(c, n) for c, n in zip(with_card, scheme.deadwood_after_discards(with_card)) if c != card]
    if not options:
        return Keeping(card, without, scheme.deadwood(with_card), None, None)
    throw, left = min(options, key=lambda pair: throw_key(scheme, *pair))
    rest = [c for c in with_card if c != throw]
    return Keeping(card, without, left, throw, meld_holding(scheme, rest, card))


def keeping_drawn(match, seat: int, drawn: Card, outcome: Action) -> Keeping:
    """Whether keeping the drawn card and playing `outcome` (a discard, knock or Big Gin of another
    card) leaves less deadwood than throwing the drawn card."""
    hand = match.hands[seat]
    scheme = match.scheme
    throw = getattr(outcome, "card", None) or getattr(outcome, "discard", None)
    rest = [c for c in hand if c != throw]
    kept = scheme.deadwood(rest)
    return Keeping(drawn, scheme.deadwood_without(hand, drawn), kept, throw, meld_holding(scheme, rest, drawn))
