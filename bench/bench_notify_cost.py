"""What the notification hook adds to a move: POST /games/{id}/actions timed in-process (Flask
test client, SQLite), with the hook off, on without contacts, and on with mail and webhooks.

    .venv/bin/python bench/bench_notify_cost.py [--moves 300]

The hook (service.notify.dispatch.after_change, called by recording.record_action) restarts the move
clock and writes the outbox rows in the move's own transaction; composing a mail per seat is the
main cost when contacts are set. Rounds alternate so that machine noise hits every variant.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import flask_migrate  # noqa: E402

from service import create_app
from service.games import changes  # noqa: E402
from tests.api.helpers import choose  # noqa: E402

VARIANTS = [("hook off", {}, False), ("hook on, no contact", {}, True),
            ("hook on, email per seat", {"email": "ann@example.org"}, True),
            ("hook on, email + webhook", {"email": "ann@example.org", "webhook_url": "http://127.0.0.1:9/x"}, True)]


def time_moves(client, contact: dict, moves: int) -> float:
    """Milliseconds per POST action over `moves` moves of fresh games."""
    done, spent = 0, 0.0
    while done < moves:
        created = client.post("/games", json={"name": "Ann", **contact}).get_json()
        game = f"/games/{created['game_id']}"
        joined = client.post(game + "/join", json={"invite_code": created["invite_code"], "name": "Bob",
                                                   **contact}).get_json()
        tokens, view = {0: created["token"], 1: joined["token"]}, joined["game"]
        while view["status"] != "finished" and done < moves:
            headers = {"Authorization": f"Bearer {tokens[view['to_move']]}"}
            mine = client.get(game, headers=headers).get_json()
            started = time.perf_counter()
            view = client.post(game + "/actions", json=choose(mine), headers=headers).get_json()
            spent += time.perf_counter() - started
            done += 1
    return 1000 * spent / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{directory}/bench.sqlite3",
                          "RATELIMIT_ENABLED": False, "TESTING": True})
        with app.app_context():
            flask_migrate.upgrade(directory=str(ROOT / "migrations"))
        client, hook = app.test_client(), changes.after_change
        results = {label: [] for label, _, _ in VARIANTS}
        for _ in range(options.rounds):
            for label, contact, on in VARIANTS:
                changes.after_change = hook if on else (lambda *args, **kwargs: None)
                results[label].append(time_moves(client, contact, options.moves))
        changes.after_change = hook
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"setup: Flask test client, SQLite, {options.moves} moves per variant and round, "
          f"{options.rounds} rounds; median ms per POST action")
    for label, figures in results.items():
        print(f"{label:26} {sorted(figures)[len(figures) // 2]:6.2f} ms")


if __name__ == "__main__":
    main()
