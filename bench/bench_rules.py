"""How fast the rules engine is: min_deadwood per hand, hands of random self-play per second, and
both seats' views of a move.

    .venv/bin/python bench/bench_rules.py [--runs 7] [--selfplay-hands 300]

min_deadwood is timed on the hands of tests/vectors/min_deadwood.jsonl (10-card and 11-card
separately). No hand is ever timed twice in this process, so no cache can answer:
  - the hands are first made unique up to suit relabelling (the four suit masks, sorted, are the
    key a clever cache could use: deadwood does not depend on which suit is which);
  - they are split into one disjoint slice per run, and each run relabels suits by its own
    permutation and builds fresh Card objects (so neither identity nor text repeats);
  - the warm-up uses random hands that are none of these.
Every answer is checked against the vector's value after the timing. Each run's figure is the
mean time per call over its slice; the median over runs is reported, next to a same-run baseline:
a trivial sum of point values over the same cards, so figures can be read as ratios.

Self-play: random legal actions for both seats (standard rules, seeded decks and choices), timed
over whole hands including legal_actions and deals; median hands per second over runs.
"""
from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from service.rules import Card, Match, Rules, full_deck, min_deadwood  # noqa: E402

VECTORS = os.path.join(ROOT, "tests", "vectors", "min_deadwood.jsonl")
SUITS = "CDHS"
TARGET_US = {10: 10.0, 11: 15.0}


def suit_key(hand: list[tuple[int, str]]) -> tuple[int, ...]:
    """The hand up to suit relabelling: its four suit masks, sorted."""
    masks = dict.fromkeys(SUITS, 0)
    for rank, suit in hand:
        masks[suit] |= 1 << (rank - 1)
    return tuple(sorted(masks.values()))


def load_hands() -> dict[int, list[tuple[list[tuple[int, str]], int]]]:
    """(hand as (rank, suit) pairs, expected value) by hand size, unique up to suit relabelling."""
    by_size: dict[int, list] = {10: [], 11: []}
    seen: set = set()
    with open(VECTORS) as f:
        for line in f:
            row = json.loads(line)
            hand = [(c.rank, c.suit) for c in (Card.parse(t) for t in row["hand"])]
            key = (len(hand), suit_key(hand))
            if key in seen:
                continue
            seen.add(key)
            by_size[len(hand)].append((hand, row["min_deadwood"]))
    return by_size


def relabel(hand, permutation: dict[str, str]) -> list[Card]:
    """Fresh Card objects with suits renamed: the same deadwood, never the same cards or objects."""
    return [Card(rank, permutation[suit]) for rank, suit in hand]


def time_slice(hands: list[list[Card]]) -> tuple[float, float, list[int]]:
    """(us per min_deadwood call, us per baseline sum, answers) over one slice, GC paused."""
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter_ns()
        answers = [min_deadwood(hand) for hand in hands]
        engine_ns = time.perf_counter_ns() - started
        started = time.perf_counter_ns()
        sums = [sum(card.points for card in hand) for hand in hands]
        baseline_ns = time.perf_counter_ns() - started
    finally:
        gc.enable()
    assert len(sums) == len(hands)
    return engine_ns / len(hands) / 1000, baseline_ns / len(hands) / 1000, answers


def warm_up(excluded: set, rng: random.Random, count: int = 300) -> None:
    deck = [(c.rank, c.suit) for c in full_deck()]
    done = 0
    while done < count:
        for size in (10, 11):
            hand = rng.sample(deck, size)
            if (size, suit_key(hand)) in excluded:
                continue
            min_deadwood([Card(r, s) for r, s in hand])
            done += 1


def bench_min_deadwood(runs: int, rng: random.Random) -> dict[int, tuple[float, float, int]]:
    by_size = load_hands()
    excluded = {(size, suit_key(h)) for size, rows in by_size.items() for h, _ in rows}
    warm_up(excluded, rng)
    permutations = list(itertools.permutations(SUITS))
    rng.shuffle(permutations)
    results = {}
    for size, rows in by_size.items():
        rows = rows[:]
        rng.shuffle(rows)
        per_run = len(rows) // runs
        engine, baseline = [], []
        for k in range(runs):
            chunk = rows[k * per_run:(k + 1) * per_run]
            permutation = dict(zip(SUITS, permutations[k % len(permutations)]))
            hands = [relabel(hand, permutation) for hand, _ in chunk]
            us, base_us, answers = time_slice(hands)
            wrong = [(h, e, a) for (h, e), a in zip(chunk, answers) if a != e]
            if wrong:
                raise SystemExit(f"min_deadwood is wrong on {len(wrong)} relabelled {size}-card hands, "
                                 f"e.g. {wrong[0]}")
            engine.append(us)
            baseline.append(base_us)
        results[size] = (statistics.median(engine), statistics.median(baseline), per_run)
    return results


def random_play(rng: random.Random):
    """Random legal play of standard matches, one after another: yields (dealt, match) after every
    deal (True) and every action (False)."""
    match = Match.new(Rules.from_options("standard"), first_dealer=0)
    while True:
        if match.is_over:
            match = Match.new(Rules.from_options("standard"), first_dealer=rng.randrange(2))
        if match.needs_deal:
            deck = full_deck()
            rng.shuffle(deck)
            match.deal(deck)
            yield True, match
            continue
        match.apply(match.to_move, rng.choice(match.legal_actions(match.to_move)))
        yield False, match


def self_play_hands(hands: int, seed: int) -> tuple[float, int]:
    """Seconds for `hands` hands of random legal play (standard rules), and the actions taken;
    the last hand is played to its end, so every counted hand is a whole one."""
    played = actions = 0
    started = time.perf_counter()
    for dealt, match in random_play(random.Random(seed)):
        played += dealt
        actions += not dealt
        if played == hands and (match.needs_deal or match.is_over):
            break
    return time.perf_counter() - started, actions


def views_per_move(states: int, seed: int) -> float:
    """Microseconds (process time) to make both seats' views (Match.views, as every stored move
    does) of `states` positions of random legal play, each view made from a freshly loaded match."""
    saved = []
    for dealt, match in random_play(random.Random(seed)):
        if not dealt:
            saved.append(match.to_dict())
        if len(saved) == states:
            break
    loaded = [Match.from_dict(state) for state in saved]
    started = time.process_time()
    for each in loaded:
        each.views()
    return (time.process_time() - started) / len(loaded) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure (median reported)")
    parser.add_argument("--selfplay-hands", type=int, default=300, help="hands per self-play run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print("command:", " ".join([os.path.relpath(sys.executable, os.getcwd())] + sys.argv))
    print(f"python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} cpus")
    print()
    results = bench_min_deadwood(args.runs, rng)
    print(f"min_deadwood, median of {args.runs} runs, each on hands not seen before in this process:")
    for size in (10, 11):
        us, base_us, count = results[size]
        verdict = "within" if us <= TARGET_US[size] else "OVER"
        print(f"  {size}-card hands: {us:7.2f} us per call   (baseline sum of points {base_us:5.2f} us, "
              f"ratio {us / base_us:5.1f}x; {count} hands per run; target <= {TARGET_US[size]:.0f} us: {verdict})")
    print()
    rates, action_rates = [], []
    for run in range(max(3, args.runs // 2)):
        seconds, actions = self_play_hands(args.selfplay_hands, seed=args.seed * 1000 + run)
        rates.append(args.selfplay_hands / seconds)
        action_rates.append(actions / seconds)
    print(f"random self-play (standard rules, random legal actions), median of {len(rates)} runs of "
          f"{args.selfplay_hands} hands:")
    print(f"  {statistics.median(rates):9.0f} hands per second   ({statistics.median(action_rates):.0f} actions "
          f"per second, legal_actions included)")
    print()
    views = [views_per_move(1000, seed=args.seed * 1000 + run) for run in range(max(3, args.runs // 2))]
    print(f"both seats' views of a move (Match.views), median of {len(views)} runs of 1,000 positions of random play:")
    print(f"  {statistics.median(views):9.1f} us per move")


if __name__ == "__main__":
    main()
