"""The exact lowest-deadwood search on four 13-bit suit masks (bit r-1 for rank r), under every
`runs` and `card_values` option: the engine's hot path. Nothing here validates: the callers
(melds.py, scheme.py) check the cards once at the edge and pass masks.

An arrangement is a choice of sets (at most one per rank: 3 or 4 of its cards) and, in each
suit, runs among the cards the sets left. Runs never cross suits, so once the sets are chosen
each suit's best runs are a look-up in tables over all 8192 suit masks, built once per scheme.
About three random 10-card hands in four hold no rank three times: four look-ups. The others
try each set choice that could be best (usually two).

After a discard (11 cards), the lowest deadwood is, over all arrangements, the deadwood less its
highest deadwood card (an all-melded hand keeps 0). For a fixed set choice the suits are
independent, so it is the sum of the suits' lowest deadwood less the largest saving a discard
from one suit offers: `gain`, a table too.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from .runs import card_value

FULL = (1 << 13) - 1
_MASKS = range(1 << 13)


def _cover_line(mask: int) -> int:
    """Cards of `mask` inside some 3 consecutive held bits (any width)."""
    starts = mask & (mask >> 1) & (mask >> 2)
    return starts | (starts << 1) | (starts << 2)


def _cover_ace_high(mask: int) -> int:
    """The run cover with the ace above the king (Q K A), never below the two."""
    line = (mask & ~1) | (mask & 1) << 13
    cover = _cover_line(line)
    return (cover & FULL & ~1) | (cover >> 13 & 1)


def _cover_circle(mask: int) -> int:
    """The run cover round the corner (K A 2): the ranks as a circle, unrolled twice."""
    cover = _cover_line(mask | mask << 13)
    return (cover | cover >> 13) & mask


# Each `runs` option's ways to lay one suit's runs: every card of a mask that a run could hold,
# as a maximal cover, one per placement of the ace. Within one cover the runs are its maximal
# stretches, and melding all of them is best (a card left out only adds deadwood).
_COVERS = {
    "ace_low": (_cover_line,),
    "ace_high_or_low": (_cover_line, _cover_ace_high),  # the ace goes low or high, not both
    "round_the_corner": (_cover_circle,),
}


@dataclass(frozen=True, eq=False)
class SuitTables:
    """Per-suit answers for one scheme, indexed by the 13-bit mask of one suit's cards."""

    runs: str
    values: str
    value: list[int]     # points of the cards
    deadwood: list[int]  # lowest deadwood by runs within the suit alone
    gain: list[int]      # how much lower it can go if the hand's discard comes from this suit
    melded: list[int]    # the cards the runs of the lowest-deadwood layout hold
    high_ace: list[bool]  # that layout has the ace above the king (Q K A)


@functools.cache
def tables_for(runs: str = "ace_low", values: str = "standard") -> SuitTables:
    """The scheme's tables, built on first use (some 15 ms each)."""
    points = [card_value(rank, values) for rank in range(1, 14)]
    value, high = [0] * (1 << 13), [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = (mask & -mask).bit_length() - 1
        value[mask] = value[mask & (mask - 1)] + points[low]
        high[mask] = max(high[mask & (mask - 1)], points[low])
    covers = _COVERS[runs]
    deadwood, gain, melded, high_ace = [], [], [], []
    for mask in _MASKS:
        layouts = [cover(mask) & mask for cover in covers]
        dead = [mask & ~layout for layout in layouts]
        lowest = min(value[d] for d in dead)
        first = next(i for i, d in enumerate(dead) if value[d] == lowest)
        deadwood.append(lowest)
        gain.append(lowest - min(value[d] - high[d] for d in dead))
        melded.append(layouts[first])
        high_ace.append(first == 1)
    return SuitTables(runs, values, value, deadwood, gain, melded, high_ace)


STANDARD = tables_for()


# The sets one rank can give, as 4-bit patterns of the suits holding it: none, all of them, and
# (of four) each three.
_SET_PATTERNS = [(0,) + tuple(p for p in range(16) if p & held == p and p.bit_count() >= 3)
                 for held in range(16)]


def set_choices(a: int, b: int, c: int, d: int, three: int) -> list[tuple]:
    """Every set choice, as the cards each suit gives to sets: (a, b, c, d) masks, no sets first.
    `three` holds the ranks held in at least three suits (at most three ranks in 11 cards)."""
    choices = [(0, 0, 0, 0)]
    while three:
        bit = three & -three
        three ^= bit
        held = (a & bit > 0) | (b & bit > 0) << 1 | (c & bit > 0) << 2 | (d & bit > 0) << 3
        choices = [(sa | (bit if p & 1 else 0), sb | (bit if p & 2 else 0),
                    sc | (bit if p & 4 else 0), sd | (bit if p & 8 else 0))
                   for sa, sb, sc, sd in choices for p in _SET_PATTERNS[held]]
    return choices


def lowest(a: int, b: int, c: int, d: int, tables: SuitTables = STANDARD) -> int:
    """The lowest deadwood count of the cards in the four suit masks."""
    dw = tables.deadwood
    three = (a & b & (c | d)) | (c & d & (a | b))
    no_set = dw[a] + dw[b] + dw[c] + dw[d]
    if not three:
        return no_set
    if three & (three - 1):  # two or three ranks held three times: every combination of sets
        return min(dw[a & ~sa] + dw[b & ~sb] + dw[c & ~sc] + dw[d & ~sd]
                   for sa, sb, sc, sd in set_choices(a, b, c, d, three))
    # One rank held three or four times (most such hands): no set, all of it, or all but one.
    keep = ~three
    ya, yb, yc, yd = dw[a & keep], dw[b & keep], dw[c & keep], dw[d & keep]
    whole_set = ya + yb + yc + yd
    if a & b & c & d:  # four of the rank: one may stay in its suit's runs
        whole_set += min(0, dw[a] - ya, dw[b] - yb, dw[c] - yc, dw[d] - yd)
    return min(no_set, whole_set)


def _less_discard(a: int, b: int, c: int, d: int, dw: list[int], gain: list[int]) -> int:
    return dw[a] + dw[b] + dw[c] + dw[d] - max(gain[a], gain[b], gain[c], gain[d])


def lowest_after_discard(a: int, b: int, c: int, d: int, tables: SuitTables = STANDARD) -> int:
    """The lowest deadwood count after throwing one of the cards away."""
    dw, gain = tables.deadwood, tables.gain
    three = (a & b & (c | d)) | (c & d & (a | b))
    if not three:
        return dw[a] + dw[b] + dw[c] + dw[d] - max(gain[a], gain[b], gain[c], gain[d])
    if three & (three - 1):
        return min(_less_discard(a & ~sa, b & ~sb, c & ~sc, d & ~sd, dw, gain)
                   for sa, sb, sc, sd in set_choices(a, b, c, d, three))
    # One rank held three or four times: no set, all of it, or all but one (as in `lowest`).
    ra, rb, rc, rd = a & ~three, b & ~three, c & ~three, d & ~three
    best = min(_less_discard(a, b, c, d, dw, gain), _less_discard(ra, rb, rc, rd, dw, gain))
    if a & b & c & d:
        best = min(best, _less_discard(a, rb, rc, rd, dw, gain), _less_discard(ra, b, rc, rd, dw, gain),
                   _less_discard(ra, rb, c, rd, dw, gain), _less_discard(ra, rb, rc, d, dw, gain))
    return best


def best_layout(a: int, b: int, c: int, d: int, tables: SuitTables = STANDARD) -> tuple[tuple, tuple]:
    """A lowest-deadwood layout: (the cards each suit gives to sets, the cards each suit's runs
    hold), as two (a, b, c, d) tuples of masks. Ties go to the first choice tried (runs first)."""
    dw, melded = tables.deadwood, tables.melded
    three = (a & b & (c | d)) | (c & d & (a | b))
    if not three:
        return _NO_SETS, (melded[a], melded[b], melded[c], melded[d])
    sa, sb, sc, sd = sets = min(set_choices(a, b, c, d, three),
                                key=lambda s: dw[a & ~s[0]] + dw[b & ~s[1]] + dw[c & ~s[2]] + dw[d & ~s[3]])
    return sets, (melded[a & ~sa], melded[b & ~sb], melded[c & ~sc], melded[d & ~sd])


_NO_SETS = (0, 0, 0, 0)
