"""Shared helpers for the rules-engine tests: scripted deck orders, an independent brute-force
deadwood search, a meld/layoff checker, and a random (but legal) player."""
from __future__ import annotations

import json
import random
import re
from itertools import combinations
from pathlib import Path

from service.rules import BigGin, Card, Discard, Knock, Match, Rules, full_deck, min_deadwood, parse_cards

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
CARD_TEXT = re.compile(r"^[A23456789TJQK][CDHS]$")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def texts(items) -> list[str]:
    return [str(c) for c in items]


def load_vectors(name: str) -> list[dict]:
    with open(VECTORS / name) as f:
        return [json.loads(line) for line in f if line.strip()]


# -- scripted deals -----------------------------------------------------------------------------

def build_deck(non_dealer, dealer, upcard, stock=()) -> list[Card]:
    """A 52-card order that deals `non_dealer` and `dealer` their 10 cards (dealt alternately,
    non-dealer first: deck[0], deck[2], ...), turns `upcard` (deck[20]) and puts `stock` on top
    of the stock (deck[21:], top first); the other cards follow in full_deck() order."""
    non_dealer, dealer = _as_cards(non_dealer), _as_cards(dealer)
    upcard, stock = _as_cards(upcard), _as_cards(stock)
    assert len(non_dealer) == 10 and len(dealer) == 10 and len(upcard) == 1
    chosen = non_dealer + dealer + upcard + stock
    assert len(set(chosen)) == len(chosen), "a card was chosen twice"
    deck: list[Card] = []
    for n, d in zip(non_dealer, dealer):
        deck += [n, d]
    deck += upcard + stock
    deck += [c for c in full_deck() if c not in set(chosen)]
    assert len(deck) == 52
    return deck


def _as_cards(value) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, str):
        return parse_cards(value)
    return parse_cards(list(value))


def new_match(preset="standard", first_dealer=0, **options) -> Match:
    return Match.new(Rules.from_options(preset, **options), first_dealer=first_dealer)


def dealt(non_dealer, dealer, upcard, stock=(), preset="standard", first_dealer=0, **options):
    """A new match with its first hand dealt from a scripted deck."""
    match = new_match(preset, first_dealer, **options)
    match.deal(build_deck(non_dealer, dealer, upcard, stock))
    return match


def state(match: Match) -> dict:
    return match.to_dict()


def hand_of(match: Match, seat: int) -> list[Card]:
    return parse_cards(match.view(seat)["hand"])


# -- an independent exact deadwood search (brute force) ------------------------------------------

def all_melds(hand) -> list[frozenset]:
    """Every meld inside `hand`: sets of 3 and 4 (every 3-subset of a 4-set) and every run of
    3+ consecutive cards of a suit (every sub-run of a longer run)."""
    hand = set(hand)
    melds = []
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    for group in by_rank.values():
        for size in (3, 4):
            melds.extend(frozenset(s) for s in combinations(group, size))
    for suit in "CDHS":
        for low in range(1, 12):
            for high in range(low + 2, 14):
                run = [Card(r, suit) for r in range(low, high + 1)]
                if all(c in hand for c in run):
                    melds.append(frozenset(run))
                else:
                    break
    return melds


def brute_min_deadwood(hand) -> int:
    """Lowest deadwood count over every combination of disjoint melds (no cleverness)."""
    hand = list(hand)
    melds = all_melds(hand)
    total = sum(c.points for c in hand)
    best = 0

    def search(start: int, used: frozenset, melded: int) -> None:
        nonlocal best
        best = max(best, melded)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i], melded + sum(c.points for c in melds[i]))

    search(0, frozenset(), 0)
    return total - best


def brute_min_deadwood_11(hand) -> int:
    hand = list(hand)
    return min(brute_min_deadwood(hand[:i] + hand[i + 1:]) for i in range(len(hand)))


def is_set(group) -> bool:
    group = list(group)
    return 3 <= len(group) <= 4 and len(set(group)) == len(group) and len({c.rank for c in group}) == 1


def is_run(group) -> bool:
    group = list(group)
    if len(group) < 3 or len({c.suit for c in group}) != 1:
        return False
    ranks = sorted(c.rank for c in group)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(group) -> bool:
    return is_set(group) or is_run(group)


def layoffs_fit(knocker_melds, layoffs) -> bool:
    """True if the cards in `layoffs` can all be added to the knocker's melds, one at a time in
    some order: a 4th card onto a 3-card set, or a card at either end of a run (runs may grow
    along a chain of layoffs). A card may fit two places (the 4th nine, or the card below a
    run of hearts starting at ten), so this searches every order and every place."""
    groups = tuple(tuple(sorted(m)) for m in knocker_melds)
    seen: set = set()

    def search(groups, left) -> bool:
        if not left:
            return True
        key = (groups, left)
        if key in seen:
            return False
        seen.add(key)
        for card in left:
            for i, group in enumerate(groups):
                grown = list(group) + [card]
                if (is_run(grown) and is_run(group)) or (len(group) == 3 and is_set(grown)):
                    rest = tuple(c for c in left if c != card)
                    if search(groups[:i] + (tuple(sorted(grown)),) + groups[i + 1:], rest):
                        return True
        return False

    return search(groups, tuple(sorted(layoffs)))


# -- random legal play -------------------------------------------------------------------------

def shuffled_deck(rng: random.Random) -> list[Card]:
    deck = full_deck()
    rng.shuffle(deck)
    return deck


def choose_action(match: Match, seat: int, rng: random.Random):
    """A random legal action, nudged so that hands end: usually take a knock or Big Gin when one
    is legal, usually discard the card that leaves the least deadwood."""
    actions = match.legal_actions(seat)
    finishing = [a for a in actions if isinstance(a, (Knock, BigGin))]
    if finishing and rng.random() < 0.9:
        return rng.choice(finishing)
    discards = [a for a in actions if isinstance(a, Discard)]
    if discards and rng.random() < 0.8:
        hand = parse_cards(match.to_dict()["hands"][seat])
        return min(discards, key=lambda a: (min_deadwood([c for c in hand if c != a.card]), rng.random()))
    return rng.choice(actions)


def card_strings(value) -> set[str]:
    """Every string in a JSON-like value that is a card's text."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_TEXT.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= card_strings(key) | card_strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= card_strings(item)
    return found


def brute_defender_points(knocker_melds, defender) -> int:
    """The defender's lowest count over every legal set of layoffs (exhaustive)."""
    defender = list(defender)
    spots = set()
    for meld in knocker_melds:
        meld = list(meld)
        if is_set(meld) and len(meld) == 3:
            spots |= {c for c in defender if c.rank == meld[0].rank}
        elif is_run(meld):
            spots |= {c for c in defender if c.suit == meld[0].suit}
    spots = sorted(spots)
    best = brute_min_deadwood(defender)
    for size in range(1, len(spots) + 1):
        for layoffs in combinations(spots, size):
            if layoffs_fit(knocker_melds, layoffs):
                best = min(best, brute_min_deadwood([c for c in defender if c not in layoffs]))
    return best
