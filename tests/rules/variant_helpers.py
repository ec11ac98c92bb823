"""Independent checks for the variants of issue 14: a brute-force deadwood and layoff search
under each `runs` and `card_values` option, written here without the engine's rank logic, and a
random player that also deals Oklahoma's second-deck knock card."""
from __future__ import annotations

import random
from itertools import combinations

from service.rules import Card, full_deck

from .helpers import choose_action, shuffled_deck


def value(card: Card, values: str) -> int:
    if values == "mahjong":
        return 15 if card.rank == 1 else 10 if card.rank >= 10 else 5
    if values == "ace_15" and card.rank == 1:
        return 15
    return min(card.rank, 10)


def run_rank_lists(runs: str) -> list[list[int]]:
    """Every rank sequence that is a run: written out from a start and a length."""
    found = []
    for start in range(1, 14):
        for length in range(3, 14):
            ranks = [(start - 1 + i) % 13 + 1 for i in range(length)]
            end = start + length - 1  # 14 means "ending on a high ace"
            if runs == "ace_low" and end > 13:
                continue
            if runs == "ace_high_or_low" and end > 14:
                continue
            if runs == "round_the_corner" and length == 13 and start != 1:
                continue  # the whole suit once
            found.append(ranks)
    return found


def is_variant_run(group, runs: str) -> bool:
    group = list(group)
    if len(group) < 3 or len({c.suit for c in group}) != 1 or len({c.rank for c in group}) != len(group):
        return False
    return sorted(c.rank for c in group) in [sorted(r) for r in run_rank_lists(runs)]


def is_variant_meld(group, runs: str) -> bool:
    group = list(group)
    is_set = 3 <= len(group) <= 4 and len(set(group)) == len(group) and len({c.rank for c in group}) == 1
    return is_set or is_variant_run(group, runs)


def variant_melds(hand, runs: str) -> list[frozenset]:
    hand = set(hand)
    melds = []
    for rank in range(1, 14):
        group = [c for c in hand if c.rank == rank]
        for size in (3, 4):
            melds.extend(frozenset(s) for s in combinations(group, size))
    for suit in "CDHS":
        for ranks in run_rank_lists(runs):
            run = frozenset(Card(r, suit) for r in ranks)
            if run <= hand:
                melds.append(run)
    return melds


def brute_variant_deadwood(hand, runs: str, values: str) -> int:
    hand = list(hand)
    melds = variant_melds(hand, runs)
    total = sum(value(c, values) for c in hand)
    best = 0

    def search(start: int, used: frozenset, melded: int) -> None:
        nonlocal best
        best = max(best, melded)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i], melded + sum(value(c, values) for c in melds[i]))

    search(0, frozenset(), 0)
    return total - best


def variant_layoffs_fit(knocker_melds, layoffs, runs: str) -> bool:
    """Every laid-off card goes onto a knocker's meld, one at a time in some order: a 4th card
    on a 3-card set, a card that leaves a run still a run."""
    groups = tuple(tuple(sorted(m)) for m in knocker_melds)

    def search(groups, left) -> bool:
        if not left:
            return True
        for card in left:
            for i, group in enumerate(groups):
                grown = list(group) + [card]
                ok = (is_variant_run(group, runs) and is_variant_run(grown, runs)) or \
                     (len(group) == 3 and len({c.rank for c in grown}) == 1)
                if ok:
                    rest = tuple(c for c in left if c != card)
                    if search(groups[:i] + (tuple(sorted(grown)),) + groups[i + 1:], rest):
                        return True
        return False

    return search(groups, tuple(sorted(layoffs)))


def brute_variant_defence(knocker_melds, defender, runs: str, values: str) -> int:
    defender = list(defender)
    best = brute_variant_deadwood(defender, runs, values)
    spots = sorted({c for c in defender for m in knocker_melds
                    if len({x.rank for x in m}) == 1 and c.rank == next(iter(m)).rank
                    or len({x.suit for x in m}) == 1 and len({x.rank for x in m}) > 1 and c.suit == next(iter(m)).suit})
    for size in range(1, len(spots) + 1):
        for layoffs in combinations(spots, size):
            if variant_layoffs_fit(knocker_melds, layoffs, runs):
                best = min(best, brute_variant_deadwood([c for c in defender if c not in layoffs], runs, values))
    return best


def deal_next(match, rng: random.Random) -> list[dict]:
    """Deal the next hand; a second-deck knock card too when the rules take one."""
    if match.rules.knock_card == "second_deck":
        return match.deal(shuffled_deck(rng), knock_card=rng.choice(full_deck()))
    return match.deal(shuffled_deck(rng))


def play_to_end(match, rng: random.Random, limit: int = 400):
    """Random legal play to the match's end: (hand records, dealer of each deal)."""
    records, dealers = [], []
    while not match.is_over:
        assert match.hand_number < limit, "the match does not end"
        if match.needs_deal:
            events = deal_next(match, rng)
            dealers.append(events[0]["dealer"])
        else:
            events = match.apply(match.to_move, choose_action(match, match.to_move, rng))
        records += [e["record"] for e in events if e["type"] in ("hand_end", "hand_void")]
    return records, dealers
