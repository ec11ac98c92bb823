"""Round robin schedules: FIDE's Berger tables (Handbook C.05, annex 1), computed rather than copied.

Players are numbered 1..n by their seed; an odd count adds a number n+1 whose opponent rests that
round. With m = n - 1 (n even), in round r (1..m):
  - player n meets the player a with 2a = r + 1 (mod m); a deals first in odd rounds, n in even ones;
  - every other two players a, b with a + b = r + 1 (mod m) meet, and a deals first when b - a
    (mod m) is odd (m is odd, so exactly one of the two is).
Every two players meet once per cycle; a double round robin plays the cycle again with every first
deal swapped. Pure: no Flask, no database.
"""
from __future__ import annotations


def _residue(value: int, m: int) -> int:
    """value mod m as a player number 1..m."""
    return (value - 1) % m + 1


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """Round r of the Berger table of n players (n even): (deals first, deals second) by number,
    table 1 first (the pair with player n)."""
    m = n - 1
    target = r + 1
    fixed = next(a for a in range(1, n) if _residue(2 * a, m) == _residue(target, m))
    pairs = [(fixed, n) if r % 2 else (n, fixed)]
    seen = {fixed}
    for table in range(1, n // 2):  # the Berger layout: each table's top player, after the fixed one
        a = _residue(fixed + table, m)
        b = _residue(target - a, m)
        if a in seen or b in seen:
            continue
        seen |= {a, b}
        pairs.append((a, b) if (b - a) % m % 2 else (b, a))
    return pairs


def rounds(players: int, cycles: int = 1) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin of `players` (numbered 1..players): pairs (deals first, deals
    second); (p, None) when p rests (an odd count). Cycle 2 swaps every first deal."""
    n = players + players % 2
    table = [berger_round(n, r) for r in range(1, n)]
    schedule = []
    for cycle in range(cycles):
        for pairs in table:
            one = []
            for a, b in pairs:
                if cycle % 2:
                    a, b = b, a
                if b > players:
                    one.append((a, None))
                elif a > players:
                    one.append((b, None))
                else:
                    one.append((a, b))
            schedule.append(sorted(one, key=lambda p: p[1] is None))  # the rest last
    return schedule
