"""What the metrics (and the per-request JSON log line) add to a move: POST /games/{id}/actions
timed in process (Flask test client, SQLite), the service's CPU time per move, with metrics on
and off, in one run, rounds alternating so that machine noise hits every variant alike.

    .venv/bin/python bench/bench_metrics_cost.py [--moves 200] [--rounds 9]

prometheus_client runs in its multiprocess mode here (PROMETHEUS_MULTIPROC_DIR set before it is
imported), as under gunicorn: each count is a write to a memory-mapped file. Logs are configured as
in production (JSON lines at INFO), written to /dev/null. Figures only: nothing is asserted.
"""
from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="bench-metrics-")  # before any import of it
os.environ.setdefault("RATELIMIT_ENABLED", "false")

from service import create_app
from tests.api.helpers import choose
from tests.conftest import migrate

# "metrics off" twice: the spread between the two is the run's noise, to read the difference by.
VARIANTS = [("metrics off", {"METRICS_ENABLED": False}), ("metrics on", {"METRICS_ENABLED": True}),
            ("metrics off again", {"METRICS_ENABLED": False})]


def time_moves(client, moves: int) -> tuple[float, float]:
    """(CPU ms, wall ms) per POST action over `moves` moves of fresh games."""
    done, cpu, wall = 0, 0.0, 0.0
    while done < moves:
        created = client.post("/games", json={"name": "Ann"}).get_json()
        game = f"/games/{created['game_id']}"
        joined = client.post(game + "/join", json={"invite_code": created["invite_code"], "name": "Bob"}).get_json()
        tokens, view = {0: created["token"], 1: joined["token"]}, joined["game"]
        while view["status"] != "finished" and done < moves:
            headers = {"Authorization": f"Bearer {tokens[view['to_move']]}"}
            body = choose(client.get(game, headers=headers).get_json())
            started_cpu, started = time.process_time(), time.perf_counter()
            answer = client.post(game + "/actions", json=body, headers=headers)
            cpu += time.process_time() - started_cpu
            wall += time.perf_counter() - started
            assert answer.status_code == 200, answer.get_json()
            view = answer.get_json()
            done += 1
    return 1000 * cpu / done, 1000 * wall / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        clients = {}
        for label, overrides in VARIANTS:
            config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{directory}/{label.replace(' ', '-')}.sqlite3"}
            migrate(config)
            clients[label] = create_app({**config, **overrides}).test_client()
        root = logging.getLogger()
        for handler in list(root.handlers):  # JSON lines as in production, to /dev/null
            if getattr(handler, "gin_logs", False):
                handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 - open while the process runs
            else:  # alembic's own console handler (migrate's fileConfig): not there in production
                root.removeHandler(handler)
        results = {label: [] for label, _ in VARIANTS}
        for _ in range(options.rounds):
            for label, _ in VARIANTS:
                results[label].append(time_moves(clients[label], options.moves))
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}; {options.moves} moves per variant and round, "
          f"{options.rounds} rounds; Flask test client, SQLite; medians per POST action")
    medians = {}
    for label, figures in results.items():
        cpu = sorted(f[0] for f in figures)[len(figures) // 2]
        wall = sorted(f[1] for f in figures)[len(figures) // 2]
        medians[label] = cpu
        print(f"{label:17} CPU {cpu:6.3f} ms  wall {wall:6.3f} ms  (CPU by round: "
              f"{', '.join(f'{f[0]:.3f}' for f in figures)})")
    on, off = medians["metrics on"], (medians["metrics off"] + medians["metrics off again"]) / 2
    print(f"moves/s (CPU) metrics on / off (the two offs' mean): {1000 / on:.0f} / {1000 / off:.0f} = {off / on:.3f}; "
          f"off again / off: {medians['metrics off'] / medians['metrics off again']:.3f}")


if __name__ == "__main__":
    main()
