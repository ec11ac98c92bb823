"""A two-player match of Gin Rummy as a state machine.

The caller supplies every deck order (`deal`) and every action (`apply`); the engine never
shuffles and never reads a clock. `check` is the one place legality is decided: `apply` calls
it first, and `legal_actions` is exactly the candidate actions `check` lets through.
"""
from __future__ import annotations

import copy
from typing import Iterable

from .actions import Action, BigGin, ChooseDealer, Discard, Draw, Knock, Pass, Resign, TakeUpcard
from .cards import Card, parse_cards
from .errors import IllegalAction, check_seat
from .first_deal import FirstDeal
from .knock import settle_knock
from .legality import PHASE_WORDS, Legality
from .options import Rules
from .plain import plain_copy
from .scheme import CardScheme
from .scoring import all_closed, match_result, new_games, record_hand_win

PHASES = ("cut", "dealer_choice", "awaiting_deal", "upcard_offer", "draw", "discard", "last_discard_offer", "match_over")


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


class Match(Legality, FirstDeal):
    """The whole state of a match. Build with `Match.new`, restore with `Match.from_dict`."""

    def __init__(self, rules: Rules, first_dealer: int | None):
        # No first dealer given, under rules that cut for it: the match begins with the cut.
        cutting = first_dealer is None and rules.first_dealer_by != "random"
        if not cutting:
            check_seat(first_dealer)
        self.rules = rules
        self.scheme = CardScheme.of(rules)
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.cuts: list[dict] = []  # each try of the cut: {"0": seat 0's card, "1": seat 1's}
        self.hand_number = 0
        self.phase = "cut" if cutting else "awaiting_deal"
        self.to_move: int | None = None
        self.hands: list[list[Card]] = [[], []]
        self.stock: list[Card] = []  # top of the stock first
        self.discard_pile: list[Card] = []  # bottom first, top last
        self.upcard_passes = 0
        self.must_draw_stock = False
        self.must_knock = False
        self.taken: Card | None = None  # taken from the discard pile this turn: not discardable
        self.known: list[list[Card]] = [[], []]  # taken from the discard pile, not discarded since
        self.pile_draws = 0  # turns in a row that took from the discard pile (the no-loop rule)
        self.knock_card: Card | None = None  # Oklahoma with a second deck: this hand's knock card
        self.knock_limit = rules.knock_limit
        self.multiplier = 1
        self.games = new_games(rules)
        self.wins = [0, 0]
        self.sheet: list[dict] = []
        self.last_hand: dict | None = None
        self.result: dict | None = None

    @classmethod
    def new(cls, rules: Rules | None, first_dealer: int) -> "Match":
        return _class_for(rules or Rules())(rules or Rules(), first_dealer)

    # -- queries -------------------------------------------------------------------------

    @property
    def needs_deal(self) -> bool:
        return self.phase == "awaiting_deal"

    @property
    def is_over(self) -> bool:
        return self.phase == "match_over"

    @property
    def winner(self) -> int | None:
        return self.result["winner"] if self.result else None

    def _candidates(self, seat: int) -> list[Action]:
        if self.phase == "dealer_choice":
            return [ChooseDealer(True), ChooseDealer(False)]
        if self.phase == "upcard_offer":
            return [TakeUpcard(), Pass()]
        if self.phase == "draw":
            return [Draw("stock"), Draw("discard")]
        if self.phase == "last_discard_offer":
            return [Draw("discard"), Pass()]
        if self.phase == "discard":
            hand = sorted(self.hands[seat])
            return [Discard(c) for c in hand] + [Knock(c) for c in hand] + [BigGin()]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        """Every turn action `check` accepts now (resigning, always allowed, is not listed)."""
        if check_seat(seat) != self.to_move:
            return []
        return [action for action in self._candidates(seat) if self.allows(seat, action)]

    # -- changes -------------------------------------------------------------------------

    def deal(self, deck: Iterable[Card | str], knock_card: Card | str | None = None) -> list[dict]:
        """Deal a hand from `deck` (52 distinct cards; index 0 is dealt first, to the non-dealer).
        With `knock_card="second_deck"` rules, `knock_card` is the card turned from the second
        deck (RULES.md: Oklahoma); there is then no upcard."""
        deck = parse_cards(list(deck))
        if len(deck) != 52 or len(set(deck)) != 52:
            raise ValueError("a deck must hold the 52 distinct cards")
        second_deck = self.rules.knock_card == "second_deck"
        if second_deck != (knock_card is not None):
            raise ValueError("a knock card from a second deck is dealt with these rules, and only with them"
                             if second_deck else "these rules take no knock card: the upcard sets the limit")
        if not self.needs_deal:
            raise IllegalAction("wrong-phase", f"cannot deal in {PHASE_WORDS[self.phase]}")
        self.hand_number += 1
        dealer, other = self.dealer, 1 - self.dealer
        self.hands = [[], []]
        for i in range(20):
            self.hands[other if i % 2 == 0 else dealer].append(deck[i])
        self.known = [[], []]
        self.taken = None
        self.upcard_passes = self.pile_draws = 0
        self.must_draw_stock = self.must_knock = False
        self.knock_card = Card.parse(knock_card) if isinstance(knock_card, str) else knock_card
        shown = self.knock_card or deck[20]
        if self.rules.oklahoma:
            self.knock_limit = shown.points  # the card's face value: an ace is 1 (RULES.md)
            self.multiplier = 2 if shown.suit == "S" else 1
        else:
            self.knock_limit = self.rules.knock_limit if self.rules.knocking_allowed else 0
            self.multiplier = 1
        if second_deck:
            # 000: both are dealt ten, and the last hand's winner picks first from the stock.
            self.discard_pile, self.stock = [], deck[20:]
            last_winner = self.last_hand["winner"] if self.last_hand else None
            self.phase, self.to_move = "draw", other if last_winner is None else last_winner
        else:
            self.discard_pile, self.stock = [deck[20]], deck[21:]
            # 004: the non-dealer simply takes the upcard or draws; no offer to the dealer.
            self.phase = "draw" if self.rules.first_turn == "take_or_draw" else "upcard_offer"
            self.to_move = other
        event = {
            "type": "deal", "hand": self.hand_number, "dealer": dealer,
            "upcard": str(deck[20]) if not second_deck else None,
            "stock_count": len(self.stock), "knock_limit": self.knock_limit,
            "private": {str(s): {"cards": {str(s): _cards(sorted(self.hands[s]))}} for s in (0, 1)},
        }
        if second_deck:
            event["knock_card"] = str(self.knock_card)
        if self.rules.misdeal_on_dealt_knock and self._can_knock_as_dealt():
            return [event] + self._void("misdeal")
        return [event]

    def _can_knock_as_dealt(self) -> bool:
        """000: a player able to knock before any card is taken makes it a misdeal."""
        limit = self.knock_limit if self.rules.knocking_allowed else 0
        return any(self.scheme.deadwood(hand) <= limit for hand in self.hands)

    def apply(self, seat: int, action: Action) -> list[dict]:
        """Check and apply one action; return the events it caused."""
        self.check(seat, action)
        base = {"hand": self.hand_number, "seat": seat}
        if isinstance(action, Resign):
            return self.forfeit(seat, "resign")
        if isinstance(action, ChooseDealer):
            return self._choose_dealer(seat, action)
        if isinstance(action, TakeUpcard):
            self._take_top(seat)
            self.phase = "discard"
            return [{**base, "type": "take_upcard", "card": str(self.taken)}]
        if isinstance(action, Pass):
            return [{**base, "type": "pass"}] + self._pass(seat)
        if isinstance(action, Draw):
            return [self._draw(seat, action.source, base)]
        if isinstance(action, Discard):
            return self._discard(seat, action.card, base)
        if isinstance(action, Knock):
            self.hands[seat].remove(action.discard)
            return [{**base, "type": "knock", "private": {str(seat): {"discard": str(action.discard)}}}] + \
                self._settle(seat, action.melds, action.discard)
        return [{**base, "type": "big_gin"}] + self._settle(seat, None, None)

    def _take_top(self, seat: int) -> None:
        self.pile_draws += 1
        card = self.discard_pile.pop()
        self.hands[seat].append(card)
        self.known[seat].append(card)
        self.taken = card

    def _pass(self, seat: int) -> list[dict]:
        if self.phase == "last_discard_offer":
            return self._void()
        if self.upcard_passes == 0:
            self.upcard_passes, self.to_move = 1, self.dealer
        else:
            self.phase, self.to_move, self.must_draw_stock = "draw", 1 - self.dealer, True
        return []

    def _draw(self, seat: int, source: str, base: dict) -> dict:
        if self.phase == "last_discard_offer":
            self.must_knock = True
        self.must_draw_stock = False
        self.phase = "discard"
        if source == "discard":
            self._take_top(seat)
            return {**base, "type": "draw", "from": "discard", "card": str(self.taken)}
        card = self.stock.pop(0)
        self.hands[seat].append(card)
        self.taken = None
        self.pile_draws = 0
        return {**base, "type": "draw", "from": "stock", "stock_count": len(self.stock),
                "private": {str(seat): {"card": str(card)}}}

    def _discard(self, seat: int, card: Card, base: dict) -> list[dict]:
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)
        self.discard_pile.append(card)
        self.taken = None
        events = [{**base, "type": "discard", "card": str(card)}]
        if len(self.stock) <= 2:
            if self.rules.last_discard_rule == "take_to_finish":
                self.phase, self.to_move = "last_discard_offer", 1 - seat
                return events
            return events + self._void()
        limit = self.rules.pile_draw_limit
        if limit and self.pile_draws >= limit:
            # No text has a rule against two players passing discards back and forth forever:
            # RULES.md's no-loop rule voids the hand after so many turns without a stock draw.
            return events + self._void("no_stock_draw")
        self.phase, self.to_move = "draw", 1 - seat
        return events

    def _void(self, reason: str = "stock") -> list[dict]:
        """No score: the stock ran down (`stock`), a misdeal, or the no-loop rule (`no_stock_draw`).
        The same dealer deals again unless the rules alternate the deal after a void hand."""
        record = {"hand": self.hand_number, "dealer": self.dealer, "result": "void", "winner": None,
                  "knocker": None, "points": 0, "void_reason": reason,
                  "hands": {str(s): _cards(sorted(self.hands[s])) for s in (0, 1)}}
        self.sheet.append({k: record[k] for k in ("hand", "dealer", "result", "winner", "points")})
        self.last_hand = record
        if reason != "misdeal" and self.rules.dealer_after_void == "alternate":
            self.dealer = 1 - self.dealer
        self.phase, self.to_move = "awaiting_deal", None
        return [{"type": "hand_void", "hand": self.hand_number, "record": record}]

    def _settle(self, knocker: int, melds, discard: Card | None) -> list[dict]:
        defender = 1 - knocker
        hands_at_end = {str(s): _cards(sorted(self.hands[s])) for s in (0, 1)}
        seen = self.discard_pile + ([discard] if discard else [])
        settled = settle_knock(self.hands[knocker], melds, self.hands[defender], self.rules,
                               big_gin=discard is None, seen=seen, knock_limit=self.knock_limit)
        winner = {"knocker": knocker, "defender": defender, None: None}[settled.winner]
        points = settled.points * self.multiplier
        credited: list[int] = []
        if winner is not None:
            credited = record_hand_win(self.rules, self.games, self.wins[winner], winner, points)
            self.wins[winner] += 1
        record = {"hand": self.hand_number, "dealer": self.dealer, "knocker": knocker,
                  "knock_discard": str(discard) if discard else None, "hands": hands_at_end,
                  **settled.to_dict(), "winner": winner, "points": points,
                  "multiplier": self.multiplier, "games_credited": credited}
        self.sheet.append({k: record[k] for k in ("hand", "dealer", "knocker", "result", "winner", "points")}
                          | {"games_credited": credited})
        self.last_hand = record
        events = [{"type": "hand_end", "hand": self.hand_number, "record": record}]
        if winner is None:  # a tie: nobody won, so only alternation moves the deal
            self.dealer = 1 - self.dealer if self.rules.next_dealer == "alternate" else self.dealer
        else:
            self.dealer = {"alternate": 1 - self.dealer, "winner": winner,
                           "loser": 1 - winner}[self.rules.next_dealer]
        self.to_move = None
        if all_closed(self.games):
            return events + self._end_match("target")
        self.phase = "awaiting_deal"
        return events

    def forfeit(self, seat: int, reason: str = "resign") -> list[dict]:
        """`seat` loses the match now (resignation, or a timeout the caller has established)."""
        check_seat(seat)
        if self.is_over:
            raise IllegalAction("game-over", "the match is over already")
        events = [{"type": reason, "hand": self.hand_number, "seat": seat}]
        return events + self._end_match(reason, winner=1 - seat)

    def _end_match(self, reason: str, winner: int | None = None) -> list[dict]:
        self.phase, self.to_move = "match_over", None
        self.result = match_result(self.rules, self.games, self.wins, reason, winner)
        return [{"type": "match_end", "hand": self.hand_number, "result": plain_copy(self.result)}]

    # -- views and serialisation ------------------------------------------------------------

    def view(self, seat: int, shared: dict | None = None) -> dict:
        """What `seat` may see, JSON-safe. The only way state leaves the engine toward a player."""
        from .views import seat_view
        return seat_view(self, seat, shared)

    def views(self, seats=(0, 1)) -> dict[int, dict]:
        """The views of several seats at once (as view() makes each), what they see alike made once."""
        from .views import shared_parts
        shared = shared_parts(self)
        return {seat: self.view(seat, shared) for seat in seats}

    def to_dict(self) -> dict:
        return {
            "rules": self.rules.to_dict(), "first_dealer": self.first_dealer, "dealer": self.dealer,
            "hand_number": self.hand_number, "phase": self.phase, "to_move": self.to_move,
            "hands": [_cards(h) for h in self.hands], "stock": _cards(self.stock),
            "discard_pile": _cards(self.discard_pile), "upcard_passes": self.upcard_passes,
            "must_draw_stock": self.must_draw_stock, "must_knock": self.must_knock,
            "taken": str(self.taken) if self.taken else None,
            "known": [_cards(k) for k in self.known], "knock_limit": self.knock_limit,
            "pile_draws": self.pile_draws, "knock_card": str(self.knock_card) if self.knock_card else None,
            "multiplier": self.multiplier, "games": plain_copy(self.games),
            "wins": list(self.wins), "sheet": plain_copy(self.sheet),
            "last_hand": plain_copy(self.last_hand), "result": plain_copy(self.result),
            **({"cuts": plain_copy(self.cuts)} if self.cuts else {}),  # only with a cut: stored states unchanged
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Match":
        rules = Rules.from_dict(data["rules"])
        match = _class_for(rules)(rules, data["first_dealer"])
        for name in ("dealer", "hand_number", "phase", "to_move", "upcard_passes", "must_draw_stock",
                     "must_knock", "knock_limit", "multiplier", "wins"):
            setattr(match, name, copy.copy(data[name]))
        match.hands = [parse_cards(h) for h in data["hands"]]
        match.stock = parse_cards(data["stock"])
        match.discard_pile = parse_cards(data["discard_pile"])
        match.taken = Card.parse(data["taken"]) if data["taken"] else None
        match.known = [parse_cards(k) for k in data["known"]]
        # Saved before issue 14: no pile-draw count (a fresh count) and no second-deck knock card.
        match.pile_draws = data.get("pile_draws", 0)
        match.knock_card = Card.parse(data["knock_card"]) if data.get("knock_card") else None
        match.cuts = plain_copy(data.get("cuts", []))
        for name in ("games", "sheet", "last_hand", "result"):
            setattr(match, name, plain_copy(data[name]))
        match._load_extra(data)
        return match

    def _load_extra(self, data: dict) -> None:
        """A variant's own state (Mahjong gin's table)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"<Match hand {self.hand_number} {self.phase} to_move={self.to_move}>"


# Variants whose turns and scoring differ enough to live in a class of their own, by the rules
# option that selects them: mahjong.py registers Mahjong gin's (the package imports it).
VARIANTS: dict[str, type] = {}


def _class_for(rules: Rules) -> type:
    return next((variant for option, variant in VARIANTS.items() if getattr(rules, option)), Match)
