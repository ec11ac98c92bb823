"""Deadwood and layoffs under any `runs` and `card_values` option (Tedesco, Mahjong gin).

The standard cards keep the fast mask search of melds.py; every other scheme uses this exact
search: every meld in the hand, then the best disjoint choice by memoised recursion over the
cards still free (the lowest free card is either deadwood or in one of its melds).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from .cards import Card, parse_cards
from .melds import (
    Arrangement,
    Meld,
    best_arrangement,
    deadwood_count,
    deadwood_of_masks,
    suit_masks,
)
from .runs import card_value, is_run_ranks, next_rank


@dataclass(frozen=True)
class CardScheme:
    runs: str = "ace_low"
    values: str = "standard"

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
        hand = sorted(parse_cards(cards))
        if len(set(hand)) != len(hand):
            raise ValueError("a card is given twice: " + " ".join(map(str, hand)))
        if self.standard:
            return best_arrangement(hand)
        melded, chosen = self._search(hand)
        used = {c for m in chosen for c in m}
        deadwood = tuple(c for c in hand if c not in used)
        melds = tuple(sorted((self.meld(m) for m in chosen), key=lambda m: (m.cards[0].rank, m.cards[0])))
        return Arrangement(melds, deadwood, self.count(deadwood))

    def deadwood(self, cards: Iterable[Card]) -> int:
        cards = list(cards)
        if self.standard:
            return deadwood_count(cards)
        return self.count(cards) - self._search(sorted(cards))[0]

    def deadwood_without(self, cards: list[Card], card: Card) -> int:
        """The deadwood of `cards` less `card` (one of them); with standard values and runs
        straight from the suit masks, without a list of the rest."""
        if self.standard:
            masks = suit_masks(cards)
            masks[card.suit_index] &= ~card.bit
            return deadwood_of_masks(*masks)
        return self.deadwood([c for c in cards if c != card])

    def min_deadwood(self, cards: Iterable[Card | str]) -> int:
        """10 cards: their lowest count; 11: the lowest after the best discard."""
        hand = parse_cards(cards)
        if len(hand) not in (10, 11) or len(set(hand)) != len(hand):
            raise ValueError("min_deadwood takes 10 or 11 distinct cards")
        if len(hand) == 10:
            return self.deadwood(hand)
        return min(self.deadwood([c for c in hand if c != card]) for card in hand)

    def _search(self, hand: list[Card]) -> tuple[int, list[tuple[Card, ...]]]:
        """(most points that can be melded, the melds doing it) over disjoint melds."""
        index = {card: i for i, card in enumerate(hand)}
        by_low: dict[int, list[tuple[int, int, tuple[Card, ...]]]] = {}
        for meld in self.melds_in(hand):
            mask = 0
            for card in meld:
                mask |= 1 << index[card]
            low = (mask & -mask).bit_length() - 1
            by_low.setdefault(low, []).append((mask, self.count(meld), meld))
        memo: dict[int, tuple[int, int]] = {}  # free mask -> (value, mask of the meld taken or 0)

        def best(free: int) -> int:
            if free == 0:
                return 0
            if free in memo:
                return memo[free][0]
            low_bit = free & -free
            value, taken = best(free ^ low_bit), 0
            for mask, points, _ in by_low.get(low_bit.bit_length() - 1, ()):
                if mask & free == mask:
                    total = points + best(free ^ mask)
                    if total > value:
                        value, taken = total, mask
            memo[free] = (value, taken)
            return value

        full = (1 << len(hand)) - 1
        value = best(full)
        chosen, free = [], full
        meld_of = {mask: meld for group in by_low.values() for mask, _, meld in group}
        while free:
            _, taken = memo.get(free, (0, 0))
            low_bit = free & -free
            if taken:
                chosen.append(meld_of[taken])
                free ^= taken
            else:
                free ^= low_bit
        return value, chosen

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
