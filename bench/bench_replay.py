"""What a replay costs (issue 24): GET /games/{id}/replay of finished matches, two seats and tables of
3, 4 and 6, in process on a fresh SQLite file. Each replay runs the whole match through the engine
again from the stored decks and actions, so its time grows with the match's moves. Prints, per
match, its steps, the answer's size and the median and slowest of --runs requests.

    .venv/bin/python bench/bench_replay.py [--runs 20]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("RATELIMIT_ENABLED", "false")

from tests.api.helpers import auth, choose, mover
from tests.api.table_helpers import TEDESCO_TEAMS, mover_and_action, start_table


def two_seats(client, rules: dict) -> tuple[str, str]:
    created = client.post("/games", json={"name": "Ann", "rules": rules}).get_json()
    joined = client.post(f"/games/{created['game_id']}/join",
                         json={"name": "Bob", "invite_code": created["invite_code"]}).get_json()
    game = {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]}}
    while True:
        seat, view = mover(client, game)
        if view["status"] == "finished":
            return game["id"], game["tokens"][0]
        client.post(f"/games/{game['id']}/actions", json=choose(view), headers=auth(game["tokens"][seat]))


def table(client, seats: int, rules: dict) -> tuple[str, str]:
    def post(path, body):
        answer = client.post(path, json=body)
        return answer.status_code, answer.get_json()
    game = start_table(post, seats, rules)
    while True:
        views = {seat: client.get(f"/games/{game['id']}", headers=auth(token)).get_json()
                 for seat, token in game["tokens"].items()}
        if views[0]["status"] == "finished":
            return game["id"], game["tokens"][0]
        seat, action = mover_and_action(views)
        client.post(f"/games/{game['id']}/actions", json=action, headers=auth(game["tokens"][seat]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    import flask_migrate

    from service import create_app
    folder = tempfile.mkdtemp(prefix="bench-replay-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3"})
    with app.app_context():
        flask_migrate.upgrade()
    client = app.test_client()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; command: {' '.join(sys.argv)}")
    matches = {"two seats, standard to 100": two_seats(client, {"preset": "standard", "target": 100}),
               "three seats, to 100": table(client, 3, {"target": 100}),
               "four seats, to 100": table(client, 4, {"target": 100}),
               "six seats, Tedesco teams to 50": table(client, 6, TEDESCO_TEAMS)}
    print(f"{'match':34} {'steps':>6} {'KiB':>7} {'p50 ms':>8} {'max ms':>8}")
    for name, (game_id, token) in matches.items():
        times, body = [], None
        for _ in range(args.runs):
            started = time.perf_counter()
            answer = client.get(f"/games/{game_id}/replay", headers=auth(token))
            times.append((time.perf_counter() - started) * 1000)
            assert answer.status_code == 200, answer.get_json()
            body = answer
        steps = len(body.get_json()["steps"])
        print(f"{name:34} {steps:>6} {len(body.data) / 1024:>7.0f} {statistics.median(times):>8.1f} {max(times):>8.1f}")


if __name__ == "__main__":
    main()
