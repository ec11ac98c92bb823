"""How well level 5's sampled opponent hands foretell a knock (gin_client/bots/search.py's sampled_deals).

    .venv/bin/python bench/bot_sampler.py [--matches 40] [--hands 30]

Knock states are gathered from level-3 self-play (standard rules, seeds 1000 on): every state where
a seat may knock without gin. In each, the knock with the least deadwood is settled against the
real opponent hand (its points, negative for an undercut) and against `--hands` sampled ones, as
level 5 would see them (the seat's view and memory only). Printed for each sampler: the root mean
square error of the sampled mean against the real points, the Brier score of the sampled undercut
chance, and the cards a sampled hand shares with the real one on average. The previous sampler
(no reading of the opponent's discards, one more extra card) is measured beside the current one.
"""
from __future__ import annotations

import argparse
import copy
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import bot_decisions  # noqa: E402 (beside this file)
from gin_client.bots import search  # noqa: E402
from gin_client.bots.model import FULL_STOCK, Model  # noqa: E402


def previous_sampler(model: Model, rng: random.Random):
    """sampled_deals before the opponent's discards were read (main at acc3317)."""
    seen = min(3, (FULL_STOCK + 2 - model.stock) // 3)
    while True:
        theirs = model.sample_hand(rng, extra=seen + (model.stock < 20 and rng.random() < 0.5))
        rest = [search.bit(c) for c in model.unseen if c not in theirs]
        rng.shuffle(rest)
        yield search.bits(theirs), rest[:model.stock]


def knock_states(matches: int) -> list[dict]:
    """(view, memory before it, real opponent hand, the knock's real points) where the seat to move
    may knock, not with gin (bot_decisions.gather's knock states, seeds 1000 on)."""
    states = [state for state in bot_decisions.gather(range(1000, 1000 + matches)) if state["kind"] == "knock"]
    for state in states:
        hand = search.bits(state["view"]["hand"])
        left, card = search.best_discard(hand)
        state["real"] = search.Scoring(Model(state["view"])).settle(hand ^ card, left, state["theirs"])
    return states


def score(states: list[dict], sampler, hands: int) -> str:
    started = time.process_time()
    squared = brier = shared = 0.0
    for index, state in enumerate(states):
        view, memory = state["view"], copy.deepcopy(state["memory"])
        memory.observe(view)
        model = Model(view, memory)
        scoring = search.Scoring(model)
        left, card = search.best_discard(search.bits(view["hand"]))
        kept = search.bits(view["hand"]) ^ card
        deals = sampler(model, random.Random(index))
        values = []
        for _ in range(hands):
            theirs, _ = next(deals)
            values.append(scoring.settle(kept, left, theirs))
            shared += (theirs & state["theirs"]).bit_count() / hands
        squared += (sum(values) / hands - state["real"]) ** 2
        brier += (sum(v < 0 for v in values) / hands - (state["real"] < 0)) ** 2
    n = len(states)
    return (f"RMSE {math.sqrt(squared / n):.2f} points, Brier {brier / n:.4f}, {shared / n:.2f} cards shared, "
            f"{(time.process_time() - started) / (n * hands) * 1e3:.2f} ms CPU a hand")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--hands", type=int, default=30)
    args = parser.parse_args()
    print(f"command: .venv/bin/python bench/bot_sampler.py --matches {args.matches} --hands {args.hands}")
    states = knock_states(args.matches)
    undercuts = sum(state["real"] < 0 for state in states)
    print(f"{len(states)} knock states, {undercuts / len(states):.1%} of knocks there would be undercut")
    print(f"previous sampler: {score(states, previous_sampler, args.hands)}", flush=True)
    print(f"current sampler:  {score(states, search.sampled_deals, args.hands)}", flush=True)


if __name__ == "__main__":
    main()
