"""Level 5's look-ahead (bot_levels.py): whole hands played out from opponent hands and stock orders
drawn consistently with the seat's view (determinisation, "perfect-information Monte Carlo").

Each option (a discard, a knock, taking the upcard or drawing) is tried on the same sampled deals,
and each deal is played to the hand's end by the reference bot's policy for both sides: what the
house bot's opponents most often are, and a fair guess at anyone's. A hand is a 52-bit int (bit
13 * suit + rank), so that a deadwood count is four table look-ups: runs never cross suits, so
once the sets are chosen each suit's best runs are known from its 13-bit mask (RUNS, built once).
Only the seat's view is read; the unseen cards are sampled by bot_model.Model. Needs only the
files beside it.
"""
from __future__ import annotations

import os
import random
import sys
import time

if __package__:  # as part of the `client` package
    from . import bot_model
else:  # a script, with bot_model.py beside it
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bot_model

RANKS, SUITS = bot_model.RANKS, bot_model.SUITS
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


def _runs_table() -> list[int]:
    """For each 13-bit suit mask, the least deadwood its cards leave with runs alone: the lowest
    card is deadwood or starts a run (nothing lower is held), so every mask reads smaller ones."""
    best = [0] * (SUIT + 1)
    for mask in range(1, SUIT + 1):
        low = (mask & -mask).bit_length() - 1
        value, run, rank = best[mask & (mask - 1)] + POINTS[low], 1 << low, low + 1
        while rank < 13 and mask >> rank & 1:
            run |= 1 << rank
            if rank - low >= 2:
                value = min(value, best[mask & ~run])
            rank += 1
        best[mask] = value
    return best


RUNS = _runs_table()


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


# -- playing a sampled deal out ------------------------------------------------------------------

def play_out(mine: int, theirs: int, stock: list[int], pile: list[int], their_turn: bool, rules: Scoring,
             first_draw: str | None = None) -> float:
    """Our points when the hand ends (negative: the opponent's), both sides playing the reference
    bot's policy from here: take the pile's top when it goes into a meld (or a low card replaces a
    high one), else draw; throw the card leaving the least deadwood; knock with gin, or within the
    limit in the hand's first turns (stock 27 or more) or its last. `first_draw` ("pile" or
    "stock") forces the first turn's draw. `stock` is drawn from its end; both lists are used up."""
    hands, side, turns = [mine, theirs], 1 if their_turn else 0, 0
    while len(stock) > 2 and turns < 200:  # a take lowers the taker's deadwood: no loop, but a bound
        turns += 1
        hand = hands[side]
        top = pile[-1] if pile else 0
        taken = 0
        if top and first_draw != "stock":
            after, throw = best_discard(hand | top, top)
            if first_draw == "pile" or _worth_taking(deadwood(hand), after, top):
                taken = pile.pop()
        first_draw = None
        if taken:
            hand |= taken
        else:
            hand |= stock.pop()
            after, throw = best_discard(hand)
        hand ^= throw
        pile.append(throw)
        hands[side] = hand
        if after == 0 or (after <= rules.knock_limit and (len(stock) >= 27 or len(stock) <= 2)):
            value = rules.settle(hand, after, hands[1 - side])
            return value if side == 0 else -value
        side = 1 - side
    return 0.0  # the stock ran down: a void hand


def _worth_taking(now: int, after: int, top: int) -> bool:
    points = POINTS[top.bit_length() - 1]
    return after < now and (after <= now - points + 1 or (after <= now - 6 and points <= 3))


class Scoring:
    """What a knock is worth under the view's rules, as the model read them (layoffs on the
    knocker's melds counted)."""

    def __init__(self, model: bot_model.Model):
        self.knock_limit, self.gin_bonus, self.undercut_bonus = model.knock_limit, model.gin_bonus, model.undercut_bonus

    def settle(self, knocker: int, left: int, defender: int) -> float:
        """The knocker's points (negative: an undercut)."""
        if left == 0:
            return self.gin_bonus + deadwood(defender)
        melds, _, _ = bot_model.arrange(cards(knocker))
        theirs = bot_model.after_layoffs(cards(defender), melds)
        if theirs <= left:
            return -(self.undercut_bonus + left - theirs)
        return theirs - left


# -- choosing by sampled deals -------------------------------------------------------------------

THREW_KEPT = 0.2  # the chance a sampled hand is kept, for each card the opponent threw that it would have kept
REJECTIONS = 200  # sampled hands tried before one is kept anyway (a view no hand fits)


def sampled_deals(model: bot_model.Model, rng: random.Random):
    """Endless (opponent hand, stock) pairs consistent with the view, as bits and a list of bits.
    The opponent kept the best of what it saw: up to two more cards than it holds are drawn and the
    best kept (one more half the time below stock 20), and its discards tell what it does not hold:
    a player throwing the card that leaves the least deadwood would have kept a thrown card that
    melds with its hand or is lower than a loose card it holds, so a sampled hand is kept with
    chance THREW_KEPT for each card it threw that it would have kept. Both were chosen by how well
    the sampled hands foretell a knock's outcome (bench/README.md)."""
    extra = max(0, min(3, (bot_model.FULL_STOCK + 2 - model.stock) // 3) - 1)
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


def weigh(options: dict, model: bot_model.Model, rng: random.Random, think_seconds: float | None,
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
