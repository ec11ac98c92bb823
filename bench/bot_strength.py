"""How strong and how quick the reference bot is, in process with the rules engine.

    .venv/bin/python bench/bot_strength.py [--matches 200]

Prints: the bot's match win rate against a random player and against itself with other --knock-at
settings (seats alternate, seeded decks), and the time one decision takes.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from client import bot  # noqa: E402
from service.rules import Match, Rules, action_from_dict, full_deck  # noqa: E402


def random_player(rng):
    return lambda view: rng.choice(view["legal_actions"])


def bot_player(knock_at=None):
    return lambda view: bot.choose_action(view, knock_at)


def play(seed: int, players, timings: list | None = None) -> Match:
    rng = random.Random(seed)
    match = Match.new(Rules.from_options(), first_dealer=rng.randrange(2))
    while not match.is_over:
        if match.needs_deal:
            deck = full_deck()
            rng.shuffle(deck)
            match.deal(deck)
            continue
        seat = match.to_move
        view = match.view(seat)
        started = time.perf_counter()
        choice = players[seat](view)
        if timings is not None and seat == 0:
            timings.append(time.perf_counter() - started)
        match.apply(seat, action_from_dict(choice))
    return match


def win_rate(make_a, make_b, matches: int, timings=None) -> float:
    wins = 0
    for seed in range(matches):
        rng = random.Random(seed * 7919)
        a, b = make_a(rng), make_b(rng)
        seats = (a, b) if seed % 2 == 0 else (b, a)
        match = play(seed, seats, timings if seed % 2 == 0 else None)
        wins += match.winner == (0 if seed % 2 == 0 else 1)
    return wins / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    print(f"command: .venv/bin/python bench/bot_strength.py --matches {args.matches}")
    timings: list[float] = []
    started = time.perf_counter()
    rate = win_rate(lambda rng: bot_player(), lambda rng: random_player(rng), args.matches, timings)
    print(f"bot (default) v random: {rate:.1%} of {args.matches} matches to 100 "
          f"({time.perf_counter() - started:.1f} s)")
    for knock_at in (0, 4, 10):
        rate = win_rate(lambda rng: bot_player(), lambda rng, k=knock_at: bot_player(k), args.matches)
        print(f"bot (default) v bot --knock-at {knock_at}: {rate:.1%}")
    timings.sort()
    print(f"decision time: median {statistics.median(timings) * 1e6:.0f} us, "
          f"p99 {timings[int(len(timings) * 0.99)] * 1e6:.0f} us over {len(timings)} decisions")


if __name__ == "__main__":
    main()
