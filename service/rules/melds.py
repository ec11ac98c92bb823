"""Melds, arrangements, and the public deadwood functions.

The exact lowest-deadwood search lives in deadwood.py, on four 13-bit suit masks (bit r-1 for
rank r). The functions here take cards, check them once, and hand it the masks.
`arrangements` enumerates the layouts worth considering for the knocker's choice (knock.py):
only the cards that could go either way ("conflict" cards) need a choice; every other card's
best place is forced.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterable, Iterator

from .cards import SUITS, Card, card_from_index, parse_cards
from .deadwood import FULL, STANDARD, SuitTables, best_layout, lowest, lowest_after_discard
from .runs import is_run_ranks, run_order

# The run cover (ace low) of every 13-bit suit mask, for `arrangements`.
RUN_COVER = [STANDARD.melded[m] for m in range(1 << 13)]


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
    def _known(cls, cards: tuple[Card, ...], kind: str) -> "Meld":
        """A meld the search laid out, valid and in order by construction: nothing to check."""
        meld = object.__new__(cls)
        object.__setattr__(meld, "cards", cards)
        object.__setattr__(meld, "_kind", kind)
        return meld

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


def hand_masks(cards: Iterable[Card | str]) -> list[int]:
    """The four suit masks of distinct cards, checked: the API's edge (texts are parsed)."""
    if not isinstance(cards, (list, tuple)):
        cards = parse_cards(cards)
    masks = [0, 0, 0, 0]
    try:
        for card in cards:
            masks[card.suit_index] |= card.bit
    except AttributeError:  # texts ("7H"), not Cards
        return hand_masks(parse_cards(cards))
    if masks[0].bit_count() + masks[1].bit_count() + masks[2].bit_count() + masks[3].bit_count() != len(cards):
        twice = next(card for i, card in enumerate(cards) if card in cards[:i])
        raise ValueError(f"{twice} is given twice")
    return masks


def min_deadwood(cards: Iterable[Card | str]) -> int:
    """Lowest deadwood count of 10 cards, or of 11 cards after the best discard."""
    a, b, c, d = hand_masks(cards)
    count = a.bit_count() + b.bit_count() + c.bit_count() + d.bit_count()
    if count == 10:
        return lowest(a, b, c, d)
    if count == 11:
        return lowest_after_discard(a, b, c, d)
    raise ValueError(f"min_deadwood takes 10 or 11 cards, not {count}")


def deadwood_count(cards: Iterable[Card]) -> int:
    """Lowest deadwood count of any number of cards (no discard)."""
    a, b, c, d = suit_masks(cards)
    return lowest(a, b, c, d)


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
    """A lowest-deadwood arrangement of any number of cards (ties: runs before sets)."""
    return arrangement_of_masks(*hand_masks(cards))


# The views show the arrangement of a hand that did not change since the last move: kept per
# process by the suit masks (frozen Arrangements: safe to share).
@functools.lru_cache(maxsize=4096)
def arrangement_of_masks(a: int, b: int, c: int, d: int,
                         tables: SuitTables = STANDARD) -> Arrangement:
    """The lowest-deadwood layout of deadwood.py, as melds and deadwood cards."""
    masks = (a, b, c, d)
    sets, runs = best_layout(a, b, c, d, tables)
    melds = [Meld._known(tuple(card_from_index(suit * 13 + rank) for rank in stretch), "run")
             for suit in range(4) if runs[suit]
             for stretch in _run_stretches(runs[suit], tables.high_ace[masks[suit] & ~sets[suit]], tables.runs)]
    set_ranks = sets[0] | sets[1] | sets[2] | sets[3]
    while set_ranks:
        bit = set_ranks & -set_ranks
        set_ranks ^= bit
        rank = bit.bit_length() - 1
        melds.append(Meld._known(tuple(card_from_index(s * 13 + rank) for s in range(4) if sets[s] & bit), "set"))
    melds.sort(key=lambda m: (m.cards[0].rank, m.cards[0]))
    dead = [masks[s] & ~(sets[s] | runs[s]) for s in range(4)]
    cards = _cards_in(0, dead[0]) + _cards_in(1, dead[1]) + _cards_in(2, dead[2]) + _cards_in(3, dead[3])
    points = tables.value[dead[0]] + tables.value[dead[1]] + tables.value[dead[2]] + tables.value[dead[3]]
    return Arrangement(tuple(melds), cards, points)


# Each suit's cards of the 7 low and the 6 high rank bits of a mask, as tuples: a mask's cards
# in two look-ups (the deadwood of every arrangement the views show).
_LOW_CARDS = [[tuple(card_from_index(s * 13 + r) for r in range(7) if m >> r & 1) for m in range(128)]
              for s in range(4)]
_HIGH_CARDS = [[tuple(card_from_index(s * 13 + 7 + r) for r in range(6) if m >> r & 1) for m in range(64)]
               for s in range(4)]


def _cards_in(suit: int, mask: int) -> tuple[Card, ...]:
    """The cards of one suit's mask, in order."""
    return _LOW_CARDS[suit][mask & 127] + _HIGH_CARDS[suit][mask >> 7]


def _run_stretches(mask: int, high_ace: bool, runs: str) -> list[list[int]]:
    """The runs of one suit's run cards, as rank indices in playing order: their maximal
    stretches in the option's order of ranks (round the corner, read from after a missing rank)."""
    order = list(range(13))
    if mask == FULL:
        return [order]
    if runs == "round_the_corner":
        gap = next(r for r in range(13) if not mask >> r & 1)
        order = order[gap + 1:] + order[:gap + 1]
    elif high_ace:
        order = order[1:] + [0]
    stretches, current = [], []
    for rank in order + [None]:
        if rank is not None and mask >> rank & 1:
            current.append(rank)
        elif current:
            stretches.append(current)
            current = []
    return stretches


def deadwood_without(masks: list[int], card: Card, tables: SuitTables = STANDARD) -> int:
    """The lowest deadwood of the hand in `masks` less `card` (one of them)."""
    a, b, c, d = masks
    bit, suit = card.bit, card.suit_index
    return lowest(a & ~bit if suit == 0 else a, b & ~bit if suit == 1 else b,
                  c & ~bit if suit == 2 else c, d & ~bit if suit == 3 else d, tables)
