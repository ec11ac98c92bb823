"""Settling a knock: the knocker's layout, the defender's best melds and layoffs, the score."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from .cards import Card, full_deck, parse_cards
from .errors import IllegalAction
from .melds import Arrangement, Meld, arrangements, best_arrangement
from .options import Rules
from .scheme import STANDARD, CardScheme


@dataclass(frozen=True)
class KnockResult:
    knocker_melds: tuple[Meld, ...]
    knocker_deadwood: tuple[Card, ...]
    knocker_points: int
    defender_melds: tuple[Meld, ...]
    defender_layoffs: tuple[Card, ...]
    defender_deadwood: tuple[Card, ...]
    defender_points: int
    result: str  # knock | undercut | gin | big_gin | tie
    winner: str | None  # knocker | defender | None
    points: int

    def to_dict(self) -> dict:
        return {
            "knocker_melds": [m.to_list() for m in self.knocker_melds],
            "knocker_deadwood": [str(c) for c in self.knocker_deadwood],
            "knocker_points": self.knocker_points,
            "defender_melds": [m.to_list() for m in self.defender_melds],
            "defender_layoffs": [str(c) for c in self.defender_layoffs],
            "defender_deadwood": [str(c) for c in self.defender_deadwood],
            "defender_points": self.defender_points,
            "result": self.result,
            "winner": self.winner,
            "points": self.points,
        }


def layout_from_melds(cards: list[Card], melds: Iterable[Meld], whose: str = "the knocker's hand",
                      scheme: CardScheme = STANDARD) -> Arrangement:
    """A named layout, checked: valid melds (under the rules' runs), of the player's own cards,
    no card twice."""
    try:
        melds = tuple(scheme.meld(m.cards if isinstance(m, Meld) else m) for m in melds)
    except ValueError as exc:  # e.g. Q-K-A where the ace is low only
        raise IllegalAction("invalid-meld", str(exc)) from None
    used: list[Card] = [c for m in melds for c in m.cards]
    if len(used) != len(set(used)):
        raise IllegalAction("invalid-meld", "a card may belong to only one meld")
    missing = [str(c) for c in used if c not in cards]
    if missing:
        raise IllegalAction("invalid-meld", f"meld card {missing[0]} is not in {whose}")
    deadwood = tuple(sorted(c for c in cards if c not in used))
    return Arrangement(melds, deadwood, scheme.count(deadwood))


def _layoff_spots(meld: Meld) -> set[Card]:
    """Cards that could be laid off directly onto a meld."""
    first = meld.cards[0]
    if meld.kind == "set":
        return {c for c in full_deck() if c.rank == first.rank} - set(meld.cards) if len(meld) == 3 else set()
    spots = set()
    if first.rank > 1:
        spots.add(Card(first.rank - 1, first.suit))
    if meld.cards[-1].rank < 13:
        spots.add(Card(meld.cards[-1].rank + 1, first.suit))
    return spots


def choose_knock_layout(cards: list[Card], seen: Iterable[Card] = ()) -> Arrangement:
    """The engine's layout for a knocker who names none: lowest deadwood; among equals, the one
    with the fewest layoff spots for cards the knocker cannot see; then a fixed textual order."""
    hidden = set(full_deck()) - set(cards) - set(seen)
    candidates = list(arrangements(cards))
    low = min(a.deadwood_points for a in candidates)

    def exposure(arr: Arrangement) -> tuple:
        spots = set().union(*(_layoff_spots(m) for m in arr.melds)) if arr.melds else set()
        return (len(spots & hidden), [m.to_list() for m in arr.melds])

    return min((a for a in candidates if a.deadwood_points == low), key=exposure)


def _layoff_candidates(knocker_melds: tuple[Meld, ...], defender: list[Card]) -> list[Card]:
    """Defender cards that could be laid off, following chains outward from each run."""
    held = set(defender)
    found: list[Card] = []
    for meld in knocker_melds:
        if meld.kind == "set":
            found.extend(c for c in _layoff_spots(meld) if c in held)
            continue
        suit, low, high = meld.cards[0].suit, meld.cards[0].rank, meld.cards[-1].rank
        rank = low - 1
        while rank >= 1 and Card(rank, suit) in held:
            found.append(Card(rank, suit))
            rank -= 1
        rank = high + 1
        while rank <= 13 and Card(rank, suit) in held:
            found.append(Card(rank, suit))
            rank += 1
    return sorted(set(found))


def _layoffs_valid(knocker_melds: tuple[Meld, ...], layoffs: tuple[Card, ...]) -> bool:
    """Every laid-off card touches a knocker's 3-card set, or joins a knocker's run through a
    chain of other laid-off cards (so a run extended by one layoff can take the next)."""
    laid = set(layoffs)
    for card in layoffs:
        ok = False
        for meld in knocker_melds:
            if meld.kind == "set":
                ok = card in _layoff_spots(meld)
            elif meld.cards[0].suit == card.suit:
                low, high = meld.cards[0].rank, meld.cards[-1].rank
                if card.rank < low:
                    ok = all(Card(r, card.suit) in laid for r in range(card.rank + 1, low))
                elif card.rank > high:
                    ok = all(Card(r, card.suit) in laid for r in range(high + 1, card.rank))
            if ok:
                break
        if not ok:
            return False
    return True


def proposed_defence(knocker_melds: tuple[Meld, ...], defender: list[Card], melds, layoffs,
                     layoffs_allowed: bool, scheme: CardScheme = STANDARD) -> tuple[Arrangement, tuple[Card, ...]]:
    """The defender's own melds and layoffs (RULES.md: a client may propose them), checked:
    melds of the defender's own cards, layoffs that fit the knocker's melds, none against gin."""
    layoffs = tuple(sorted(parse_cards(layoffs)))
    if layoffs and not layoffs_allowed:
        raise IllegalAction("invalid-layoff", "nothing may be laid off against gin")
    for card in layoffs:
        if card not in defender:
            raise IllegalAction("invalid-layoff", f"layoff {card} is not in the defender's hand")
    valid = (_layoffs_valid(knocker_melds, layoffs) if scheme.standard
             else scheme.layoffs_valid(knocker_melds, layoffs))
    if len(set(layoffs)) != len(layoffs) or not valid:
        raise IllegalAction("invalid-layoff", f"{' '.join(map(str, layoffs))} cannot all be laid off onto "
                            f"the knocker's melds ({', '.join(map(str, knocker_melds)) or 'none'})")
    kept = [c for c in defender if c not in layoffs]
    try:
        melds = [scheme.meld(m.cards if isinstance(m, Meld) else m) for m in melds]
    except ValueError as exc:  # a group that is no meld
        raise IllegalAction("invalid-meld", str(exc)) from None
    return layout_from_melds(kept, melds, "the defender's hand (less its layoffs)", scheme), layoffs


def best_defence(knocker_melds: tuple[Meld, ...], defender: list[Card], layoffs_allowed: bool):
    """The defender's exact best: (arrangement of the cards kept, layoffs)."""
    if not layoffs_allowed:
        return best_arrangement(defender), ()
    candidates = _layoff_candidates(knocker_melds, defender)
    best = None
    for size in range(len(candidates) + 1):
        for layoffs in combinations(candidates, size):
            if not _layoffs_valid(knocker_melds, layoffs):
                continue
            arrangement = best_arrangement([c for c in defender if c not in layoffs])
            # Fewer layoffs win ties: same count, simpler record.
            if best is None or arrangement.deadwood_points < best[0].deadwood_points:
                best = (arrangement, layoffs)
    return best


def settle_knock(knocker_cards, knocker_melds, defender_cards, rules: Rules | None = None,
                 *, big_gin: bool = False, seen: Iterable[Card] = (), knock_limit: int | None = None,
                 defender_melds=None, defender_layoffs=()) -> KnockResult:
    """Score a knock. `knocker_cards` are the knocker's 10 cards after the discard (11 for Big
    Gin); `knocker_melds=None` lets the engine choose the layout. Points are before any
    Oklahoma doubling. `knock_limit` is the hand's (Oklahoma: from the upcard); by default the
    rules'. The defender's exact best melds and layoffs are found unless `defender_melds` (and
    `defender_layoffs`) propose others, which are used if legal. A knock or a defence the rules
    forbid raises IllegalAction; malformed hands raise ValueError."""
    rules = rules or Rules()
    scheme = CardScheme.of(rules)
    knocker = parse_cards(knocker_cards)
    defender = parse_cards(defender_cards)
    _check_hands(knocker, defender, big_gin)
    if knocker_melds is None:
        # Variants (Tedesco's runs and aces): the exact lowest layout, without the tie-break.
        layout = choose_knock_layout(knocker, seen) if scheme.standard else scheme.best(knocker)
    else:
        try:
            melds = [m if isinstance(m, Meld) else Meld(m, "round_the_corner") for m in knocker_melds]
        except ValueError as exc:
            raise IllegalAction("invalid-meld", str(exc)) from None
        layout = layout_from_melds(knocker, melds, scheme=scheme)
    if knock_limit is None:
        knock_limit = rules.knock_limit if rules.knocking_allowed else 0
    if layout.deadwood_points and not rules.knocking_allowed:
        raise IllegalAction("knocking-not-allowed", f"only gin ends a hand in these rules; the knocker "
                            f"has {layout.deadwood_points} points of deadwood")
    if layout.deadwood_points > knock_limit:
        raise IllegalAction("deadwood-over-limit", f"the knocker has {layout.deadwood_points} points of "
                            f"deadwood; the limit is {knock_limit}")
    if big_gin and layout.deadwood_points:
        raise IllegalAction("big-gin-not-allowed", "Big Gin needs all 11 cards in melds")
    gin = layout.deadwood_points == 0
    if defender_melds is None and scheme.standard:
        arrangement, layoffs = best_defence(layout.melds, defender, layoffs_allowed=not gin)
    elif defender_melds is None:
        arrangement, layoffs = scheme.best_defence(layout.melds, defender, layoffs_allowed=not gin)
    else:
        arrangement, layoffs = proposed_defence(layout.melds, defender, defender_melds, defender_layoffs,
                                                layoffs_allowed=not gin, scheme=scheme)
    k, d = layout.deadwood_points, arrangement.deadwood_points
    if gin and big_gin:
        result, winner, points = "big_gin", "knocker", rules.big_gin_bonus + d
    elif gin:
        result, winner, points = "gin", "knocker", rules.gin_bonus + d
    elif d < k or (d == k and rules.undercut_on_tie):
        result, winner, points = "undercut", "defender", k - d + rules.undercut_bonus
    elif d == k:
        result, winner, points = "tie", None, 0
    else:
        result, winner, points = "knock", "knocker", d - k
    return KnockResult(layout.melds, layout.deadwood, k, arrangement.melds, tuple(layoffs),
                       arrangement.deadwood, d, result, winner, points)


def _check_hands(knocker: list[Card], defender: list[Card], big_gin: bool) -> None:
    wanted = 11 if big_gin else 10
    if len(knocker) != wanted:
        raise ValueError(f"the knocker lays down {wanted} cards, not {len(knocker)}")
    both = knocker + defender
    if len(set(both)) != len(both):
        twice = sorted({c for c in both if both.count(c) > 1})
        raise ValueError(f"{' '.join(map(str, twice))} given twice (a card is in one hand only)")
