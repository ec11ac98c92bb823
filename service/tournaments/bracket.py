"""Knockout brackets as data: single elimination, seeded by rating, byes to the top seeds.

A bracket of n entrants has size P, the smallest power of two >= n, and log2(P) rounds. Its first
round's slots, in bracket order, pair seed s with seed P + 1 - s, placed so that seeds 1 and 2 can
meet only in the final, seeds 1-4 only in the semi-finals, and so on (the standard seeding: the
order for 2P slots puts beside each seed s of the order for P its partner 2P + 1 - s). A seed whose
partner would be above n has a bye: P - n byes, to seeds 1..P-n. Each later round pairs the winners
of slots 2k and 2k+1 of the round before; a slot with no winner (both players lost: a double
loss) gives its neighbour a walkover. `layout` is the whole bracket as data, every round's slots
(the later ones filled as winners are known), as the API shows it. Pure: no Flask, no database.
"""
from __future__ import annotations

import math


def size(entrants: int) -> int:
    return 1 << max(1, math.ceil(math.log2(entrants)))


def round_count(entrants: int) -> int:
    return size(entrants).bit_length() - 1


def seed_order(bracket_size: int) -> list[int]:
    """The seeds in bracket order: [1, 2] for 2; [1, 4, 2, 3] for 4; [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < bracket_size:
        width = 2 * len(order)
        order = [seed for s in order for seed in (s, width + 1 - s)]
    return order


def first_round(entrants: int) -> list[tuple[int, int | None]]:
    """The first round's slots in bracket order: (seed, seed), or (seed, None) for a bye."""
    order = seed_order(size(entrants))
    slots = []
    for index in range(0, len(order), 2):
        a, b = sorted(order[index:index + 2])
        slots.append((a, b if b <= entrants else None))
    return slots


def next_round(winners: list) -> list[tuple]:
    """The slots of the round after one whose slots' winners are `winners` (in bracket order; None
    for a slot nobody won): (a, b), (a, None) for a walkover, (None, None) for a slot nobody reaches."""
    slots = []
    for index in range(0, len(winners), 2):
        a, b = winners[index], winners[index + 1]
        slots.append((a, b) if a is not None else (b, None))
    return slots


def winners_of(slots: list[tuple], results: dict) -> list:
    """The winners of a round's slots: a bye's or walkover's player; else results[(a, b)], which is
    the winner (None: a double loss, nobody goes through)."""
    return [a if b is None else results[(a, b)] for a, b in slots]


def round_name(number: int, rounds: int) -> str:
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(rounds - number, f"Round {number}")


def layout(rounds: int, played: dict[tuple[int, int], tuple]) -> list[list[dict]]:
    """Every round's slots in bracket order. `played` holds the slots paired so far, by (round,
    board): (first, second, winner, decided). A slot not paired yet shows the winners of the two
    slots that feed it (None while undecided); `fed_by` names their boards in the round before."""
    layout_rounds: list[list[dict]] = []
    for number in range(1, rounds + 1):
        slots = []
        for board in range(1, (1 << (rounds - number)) + 1):
            fed_by = [2 * board - 1, 2 * board] if number > 1 else None
            if (number, board) in played:
                first, second, won, decided = played[(number, board)]
            elif fed_by:
                before = layout_rounds[-1]
                first, second = before[fed_by[0] - 1]["winner"], before[fed_by[1] - 1]["winner"]
                won, decided = None, False
            else:
                first = second = won = None
                decided = False
            slots.append({"board": board, "first": first, "second": second, "fed_by": fed_by,
                          "winner": won, "decided": decided})
        layout_rounds.append(slots)
    return layout_rounds
