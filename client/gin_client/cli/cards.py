"""gin's cards and melds, in the API's notation (rank A 2..9 T J Q K, then suit C D H S): card text
as the user types it, and the best arrangement of any cards into melds and deadwood (exact search).
UsageError (bad input the user can fix) is here: bad card text is one, and every other module of
the command line builds on this one (the bots read cards with it too)."""
from __future__ import annotations

from functools import lru_cache


RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


class UsageError(Exception):
    """Bad input the user can fix; exit status 2."""


def normalize_card(text: str) -> str:
    """'10d', 'td', ' 7h ' -> 'TD', 'TD', '7H'; anything else raises UsageError."""
    cleaned = str(text).strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) != 2 or cleaned[0] not in RANKS or cleaned[1] not in SUITS:
        raise UsageError(f"not a card: {text!r} (write rank then suit, like 7H, TD or 10D)")
    return cleaned


def card_rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def card_points(card: str) -> int:
    return min(card_rank(card), 10)


def card_sort_key(card: str) -> tuple[int, int]:
    return SUITS.index(card[1]), card_rank(card)


def _all_melds(cards: tuple[str, ...]) -> list[int]:
    """Every set and run among `cards`, as bit masks over their positions."""
    melds = []
    by_rank: dict[str, list[int]] = {}
    by_suit: dict[str, list[tuple[int, int]]] = {}
    for i, card in enumerate(cards):
        by_rank.setdefault(card[0], []).append(i)
        by_suit.setdefault(card[1], []).append((card_rank(card), i))
    for group in by_rank.values():
        if len(group) >= 3:
            full = sum(1 << i for i in group)
            melds.append(full)
            if len(group) == 4:
                melds.extend(full & ~(1 << i) for i in group)
    for ranked in by_suit.values():
        ranked.sort()
        for start in range(len(ranked)):
            mask, length = 1 << ranked[start][1], 1
            for k in range(start + 1, len(ranked)):
                if ranked[k][0] != ranked[k - 1][0] + 1:
                    break
                mask |= 1 << ranked[k][1]
                length += 1
                if length >= 3:
                    melds.append(mask)
    return melds


@lru_cache(maxsize=65536)
def _best(cards: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
    """(lowest deadwood count, meld masks) by exact search: the lowest card is either deadwood
    or in one of the melds that contain it."""
    melds = _all_melds(cards)
    memo: dict[int, tuple[int, tuple[int, ...]]] = {}

    def solve(mask: int) -> tuple[int, tuple[int, ...]]:
        if mask == 0:
            return 0, ()
        if mask in memo:
            return memo[mask]
        low = (mask & -mask).bit_length() - 1
        rest_points, rest_melds = solve(mask & ~(1 << low))
        best = (rest_points + card_points(cards[low]), rest_melds)
        for meld in melds:
            if meld >> low & 1 and meld & mask == meld:
                points, used = solve(mask & ~meld)
                if points < best[0]:
                    best = (points, (meld,) + used)
        memo[mask] = best
        return best

    return solve((1 << len(cards)) - 1)


def arrange(cards) -> tuple[list[list[str]], list[str], int]:
    """Best arrangement of any cards: (melds, deadwood, deadwood count), each sorted."""
    ordered = tuple(sorted({normalize_card(c) for c in cards}, key=card_sort_key))
    points, masks = _best(ordered)
    melds = [[c for i, c in enumerate(ordered) if m >> i & 1] for m in masks]
    in_melds = {c for meld in melds for c in meld}
    melds.sort(key=lambda m: card_sort_key(m[0]))
    return melds, [c for c in ordered if c not in in_melds], points


def deadwood(cards) -> int:
    ordered = tuple(sorted(cards, key=card_sort_key))
    return _best(ordered)[0]


def deadwood_after_discard(cards, discard: str) -> int:
    return deadwood([c for c in cards if c != discard])
