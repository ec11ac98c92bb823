"""What one seat knew at one decision, and deals drawn at random consistent with it.

`SeatView` is built by `seat_view` from the match and the hand's public record (`PublicRecord`:
who threw which card, who passed on which pile top) and holds nothing else: the seat's own cards,
the pile, the opponent's cards taken from the pile and still held, how many cards the opponent
and the stock hold. The opponent's other cards and the stock's order never enter it, so nothing
computed from it can depend on them (tests/rules/test_coach.py swaps them and compares).

`sampled_deals` draws (opponent hand, stock) pairs from the unseen cards as level 5 does
(client/gin_client/bots/model.py and search.py): cards near what the opponent took weigh more,
near what it threw or passed on less; it kept the best of a few more cards than it holds; a hand
that would have kept a card the opponent threw is kept only now and then (THREW_KEPT)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..options import Rules
from .hands import ALL, best_discard, bit, bits, cards, deadwood, each_bit

FULL_STOCK = 31  # 52 cards less two hands of 10 and the upcard
THREW_KEPT = 0.2  # a sampled hand's chance of being kept, per thrown card it would have kept
REJECTIONS = 200  # sampled hands tried before one is kept anyway


@dataclass
class PublicRecord:
    """What both seats saw of the hand so far: each seat's discards and the pile tops it declined."""
    threw: tuple[set, set] = field(default_factory=lambda: (set(), set()))
    passed: tuple[set, set] = field(default_factory=lambda: (set(), set()))

    def note(self, seat: int, action: dict, top: str | None) -> None:
        """Record one action of `seat`, `top` being the pile's top before it."""
        kind = action.get("type")
        if kind == "discard":
            self.threw[seat].add(action["card"])
        elif kind == "knock":
            self.threw[seat].add(action["discard"])
        elif top and (kind == "pass" or (kind == "draw" and action.get("from") == "stock")):
            self.passed[seat].add(top)


@dataclass(frozen=True)
class SeatView:
    """One seat's information at one decision (cards as text)."""
    seat: int
    hand_number: int
    phase: str  # upcard_offer, draw, discard
    hand: tuple[str, ...]
    pile: tuple[str, ...]  # bottom first
    known: tuple[str, ...]  # the opponent's cards taken from the pile and still held
    opp_count: int
    stock: int
    threw: frozenset  # the opponent's discards this hand
    passed: frozenset  # pile tops the opponent declined
    first_offer: bool  # upcard_offer: the opponent may still take the upcard after a pass
    taken: str | None  # taken from the pile this turn: not to be thrown
    knock_limit: int
    multiplier: int
    rules: Rules
    legal: tuple[tuple, ...]  # the legal actions as sorted item tuples

    @property
    def actions(self) -> list[dict]:
        return [dict(items) for items in self.legal]

    @property
    def unseen(self) -> int:
        return ALL & ~bits(self.hand) & ~bits(self.pile) & ~bits(self.known)


def seat_view(match, seat: int, record: PublicRecord) -> SeatView:
    """The seat's view of `match` now: only what the seat may see (its hand, the table's public part)."""
    other = 1 - seat
    legal = tuple(tuple(sorted(a.to_dict().items())) for a in match.legal_actions(seat))
    return SeatView(
        seat=seat, hand_number=match.hand_number, phase=match.phase,
        hand=tuple(sorted(str(c) for c in match.hands[seat])),
        pile=tuple(str(c) for c in match.discard_pile),
        known=tuple(sorted(str(c) for c in match.known[other])),
        opp_count=len(match.hands[other]), stock=len(match.stock),
        threw=frozenset(record.threw[other]), passed=frozenset(record.passed[other]),
        first_offer=match.phase == "upcard_offer" and match.upcard_passes == 0,
        taken=str(match.taken) if match.phase == "discard" and match.taken else None,
        knock_limit=match.knock_limit, multiplier=match.multiplier, rules=match.rules, legal=legal)


def _near(a: int, b: int) -> bool:
    (sa, ra), (sb, rb) = divmod(a.bit_length() - 1, 13), divmod(b.bit_length() - 1, 13)
    return a != b and (ra == rb or (sa == sb and abs(ra - rb) <= 2))


def weights(view: SeatView) -> dict[int, float]:
    """Each unseen card's weight (relative chance the opponent holds it)."""
    known = [bit(c) for c in view.known]
    threw = [bit(c) for c in view.threw]
    passed = [bit(c) for c in view.passed]
    found = {}
    for card in each_bit(view.unseen):
        weight = 1.0
        for k in known:
            weight *= 1.8 if _near(card, k) else 1.0
        for t in threw:
            weight *= 0.45 if _near(card, t) else 1.0
        for p in passed:
            weight *= 0.75 if _near(card, p) else 1.0
        found[card] = weight
    return found


def _sample_hand(view: SeatView, weight: dict[int, float], rng: random.Random, extra: int) -> int:
    """An opponent hand: its known cards and the rest drawn by weight, `extra` more drawn and the
    worst thrown (a player improves its hand as it goes)."""
    slots = max(0, view.opp_count - len(view.known))
    pool, chances = list(weight), list(weight.values())
    hand = bits(view.known)
    for _ in range(min(slots + extra, len(pool))):
        pick = rng.choices(range(len(pool)), chances)[0]
        hand |= pool.pop(pick)
        chances.pop(pick)
    known = bits(view.known)
    while hand.bit_count() > view.opp_count:
        hand ^= best_discard(hand, known)[1]
    return hand


def _would_keep(hand: int, card: int) -> bool:
    """Whether a hand would have kept `card`: with it, some other discard leaves less deadwood."""
    return best_discard(hand | card, card)[0] < deadwood(hand)


def sampled_deals(view: SeatView, rng: random.Random):
    """Endless (opponent hand, stock) pairs consistent with the view: bits, and a list of bits
    drawn from its end."""
    weight = weights(view)
    extra = max(0, min(3, (FULL_STOCK + 2 - view.stock) // 3) - 1)
    threw = [bit(c) for c in sorted(view.threw)]
    unseen = view.unseen
    while True:
        for _ in range(REJECTIONS):
            hand = _sample_hand(view, weight, rng, extra + (view.stock < 20 and rng.random() < 0.5))
            if rng.random() < THREW_KEPT ** sum(_would_keep(hand, card) for card in threw):
                break
        rest = list(each_bit(unseen & ~hand))
        rng.shuffle(rest)
        yield hand, rest[:view.stock]


__all__ = ["PublicRecord", "SeatView", "cards", "sampled_deals", "seat_view", "weights"]
