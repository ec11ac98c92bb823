"""Which ranks make a run, and how cards count, under each option of RULES.md.

`runs`: "ace_low" (A-2-3, never Q-K-A), "ace_high_or_low" (A-2-3 or Q-K-A, not K-A-2) or
"round_the_corner" (Tedesco: K-A-2 too). `card_values`: "standard" (A=1, 2..10 face, J Q K=10),
"ace_15" (Tedesco: an unmelded ace counts 15) or "mahjong" (A=15, 10..K=10, 2..9=5).
"""
from __future__ import annotations

RUN_KINDS = ("ace_low", "ace_high_or_low", "round_the_corner")
VALUE_KINDS = ("standard", "ace_15", "mahjong")


def card_value(rank: int, values: str = "standard") -> int:
    if values == "standard":
        return min(rank, 10)
    if values == "ace_15":
        return 15 if rank == 1 else min(rank, 10)
    return 15 if rank == 1 else 10 if rank >= 10 else 5


def _contiguous(ranks: list[int]) -> bool:
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_run_ranks(ranks, runs: str = "ace_low") -> bool:
    """True if these distinct ranks (of one suit) form a run of 3 or more."""
    ranks = sorted(set(ranks))
    if len(ranks) < 3:
        return False
    if _contiguous(ranks):
        return True
    if runs == "ace_high_or_low" and ranks[0] == 1:
        return _contiguous(ranks[1:] + [14])
    if runs == "round_the_corner":
        held = set(ranks)
        # An arc of the 13-rank circle has exactly one rank whose successor is missing.
        return sum(1 for r in held if r % 13 + 1 not in held) <= 1
    return False


def run_order(ranks, runs: str = "ace_low") -> list[int]:
    """The ranks of a run in playing order, lowest first (Q K A; K A 2 round the corner)."""
    ranks = sorted(set(ranks))
    if _contiguous(ranks):
        return ranks
    held = set(ranks)
    start = next(r for r in ranks if (r - 2) % 13 + 1 not in held)
    return [(start - 1 + i) % 13 + 1 for i in range(len(ranks))]


def next_rank(rank: int, step: int) -> int:
    """The rank one step up (+1) or down (-1) the circle; whether the run may go there is
    `is_run_ranks`'s to say."""
    return (rank - 1 + step) % 13 + 1
