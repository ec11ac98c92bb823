"""The body of one racing client process for test_concurrency (importable under spawn)."""
from __future__ import annotations

import json
import random

from .helpers import act, canonical, choose, mover


def race(config: dict, games: list[dict], rounds: int, worker: int, barrier, out_path: str) -> None:
    """Every round, all workers look at each game and then post a move for the seat to move at
    nearly the same moment: often the same move, sometimes another legal one, with and without
    If-Match and Idempotency-Key. Every answer is written to out_path for the parent to judge."""
    from service import create_app

    client = create_app({"TESTING": True, **config}).test_client()
    rng = random.Random(worker)
    log = []
    try:
        for _ in range(rounds):
            barrier.wait(timeout=120)
            for game in games:
                log += _move(client, game, rng)
    except BaseException:
        barrier.abort()  # the others stop waiting for this one
        raise
    with open(out_path, "w") as out:
        json.dump(log, out)


def _move(client, game: dict, rng: random.Random) -> list[dict]:
    seat, seen = mover(client, game)
    if not seen["legal_actions"]:  # finished, or another racer moved between the two reads
        return []
    action = choose(seen) if rng.random() < 0.7 else rng.choice(seen["legal_actions"])
    headers = {}
    if rng.random() < 0.5:
        headers["If-Match"] = f'"{seen["version"]}"'
    if rng.random() < 0.5:
        headers["Idempotency-Key"] = f'{seen["version"]}:{canonical(action)}'
    response = act(client, game, seat, action, **headers)
    return [{"game": game["id"], "seat": seat, "action": action, "headers": headers,
             "seen_version": seen["version"], "status": response.status_code, "body": response.get_json()}]
