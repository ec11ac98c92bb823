"""The engine's deadwood search beside OpenSpiel's C++ one (pyspiel), timed in one run.

    .venv/bin/pip install open-spiel        # or: .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/bench_min_deadwood.py [--hands 10000] [--rounds 5] [--seed 1] [--before 15407d6]

Each round draws fresh seeded random hands (10 and 11 cards; never one seen before in this
process, and every cache is cleared) and times, with the GC paused:
  - OpenSpiel: `pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(card ints)`, its C++
    `MinDeadwood` through pybind11, and `best_meld_group` on the 10-card hands (the call alone
    is timed, as for ours);
  - ours, internal: `deadwood.lowest` / `lowest_after_discard` / `best_layout` on the four suit
    masks (the engine's own form of a hand, made before the timing as OpenSpiel's ints are);
  - ours, public: `min_deadwood(cards)` and `best_arrangement(cards)` on lists of Card, which
    check the cards first (the API's edge);
  - before: the same entry points of `service/rules/melds.py` at git revision --before (main
    before this engine), loaded from `git show` as a module;
and the deadwood after each discard of the 11-card hands: `CardScheme.deadwood_after_discards`
against 11 calls of OpenSpiel's 10-card `min_deadwood` and against the 11 calls of
`deadwood_without` the views made before. Within a round the implementations take turns on
chunks of 500 hands, each timed by the thread's CPU time (a wait for the shared cores counts
for none); a line's figure is the median over rounds of the mean time per hand, and
"x OpenSpiel" divides it by OpenSpiel's. Every answer is checked against OpenSpiel's 10-card
`min_deadwood` (for 11 cards, its lowest over the 11 discards): any of ours that differs stops
the run. OpenSpiel's own 11-card answer discards from one best meld group of the 11 cards, and
another group with as much deadwood can leave less: its line counts those hands.
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from service.rules import best_arrangement, min_deadwood  # noqa: E402
from service.rules import deadwood  # noqa: E402
from service.rules import melds as now  # noqa: E402
from service.rules.cards import card_from_index  # noqa: E402
from service.rules.scheme import STANDARD  # noqa: E402

try:
    import pyspiel
except ImportError:
    raise SystemExit("pyspiel is missing: .venv/bin/pip install open-spiel (the 'bench' extra)") from None

# OpenSpiel numbers a card suit * 13 + rank - 1 with the suits in the order s c d h; ours in C D H S.
OPENSPIEL_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}


def load_before(revision: str):
    """melds.py as it was at `revision`, as a module of this package (its own imports resolve
    to today's cards.py and runs.py, which the engine change left alone)."""
    source = subprocess.run(["git", "-C", ROOT, "show", f"{revision}:service/rules/melds.py"],
                            check=True, capture_output=True, text=True).stdout
    name = "service.rules._melds_before"
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))
    module.__package__ = "service.rules"
    sys.modules[name] = module
    exec(compile(source, f"{revision}:service/rules/melds.py", "exec"), module.__dict__)
    return module


def draw_hands(rng: random.Random, count: int, size: int, seen: set) -> list[list[int]]:
    hands = []
    while len(hands) < count:
        hand = tuple(sorted(rng.sample(range(52), size)))
        if hand not in seen:
            seen.add(hand)
            hands.append(list(hand))
    return hands


def forms(hand: list[int]) -> tuple:
    """(Cards, our suit masks, OpenSpiel's card ints) of one hand of card indices."""
    cards = [card_from_index(i) for i in hand]
    rng = random.Random(hand[0] * 53 + hand[-1])
    rng.shuffle(cards)  # in no particular order, as a player holds them
    return cards, tuple(now.suit_masks(cards)), [OPENSPIEL_SUIT[c.suit] * 13 + c.rank - 1 for c in cards]


def timed(run) -> tuple[float, list]:
    gc.collect()
    gc.disable()
    try:
        started = time.thread_time_ns()
        answers = run()
        return time.thread_time_ns() - started, answers
    finally:
        gc.enable()


def candidates(before, utils, size: int) -> dict:
    """name -> function of (cards, masks, ints) lists, giving the answers."""
    lowest = deadwood.lowest if size == 10 else deadwood.lowest_after_discard
    discard = size == 11
    old_masks = before.deadwood_of_masks
    their = utils.min_deadwood
    return {
        "OpenSpiel min_deadwood (C++)": lambda cards, masks, ints: [their(h) for h in ints],
        "ours, internal (suit masks)": lambda cards, masks, ints: [lowest(a, b, c, d) for a, b, c, d in masks],
        "ours, public min_deadwood(cards)": lambda cards, masks, ints: [min_deadwood(h) for h in cards],
        "before, internal (suit masks)": lambda cards, masks, ints: [old_masks(a, b, c, d, discard)
                                                                     for a, b, c, d in masks],
        "before, public min_deadwood(cards)": lambda cards, masks, ints: [before.min_deadwood(h) for h in cards],
    }


def arrangement_candidates(before, utils) -> dict:
    """The calls alone are timed; their answers become deadwood counts after the timing."""
    their = utils.best_meld_group
    layout = deadwood.best_layout
    value = deadwood.STANDARD.value

    def their_points(ints, groups):
        return [sum(min(card % 13 + 1, 10) for card in hand if card not in {c for meld in group for c in meld})
                for hand, group in zip(ints, groups)]

    def layout_points(masks, layouts):
        return [sum(value[m[s] & ~(sets[s] | runs[s])] for s in range(4)) for m, (sets, runs) in zip(masks, layouts)]

    return {
        "OpenSpiel best_meld_group (C++)": (lambda cards, masks, ints: [their(h) for h in ints],
                                            lambda cards, masks, ints, out: their_points(ints, out)),
        "ours, internal best_layout (suit masks)": (
            lambda cards, masks, ints: [layout(a, b, c, d) for a, b, c, d in masks],
            lambda cards, masks, ints, out: layout_points(masks, out)),
        "ours, public best_arrangement(cards)": (lambda cards, masks, ints: [best_arrangement(h) for h in cards],
                                                 lambda cards, masks, ints, out: [a.deadwood_points for a in out]),
        "before, public best_arrangement(cards)": (
            lambda cards, masks, ints: [before.best_arrangement(h) for h in cards],
            lambda cards, masks, ints, out: [a.deadwood_points for a in out]),
    }


def discard_candidates(before, utils) -> dict:
    their = utils.min_deadwood
    old = before.deadwood_of_masks

    def old_after_each(hand):  # the views before: a fresh set of suit masks for each discard
        answers = []
        for card in hand:
            masks = before.suit_masks(hand)
            masks[card.suit_index] &= ~card.bit
            answers.append(old(*masks))
        return answers

    return {
        "OpenSpiel, 11 x min_deadwood (C++)": lambda cards, masks, ints: [
            [their(h[:i] + h[i + 1:]) for i in range(len(h))] for h in ints],
        "ours, CardScheme.deadwood_after_discards": lambda cards, masks, ints: [
            STANDARD.deadwood_after_discards(h) for h in cards],
        "before, 11 x deadwood_without": lambda cards, masks, ints: [old_after_each(h) for h in cards],
    }


def clear_caches(before) -> None:
    for cached in (before.deadwood_of_masks, before._best_of_masks, now.arrangement_of_masks):
        cached.cache_clear()


def expected(utils, kind: str):
    """The reference answers of a chunk, from OpenSpiel's 10-card `min_deadwood` (its 11-card
    answer is not always the best discard: it discards from one best meld group of the 11 cards,
    and another group with as much deadwood may leave less)."""
    ten = utils.min_deadwood

    def after_each(hand):
        return [ten(hand[:i] + hand[i + 1:]) for i in range(len(hand))]

    if kind == "10 cards":
        return lambda ints: [ten(h) for h in ints]
    if kind == "11 cards":
        return lambda ints: [min(after_each(h)) for h in ints]
    return lambda ints: [after_each(h) for h in ints]


def measure(table: dict, rounds: list, before, reference, chunk: int = 500) -> tuple[dict, dict]:
    """(median over rounds of each candidate's mean CPU time per hand, how many of its answers
    were not the reference's). Within a round the candidates take turns on chunks of `chunk`
    hands; the time is the thread's CPU time, so a wait for the shared cores counts for none."""
    per_call = {name: [] for name in table}
    wrong = dict.fromkeys(table, 0)
    for cards, masks, ints in rounds:
        spent = dict.fromkeys(table, 0)
        for start in range(0, len(cards), chunk):
            part = (cards[start:start + chunk], masks[start:start + chunk], ints[start:start + chunk])
            right = reference(part[2])
            for name, run in table.items():
                clear_caches(before)
                run, answer = run if isinstance(run, tuple) else (run, None)
                ns, answers = timed(lambda: run(*part))  # noqa: B023 (called at once)
                spent[name] += ns
                if answer is not None:
                    answers = answer(*part, answers)
                for hand, got, want in zip(part[0], answers, right):
                    if got != want:
                        wrong[name] += 1
                        if not name.startswith("OpenSpiel"):
                            raise SystemExit(f"{name} answers {got} where {want} is right, hand "
                                             f"{' '.join(map(str, hand))}")
        for name in table:
            per_call[name].append(spent[name] / len(cards) / 1000)
    return {name: statistics.median(values) for name, values in per_call.items()}, wrong


def report(title: str, measured: tuple[dict, dict], count: int, rounds: int) -> None:
    medians, wrong = measured
    theirs = next(iter(medians.values()))
    print(f"{title} (median of {rounds} rounds of {count} hands, CPU time):")
    for name, us in medians.items():
        off = f"   {wrong[name]} of {count * rounds} answers not the best discard's" if wrong[name] else ""
        print(f"  {name:44s} {us:7.3f} us per hand   {us / theirs:5.2f} x OpenSpiel{off}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10000, help="hands of each size per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", default="15407d6", help="git revision of the engine to compare")
    args = parser.parse_args()

    print("command:", " ".join([os.path.relpath(sys.executable, os.getcwd())] + sys.argv))
    print(f"python {sys.version.split()[0]}, open_spiel {_version('open_spiel')}, {os.cpu_count()} cpus, "
          f"load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    before = load_before(args.before)
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng, seen = random.Random(args.seed), set()
    for size in (10, 11):
        rounds = [list(zip(*map(forms, draw_hands(rng, args.hands, size, seen)))) for _ in range(args.rounds)]
        warm = [list(zip(*map(forms, draw_hands(rng, 500, size, seen))))]  # every path, on hands of their own
        table, right = candidates(before, utils, size), expected(utils, f"{size} cards")
        measure(table, warm, before, right)
        report(f"min_deadwood, {size} random cards", measure(table, rounds, before, right), args.hands, args.rounds)
        if size == 10:
            table = arrangement_candidates(before, utils)
            measure(table, warm, before, right)
            report("the best arrangement, 10 random cards", measure(table, rounds, before, right),
                   args.hands, args.rounds)
        else:
            table, right = discard_candidates(before, utils), expected(utils, "after each discard")
            small = [tuple(part[:args.hands // 10] for part in r) for r in rounds]
            report("the deadwood after each discard, 11 random cards",
                   measure(table, small, before, right, chunk=50), args.hands // 10, args.rounds)
    print("Every answer of ours and of the engine before is the reference's: OpenSpiel's 10-card "
          "min_deadwood (for 11 cards, its lowest over the 11 discards).")


def _version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name.replace("_", "-"))
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    main()
