"""Legality, the one source of truth: whether a seat may take an action now, and why not, as named
errors (IllegalAction with a stable code; the message names the phase, and the card when the
action carries one). `Match` inherits it; Mahjong gin overrides the checks of its own phases."""
from __future__ import annotations

from .actions import Action, BigGin, Discard, Draw, Knock, Pass, Resign, TakeUpcard
from .cards import Card
from .errors import IllegalAction, check_seat
from .knock import layout_from_melds

PHASE_WORDS = {
    "cut": "the cut for the first dealer",
    "dealer_choice": "the choice of the first dealer",
    "awaiting_deal": "waiting for the deal",
    "upcard_offer": "the upcard offer",
    "draw": "the draw",
    "discard": "the discard",
    "last_discard_offer": "the last-discard offer",
    "match_over": "the end of the match",
}


class Legality:
    """The checks of a Match (its phase, hands, pile, rules and scheme are the match's own)."""

    def check(self, seat: int, action: Action) -> None:
        """Raise IllegalAction(code, message) unless `seat` may take `action` now; the message
        names the phase, and the card when the action carries one."""
        try:
            self._check(seat, action)
        except IllegalAction as exc:
            raise IllegalAction(exc.code, self._explained(exc.message, action)) from None

    def allows(self, seat: int, action: Action) -> bool:
        """Whether `check` would let the action through (without composing its message)."""
        try:
            self._check(seat, action)
        except IllegalAction:
            return False
        return True

    def _explained(self, message: str, action) -> str:
        card = getattr(action, "card", None) or getattr(action, "discard", None)
        if card is not None and str(card) not in message:
            message = f"{action.type} {card}: {message}"
        phase = PHASE_WORDS[self.phase]
        return message if phase in message else f"{message} (in {phase})"

    def _check(self, seat: int, action: Action) -> None:
        # legal_actions asks this directly: the same rules, without composing messages.
        check_seat(seat)
        if not isinstance(action, Action):
            raise IllegalAction("invalid-action", f"not an action: {action!r}")
        if self.phase == "match_over":
            raise IllegalAction("game-over", f"the match is over; {action.type} is not possible")
        if isinstance(action, Resign):
            return
        if self.phase == "awaiting_deal":
            raise IllegalAction("wrong-phase", "no hand is in play: the next hand has not been dealt")
        if self.phase == "cut":
            raise IllegalAction("wrong-phase", "no hand is in play: the first dealer is still to be cut")
        if seat != self.to_move:
            raise IllegalAction("not-your-turn",
                                f"it is seat {self.to_move}'s turn, in {PHASE_WORDS[self.phase]}")
        getattr(self, "_check_" + self.phase)(seat, action)

    def _check_upcard_offer(self, seat: int, action: Action) -> None:
        if not isinstance(action, (TakeUpcard, Pass)):
            raise IllegalAction("wrong-phase", f"{action.type} is not allowed in the upcard offer: "
                                f"take the upcard {self.discard_pile[-1]} or pass")

    def _check_draw(self, seat: int, action: Action) -> None:
        if not isinstance(action, Draw):
            raise IllegalAction("wrong-phase", f"{action.type} is not allowed in the draw: "
                                "draw from the stock or the discard pile first")
        if action.source == "discard" and self.must_draw_stock:
            raise IllegalAction("wrong-phase", "both players passed the upcard: draw from the stock")
        if action.source == "discard" and not self.discard_pile:
            raise IllegalAction("wrong-phase", "the discard pile is empty: draw from the stock")
        if action.count > 1 and action.source != "discard":  # well formed, but no rule allows it
            raise IllegalAction("wrong-phase", "several cards are taken only from the discard pile (Mahjong gin)")
        if action.count > 1 and not self.rules.mahjong:
            raise IllegalAction("wrong-phase", "only Mahjong gin takes several discards; draw one card")

    def _check_last_discard_offer(self, seat: int, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not (isinstance(action, Draw) and action.source == "discard"):
            raise IllegalAction("wrong-phase", "the stock is down to 2 cards: take the last discard "
                                "to knock or go gin, or pass")
        top = self.discard_pile[-1]
        hand = self.hands[seat] + [top]
        if not any(self._knock_deadwood_ok(hand, c) for c in hand if c != top) and not self._big_gin(hand):
            raise IllegalAction("deadwood-over-limit", f"the last discard {top} may be taken only to "
                                f"knock or go gin, and it would not let you (limit {self.knock_limit})")

    def _check_discard(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        if isinstance(action, BigGin):
            if not self.rules.big_gin:
                raise IllegalAction("big-gin-not-allowed", "these rules have no Big Gin")
            if not self._big_gin(hand):
                raise IllegalAction("big-gin-not-allowed", f"Big Gin needs all 11 cards in melds; "
                                    f"{self.scheme.deadwood(hand)} points of deadwood remain")
            return
        if not isinstance(action, (Discard, Knock)):
            raise IllegalAction("wrong-phase", f"{action.type} is not allowed in the discard: "
                                "you have drawn already, now discard or knock")
        card = action.card if isinstance(action, Discard) else action.discard
        if card not in hand:
            raise IllegalAction("card-not-in-hand", f"{card} is not in your hand (in the discard)")
        if card == self.taken:
            raise IllegalAction("cannot-discard-taken-card", f"{card} was just taken from the "
                                "discard pile and may not be discarded this turn")
        if isinstance(action, Discard):
            if self.must_knock:
                raise IllegalAction("knock-required", f"the last discard was taken to knock: knock, "
                                    f"not discard {card}")
            return
        points = (layout_from_melds([c for c in hand if c != card], action.melds, scheme=self.scheme).deadwood_points
                  if action.melds is not None else self.scheme.deadwood_without(hand, card))
        if points and not self.rules.knocking_allowed:
            raise IllegalAction("knocking-not-allowed", f"only gin ends a hand in these rules; "
                                f"knocking with {card} leaves {points} points of deadwood")
        if points > self.knock_limit:
            raise IllegalAction("deadwood-over-limit", f"knocking with {card} leaves {points} points "
                                f"of deadwood; the limit this hand is {self.knock_limit}")

    def _knock_deadwood_ok(self, hand: list[Card], discard: Card) -> bool:
        points = self.scheme.deadwood_without(hand, discard)
        return points <= self.knock_limit and (points == 0 or self.rules.knocking_allowed)

    def _big_gin(self, hand: list[Card]) -> bool:
        return self.rules.big_gin and len(hand) == 11 and self.scheme.deadwood(hand) == 0
