"""Statements per move, by kind, counted with SQLAlchemy's before_cursor_execute while whole
matches are played in process (PostgreSQL's wake-up NOTIFY counts as the statement it is).

    .venv/bin/python bench/move_statements.py [--root DIR] [--db-url URL] [--matches 2] [--games anonymous]

--games: anonymous (the default), email (seat 0 gave an address, unconfirmed: nothing is mailed)
or players (a challenge between two registered players, accepted), each set up through the HTTP
API only, so that an older tree (--root) is set up the same way.

--root: the source tree whose service is counted (default: this one; bench_load.py passes a
worktree of an older commit to compare). Without --db-url, a fresh SQLite file. Prints one line
per kind (draw, discard, pass, knock, a hand's end, each with a key too) and, last, the same as
JSON for bench_load.py.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import uuid
from collections import defaultdict
from pathlib import Path


def kind_of(action: dict, before: dict, after: dict, key: bool) -> str:
    ended = after["status"] == "finished" or after["hand_number"] != before["hand_number"]
    return action["type"] + (" (hand end)" if ended else "") + (" with a key" if key else "")


def made_game(client, games: str, number: int) -> dict:
    """A new game of the kind asked for, as tests.api.helpers' games are: {"id", "tokens": {seat: token}}."""
    from tests.api.helpers import new_game
    if games == "anonymous":
        return new_game(client, rules={"target": 100})
    if games == "email":
        game = new_game(client, rules={"target": 100})
        answer = client.patch(f"/games/{game['id']}/contact", json={"email": f"ann{number}@example.org"},
                              headers={"Authorization": f"Bearer {game['tokens'][0]}"})
        assert answer.status_code == 200, answer.get_json()
        return game
    assert games == "players", games
    ann, bob = (client.post("/players", json={"name": f"{name}{number}"}).get_json() for name in ("Ann", "Bob"))
    offer = client.post("/challenges", json={"to": f"Bob{number}", "rules": {"target": 100}},
                        headers={"Authorization": f"Bearer {ann['token']}"}).get_json()
    answer = client.post(f"/challenges/{offer['challenge_id']}/accept",
                         headers={"Authorization": f"Bearer {bob['token']}"}).get_json()
    return {"id": answer["game_id"], "tokens": {answer["seat"]: bob["token"], 1 - answer["seat"]: ann["token"]}}


def count(url: str, matches: int, engine_options: dict | None = None, games: str = "anonymous") -> dict[str, list[int]]:
    from sqlalchemy import event

    import service
    from service import create_app
    # A tree from before the layout of issue 23 (--root) has its extensions at the top: asked by
    # file, since the project's editable install would find this tree's service.core for it.
    if (Path(service.__file__).parent / "core" / "extensions.py").exists():
        from service.core.extensions import db
    else:
        from service.extensions import db
    from tests.api.helpers import act, choose, mover
    from tests.conftest import migrate
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": False,
              **({"SQLALCHEMY_ENGINE_OPTIONS": engine_options} if engine_options else {})}
    migrate(config)
    app = create_app(config)
    client = app.test_client()
    statements: list[str] = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    by_kind = defaultdict(list)
    moves = 0
    for number in range(matches):
        game = made_game(client, games, number)
        while True:
            seat, mine = mover(client, game)
            if mine["status"] == "finished":
                break
            action, key = choose(mine), moves % 5 == 4  # every fifth move with an Idempotency-Key
            statements.clear()
            response = act(client, game, seat, action, **({"Idempotency-Key": f"k{moves}"} if key else {}))
            assert response.status_code == 200, response.get_json()
            by_kind[kind_of(action, mine, response.get_json(), key)].append(len(statements))
            moves += 1
    with app.app_context():
        db.engine.dispose()
    return dict(by_kind)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--db-url", default="")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--games", choices=("anonymous", "email", "players"), default="anonymous")
    options = parser.parse_args()
    sys.path.insert(0, options.root)
    os.chdir(options.root)
    os.environ["RATELIMIT_ENABLED"] = "false"
    with tempfile.TemporaryDirectory() as directory:
        url, engine_options, drop = options.db_url or f"sqlite:///{directory}/count.sqlite3", None, None
        if url.startswith("postgresql"):
            import sqlalchemy as sa
            schema = f"count_{uuid.uuid4().hex[:10]}"
            admin = sa.create_engine(url)
            with admin.begin() as connection:
                connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
            engine_options = {"connect_args": {"options": f"-csearch_path={schema}"}}

            def drop():
                with admin.begin() as connection:
                    connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()
        try:
            counts = count(url, options.matches, engine_options, options.games)
        finally:
            if drop:
                drop()
    summary = {kind: [min(values), max(values), len(values)] for kind, values in sorted(counts.items())}
    for kind, (low, high, moves) in summary.items():
        print(f"  {kind:28} {low if low == high else f'{low}-{high}':>5} statements  ({moves} moves)")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
