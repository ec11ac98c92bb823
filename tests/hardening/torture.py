"""A hostile load for a real gunicorn: client processes that race, repeat and play out of turn,
and the checks that a database survived it (used by the concurrency and crash-safety tests).

Every client process logs every request it made and every answer it got; `check_games` then
compares those logs with what the database holds.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import time
import uuid
from collections import defaultdict
from contextlib import contextmanager

ALLOWED_REFUSALS = {  # what a loser of a race, a stale or out-of-turn request may be told
    409: {"not-your-turn", "game-over"},
    412: {"version-mismatch"},
    422: {"wrong-phase", "card-not-in-hand", "cannot-discard-taken-card", "idempotency-key-reused",
          "knock-required", "deadwood-over-limit"},
}


# -- the database under test -----------------------------------------------------------------

@contextmanager
def database_url(kind: str, tmp_path):
    """A fresh database: a SQLite file, or a new schema on TEST_DATABASE_URL (dropped after)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'torture.sqlite3'}"
        return
    import sqlalchemy as sa
    base = os.environ["TEST_DATABASE_URL"]
    schema = f"torture_{uuid.uuid4().hex[:10]}"
    engine = sa.create_engine(base)
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        separator = "&" if "?" in base else "?"
        yield f"{base}{separator}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


def reader_app(url: str):
    from service import create_app
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})


# -- HTTP --------------------------------------------------------------------------------------

def call(base_url: str, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    """One request on a fresh connection (gunicorn's sync workers close it after each answer)."""
    host, port = base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        sent = dict(headers or {})
        if body is not None:
            sent["Content-Type"] = "application/json"
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
        response = connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else {})
    finally:
        connection.close()


def start_games(base_url: str, count: int) -> list[dict]:
    games = []
    for _ in range(count):
        status, created = call(base_url, "POST", "/games", {"name": "Ann", "rules": {"target": 50}})
        assert status == 201, created
        status, joined = call(base_url, "POST", f"/games/{created['game_id']}/join",
                              {"invite_code": created["invite_code"], "name": "Bob"})
        assert status == 201, joined
        games.append({"id": created["game_id"], "tokens": {"0": created["token"], "1": joined["token"]}})
    return games


# -- one client process -------------------------------------------------------------------------

def torture(base_url: str, games: list[dict], rounds: int, worker: int, barrier, out_path: str,
            always_keyed: bool = False) -> None:
    """Every round, at once with the other processes: look at each game and then either race for
    the move (often the same move as the others, under a shared Idempotency-Key), repeat an
    earlier request, play as the seat that is not to move, or send a stale If-Match.
    With always_keyed, every move carries a key and a dropped connection is retried with it
    (the crash test: a retry must return the first answer, never apply twice)."""
    from tests.api.helpers import canonical, choose

    rng = random.Random(worker * 7919)
    log, sent_before = [], []

    def send(game, seat, action, headers, kind, replay=False):
        path = f"/games/{game['id']}/actions"
        full = {"Authorization": f"Bearer {game['tokens'][str(seat)]}", **headers}
        for attempt in range(20):
            try:
                status, body = call(base_url, "POST", path, action, full)
                break
            except (ConnectionError, http.client.HTTPException, OSError):
                if not always_keyed or "Idempotency-Key" not in headers:
                    log.append({"game": game["id"], "seat": seat, "action": action, "headers": headers,
                                "kind": kind, "replay": replay, "status": None, "body": None})
                    return
                time.sleep(0.05 * (attempt + 1))  # the worker died under us: retry the same request
        else:
            raise AssertionError("the service stopped answering")
        log.append({"game": game["id"], "seat": seat, "action": action, "headers": headers, "kind": kind,
                    "replay": replay, "status": status, "body": body, "time": time.monotonic(),
                    "retries": attempt})
        if "Idempotency-Key" in headers:
            sent_before.append((game, seat, action, headers))

    for _ in range(rounds):
        if barrier is not None:
            barrier.wait(timeout=120)
        for game in games:
            try:
                status, seen = call(base_url, "GET", f"/games/{game['id']}",
                                    headers={"Authorization": f"Bearer {game['tokens']['0']}"})
            except (ConnectionError, http.client.HTTPException, OSError):
                continue
            assert status == 200, (status, seen)
            log.append({"game": game["id"], "kind": "read", "status": 200, "version": seen["version"]})
            if seen["status"] == "finished":
                continue
            seat = seen["to_move"]
            if seat != 0:
                try:
                    status, seen = call(base_url, "GET", f"/games/{game['id']}",
                                        headers={"Authorization": f"Bearer {game['tokens']['1']}"})
                except (ConnectionError, http.client.HTTPException, OSError):
                    continue
                assert status == 200, (status, seen)
                if seen["to_move"] != 1:
                    continue  # it moved on between the two reads
            roll = rng.random()
            legal = seen["legal_actions"]
            if roll < 0.55 or not legal:
                action = choose(seen) if rng.random() < 0.75 else rng.choice(legal)
                headers = {}
                if always_keyed or rng.random() < 0.6:  # shared by every racer choosing this move
                    headers["Idempotency-Key"] = f"{seen['version']}:{canonical(action)}"
                if rng.random() < 0.5:
                    headers["If-Match"] = f'"{seen["version"]}"'
                send(game, seat, action, headers, "race")
            elif roll < 0.7 and sent_before:
                old_game, old_seat, old_action, old_headers = rng.choice(sent_before)
                send(old_game, old_seat, old_action, old_headers, "repeat", replay=True)
            elif roll < 0.85:
                action = rng.choice(legal)
                headers = {"Idempotency-Key": f"oot:{uuid.uuid4().hex}"} if always_keyed else {}
                send(game, 1 - seat, action, headers, "out-of-turn")
            else:
                action = choose(seen)
                headers = {"If-Match": f'"{max(2, seen["version"] - 1)}"'}
                if always_keyed:
                    headers["Idempotency-Key"] = f"stale:{uuid.uuid4().hex}"
                send(game, seat, action, headers, "stale")
    with open(out_path, "w") as out:
        json.dump(log, out)


def run_clients(base_url: str, games: list[dict], clients: int, rounds: int, tmp_path,
                always_keyed: bool = False, during=None) -> list[list[dict]]:
    """Run the client processes together; `during(processes)` runs meanwhile (e.g. a killer)."""
    import multiprocessing
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(clients)
    outputs = [tmp_path / f"client{n}.json" for n in range(clients)]
    processes = [context.Process(target=torture, args=(base_url, games, rounds, n, barrier, str(outputs[n]),
                                                       always_keyed)) for n in range(clients)]
    for process in processes:
        process.start()
    if during is not None:
        during(processes)
    for process in processes:
        process.join(timeout=600)
        assert process.exitcode == 0, f"a client process failed ({process.exitcode})"
    return [json.loads(path.read_text()) for path in outputs]


# -- the verdict ---------------------------------------------------------------------------------

def check_games(app, games: list[dict], logs: list[list[dict]], allow_unanswered: bool = False) -> dict:
    """What must hold after any load: see the module docstring of test_concurrency_torture.
    Returns counts for the test to assert that the load really raced."""
    from service.core.extensions import db
    from service.games.models import Deal, Event, Game
    from service.rules import Match
    from tests.api.helpers import replay

    answers = [entry for log in logs for entry in log if entry["kind"] != "read"]
    counts = defaultdict(int)
    for entry in answers:
        counts[entry["status"]] += 1
        status, body = entry["status"], entry["body"]
        assert status is None or status < 500, entry  # never a server error
        if status not in (None, 200):
            assert body["code"] in ALLOWED_REFUSALS.get(status, ()), entry
        if entry["kind"] == "out-of-turn" and status == 409:
            counts["out-of-turn refused"] += 1  # (one may land if the turn passed meanwhile)

    for game in games:
        with app.app_context():
            stored = db.session.get(Game, game["id"])
            db.session.expunge(stored)
            events = [(e.seq, e.seat, e.action) for e in
                      db.session.query(Event).filter_by(game_id=game["id"]).order_by(Event.seq)]
            decks = {d.hand: d.deck for d in db.session.query(Deal).filter_by(game_id=game["id"])}
            db.session.rollback()
        applied = [(seat, action) for _, seat, action in events if action is not None]
        # The history has no gap and no duplicate; every applied action moved the version by one.
        assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
        assert stored.version == 2 + len(applied), (stored.version, len(applied))
        # Every 200 names a version that some applied action produced, with that very action:
        # answers sharing a version are replays of one keyed request, with identical bodies.
        by_version = defaultdict(list)
        for entry in answers:
            if entry["game"] == game["id"] and entry["status"] == 200:
                by_version[entry["body"]["version"]].append(entry)
        for version, entries in by_version.items():
            assert 3 <= version <= stored.version, ("phantom version", version)
            seat, action = applied[version - 3]
            for entry in entries:
                assert (entry["seat"], entry["action"]) == (seat, action), ("wrong answer", version, entry)
                assert entry["body"] == entries[0]["body"]
            if len(entries) > 1:
                keys = {e["headers"].get("Idempotency-Key") for e in entries}
                assert len(keys) == 1 and None not in keys, ("applied twice", version, entries)
        # None lost: every applied action was answered 200 to whoever sent it (in the crash test
        # the killed requests were retried with their key, so the same holds).
        if not allow_unanswered:
            assert sorted(by_version) == list(range(3, stored.version + 1)), "an applied action went unanswered"
        # The log replays to the stored snapshot.
        rebuilt = replay(stored.rules, stored.first_dealer, {int(k): v for k, v in decks.items()}, applied)
        assert rebuilt == Match.from_dict(stored.state), f"game {game['id']} does not replay to its state"
        counts["applied"] += len(applied)

    # Versions only go forward: each client's fresh 200s and reads of one game never go back.
    for log in logs:
        moved, read = defaultdict(list), defaultdict(list)
        for entry in log:
            if entry["kind"] == "read":
                read[entry["game"]].append(entry["version"])
            elif entry["status"] == 200 and not entry["replay"]:
                moved[entry["game"]].append(entry["body"]["version"])
        for versions in moved.values():
            assert all(a < b for a, b in zip(versions, versions[1:])), versions
        for versions in read.values():
            assert all(a <= b for a, b in zip(versions, versions[1:])), versions
    return dict(counts)
