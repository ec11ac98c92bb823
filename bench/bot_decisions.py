"""How good level 5's searched decisions are, one decision at a time, against the real deal.

    .venv/bin/python bench/bot_decisions.py [--matches 400] [--states 3000] [--deals 30] [--processes 2]

States are gathered from level-3 self-play (standard rules, seeds 2000 on), each with the real
opponent hand and stock order, of the two kinds level 5 searches: knock states (the seat may knock,
not with gin) and draw states (it may take the pile's top or draw). In each, three players decide:
level 5 from the seat's view and memory as in play; the reference bot (level 3); and level 5
knowing the opponent's hand (every sampled deal holds the real hand, the stock order still
sampled). Each choice is played out on the real deal (search.play_out, both sides the reference
bot's policy, which is what the states' opponent plays; a knock is settled at once) and its points
less the reference choice's are averaged, with a 95% interval. Knowing the hand is the ceiling a
better reading of the opponent could reach. Paired and about a hundred times quicker than matches
(bot_strength.py), it tells a change to the search apart in minutes; matches settle it.
"""
from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import bot_strength  # noqa: E402 (beside this file)
from gin_client.bots import levels, reference, search  # noqa: E402
from gin_client.bots.model import Memory, Model  # noqa: E402

SAMPLER = search.sampled_deals


def gather(seeds: range) -> list[dict]:
    """Knock and draw states of level-3 self-play, with what the seat remembered and the real deal."""
    states: list[dict] = []
    pick = random.Random(seeds.start)

    def watch(match, seat, view):
        kinds = {a["type"] for a in view["legal_actions"]}
        sources = {a.get("from") for a in view["legal_actions"] if a["type"] == "draw"}
        if "knock" in kinds and "discard" in kinds and "big_gin" not in kinds:
            if search.best_discard(search.bits(view["hand"]))[0] == 0:
                return  # gin: nothing to decide
            kind = "knock"
        elif {"stock", "discard"} <= sources and pick.random() < 0.3:  # fewer: they are many
            kind = "draw"
        else:
            return
        states.append({"kind": kind, "view": view, "memory": copy.deepcopy(memories[seat]),
                       "theirs": search.bits(str(c) for c in match.hands[1 - seat]),
                       "stock": [search.bit(str(c)) for c in reversed(match.stock)],  # drawn from the end
                       "pile": [search.bit(str(c)) for c in match.discard_pile]})

    for seed in seeds:
        memories = [Memory(), Memory()]
        players = [lambda view, memory=memory: levels.decide(view, 3, memory=memory).action for memory in memories]
        bot_strength.play(seed, players, watch=watch)
    return states


def points(state: dict, action: dict) -> float:
    """The seat's points when `action` is played on the real deal (negative: the opponent's)."""
    view = state["view"]
    scoring, mine = search.Scoring(Model(view)), search.bits(view["hand"])
    theirs, stock, pile = state["theirs"], list(state["stock"]), list(state["pile"])
    took = search.bits(view["opponent"]["known_cards"])
    if action["type"] == "draw":
        first = "pile" if action["from"] == "discard" else "stock"
        return search.play_out(mine, theirs, stock, pile, False, scoring, first, took)
    card = search.bit(action["discard"] if action["type"] == "knock" else action["card"])
    if action["type"] == "knock":
        return scoring.settle(mine ^ card, search.deadwood(mine ^ card), theirs)
    return search.play_out(mine ^ card, theirs, stock, pile + [card], True, scoring, their_took=took)


def knowing(hand: int):
    """A sampler whose every deal holds the opponent's real hand (the stock order still sampled)."""
    def deals(model, rng):
        rest = [search.bit(c) for c in model.unseen if not search.bit(c) & hand]
        while True:
            rng.shuffle(rest)
            yield hand, rest[:model.stock]
    return deals


def judge(args: tuple) -> list[tuple]:
    """(kind, level 5's points less the reference's, knowing's less the reference's, level 5 differs)."""
    states, deals = args
    out = []
    for index, state in states:
        view = state["view"]
        chosen = reference.decide(view).action
        reference_points = points(state, chosen)
        level5 = levels.decide(view, 5, random.Random(index), copy.deepcopy(state["memory"]), None, deals).action
        search.sampled_deals = knowing(state["theirs"])
        try:
            known = levels.decide(view, 5, random.Random(index), copy.deepcopy(state["memory"]), None, deals).action
        finally:
            search.sampled_deals = SAMPLER
        out.append((state["kind"], points(state, level5) - reference_points, points(state, known) - reference_points,
                    level5 != chosen))
    return out


def interval(values: list[float]) -> str:
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
    return f"{mean:+.2f} +- {1.96 * spread:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--states", type=int, default=3000, help="at most this many of each kind, drawn at random")
    parser.add_argument("--deals", type=int, default=30, help="deals level 5 samples per decision")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    print(f"command: .venv/bin/python bench/bot_decisions.py --matches {args.matches} --states {args.states} "
          f"--deals {args.deals} --processes {args.processes}", flush=True)
    started = time.perf_counter()
    with multiprocessing.Pool(args.processes) as pool:
        seeds = [range(2000 + i, 2000 + args.matches, args.processes) for i in range(args.processes)]
        states = [s for part in pool.map(gather, seeds) for s in part]
        chosen = []
        for kind in ("knock", "draw"):
            of_kind = [i for i, s in enumerate(states) if s["kind"] == kind]
            chosen += sorted(random.Random(kind).sample(of_kind, min(args.states, len(of_kind))))
        work = [([(i, states[i]) for i in chosen[start::args.processes * 8]], args.deals)
                for start in range(args.processes * 8)]
        results = [row for part in pool.map(judge, work) for row in part]
    for kind in ("knock", "draw"):
        rows = [r for r in results if r[0] == kind]
        print(f"{kind} states: {len(rows)}; level 5 chose otherwise than the reference in {sum(r[3] for r in rows)}")
        print(f"  level 5 less the reference:          {interval([r[1] for r in rows])} points a state")
        print(f"  knowing the hand less the reference: {interval([r[2] for r in rows])} points a state")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
