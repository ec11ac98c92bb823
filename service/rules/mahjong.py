"""Mahjong gin (000): straight gin where several discards may be taken at once, melds go on the
table during play, anyone may add to them, and a gin scores each player's table less their hand.

000: "more than one card may be taken, in order, from the top of the discard pile. If more than
one card is taken, the lowest position card taken must be used in a hand ... Cards are shown to
the table, with opponents being able to add on to straights of the same suit or finish a three of
a kind with the fourth card for points. After a player has gin, points are added, with cards on
the table being added up and cards in hand being subtracted. The player who gins receives 25
additional points, 2 through 9 = 5 points, 10 through K = 10 points, A = 15 points."
"""
from __future__ import annotations

from .actions import Action, AddOn, BigGin, Discard, Draw, LayMeld
from .cards import Card, parse_cards
from .errors import IllegalAction
from .knock import layout_from_melds
from .match import VARIANTS, Match, _cards
from .plain import plain_copy
from .scoring import all_closed, close_game


class MahjongMatch(Match):
    """A Match whose hands are Mahjong gin's. `Match.new` and `Match.from_dict` choose it."""

    def __init__(self, rules, first_dealer: int):
        super().__init__(rules, first_dealer)
        self.table: list[dict] = []          # {"cards": [...] in playing order, "owners": [seat per card]}
        self.taken_cards: list[Card] = []    # taken from the pile this turn: none may be discarded
        self.must_use: Card | None = None    # the deepest of several taken: it must go on the table

    def deal(self, deck, knock_card=None) -> list[dict]:
        self.table, self.taken_cards, self.must_use = [], [], None
        return super().deal(deck, knock_card)

    # -- legality ------------------------------------------------------------------------------

    def _candidates(self, seat: int) -> list[Action]:
        actions = [a for a in super()._candidates(seat) if not isinstance(a, BigGin)]
        if self.phase == "draw":
            actions += [Draw("discard", n) for n in range(2, len(self.discard_pile) + 1)]
        elif self.phase == "discard":
            hand = sorted(self.hands[seat])
            actions += [LayMeld(tuple(sorted(m))) for m in self.scheme.melds_in(hand)]
            actions += [AddOn(c, i) for i in range(len(self.table)) for c in hand]
        return actions

    def _check_draw(self, seat: int, action: Action) -> None:
        super()._check_draw(seat, action)
        if action.count > len(self.discard_pile):
            raise IllegalAction("wrong-phase", f"the discard pile holds {len(self.discard_pile)} "
                                f"cards; {action.count} cannot be taken")
        if action.count > 1:
            taken = self.discard_pile[-action.count:]
            if not self._placeable(taken[0], self.hands[seat] + taken, taken):
                raise IllegalAction("invalid-meld", f"{taken[0]}, the deepest of the cards taken, "
                                    "would have to go on the table this turn, and it cannot")

    def _check_last_discard_offer(self, seat: int, action: Action) -> None:
        if isinstance(action, Draw) and action.count > 1:
            raise IllegalAction("wrong-phase", "only the last discard may be taken now")
        super()._check_last_discard_offer(seat, action)

    def _check_discard(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        if isinstance(action, LayMeld):
            missing = [c for c in action.cards if c not in hand]
            if missing:
                raise IllegalAction("card-not-in-hand", f"{missing[0]} is not in your hand (in the discard)")
            try:
                self.scheme.meld(action.cards)
            except ValueError as exc:
                raise IllegalAction("invalid-meld", str(exc)) from None
            self._keep_a_discard([c for c in hand if c not in action.cards])
            self._still_placeable(hand, action.cards)
            return
        if isinstance(action, AddOn):
            if not 0 <= action.meld < len(self.table):
                raise IllegalAction("invalid-meld", f"there is no meld {action.meld} on the table")
            if action.card not in hand:
                raise IllegalAction("card-not-in-hand", f"{action.card} is not in your hand (in the discard)")
            if not self._fits(action.card, action.meld):
                raise IllegalAction("invalid-meld", f"{action.card} does not extend "
                                    f"{' '.join(self.table[action.meld]['cards'])}")
            self._keep_a_discard([c for c in hand if c != action.card])
            self._still_placeable(hand, (action.card,))
            return
        card = action.card if isinstance(action, Discard) else getattr(action, "discard", None)
        if card is not None and card in self.taken_cards:
            raise IllegalAction("cannot-discard-taken-card", f"{card} was taken from the discard pile "
                                "this turn and may not be discarded")
        if isinstance(action, Discard) and self.must_use is not None and self.must_use in hand:
            # The existing codes of the API's catalogue: a discard is not allowed yet.
            raise IllegalAction("wrong-phase", f"{self.must_use}, the deepest card taken, must "
                                "go on the table (a meld or an add-on) before you discard")
        if isinstance(action, Discard) and card in hand and len(hand) == 1:
            return  # going out: the last card is the discard
        super()._check_discard(seat, action)

    def _keep_a_discard(self, left: list[Card]) -> None:
        if not [c for c in left if c not in self.taken_cards]:
            raise IllegalAction("invalid-meld", "keep a card you may discard, to end the turn")

    def _still_placeable(self, hand: list[Card], going: tuple) -> None:
        """Putting other cards down must not strand the deepest card taken."""
        deepest = self.must_use
        if deepest is None or deepest in going or deepest not in hand:
            return
        left = [c for c in hand if c not in going]
        if not self._placeable(deepest, left, self.taken_cards):
            raise IllegalAction("invalid-meld", f"that would leave {deepest}, the deepest card "
                                "taken, with no meld to go into")

    def _placeable(self, card: Card, hand: list[Card], taken: list[Card]) -> bool:
        """`card` can go on the table from `hand` (in a meld of its own, or onto a table meld),
        leaving a card that may be discarded."""
        for meld in self.scheme.melds_in(sorted(hand)):
            if card in meld and [c for c in hand if c not in meld and c not in taken]:
                return True
        return any(self._fits(card, i) for i in range(len(self.table))) and \
            bool([c for c in hand if c != card and c not in taken])

    def _fits(self, card: Card, index: int) -> bool:
        meld = self.scheme.meld(parse_cards(self.table[index]["cards"]))
        return self.scheme.layoff_fits(meld, card, set())

    # -- changes -------------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[dict]:
        if isinstance(action, LayMeld):
            self.check(seat, action)
            meld = self.scheme.meld(action.cards)
            self._to_table(seat, list(meld.cards))
            self.table.append({"cards": meld.to_list(), "owners": [seat] * len(meld)})
            return [{"type": "meld", "hand": self.hand_number, "seat": seat, "cards": meld.to_list(),
                     "meld": len(self.table) - 1}]
        if isinstance(action, AddOn):
            self.check(seat, action)
            self._to_table(seat, [action.card])
            entry = self.table[action.meld]
            grown = self.scheme.meld(parse_cards(entry["cards"]) + [action.card])
            owner_of = dict(zip(entry["cards"], entry["owners"])) | {str(action.card): seat}
            entry["cards"] = grown.to_list()
            entry["owners"] = [owner_of[c] for c in entry["cards"]]
            return [{"type": "add_on", "hand": self.hand_number, "seat": seat, "card": str(action.card),
                     "meld": action.meld}]
        if isinstance(action, Draw) and action.count > 1:
            self.check(seat, action)
            taken = self.discard_pile[-action.count:]
            del self.discard_pile[-action.count:]
            self.hands[seat] += taken
            self.known[seat] += taken
            self.taken, self.taken_cards, self.must_use = None, list(taken), taken[0]
            self.pile_draws += 1
            self.phase = "discard"
            return [{"type": "draw", "hand": self.hand_number, "seat": seat, "from": "discard",
                     "count": action.count, "cards": _cards(taken)}]
        if isinstance(action, Discard) and len(self.hands[seat]) == 1 and self.phase == "discard":
            self.check(seat, action)
            self.hands[seat].remove(action.card)
            return [{"type": "discard", "hand": self.hand_number, "seat": seat, "card": str(action.card)}] + \
                self._settle(seat, (), action.card)
        return super().apply(seat, action)

    def _to_table(self, seat: int, cards: list[Card]) -> None:
        for card in cards:
            self.hands[seat].remove(card)
            if card in self.known[seat]:
                self.known[seat].remove(card)

    def _take_top(self, seat: int) -> None:
        super()._take_top(seat)
        self.taken_cards, self.must_use = [self.taken], None

    def _draw(self, seat: int, source: str, base: dict) -> dict:
        event = super()._draw(seat, source, base)
        if source == "stock":
            self.taken_cards, self.must_use = [], None
        return event

    def _discard(self, seat: int, card: Card, base: dict) -> list[dict]:
        self.taken_cards, self.must_use = [], None
        return super()._discard(seat, card, base)

    def _settle(self, winner: int, melds, discard: Card | None) -> list[dict]:
        """A gin: the ginner's cards go on the table; each player scores table less hand."""
        rest = self.hands[winner]
        layout = (layout_from_melds(rest, melds, scheme=self.scheme) if melds
                  else self.scheme.best(rest))
        for meld in layout.melds:
            self._to_table(winner, list(meld.cards))
            self.table.append({"cards": meld.to_list(), "owners": [winner] * len(meld)})
        hands_at_end = {str(s): _cards(sorted(self.hands[s])) for s in (0, 1)}
        table_points = [sum(self.scheme.points(Card.parse(c)) for m in self.table
                            for c, owner in zip(m["cards"], m["owners"]) if owner == s) for s in (0, 1)]
        hand_points = [self.scheme.count(self.hands[s]) for s in (0, 1)]
        scores = [table_points[s] - hand_points[s] for s in (0, 1)]
        scores[winner] += self.rules.gin_bonus
        game = self.games[0]
        for seat in (0, 1):
            game["totals"][seat] += scores[seat]
        game["hands_won"][winner] += 1
        self.wins[winner] += 1
        reached = [s for s in (0, 1) if game["totals"][s] >= self.rules.target]
        if reached:
            # Both may pass the target in one hand: the higher total wins, the ginner on a tie.
            close_game(self.rules, game, max(reached, key=lambda s: (game["totals"][s], s == winner)))
        record = {"hand": self.hand_number, "dealer": self.dealer, "knocker": winner, "result": "gin",
                  "winner": winner, "points": scores[winner], "scores": scores,
                  "table_points": table_points, "hand_points": hand_points,
                  "knock_discard": str(discard) if discard else None, "hands": hands_at_end,
                  "table": plain_copy(self.table), "multiplier": 1, "games_credited": [0]}
        self.sheet.append({k: record[k] for k in ("hand", "dealer", "knocker", "result", "winner", "points",
                                                   "games_credited", "scores")})
        self.last_hand = record
        self.dealer = {"alternate": 1 - self.dealer, "winner": winner, "loser": 1 - winner}[self.rules.next_dealer]
        self.to_move = None
        events = [{"type": "hand_end", "hand": self.hand_number, "record": record}]
        if all_closed(self.games):
            return events + self._end_match("target")
        self.phase = "awaiting_deal"
        return events

    # -- views and serialisation ---------------------------------------------------------------

    def view(self, seat: int, shared: dict | None = None) -> dict:
        view = super().view(seat, shared)
        view["table"] = plain_copy(self.table)  # the table is public
        view["must_use"] = str(self.must_use) if self.must_use and seat == self.to_move else None
        return view

    def to_dict(self) -> dict:
        return super().to_dict() | {"table": plain_copy(self.table), "taken_cards": _cards(self.taken_cards),
                                    "must_use": str(self.must_use) if self.must_use else None}

    def _load_extra(self, data: dict) -> None:
        self.table = plain_copy(data["table"])
        self.taken_cards = parse_cards(data["taken_cards"])
        self.must_use = Card.parse(data["must_use"]) if data["must_use"] else None



VARIANTS["mahjong"] = MahjongMatch  # Match.new and Match.from_dict make one for rules with mahjong on
