"""The first dealer by the cut (rules `first_dealer_by`; RULES.md "The first dealer", issue 25).

Each player draws a card from the shuffled pack. The engine never shuffles: the caller draws the
two cards (seat 0's, then seat 1's, from one pack, so never the same card) and gives them to
`Match.cut`, once per try, until the cut decides.

- 001 (`cut_lower_deals`): "the first dealer is chosen randomly by drawing cards from the shuffled
  pack - the player who draws the lower card deals", the Ace low ("in Gin Rummy the Ace is always
  low"). 001 has no rule for two cards of one rank: there is no lower card, so they cut again.
- 002 (`cut_higher_chooses`): "Dealer is determined by the players each drawing a card from the
  pack: higher has choice of dealing first or not. If cards of equal poker rank are drawn, the
  suit determines precedence in the order: spades (high), hearts, diamonds, clubs", with the
  cards "ranking from King (high) to Ace (low)". Two cards of one pack always differ, so the suit
  settles every tie; the higher card's player then chooses (`ChooseDealer`) in the phase
  `dealer_choice`.
"""
from __future__ import annotations

from .actions import Action, ChooseDealer
from .cards import Card
from .errors import IllegalAction

SUIT_PRECEDENCE_002 = "CDHS"  # low to high: clubs, diamonds, hearts, spades (high)


def cut_outcome(rule: str, cards: tuple[Card, Card]) -> tuple[str, int | None]:
    """("tie", None): cut again; ("deals", seat): that seat deals first; ("chooses", seat): that
    seat chooses who deals first."""
    first, second = cards
    if rule == "cut_lower_deals":
        if first.rank == second.rank:
            return "tie", None
        return "deals", 0 if first.rank < second.rank else 1
    precedence = [(card.rank, SUIT_PRECEDENCE_002.index(card.suit)) for card in cards]
    return "chooses", 0 if precedence[0] > precedence[1] else 1


class FirstDeal:
    """The phases before the first deal when the rules cut for it (Match inherits them): `cut`,
    waiting for the caller's two cards, and `dealer_choice`, 002's choice by the higher card."""

    @property
    def needs_cut(self) -> bool:
        return self.phase == "cut"

    def cut(self, card0: Card | str, card1: Card | str) -> list[dict]:
        """One try of the cut: seat 0 drew `card0`, seat 1 `card1`. Returns its event; after a tie
        `needs_cut` is still true."""
        if not self.needs_cut:
            raise IllegalAction("wrong-phase", "no cut for the first dealer is due now")
        cards = tuple(Card.parse(c) if isinstance(c, str) else c for c in (card0, card1))
        if not all(isinstance(c, Card) for c in cards) or cards[0] == cards[1]:
            raise ValueError("a cut is two different cards of one pack, seat 0's then seat 1's")
        outcome, seat = cut_outcome(self.rules.first_dealer_by, cards)
        drawn = {"0": str(cards[0]), "1": str(cards[1])}
        self.cuts.append(drawn)
        event = {"type": "cut", "hand": 0, "cards": dict(drawn), "outcome": outcome,
                 "dealer": seat if outcome == "deals" else None, "chooser": seat if outcome == "chooses" else None}
        if outcome == "deals":
            self._first_dealer_is(seat)
        elif outcome == "chooses":
            self.phase, self.to_move = "dealer_choice", seat
        return [event]

    def _first_dealer_is(self, seat: int) -> None:
        self.first_dealer = self.dealer = seat
        self.phase, self.to_move = "awaiting_deal", None

    def _check_dealer_choice(self, seat: int, action: Action) -> None:
        if not isinstance(action, ChooseDealer):
            raise IllegalAction("wrong-phase", f"{action.type} is not allowed in the choice of the first "
                                "dealer: your card was the higher, choose whether you deal first")

    def _choose_dealer(self, seat: int, action: ChooseDealer) -> list[dict]:
        self._first_dealer_is(seat if action.deal else 1 - seat)
        return [{"type": "choose_dealer", "hand": 0, "seat": seat, "deal": action.deal, "dealer": self.dealer}]
