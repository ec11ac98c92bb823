"""Where a gunicorn worker spends its time under the game load: py-spy samples one worker while
client processes play, and the samples are attributed to the innermost layer on their stack.

    .venv/bin/python bench/profile_worker.py [--db sqlite|postgresql] [--seconds 12] [--clients 2] [--keep FILE]

Layers: the SQL itself (the driver call), SQLAlchemy, Flask/werkzeug/flask-smorest/Flask-Limiter,
marshmallow/webargs/apispec, the rules engine, JSON, the service's own code, and gunicorn waiting
for a request. One worker, so its share is not blurred by another. Figures only.
"""
from __future__ import annotations

import argparse
import collections
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["RATELIMIT_ENABLED"] = "false"

from bench.bench_load import fresh_database, machine, run_players, worker_pids  # noqa: E402
from tests.conftest import start_gunicorn, stop_gunicorn  # noqa: E402

LAYERS = [  # checked from the innermost frame outwards; the first layer a frame belongs to wins
    ("SQL executed (driver)", ("do_execute", "do_commit", "do_begin", "do_executemany", "do_rollback",
                               "exec_driver_sql", "sqlite3", "psycopg")),
    ("SQLAlchemy (ORM, Core)", ("sqlalchemy",)),
    ("marshmallow/webargs/apispec", ("marshmallow", "webargs", "apispec")),
    ("rules engine", ("service/rules",)),
    ("json", ("json/",)),
    ("service (own code)", ("service/",)),
    ("Flask/werkzeug/smorest/limiter", ("flask", "werkzeug", "flask_smorest", "limits")),
    ("gunicorn, waiting", ("gunicorn", "selectors")),
]


def layer_of(stack: str) -> str:
    for frame in reversed(stack.split(";")):
        for name, keys in LAYERS:
            if any(key in frame for key in keys):
                return name
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite", choices=["sqlite", "postgresql"])
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", ""))
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--keep", default="", help="also copy py-spy's raw samples to this file")
    options = parser.parse_args()
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        sys.exit("py-spy is not installed here: .venv/bin/pip install py-spy")
    with tempfile.TemporaryDirectory() as directory, \
            fresh_database(options.db, Path(directory), options.pg_url) as (url, _):
        process, base_url = start_gunicorn(url, workers=1, log_path=Path(directory) / "gunicorn.log")
        try:
            samples = Path(directory) / "samples.txt"
            recorder = subprocess.Popen(
                [str(spy), "record", "--rate", "250", "--duration", str(int(options.seconds)), "--format", "raw",
                 "--output", str(samples), "--pid", str(worker_pids(process.pid)[0])],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            run_players(base_url, options.clients, options.seconds + 2)
            recorder.wait()
        finally:
            stop_gunicorn(process)
        if options.keep:
            Path(options.keep).write_text(samples.read_text())
        counts, total = collections.Counter(), 0
        for line in samples.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            counts[layer_of(stack)] += int(count)
            total += int(count)
    busy = total - counts["gunicorn, waiting"]
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {machine()}")
    print(f"one gunicorn worker on {options.db}, {options.clients} clients playing; {total} samples")
    for name, count in counts.most_common():
        share = "" if name == "gunicorn, waiting" else f"  {count / busy * 100:5.1f}% of the busy time"
        print(f"  {name:32} {count / total * 100:5.1f}% of samples{share}")


if __name__ == "__main__":
    main()
