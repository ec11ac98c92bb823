"""Level 5's look-ahead (levels.py): whole hands played out from opponent hands and stock orders
drawn consistently with the seat's view (determinisation, "perfect-information Monte Carlo").

Each option (a discard, a knock, taking the upcard or drawing) is tried on the same sampled deals,
and each deal is played to the hand's end by the reference bot's policy for both sides: what the
house bot's opponents most often are, and a fair guess at anyone's. It is reference.decide's own policy,
on bits (reference_takes, reference_throw); the least-deadwood throw alone, a simpler player than
the bot it stood for, chose knocks 0.8 points a state worse (bench/README.md). A hand is a 52-bit
int (bit 13 * suit + rank), so that a deadwood count is four table look-ups: runs never cross
suits, so once the sets are chosen each suit's best runs are known from its 13-bit mask (RUNS,
built once). Only the seat's view is read; the unseen cards are sampled by model.Model.
"""
from __future__ import annotations

import random
import time

from ..cli.cards import RANKS, SUITS, arrange
from .model import FULL_STOCK, Model, after_layoffs

POINTS = [min(rank + 1, 10) for rank in range(13)] * 4  # by bit index
SUIT = 0x1FFF
RANK = 1 | 1 << 13 | 1 << 26 | 1 << 39  # one rank in every suit, shifted by the rank


def bit(card: str) -> int:
    return 1 << (SUITS.index(card[1]) * 13 + RANKS.index(card[0]))


def bits(cards) -> int:
    total = 0
    for card in cards:
        total |= bit(card)
    return total


def cards(hand: int) -> list[str]:
    return [RANKS[i % 13] + SUITS[i // 13] for i in range(52) if hand >> i & 1]


def _runs_tables() -> tuple[list[int], list[int]]:
    """For each 13-bit suit mask, the least deadwood its cards leave with runs alone, and which of
    its cards are that deadwood: the lowest card is deadwood or starts a run (nothing lower is
    held), so every mask reads smaller ones."""
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


def deadwood(hand: int) -> int:
    """The least deadwood of any cards (as bits) under the standard rules (ace low, no corners)."""
    return min(_runs_total(hand & ~melded) for melded in _set_choices(hand))


def _runs_total(hand: int) -> int:
    return RUNS[hand & SUIT] + RUNS[hand >> 13 & SUIT] + RUNS[hand >> 26 & SUIT] + RUNS[hand >> 39]


def _set_choices(hand: int) -> list[int]:
    """Every way to meld the hand's sets (as the cards they take): for each rank held three times,
    the set or not; held four times, also each set of three, which leaves the fourth to a run."""
    c, d, h, s = hand & SUIT, hand >> 13 & SUIT, hand >> 26 & SUIT, hand >> 39
    ranks = (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s)
    choices = [0]
    for rank in _each_bit(ranks):
        held = hand & (RANK << (rank.bit_length() - 1))
        options = [held] + ([held ^ card for card in _each_bit(held)] if held.bit_count() == 4 else [])
        choices = [melded | option for melded in choices for option in [0] + options]
    return choices


def _each_bit(value: int):
    while value:
        low = value & -value
        yield low
        value ^= low


def best_discard(hand: int, forbidden: int = 0) -> tuple[int, int]:
    """(deadwood left, card bit) for the discard that leaves the least, the higher card on a tie.
    The sets are chosen once: the hand without a card can meld exactly the choices that do not
    hold it, and for each a discard changes only its own suit's look-up."""
    ways = []
    for melded in _set_choices(hand):
        rest = hand & ~melded
        masks = (rest & SUIT, rest >> 13 & SUIT, rest >> 26 & SUIT, rest >> 39)
        runs = [RUNS[mask] for mask in masks]
        ways.append((melded, masks, runs, sum(runs)))
    best, best_bit, best_points = 999, 0, -1
    for card in _each_bit(hand & ~forbidden):
        index = card.bit_length() - 1
        suit, rank_bit = index // 13, 1 << index % 13
        left = min(total - runs[suit] + RUNS[masks[suit] & ~rank_bit]
                   for melded, masks, runs, total in ways if not melded & card)
        points = POINTS[index]
        if left < best or (left == best and points > best_points):
            best, best_bit, best_points = left, card, points
    return best, best_bit


# -- the reference bot's policy on bits (reference.decide, for play-outs) -------------------------------

def _near_tables() -> tuple[list[int], dict[tuple[int, int], int]]:
    """NEAR[i]: the cards a third card could meld with card i (reference._near); COMPLETE[i, j]: the
    cards that would make a meld of near cards i and j (a live pair has one not yet discarded)."""
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


def reference_throw(hand: int, forbidden: int, gone: int, feeding: int) -> int:
    """The card the reference bot throws from `hand` (reference.discard_cost on bits): the least of the
    deadwood left, plus 2.5 for each deadwood card of the rest it could meld with whose meld is
    still live (not all of `gone`, the discard pile), plus 4 when it is near a card the opponent
    took from the pile (`feeding`), less a hundredth of its points (the higher card on a tie)."""
    ways = []
    for melded in _set_choices(hand):
        rest = hand & ~melded
        masks = (rest & SUIT, rest >> 13 & SUIT, rest >> 26 & SUIT, rest >> 39)
        runs = [RUNS[mask] for mask in masks]
        loose = [RUNS_LOOSE[mask] << 13 * suit for suit, mask in enumerate(masks)]
        ways.append((melded, masks, runs, sum(runs), loose, sum(loose)))
    best_cost, best_card = 1e9, 0
    for card in _each_bit(hand & ~forbidden):
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
        partners = sum(1 for other in _each_bit(dead & NEAR[index])
                       if COMPLETE[index, other.bit_length() - 1] & ~gone)
        cost = left + 2.5 * partners + (4 if feeding & NEAR[index] else 0) - 0.01 * POINTS[index]
        if cost < best_cost:
            best_cost, best_card = cost, card
    return best_card


def reference_takes(hand: int, top: int) -> bool:
    """Whether the reference bot takes `top` from the pile (reference._take_gain): it melds and lowers
    the deadwood, or a low card lowers it by 6 or more."""
    now = deadwood(hand)
    after, throw = best_discard(hand | top, top)
    if after >= now:
        return False
    kept = (hand | top) ^ throw
    return deadwood(kept ^ top) + POINTS[top.bit_length() - 1] > after \
        or (after <= now - 6 and POINTS[top.bit_length() - 1] <= 3)


# -- playing a sampled deal out ------------------------------------------------------------------

def play_out(mine: int, theirs: int, stock: list[int], pile: list[int], their_turn: bool, rules: Scoring,
             first_draw: str | None = None, their_took: int = 0) -> float:
    """Our points when the hand ends (negative: the opponent's), both sides playing the reference
    bot's policy from here (reference.decide, on bits): take the pile's top when it goes into a meld (or a
    low card replaces a high one), else draw; knock with gin, or within the limit in the hand's
    first turns (stock 27 or more) or its last; else throw by reference_throw. `first_draw` ("pile"
    or "stock") forces the first turn's draw; `their_took`: the pile cards the opponent is known to
    hold (bench/bot_decisions.py plays the real deal so; level 5's search leaves it out, measured no
    better with it). `stock` is drawn from its end; both lists are used up."""
    hands, side, turns = [mine, theirs], 1 if their_turn else 0, 0
    took = [0, their_took]  # what each side took from the pile and still holds: the other avoids feeding it
    gone = 0
    for card in pile:
        gone |= card
    while len(stock) > 2 and turns < 200:  # a take lowers the taker's deadwood: no loop, but a bound
        turns += 1
        hand = hands[side]
        top = pile[-1] if pile else 0
        taken = 0
        if top and first_draw != "stock" and (first_draw == "pile" or reference_takes(hand, top)):
            taken = pile.pop()
            gone ^= taken
            took[side] |= taken
            hand |= taken
        else:
            hand |= stock.pop()
        first_draw = None
        left, throw = best_discard(hand, taken)
        if left == 0 or (left <= rules.knock_limit and (len(stock) >= 27 or len(stock) <= 2)):
            value = rules.settle(hand ^ throw, left, hands[1 - side])
            return value if side == 0 else -value
        throw = reference_throw(hand, taken, gone, took[1 - side])
        hands[side] = hand ^ throw
        took[side] &= ~throw
        pile.append(throw)
        gone |= throw
        side = 1 - side
    return 0.0  # the stock ran down: a void hand


class Scoring:
    """What a knock is worth under the view's rules, as the model read them (layoffs on the
    knocker's melds counted)."""

    def __init__(self, model: Model):
        self.knock_limit, self.gin_bonus, self.undercut_bonus = model.knock_limit, model.gin_bonus, model.undercut_bonus

    def settle(self, knocker: int, left: int, defender: int) -> float:
        """The knocker's points (negative: an undercut)."""
        if left == 0:
            return self.gin_bonus + deadwood(defender)
        melds, _, _ = arrange(cards(knocker))
        theirs = after_layoffs(cards(defender), melds)
        if theirs <= left:
            return -(self.undercut_bonus + left - theirs)
        return theirs - left


# -- choosing by sampled deals -------------------------------------------------------------------

THREW_KEPT = 0.2  # the chance a sampled hand is kept, for each card the opponent threw that it would have kept
REJECTIONS = 200  # sampled hands tried before one is kept anyway (a view no hand fits)


def sampled_deals(model: Model, rng: random.Random):
    """Endless (opponent hand, stock) pairs consistent with the view, as bits and a list of bits.
    The opponent kept the best of what it saw: up to two more cards than it holds are drawn and the
    best kept (one more half the time below stock 20), and its discards tell what it does not hold:
    a player throwing the card that leaves the least deadwood would have kept a thrown card that
    melds with its hand or is lower than a loose card it holds, so a sampled hand is kept with
    chance THREW_KEPT for each card it threw that it would have kept. Both were chosen by how well
    the sampled hands foretell a knock's outcome (bench/README.md)."""
    extra = max(0, min(3, (FULL_STOCK + 2 - model.stock) // 3) - 1)
    threw = [bit(card) for card in model.threw]
    while True:
        for _ in range(REJECTIONS):
            theirs = model.sample_hand(rng, extra=extra + (model.stock < 20 and rng.random() < 0.5))
            hand = bits(theirs)
            if rng.random() < THREW_KEPT ** sum(_would_keep(hand, card) for card in threw):
                break
        rest = [bit(c) for c in model.unseen if c not in theirs]
        rng.shuffle(rest)
        yield hand, rest[:model.stock]


def _would_keep(hand: int, card: int) -> bool:
    """Whether a hand would keep `card` rather than throw it: with it, some other discard leaves
    less deadwood (the card melds with the hand, or a loose card held is higher)."""
    return best_discard(hand | card, card)[0] < deadwood(hand)


def weigh(options: dict, model: Model, rng: random.Random, think_seconds: float | None,
          deals: int | None = None, margin: float = 1.0) -> object:
    """The first option (the default), unless another does better over the same sampled deals by
    more than `margin` standard errors of the paired differences. `options` maps each option to a
    function (opponent hand, stock) -> our points; sampling stops after `deals` deals, or before a
    deal that could end past `think_seconds` (one may cost twice the average; at least two deals)."""
    first, *others = options
    differences = {option: [] for option in others}
    done, started = 0, time.perf_counter()
    deadline = started + (think_seconds or 0.0)
    for theirs, stock in sampled_deals(model, rng):
        base = options[first](theirs, list(stock))
        for option in others:
            differences[option].append(options[option](theirs, list(stock)) - base)
        done += 1
        now = time.perf_counter()
        if (deals is not None and done >= deals) or (deals is None and done >= 2
                                                     and now + 2 * (now - started) / done >= deadline):
            break
    best, best_mean = first, 0.0
    for option, diffs in differences.items():
        mean = sum(diffs) / done
        spread = (sum((d - mean) ** 2 for d in diffs) / max(1, done - 1) / done) ** 0.5
        if mean > margin * spread and mean > best_mean:
            best, best_mean = option, mean
    return best
