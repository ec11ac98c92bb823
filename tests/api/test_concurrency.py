"""Several processes submit conflicting moves for the same games at once: none is applied twice,
none is lost, and every game's log replays to its stored state."""
from __future__ import annotations

import json
import multiprocessing
from collections import defaultdict

from service.core.errors import ENGINE_CODES
from service.core.extensions import db
from service.games.models import Deal, Event, Game
from service.rules import Match

from .helpers import new_game, replay
from .race_worker import race

WORKERS, GAMES, ROUNDS = 4, 3, 12
RACE_CODES = (set(ENGINE_CODES) - {"invalid-action"}) | {"version-mismatch"}


def test_conflicting_moves_from_several_processes(client, app, db_config, tmp_path):
    games = [new_game(client) for _ in range(GAMES)]
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(WORKERS)
    outputs = [tmp_path / f"worker{n}.json" for n in range(WORKERS)]
    workers = [context.Process(target=race, args=(db_config, games, ROUNDS, n, barrier, str(outputs[n])))
               for n in range(WORKERS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
        assert worker.exitcode == 0
    answers = [entry for path in outputs for entry in json.loads(path.read_text())]

    # Losing racers are told why; nobody gets a server error.
    statuses = defaultdict(int)
    for entry in answers:
        statuses[entry["status"]] += 1
        if entry["status"] != 200:
            # A move chosen from a view that another racer made stale: refused by the rules or by
            # If-Match; never malformed, never a key reused for another body, never a 5xx.
            assert entry["status"] in (409, 412, 422), entry
            assert entry["body"]["code"] in RACE_CODES, entry
    assert statuses[200] >= GAMES * ROUNDS and sum(statuses.values()) > statuses[200]  # real conflicts

    for game in games:
        with app.app_context():
            stored = db.session.get(Game, game["id"])
            events = db.session.query(Event).filter_by(game_id=game["id"]).order_by(Event.seq).all()
            decks = {d.hand: d.deck for d in db.session.query(Deal).filter_by(game_id=game["id"])}
            applied = [(e.seat, e.action) for e in events if e.action is not None]
            assert [e.seq for e in events] == list(range(1, len(events) + 1))

            # Each applied action moved the version by exactly one (the join made it 2) ...
            assert stored.version == 2 + len(applied)
            # ... and was answered 200 with exactly that version; answers sharing a version are
            # replays of one request (same seat, key and body), never two applications.
            by_version = defaultdict(list)
            for entry in answers:
                if entry["game"] == game["id"] and entry["status"] == 200:
                    by_version[entry["body"]["version"]].append(entry)
            assert sorted(by_version) == list(range(3, stored.version + 1))  # none lost, none phantom
            for version, entries in by_version.items():
                seat, action = applied[version - 3]
                for entry in entries:
                    assert (entry["seat"], entry["action"]) == (seat, action)
                    assert entry["body"] == entries[0]["body"]
                if len(entries) > 1:
                    keys = {e["headers"].get("Idempotency-Key") for e in entries}
                    assert len(keys) == 1 and None not in keys

            # The log replays to the stored snapshot.
            rebuilt = replay(stored.rules, stored.first_dealer, decks, applied)
            assert rebuilt == Match.from_dict(stored.state)

    # Versions each worker saw in its successful answers strictly increase, game by game.
    for path in outputs:
        seen = defaultdict(list)
        for entry in json.loads(path.read_text()):
            if entry["status"] == 200:
                seen[entry["game"]].append(entry["body"]["version"])
        for versions in seen.values():
            assert all(a < b for a, b in zip(versions, versions[1:])), versions
