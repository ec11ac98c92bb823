"""Deadwood and layoffs under any `runs` and `card_values` option (Tedesco, Mahjong gin).

Every scheme's deadwood goes through the one exact search of deadwood.py, on its own per-suit
tables (built on the scheme's first use); the cards are checked once here, at the edge.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterable

from .cards import Card
from .deadwood import SuitTables, lowest, lowest_after_discard, tables_for
from .melds import Arrangement, Meld, arrangement_of_masks, deadwood_without, hand_masks, suit_masks
from .runs import card_value, is_run_ranks, next_rank


@dataclass(frozen=True)
class CardScheme:
    runs: str = "ace_low"
    values: str = "standard"
    tables: SuitTables = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tables_for(self.runs, self.values))

    @classmethod
    def of(cls, rules) -> "CardScheme":
        return cls(rules.runs, rules.card_values) if rules is not None else STANDARD

    @property
    def standard(self) -> bool:
        return self.runs == "ace_low" and self.values == "standard"

    def points(self, card: Card) -> int:
        return card.points if self.values == "standard" else card_value(card.rank, self.values)

    def count(self, cards: Iterable[Card]) -> int:
        return sum(self.points(c) for c in cards)

    def meld(self, cards) -> Meld:
        return Meld(cards, self.runs)

    # -- the exact search ------------------------------------------------------------------

    def melds_in(self, hand: list[Card]) -> list[tuple[Card, ...]]:
        """Every meld inside `hand`: 3-subsets and the whole of each 4-set, every run (and
        every sub-run) the `runs` option allows."""
        found: list[tuple[Card, ...]] = []
        by_rank: dict[int, list[Card]] = {}
        by_suit: dict[str, set[int]] = {}
        for card in hand:
            by_rank.setdefault(card.rank, []).append(card)
            by_suit.setdefault(card.suit, set()).add(card.rank)
        for group in by_rank.values():
            for size in (3, 4):
                found.extend(combinations(sorted(group), size))
        for suit, ranks in by_suit.items():
            seen: set[frozenset] = set()  # a whole-suit circle is found from every start
            for start in ranks:
                run = [start]
                while len(run) < 13:
                    nxt = next_rank(run[-1], 1)
                    if nxt not in ranks or (self.runs == "ace_low" and nxt == 1):
                        break  # (K to A is a step only where aces may be high)
                    if len(run) >= 2 and not is_run_ranks(run + [nxt], self.runs):
                        break
                    run.append(nxt)
                    key = frozenset(run)
                    if len(run) >= 3 and key not in seen:
                        seen.add(key)
                        found.append(tuple(Card(r, suit) for r in run))
        return found

    def best(self, cards: Iterable[Card | str]) -> Arrangement:
        """A lowest-deadwood arrangement of any number of cards (exact)."""
        return arrangement_of_masks(*hand_masks(cards), self.tables)

    def deadwood(self, cards: Iterable[Card]) -> int:
        a, b, c, d = suit_masks(cards)
        return lowest(a, b, c, d, self.tables)

    def deadwood_without(self, cards: list[Card], card: Card) -> int:
        """The deadwood of `cards` less `card` (one of them), straight from the suit masks."""
        return deadwood_without(suit_masks(cards), card, self.tables)

    def deadwood_after_discards(self, cards: list[Card]) -> list[int]:
        """The deadwood left after discarding each of `cards` in turn (their suit masks once)."""
        masks = suit_masks(cards)
        return [deadwood_without(masks, card, self.tables) for card in cards]

    def min_deadwood(self, cards: Iterable[Card | str]) -> int:
        """10 cards: their lowest count; 11: the lowest after the best discard."""
        a, b, c, d = hand_masks(cards)
        count = a.bit_count() + b.bit_count() + c.bit_count() + d.bit_count()
        if count not in (10, 11):
            raise ValueError("min_deadwood takes 10 or 11 distinct cards")
        return (lowest if count == 10 else lowest_after_discard)(a, b, c, d, self.tables)

    # -- layoffs ---------------------------------------------------------------------------

    def run_grows_to(self, run: Meld, card: Card, laid: set[Card]) -> bool:
        """True if `card` joins `run` through a chain of other laid-off cards at one end."""
        if card.suit != run.cards[0].suit or card in run.cards:
            return False
        for step, end in ((1, run.cards[-1]), (-1, run.cards[0])):
            ranks = [c.rank for c in run.cards]
            rank = end.rank
            while True:
                rank = next_rank(rank, step)
                ranks.append(rank)
                if not is_run_ranks(ranks, self.runs) or len(ranks) > 13:
                    break
                if rank == card.rank:
                    return True
                if Card(rank, card.suit) not in laid:
                    break
        return False

    def layoff_fits(self, meld: Meld, card: Card, laid: set[Card]) -> bool:
        if meld.kind == "set":
            return len(meld) == 3 and card.rank == meld.cards[0].rank and card not in meld.cards
        return self.run_grows_to(meld, card, laid)

    def layoffs_valid(self, knocker_melds, layoffs) -> bool:
        laid = set(layoffs)
        return all(any(self.layoff_fits(m, card, laid) for m in knocker_melds) for card in layoffs)

    def layoff_candidates(self, knocker_melds, defender: list[Card]) -> list[Card]:
        """Defender cards that could be laid off, following chains of them from each run's ends."""
        held = set(defender)
        return sorted(c for c in held if any(self.layoff_fits(m, c, held) for m in knocker_melds))

    def best_defence(self, knocker_melds, defender: list[Card], layoffs_allowed: bool):
        """The defender's exact best: (arrangement of the cards kept, layoffs); fewer layoffs win ties."""
        if not layoffs_allowed:
            return self.best(defender), ()
        candidates = self.layoff_candidates(knocker_melds, defender)
        best = None
        for size in range(len(candidates) + 1):
            for layoffs in combinations(candidates, size):
                if not self.layoffs_valid(knocker_melds, layoffs):
                    continue
                arrangement = self.best([c for c in defender if c not in layoffs])
                if best is None or arrangement.deadwood_points < best[0].deadwood_points:
                    best = (arrangement, layoffs)
        return best

    def layoff_spots(self, meld: Meld) -> set[Card]:
        """Cards that could be laid off directly onto a meld (for the knocker's choice of layout)."""
        first = meld.cards[0]
        if meld.kind == "set":
            return {Card(first.rank, s) for s in "CDHS"} - set(meld.cards) if len(meld) == 3 else set()
        return {Card(r, first.suit) for r in range(1, 14)
                if self.run_grows_to(meld, Card(r, first.suit), set())}


STANDARD = CardScheme()
