"""Melds, deadwood, and the exact lowest-deadwood search.

The search works on four 13-bit masks, one per suit (bit r-1 for rank r). A card can belong
to a set (its rank held in 3+ suits) or to a run (3+ consecutive ranks of its suit). Only the
cards that could go either way ("conflict" cards) need a choice; every other card's best place
is forced. So the exact optimum is found by trying both sides of each conflict card and
melding everything else maximally, which is usually a single evaluation.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterable, Iterator

from .cards import SUITS, Card, card_from_index, parse_cards
from .runs import is_run_ranks, run_order


def _mask_value(mask: int) -> int:
    return sum(min(r + 1, 10) for r in range(13) if mask >> r & 1)


def _run_cover(mask: int) -> int:
    starts = mask & (mask >> 1) & (mask >> 2)
    return starts | (starts << 1) | (starts << 2)


# Tables over every 13-bit suit mask, built once at import (8192 entries each).
VALUE = [_mask_value(m) for m in range(1 << 13)]
HIGH = [max((min(r + 1, 10) for r in range(13) if m >> r & 1), default=0) for m in range(1 << 13)]
RUN_COVER = [_run_cover(m) for m in range(1 << 13)]


@dataclass(frozen=True)
class Meld:
    """A set (3-4 cards of one rank) or a run (3+ consecutive cards of one suit), sorted (a
    run in playing order: Q K A, K A 2). `runs` is the rules' option (RULES.md): by default the
    ace is low only."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card | str], runs: str = "ace_low"):
        parsed = tuple(sorted(parse_cards(cards)))
        kind = meld_kind(parsed, runs)
        if kind is None:
            raise ValueError(f"not a meld: {' '.join(map(str, parsed)) or '(empty)'}")
        if kind == "run" and runs != "ace_low":
            order = run_order([c.rank for c in parsed], runs)
            parsed = tuple(Card(rank, parsed[0].suit) for rank in order)
        object.__setattr__(self, "cards", parsed)
        object.__setattr__(self, "_kind", kind)

    @classmethod
    def parse(cls, text: str, runs: str = "ace_low") -> "Meld":
        return cls(parse_cards(text), runs)

    @property
    def kind(self) -> str:
        return self._kind  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def to_list(self) -> list[str]:
        return [str(c) for c in self.cards]


def meld_kind(cards: tuple[Card, ...] | list[Card], runs: str = "ace_low") -> str | None:
    """'set', 'run', or None when the cards form no meld (under the rules' `runs` option)."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return None
    if len(cards) <= 4 and len({c.rank for c in cards}) == 1:
        return "set"
    if len({c.suit for c in cards}) == 1 and is_run_ranks([c.rank for c in cards], runs):
        return "run"
    return None


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int

    def to_dict(self) -> dict:
        return {
            "melds": [m.to_list() for m in self.melds],
            "deadwood": [str(c) for c in self.deadwood],
            "deadwood_points": self.deadwood_points,
        }


def suit_masks(cards: Iterable[Card]) -> list[int]:
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card.suit_index] |= card.bit
    return masks


def _at_least_three(a: int, b: int, c: int, d: int) -> int:
    """Bits (ranks) set in at least three of the four suit masks."""
    return (a & b & (c | d)) | (c & d & (a | b))


def _conflicts(masks: list[int], three: int) -> list[tuple[int, int]]:
    found = []
    for suit in range(4):
        both = RUN_COVER[masks[suit]] & three & masks[suit]
        while both:
            bit = both & -both
            found.append((suit, bit))
            both ^= bit
    return found


def _melded(masks: list[int], three: int, conflicts: list[tuple[int, int]], choice: int) -> list[int]:
    """Per-suit melded masks when conflict j goes to its set if bit j of `choice` is set, else its run."""
    to_set = [0, 0, 0, 0]
    to_run = [0, 0, 0, 0]
    for j, (suit, bit) in enumerate(conflicts):
        if choice >> j & 1:
            to_set[suit] |= bit
        else:
            to_run[suit] |= bit
    side = [(masks[s] & three) & ~to_run[s] for s in range(4)]
    sets = _at_least_three(*side)
    return [RUN_COVER[masks[s] & ~to_set[s]] | (side[s] & sets) for s in range(4)]


# The views ask the same questions again: the deadwood after each discard of an 11-card hand (the
# suggested discard, then every knock's check), and the arrangement of a hand that did not change
# since the last move. Both answers depend on the four suit masks alone: kept per process.
@functools.lru_cache(maxsize=16384)
def deadwood_of_masks(a: int, b: int, c: int, d: int, discard: bool = False) -> int:
    """Lowest deadwood count of the cards in the four suit masks.

    With discard=True, the lowest count after throwing one card away: over all arrangements,
    deadwood minus its highest deadwood card (an all-melded 11-card hand keeps 0).
    """
    three = _at_least_three(a, b, c, d)
    ra, rb, rc, rd = RUN_COVER[a], RUN_COVER[b], RUN_COVER[c], RUN_COVER[d]
    if not (ra & a | rb & b | rc & c | rd & d) & three:
        # No card could go to both a set and a run: meld everything meldable.
        da, db, dc, dd = a & ~(ra | three), b & ~(rb | three), c & ~(rc | three), d & ~(rd | three)
        total = VALUE[da] + VALUE[db] + VALUE[dc] + VALUE[dd]
        if discard:
            total -= max(HIGH[da], HIGH[db], HIGH[dc], HIGH[dd])
        return total
    masks = [a, b, c, d]
    conflicts = _conflicts(masks, three)
    best = 1000
    for choice in range(1 << len(conflicts)):
        melded = _melded(masks, three, conflicts, choice)
        dead = [masks[s] & ~melded[s] for s in range(4)]
        total = VALUE[dead[0]] + VALUE[dead[1]] + VALUE[dead[2]] + VALUE[dead[3]]
        if discard:
            total -= max(HIGH[dead[0]], HIGH[dead[1]], HIGH[dead[2]], HIGH[dead[3]])
        if total < best:
            best = total
    return best


def min_deadwood(cards: Iterable[Card | str]) -> int:
    """Lowest deadwood count of 10 cards, or of 11 cards after the best discard."""
    cards = parse_cards(cards) if not _all_cards(cards) else cards
    masks = [0, 0, 0, 0]
    count = 0
    for card in cards:
        if masks[card.suit_index] & card.bit:
            raise ValueError(f"{card} is given twice")
        masks[card.suit_index] |= card.bit
        count += 1
    if count not in (10, 11):
        raise ValueError(f"min_deadwood takes 10 or 11 cards, not {count}")
    return deadwood_of_masks(masks[0], masks[1], masks[2], masks[3], discard=count == 11)


def deadwood_count(cards: Iterable[Card]) -> int:
    """Lowest deadwood count of any number of cards (no discard)."""
    a, b, c, d = suit_masks(cards)
    return deadwood_of_masks(a, b, c, d)


def _all_cards(cards) -> bool:
    return isinstance(cards, (list, tuple)) and all(isinstance(c, Card) for c in cards)


def _split_runs(suit: int, mask: int) -> list[Meld]:
    runs, rank, current = [], 0, []
    while rank < 14:
        if rank < 13 and mask >> rank & 1:
            current.append(card_from_index(suit * 13 + rank))
        elif current:
            runs.append(Meld(current))
            current = []
        rank += 1
    return runs


def arrangements(cards: Iterable[Card]) -> Iterator[Arrangement]:
    """Every maximal arrangement worth considering (one per choice for the conflict cards)."""
    cards = list(cards)
    masks = suit_masks(cards)
    three = _at_least_three(*masks)
    conflicts = _conflicts(masks, three)
    for choice in range(1 << len(conflicts)):
        yield _arrangement_for(masks, three, conflicts, choice)


def _arrangement_for(masks: list[int], three: int, conflicts, choice: int) -> Arrangement:
    to_set = [0, 0, 0, 0]
    to_run = [0, 0, 0, 0]
    for j, (suit, bit) in enumerate(conflicts):
        if choice >> j & 1:
            to_set[suit] |= bit
        else:
            to_run[suit] |= bit
    side = [(masks[s] & three) & ~to_run[s] for s in range(4)]
    sets = _at_least_three(*side)
    melds: list[Meld] = []
    deadwood: list[Card] = []
    for s in range(4):
        run_mask = RUN_COVER[masks[s] & ~to_set[s]]
        melds.extend(_split_runs(s, run_mask))
        dead = masks[s] & ~(run_mask | (side[s] & sets))
        deadwood.extend(card_from_index(s * 13 + r) for r in range(13) if dead >> r & 1)
    rank_bits = sets
    while rank_bits:
        bit = rank_bits & -rank_bits
        rank_bits ^= bit
        rank = bit.bit_length()
        melds.append(Meld([Card(rank, SUITS[s]) for s in range(4) if side[s] & bit]))
    melds.sort(key=lambda m: (m.cards[0].rank, m.cards[0]))
    deadwood.sort()
    return Arrangement(tuple(melds), tuple(deadwood), sum(c.points for c in deadwood))


def best_arrangement(cards: Iterable[Card | str]) -> Arrangement:
    """A lowest-deadwood arrangement of any number of cards (ties: the first choice found)."""
    cards = parse_cards(cards)
    if len(set(cards)) != len(cards):
        raise ValueError("a card is given twice: " + " ".join(map(str, cards)))
    return _best_of_masks(*suit_masks(cards))


@functools.lru_cache(maxsize=4096)
def _best_of_masks(a: int, b: int, c: int, d: int) -> Arrangement:
    """best_arrangement by the suit masks (frozen Arrangements: safe to share)."""
    cards = [card_from_index(suit * 13 + rank) for suit, mask in enumerate((a, b, c, d))
             for rank in range(13) if mask >> rank & 1]
    return min(arrangements(cards), key=lambda a: a.deadwood_points)


def best_discards(cards: Iterable[Card]) -> list[tuple[int, Card]]:
    """For an 11-card hand: (deadwood after discarding card, card) for every card, best first."""
    cards = list(cards)
    scored = [(deadwood_count([c for c in cards if c != card]), card) for card in cards]
    scored.sort(key=lambda pair: (pair[0], -pair[1].points, pair[1]))
    return scored
