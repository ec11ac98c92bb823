"""How strong and how quick the house bot's levels are, in process with the rules engine.

    .venv/bin/python bench/bot_strength.py [--matches 1000] [--levels 1,2,3,4,5] [--think-seconds 0.5]

For each level L: L against L-1 and L against level 3 (the reference bot, today's house bot),
seats alternating, decks seeded, matches to 100 under the standard rules. Prints the match win
rate with its 95% Wilson interval, and each level's decision time (p50, p99). Level 3 against
a random player, and the reference bot's --knock-at variants, as before with --reference.
"""
from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gin_client.bots import levels, reference
from gin_client.bots.model import Memory
from service.rules import Match, Rules, action_from_dict, full_deck


def random_player(rng):
    return lambda view: rng.choice(view["legal_actions"])


def bot_player(knock_at=None):
    return lambda view: reference.choose_action(view, knock_at)


def level_player(level: int, rng: random.Random, think_seconds: float, timings: list | None = None,
                 deals: int | None = None):
    """A player at `level` with its own memory of the hand, as the account bot keeps one per game;
    level 5 samples `deals` deals per decision when given, else for `think_seconds`."""
    memory = Memory()

    def play(view):
        started = time.perf_counter()
        action = levels.decide(view, level, rng, memory, think_seconds, deals).action
        if timings is not None:
            timings.append(time.perf_counter() - started)
        return action
    return play


def play(seed: int, players, timings: list | None = None, preset: str = "standard", watch=None) -> Match:
    """One seeded match; `watch(match, seat, view)`, when given, sees each decision before it is made."""
    rng = random.Random(seed)
    match = Match.new(Rules.from_options(preset), first_dealer=rng.randrange(2))
    while not match.is_over:
        if match.needs_deal:
            deck = full_deck()
            rng.shuffle(deck)
            match.deal(deck)
            continue
        seat = match.to_move
        view = match.view(seat)
        if watch is not None:
            watch(match, seat, view)
        started = time.perf_counter()
        choice = players[seat](view)
        if timings is not None and seat == 0:
            timings.append(time.perf_counter() - started)
        match.apply(seat, action_from_dict(choice))
    return match


def win_rate(make_a, make_b, matches: int, timings=None) -> float:
    return wins_of(make_a, make_b, matches, timings) / matches


def wins_of(make_a, make_b, matches: int, timings=None) -> int:
    """Matches `make_a`'s player wins of `matches`, seats alternating (a in seat 0 on even seeds)."""
    wins = 0
    for seed in range(matches):
        rng = random.Random(seed * 7919)
        a, b = make_a(rng), make_b(rng)
        seats = (a, b) if seed % 2 == 0 else (b, a)
        match = play(seed, seats, timings if seed % 2 == 0 else None)
        wins += match.winner == (0 if seed % 2 == 0 else 1)
    return wins


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def one_match(args: tuple) -> tuple[bool, list[float], list[int]]:
    """One match of `level` against `other` as wins_of plays it (the same seeds and seats): whether
    `level` won, its decision times, and its points in each hand won by either side (negative: lost)."""
    seed, level, other, think, deals = args
    rng = random.Random(seed * 7919)
    spent: list[float] = []
    a = level_player(level, random.Random(rng.random()), think, spent, deals)
    b = level_player(other, random.Random(rng.random()), think, None, deals)
    mine = 0 if seed % 2 == 0 else 1
    match = play(seed, (a, b) if mine == 0 else (b, a))
    net = [hand["points"] if hand["winner"] == mine else -hand["points"]
           for hand in match.sheet if hand["winner"] is not None]
    return match.winner == mine, spent, net


def pairing(level: int, other: int, matches: int, think: float, timings: dict, deals: int | None = None,
            processes: int = 1, first_seed: int = 0) -> str:
    started = time.perf_counter()
    work = [(seed, level, other, think, deals) for seed in range(first_seed, first_seed + matches)]
    results = []
    with multiprocessing.Pool(processes) if processes > 1 else contextlib.nullcontext() as pool:
        for result in (pool.imap(one_match, work, chunksize=1) if pool else map(one_match, work)):
            results.append(result)
            if len(results) % 100 == 0 and len(results) < matches:  # a long run shows where it stands
                so_far = sum(won for won, _, _ in results)
                print(f"  ... level {level} v level {other}: {so_far} won of {len(results)} "
                      f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    wins = sum(won for won, _, _ in results)
    timings.setdefault(level, []).extend(t for _, spent, _ in results for t in spent)
    net = [points for _, _, hands in results for points in hands]
    mean = sum(net) / len(net)
    spread = math.sqrt(sum((x - mean) ** 2 for x in net) / (len(net) - 1) / len(net))
    low, high = wilson(wins, matches)
    return (f"level {level} v level {other}: {wins / matches:.1%} of {matches} matches "
            f"(95% CI {low:.1%}-{high:.1%}); {mean:+.2f} +- {1.96 * spread:.2f} points a hand over {len(net)} "
            f"hands; {time.perf_counter() - started:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--levels", default="1,2,3,4,5", help="the levels to measure, comma-separated")
    parser.add_argument("--think-seconds", type=float, default=levels.DEFAULT_THINK_SECONDS,
                        help="level 5's time per decision")
    parser.add_argument("--deals", type=int, default=None,
                        help="level 5 samples this many deals per decision instead of for --think-seconds "
                             "(a fixed cost, the same on a busy machine)")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="the matches' seeds start here (another 1,000 matches: --first-seed 1000)")
    parser.add_argument("--processes", type=int, default=1, help="matches played side by side (one per core)")
    parser.add_argument("--versus", default="previous,3",
                        help="whom each level plays: previous (the level below), 3 (the reference bot), or both")
    parser.add_argument("--reference", action="store_true", help="also the reference bot v random and --knock-at")
    args = parser.parse_args()
    measured = [int(x) for x in args.levels.split(",")]
    print(f"command: .venv/bin/python bench/bot_strength.py --matches {args.matches} --levels {args.levels} "
          f"--think-seconds {args.think_seconds}{f' --deals {args.deals}' if args.deals else ''} --versus {args.versus}"
          f"{f' --processes {args.processes}' if args.processes > 1 else ''}"
          f"{f' --first-seed {args.first_seed}' if args.first_seed else ''}"
          f"{' --reference' if args.reference else ''}",
          flush=True)
    versus = set(args.versus.split(","))
    timings: dict[int, list[float]] = {}
    for level in measured:
        wanted = ({level - 1} if "previous" in versus else set()) | ({3} if "3" in versus else set())
        opponents = sorted(wanted - {level, 0})
        for other in opponents:
            print(pairing(level, other, args.matches, args.think_seconds, timings, args.deals, args.processes,
                          args.first_seed),
                  flush=True)
    for level in sorted(timings):
        spent = timings[level]
        print(f"level {level} decision time: p50 {percentile(spent, 0.5) * 1e3:.2f} ms, "
              f"p99 {percentile(spent, 0.99) * 1e3:.2f} ms over {len(spent)} decisions")
    if args.reference:
        rate = win_rate(lambda rng: bot_player(), lambda rng: random_player(rng), args.matches)
        print(f"bot (default) v random: {rate:.1%} of {args.matches} matches to 100")
        for knock_at in (0, 4, 10):
            rate = win_rate(lambda rng: bot_player(), lambda rng, k=knock_at: bot_player(k), args.matches)
            print(f"bot (default) v bot --knock-at {knock_at}: {rate:.1%}")


if __name__ == "__main__":
    main()
