"""What settling a plan and asking standing orders cost the engine (issue 39).

    .venv/bin/python bench/bench_plans.py [--positions 200] [--seed 1]

Seeded random standard matches are played (random legal moves) to a seat's draw, and each plan
below is settled there (`settle_plan`: the plan checked, a stock draw tried against every card the
seat cannot see, then played on a copy), and `order_move` asked with every order set, at the same
positions after the draw. Each call is timed by the thread's CPU time (a wait for the shared
cores counts for none), with the GC paused; a line gives the median and the 90th percentile per
call over the positions. Plans that cannot be played at a position (refused) are timed too: a
refusal runs the same checks.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from service.rules import Draw, IllegalAction, Match, Orders, Plan, Rules, full_deck, order_move, settle_plan  # noqa: E402
from tests.rules.helpers import choose_action  # noqa: E402

PLANS = [
    "draw stock",
    "draw stock, discard worst",
    "draw stock, discard drawn unless it melds, else worst",
    "draw stock, gin if possible, else knock if deadwood at most 5, else discard drawn unless it melds, else worst",
    "take, discard worst",
]
ORDERS = Orders.parse("pass unless it melds; take the pile's top if it melds, else draw stock; always go gin; "
                      "knock if possible")


def positions(count: int, seed: int) -> list[Match]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        match = Match.new(Rules(), first_dealer=rng.randrange(2))
        deck = full_deck()
        rng.shuffle(deck)
        match.deal(deck)
        for _ in range(rng.randrange(0, 16)):
            if match.to_move is None:
                break
            match.apply(match.to_move, choose_action(match, match.to_move, rng))
        if match.phase == "draw" and not match.must_draw_stock:
            found.append(match)
    return found


def timed(call) -> float:
    start = time.thread_time()
    try:
        call()
    except IllegalAction:
        pass
    return time.thread_time() - start


def line(name: str, times: list[float]) -> str:
    times = sorted(times)
    p90 = times[int(len(times) * 0.9) - 1]
    return f"{name:<112} {statistics.median(times) * 1000:7.2f} ms  p90 {p90 * 1000:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"$ .venv/bin/python bench/bench_plans.py --positions {args.positions} --seed {args.seed}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    matches = positions(args.positions, args.seed)
    gc.disable()
    for text in PLANS:
        plan = Plan.parse(text)
        print(line(f"settle_plan: {text}", [timed(lambda m=m: settle_plan(m, m.to_move, plan)) for m in matches]))
    drawn = []
    for match in matches:
        match.apply(match.to_move, Draw("stock"))
        drawn.append(match)
    print(line("order_move after the draw (gin and knock orders set)",
               [timed(lambda m=m: order_move(m, m.to_move, ORDERS)) for m in drawn]))
    gc.enable()


if __name__ == "__main__":
    main()
