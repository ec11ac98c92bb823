#!/usr/bin/env python3
"""How long a Swiss round takes to pair (service/tournaments/pairing.py: networkx's maximum weight
matching over every two players), by field size, late in a tournament (scores spread, opponents met).

    .venv/bin/python bench/bench_pairing.py [--repeat 5]

Prints, per field size, the median and the slowest of `repeat` pairings of round 6, and the command."""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from service.tournaments.pairing import Entrant, pair  # noqa: E402


def field(size: int, rng: random.Random) -> list[Entrant]:
    """Players after five rounds: scores 0-10 half points, five opponents each, a bye or none, deals."""
    players = []
    for i in range(1, size + 1):
        met = frozenset(rng.sample([j for j in range(1, size + 1) if j != i], min(5, size - 1)))
        first = rng.randint(1, 4)
        players.append(Entrant(i, rng.choice(range(0, 11, 2)), rng.randint(1000, 2200), met, rng.randint(0, 1),
                               first, 5 - first))
    return players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print("players  median ms  slowest ms")
    for size in (8, 16, 32, 64, 128):
        times = []
        for seed in range(args.repeat):
            players = field(size, random.Random(seed))
            start = time.perf_counter()
            pair(players, 6)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{size:7d}  {statistics.median(times):9.1f}  {max(times):10.1f}")
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")


if __name__ == "__main__":
    main()
