"""What the stronger levels (levels.py) make of a seat's view: which cards are still unseen,
what the opponent probably holds and wants, the risk of an undercut, and opponent hands drawn at
random consistent with the view (determinisation) for the sampling level.

Only the seat's own view (and a memory of the bot's own earlier views and moves in the same
hand) is read: never the stock's order, never the opponent's hand. Cards are read with ../cli/cards.py."""
from __future__ import annotations

import random

from ..cli.cards import RANKS, SUITS, arrange, card_points, card_rank, deadwood

ALL_CARDS = tuple(r + s for s in SUITS for r in RANKS)
FULL_STOCK = 31  # 52 cards less two hands of 10 and the upcard


class Memory:
    """What the bot saw and did in the hand being played: its own discards and the first upcard.
    The view alone cannot say who threw which card of the pile; with this it can: every card of
    the pile that is neither the bot's nor the upcard the opponent threw, and every card the bot
    threw that is still on the pile the opponent passed on. Lost (a restart): the model falls
    back to what the view alone says."""

    def __init__(self) -> None:
        self.hand_number: int | None = None
        self.mine: set[str] = set()
        self.upcard: str | None = None
        self.complete = False  # seen from the hand's first look at the pile on

    def observe(self, view: dict) -> None:
        if view.get("hand_number") != self.hand_number:
            pile = view.get("discard_pile") or []
            self.hand_number, self.mine = view.get("hand_number"), set()
            self.complete = len(pile) == 1 and view.get("phase") in ("upcard_offer", "draw")
            self.upcard = pile[0] if self.complete else None

    def record(self, action: dict) -> None:
        card = action.get("card") if action.get("type") == "discard" else action.get("discard")
        if card:
            self.mine.add(card)


def near(a: str, b: str) -> bool:
    """Two cards that could sit in one meld (same rank, or the same suit within two)."""
    return a != b and (a[0] == b[0] or (a[1] == b[1] and abs(card_rank(a) - card_rank(b)) <= 2))


class Model:
    """The public picture of one hand from one seat."""

    def __init__(self, view: dict, memory: Memory | None = None):
        self.view = view
        self.hand = list(view.get("hand") or [])
        self.pile = list(view.get("discard_pile") or [])
        opponent = view.get("opponent") or {}
        self.known = list(opponent.get("known_cards") or [])  # taken from the pile, still held
        self.opp_count = int(opponent.get("card_count") or 10)
        seen = set(self.hand) | set(self.pile) | set(self.known)
        self.unseen = [c for c in ALL_CARDS if c not in seen]
        self.stock = int(view.get("stock_count") or 0)
        self.knock_limit = int(view.get("knock_limit") or 10)
        rules = view.get("rules") or {}
        self.undercut_bonus = int(rules.get("undercut_bonus", 25) or 0)
        self.gin_bonus = int(rules.get("gin_bonus", 25) or 0)
        self.threw, self.passed = self._history(memory)
        self.weight = {card: self._weight(card) for card in self.unseen}

    def _history(self, memory: Memory | None) -> tuple[set[str], set[str]]:
        """(cards the opponent threw, cards it passed on) as far as the view and memory tell."""
        if memory is not None and memory.complete and memory.hand_number == self.view.get("hand_number"):
            threw = {c for c in self.pile if c not in memory.mine and c != memory.upcard}
            passed = {c for c in self.pile if c in memory.mine or c == memory.upcard}
            if self.view.get("phase") == "upcard_offer":
                passed.discard(memory.upcard)
            return threw, passed
        # No memory: on the bot's draw the card on top is the one the opponent just threw.
        top = self.pile[-1:] if self.view.get("phase") == "draw" and len(self.pile) > 1 else []
        return set(top), set()

    def _weight(self, card: str) -> float:
        """How likely, relative to other unseen cards, the opponent holds `card`: a player keeps
        cards near what it took from the pile and throws or passes on what it does not need."""
        weight = 1.0
        for known in self.known:
            if near(card, known):
                weight *= 1.8
        for thrown in self.threw:
            if near(card, thrown):
                weight *= 0.45
        for passed in self.passed:
            if near(card, passed):
                weight *= 0.75
        return weight

    # -- what the opponent holds ------------------------------------------------------------

    def held_chance(self) -> dict[str, float]:
        """Each unseen card's chance of being in the opponent's hand (the rest is the stock)."""
        slots = max(0, self.opp_count - len(self.known))
        total = sum(self.weight.values()) or 1.0
        chance = {c: min(0.95, slots * w / total) for c, w in self.weight.items()}
        chance.update({c: 1.0 for c in self.known})
        return chance

    def feed_risk(self, card: str, chance: dict[str, float] | None = None) -> float:
        """How much the opponent would like `card`: the chance it completes a meld with two cards
        the opponent (probably) holds, roughly; 1 for a card that melds with what it took."""
        chance = chance or self.held_chance()
        dead = set(self.pile) | set(self.hand)
        partners = [c for c in chance if near(card, c) and c not in dead]
        risk = 0.0
        for i, a in enumerate(partners):
            for b in partners[i + 1:]:
                if _meld_of_three(card, a, b):
                    risk += chance[a] * chance[b]
        return min(1.0, risk)

    def outs(self, cards: list[str], chance: dict[str, float] | None = None) -> float:
        """Unseen cards that would make a new meld with two of `cards`' deadwood (or extend a meld),
        each counted by its chance of being drawn from the stock rather than held."""
        chance = chance or self.held_chance()
        melds, dead, _ = arrange(cards)
        ends = _meld_ends(melds)
        total = 0.0
        for u in self.unseen:
            helps = u in ends
            if not helps:
                partners = [d for d in dead if near(u, d)]
                helps = any(_meld_of_three(u, a, b) for i, a in enumerate(partners) for b in partners[i + 1:])
            if helps:
                total += 1.0 - chance.get(u, 0.0)
        return total

    # -- sampled opponent hands -------------------------------------------------------------

    def sample_hand(self, rng: random.Random, extra: int | None = None) -> list[str]:
        """An opponent hand consistent with the view: the cards it is known to hold, the rest drawn
        from the unseen cards by weight. A player improves its hand as it goes: `extra` more cards
        are drawn and the best `card_count` of them kept (default: one per two turns played)."""
        slots = max(0, self.opp_count - len(self.known))
        if extra is None:
            extra = min(4, max(0, (FULL_STOCK - self.stock) // 4))
        pool, weights = list(self.weight), list(self.weight.values())
        drawn: list[str] = []
        for _ in range(min(slots + extra, len(pool))):
            pick = rng.choices(range(len(pool)), weights)[0]
            drawn.append(pool.pop(pick))
            weights.pop(pick)
        cards = self.known + drawn
        if len(cards) <= self.opp_count:
            return cards
        melds, dead, _ = arrange(cards)
        kept = [c for m in melds for c in m][:self.opp_count]
        dead = sorted(dead, key=card_points)
        return kept + dead[:self.opp_count - len(kept)]

    def undercut_chance(self, my_cards: list[str], rng: random.Random, samples: int = 24) -> float:
        """The chance the opponent's deadwood, after laying off on our melds, is no more than ours."""
        melds, _, mine = arrange(my_cards)
        if mine == 0:
            return 0.0
        hits = 0
        for _ in range(samples):
            hits += after_layoffs(self.sample_hand(rng), melds) <= mine
        return hits / samples


def _meld_of_three(a: str, b: str, c: str) -> bool:
    if a[0] == b[0] == c[0]:
        return len({a[1], b[1], c[1]}) == 3
    if a[1] == b[1] == c[1]:
        ranks = sorted(card_rank(x) for x in (a, b, c))
        return ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1
    return False


def _meld_ends(melds: list[list[str]]) -> set[str]:
    """The cards that would extend a meld: a set's fourth, a run's next card at either end."""
    ends: set[str] = set()
    for meld in melds:
        if len({c[0] for c in meld}) == 1:
            ends |= {meld[0][0] + s for s in SUITS} - set(meld)
        else:
            ranks = sorted(card_rank(c) for c in meld)
            suit = meld[0][1]
            ends |= {RANKS[r - 1] + suit for r in (ranks[0] - 1, ranks[-1] + 1) if 1 <= r <= 13}
    return ends


def after_layoffs(cards: list[str], knocker_melds: list[list[str]]) -> int:
    """The defender's deadwood once its deadwood cards that fit the knocker's melds are laid off."""
    _, dead, points = arrange(cards)
    melds = [list(m) for m in knocker_melds]
    laid = True
    while laid and dead:
        laid = False
        ends = _meld_ends(melds)
        for card in list(dead):
            if card in ends:
                dead.remove(card)
                points -= card_points(card)
                for meld in melds:  # grow the meld it fits, so a run can take the next card too
                    if card in _meld_ends([meld]):
                        meld.append(card)
                        break
                laid = True
    return points


def best_discard(cards: list[str], forbidden: str | None = None) -> tuple[int, str]:
    """(deadwood left, card) for the discard that leaves the least, the higher card on a tie."""
    return min((deadwood([c for c in cards if c != d]), -card_points(d), d) for d in cards if d != forbidden)[::2]
