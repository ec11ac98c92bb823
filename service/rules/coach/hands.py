"""Hands as 52-bit ints (bit 13 * suit + rank - 1), for play-outs fast enough to run by the
thousand: a deadwood count is four table look-ups once the sets are chosen, since runs never cross
suits (RUNS: each 13-bit suit mask's least deadwood with runs alone, built once). Standard cards
only (ace low, face cards 10): the reviewer refuses other schemes. The policy both sides follow in
a play-out is the reference bot's (client/gin_client/bots/search.py, copied: the service may not
import the client): take the pile's top when it melds and lowers the deadwood, throw the card whose
loss costs least counting live partners and what feeds the opponent."""
from __future__ import annotations

from ..cards import RANKS, SUITS

POINTS = [min(rank + 1, 10) for rank in range(13)] * 4  # by bit index
SUIT = 0x1FFF
RANK = 1 | 1 << 13 | 1 << 26 | 1 << 39  # one rank in every suit, shifted by the rank
ALL = (1 << 52) - 1


def bit(card) -> int:
    text = str(card)
    return 1 << (SUITS.index(text[1]) * 13 + RANKS.index(text[0]))


def bits(cards) -> int:
    total = 0
    for card in cards:
        total |= bit(card)
    return total


def cards(hand: int) -> list[str]:
    return [RANKS[i % 13] + SUITS[i // 13] for i in range(52) if hand >> i & 1]


def points(card: int) -> int:
    return POINTS[card.bit_length() - 1]


def each_bit(value: int):
    while value:
        low = value & -value
        yield low
        value ^= low


def _runs_tables() -> tuple[list[int], list[int]]:
    """For each suit mask, the least deadwood with runs alone and which cards are that deadwood:
    the lowest card is deadwood or starts a run, so every mask reads smaller ones."""
    best, loose = [0] * (SUIT + 1), [0] * (SUIT + 1)
    for mask in range(1, SUIT + 1):
        low = (mask & -mask).bit_length() - 1
        value, dead = best[mask & (mask - 1)] + POINTS[low], loose[mask & (mask - 1)] | 1 << low
        run, rank = 1 << low, low + 1
        while rank < 13 and mask >> rank & 1:
            run |= 1 << rank
            if rank - low >= 2 and best[mask & ~run] < value:
                value, dead = best[mask & ~run], loose[mask & ~run]
            rank += 1
        best[mask], loose[mask] = value, dead
    return best, loose


RUNS, RUNS_LOOSE = _runs_tables()


def set_choices(hand: int) -> list[int]:
    """Every way to meld the hand's sets (as the cards they take): a rank held three times, the
    set or not; held four times, also each set of three, leaving the fourth to a run."""
    c, d, h, s = hand & SUIT, hand >> 13 & SUIT, hand >> 26 & SUIT, hand >> 39
    ranks = (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s)
    choices = [0]
    for rank in each_bit(ranks):
        held = hand & (RANK << (rank.bit_length() - 1))
        options = [held] + ([held ^ card for card in each_bit(held)] if held.bit_count() == 4 else [])
        choices = [melded | option for melded in choices for option in [0] + options]
    return choices


def _runs_total(hand: int) -> int:
    return RUNS[hand & SUIT] + RUNS[hand >> 13 & SUIT] + RUNS[hand >> 26 & SUIT] + RUNS[hand >> 39]


def deadwood(hand: int) -> int:
    """The least deadwood of any cards (no discard)."""
    return min(_runs_total(hand & ~melded) for melded in set_choices(hand))


def loose_cards(hand: int) -> int:
    """The deadwood cards of one least-deadwood arrangement."""
    best, dead = 999, 0
    for melded in set_choices(hand):
        rest = hand & ~melded
        masks = (rest & SUIT, rest >> 13 & SUIT, rest >> 26 & SUIT, rest >> 39)
        value = sum(RUNS[m] for m in masks)
        if value < best:
            best, dead = value, sum(RUNS_LOOSE[m] << 13 * s for s, m in enumerate(masks))
    return dead


def _ways(hand: int) -> list[tuple]:
    ways = []
    for melded in set_choices(hand):
        rest = hand & ~melded
        masks = (rest & SUIT, rest >> 13 & SUIT, rest >> 26 & SUIT, rest >> 39)
        runs = [RUNS[mask] for mask in masks]
        loose = [RUNS_LOOSE[mask] << 13 * suit for suit, mask in enumerate(masks)]
        ways.append((melded, masks, runs, sum(runs), loose, sum(loose)))
    return ways


def left_after(hand: int, forbidden: int = 0) -> dict[int, tuple[int, int]]:
    """For each card that may be thrown: (deadwood left, the deadwood cards left)."""
    ways, found = _ways(hand), {}
    for card in each_bit(hand & ~forbidden):
        index = card.bit_length() - 1
        suit, rank_bit = index // 13, 1 << index % 13
        left, dead = 999, 0
        for melded, masks, runs, total, loose, all_loose in ways:
            if melded & card:
                continue
            mask = masks[suit] & ~rank_bit
            value = total - runs[suit] + RUNS[mask]
            if value < left:
                left, dead = value, all_loose - loose[suit] + (RUNS_LOOSE[mask] << 13 * suit)
        found[card] = (left, dead)
    return found


def best_discard(hand: int, forbidden: int = 0) -> tuple[int, int]:
    """(deadwood left, card) for the discard that leaves the least, the higher card on a tie."""
    best, best_card = 999, 0
    for card, (left, _) in left_after(hand, forbidden).items():
        if left < best or (left == best and points(card) > points(best_card)):
            best, best_card = left, card
    return best, best_card


def _near_tables() -> tuple[list[int], dict[tuple[int, int], int]]:
    """NEAR[i]: the cards a third card could meld with card i; COMPLETE[i, j]: the cards that
    would make a meld of near cards i and j."""
    near, complete = [0] * 52, {}
    for i in range(52):
        for j in range(52):
            (si, ri), (sj, rj) = divmod(i, 13), divmod(j, 13)
            if i == j:
                continue
            if ri == rj:
                completing = [s * 13 + ri for s in range(4) if s not in (si, sj)]
            elif si == sj and abs(ri - rj) <= 2:
                low, high = min(ri, rj), max(ri, rj)
                ranks = [low + 1] if high - low == 2 else [low - 1, high + 1]
                completing = [si * 13 + r for r in ranks if 0 <= r < 13]
            else:
                continue
            near[i] |= 1 << j
            complete[i, j] = sum(1 << c for c in completing)
    return near, complete


NEAR, COMPLETE = _near_tables()


def throw_costs(hand: int, forbidden: int, gone: int, feeding: int) -> dict[int, float]:
    """The reference bot's cost of throwing each card (lower: throw it): the deadwood left, plus
    2.5 for each loose card it could still meld with (a completing card not all `gone`), plus 4
    when it is near a card the opponent took from the pile (`feeding`), less a hundredth of its
    points (the higher card on a tie)."""
    costs = {}
    for card, (left, dead) in left_after(hand, forbidden).items():
        index = card.bit_length() - 1
        partners = sum(1 for other in each_bit(dead & NEAR[index])
                       if COMPLETE[index, other.bit_length() - 1] & ~gone)
        costs[card] = left + 2.5 * partners + (4 if feeding & NEAR[index] else 0) - 0.01 * POINTS[index]
    return costs


def reference_throw(hand: int, forbidden: int, gone: int, feeding: int) -> int:
    costs = throw_costs(hand, forbidden, gone, feeding)
    return min(costs, key=costs.__getitem__)


def reference_takes(hand: int, top: int) -> bool:
    """Whether the reference bot takes `top`: it melds and lowers the deadwood, or a low card
    lowers it by 6 or more."""
    now = deadwood(hand)
    after, throw = best_discard(hand | top, top)
    if after >= now:
        return False
    kept = (hand | top) ^ throw
    return deadwood(kept ^ top) + points(top) > after or (after <= now - 6 and points(top) <= 3)
