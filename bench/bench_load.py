"""The service under load, on SQLite and PostgreSQL: throughput, latency, scale, storage, memory.

    .venv/bin/python bench/bench_load.py [throughput] [scale] [storage] [--db sqlite,postgresql]
        [--clients 4] [--workers 2] [--worker-class gevent] [--seconds 10] [--small 1000] [--large 1000000]
        [--matches 10] [ratio --rounds 3 --before DIR --games anonymous,players,email]

- throughput: client processes play real games through gunicorn (GET the mover's view, POST its
  move); actions/s, requests/s and p50/p99 latency of each request kind; then the same clients
  hammer a bare Flask endpoint doing one locked read and one write on the same database (the
  floor: bench/floor_app.py, bench/floor_pg_app.py). Also the peak RSS (VmHWM) of every worker,
  and the database connections the workers' pools had out (gin_db_pool_in_use, scraped).
- scale: the same GET + POST latency with --small and then --large games stored (seeded in bulk:
  one transaction of executemany on SQLite, COPY on PostgreSQL), their ratio, and every statement
  of the request path explained (index or scan).
- storage: bytes stored per finished 100-point match, per table (SQLite dbstat after VACUUM;
  PostgreSQL pg_total_relation_size after VACUUM FULL), from --matches whole matches.
- ratio: actions/s / floor requests/s in --rounds rounds, the service (and, with --before DIR,
  the service of another source tree, e.g. a worktree of an older commit) and the floor run in
  turns, each ratio against its own round's floor; the spread over rounds, POST p50/p99, the
  workers' CPU time per action (and the floor's per request: a ratio that other work on a shared
  machine moves less), and the statements each kind of move takes (bench/move_statements.py)
  for each tree. --games plays games between two registered players (a rated challenge accepted)
  and games with an email on file for a seat, beside anonymous ones, each a ratio of its own.

PostgreSQL parts run when TEST_DATABASE_URL (or --pg-url) names a server; each run works in a
fresh schema and drops it. Rate limits are off. Figures only: nothing here asserts on time.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["RATELIMIT_ENABLED"] = "false"  # the bench measures the game path, not the limiter
# Games with an email on file (--games email) each ask their address to confirm: no caps on those.
for cap in ("CONFIRM_MAILS_PER_ADDRESS", "CONFIRM_MAILS_PER_CLIENT"):
    os.environ[cap] = "1000000000"

from bench.bench_api import call, hammer_floor  # noqa: E402
from tests.api.helpers import choose  # noqa: E402
from tests.conftest import launch_gunicorn, start_gunicorn, stop_gunicorn  # noqa: E402

PG_DEFAULT = os.environ.get("TEST_DATABASE_URL", "")
# A filler game is a real finished match's game row and seats, but only its first deals and
# events: a whole match's ~700 events each would make a million games some 180 GB. The lookups
# measured go through indexes on (game_id, ...), whose depth this many rows already sets.
FILLER_DEALS, FILLER_EVENTS = 2, 10


# -- databases -------------------------------------------------------------------------------

@contextmanager
def fresh_database(kind: str, directory: Path, pg_url: str):
    """(service URL, floor environment) for a new SQLite file or a new PostgreSQL schema."""
    if kind == "sqlite":
        path = directory / f"bench-{uuid.uuid4().hex[:6]}.sqlite3"
        yield f"sqlite:///{path}", ("floor_app:app", {"FLOOR_DATABASE": str(path)})
        return
    import sqlalchemy as sa
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    engine = sa.create_engine(pg_url)
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = f"{pg_url}{'&' if '?' in pg_url else '?'}options=-csearch_path%3D{schema}"
    try:
        yield url, ("floor_pg_app:app", {"FLOOR_DATABASE_URL": url})
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


def worker_pids(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


def cpu_seconds(master: int) -> float:
    """User + system CPU time used so far by the workers of a gunicorn master (/proc/<pid>/stat)."""
    total = 0.0
    for pid in worker_pids(master):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def database_cpu_seconds(kind: str) -> float:
    """User + system CPU time used so far by the PostgreSQL server: its live processes and the
    backends that have exited (counted in the postmaster's children's time). 0 for SQLite, which
    runs inside the workers."""
    if kind != "postgresql":
        return 0.0
    import pwd
    try:
        uid = pwd.getpwnam("postgres").pw_uid
    except KeyError:
        return 0.0
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        total += sum(int(fields[n]) for n in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")
    return total


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_service(url: str, workers: int, log_path, worker_class: str = "gevent"):
    """gunicorn on the service, with the worker class named (the Procfile's is gevent)."""
    return start_gunicorn(url, workers=workers, log_path=log_path, worker_class=worker_class)


# -- clients ------------------------------------------------------------------------------------

GAMES = ("anonymous", "players", "email")  # the kinds of game --games plays


def new_game(base_url: str, games: str) -> tuple[str, dict, int]:
    """(path, {seat: token}, seat to move) of a new started game of the kind named: two anonymous
    seats; two registered players, a rated challenge accepted (their player tokens open the
    seats); or anonymous seats, seat 0 with an email on file (not confirmed: nothing is mailed)."""
    if games == "players":
        names = [f"P{uuid.uuid4().hex[:12]}" for _ in range(2)]
        ann, bob = (call(base_url, "POST", "/players", {"name": name}, expect=201)["token"] for name in names)
        offer = call(base_url, "POST", "/challenges", {"to": names[1], "rated": True}, token=ann, expect=201)
        accepted = call(base_url, "POST", f"/challenges/{offer['challenge_id']}/accept", token=bob, expect=201)
        path = f"/games/{accepted['game_id']}"
        tokens = {accepted["seat"]: bob, 1 - accepted["seat"]: ann}
        return path, tokens, call(base_url, "GET", path, token=bob)["to_move"]
    email = {"email": f"ann.{uuid.uuid4().hex[:12]}@example.org"} if games == "email" else {}
    created = call(base_url, "POST", "/games", {"name": "Ann", **email}, expect=201)
    joined = call(base_url, "POST", f"/games/{created['game_id']}/join",
                  {"invite_code": created["invite_code"], "name": "Bob"}, expect=201)
    return f"/games/{created['game_id']}", {0: created["token"], 1: joined["token"]}, joined["game"]["to_move"]


def play_timed(base_url: str, seconds: float, games_at_once: int, result, games: str = "anonymous") -> None:
    """Play whole games of the kind named (new_game) for `seconds`, timing every GET view and POST
    action (milliseconds)."""
    gets, posts = [], []
    started = time.perf_counter()
    deadline = started + seconds
    tables = []
    while time.perf_counter() < deadline:
        while len(tables) < games_at_once:
            tables.append(new_game(base_url, games))
        path, tokens, to_move = tables.pop(0)
        t0 = time.perf_counter()
        mine = call(base_url, "GET", path, token=tokens[to_move])
        t1 = time.perf_counter()
        view = call(base_url, "POST", f"{path}/actions", choose(mine), token=tokens[to_move])
        t2 = time.perf_counter()
        gets.append((t1 - t0) * 1000)
        posts.append((t2 - t1) * 1000)
        if view["status"] != "finished":
            tables.append((path, tokens, view["to_move"]))
    result.put((time.perf_counter() - started, gets, posts))


def run_players(base_url: str, clients: int, seconds: float, games_at_once: int = 3, games: str = "anonymous"):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    processes = [context.Process(target=play_timed, args=(base_url, seconds, games_at_once, queue, games))
                 for _ in range(clients)]
    for process in processes:
        process.start()
    results = [queue.get(timeout=seconds + 300) for _ in processes]
    for process in processes:
        process.join()
    elapsed = statistics.mean(r[0] for r in results)
    gets = [x for r in results for x in r[1]]
    posts = [x for r in results for x in r[2]]
    return elapsed, gets, posts


def run_floor(floor_url: str, clients: int, seconds: float) -> float:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    processes = [context.Process(target=hammer_floor, args=(floor_url, seconds, n, queue)) for n in range(clients)]
    for process in processes:
        process.start()
    rates = [queue.get(timeout=seconds + 300)[0] for _ in processes]
    for process in processes:
        process.join()
    return sum(rates)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


# -- throughput ---------------------------------------------------------------------------------

def throughput(kind: str, options, directory: Path) -> None:
    with fresh_database(kind, directory, options.pg_url) as (url, (floor_spec, floor_env)):
        process, base_url = start_service(url, options.workers, directory / f"{kind}.log", options.worker_class)
        try:
            with pool_sampled(base_url) as in_use:
                elapsed, gets, posts = run_players(base_url, options.clients, options.seconds)
            rss = [peak_rss_mb(pid) for pid in worker_pids(process.pid)]
        finally:
            stop_gunicorn(process)
        import requests
        floor, floor_url = launch_gunicorn(
            floor_spec, floor_env, cwd=ROOT / "bench", workers=options.workers,
            ready=lambda u: requests.post(u + "/bump/0", timeout=5).status_code == 200,
            log_path=directory / f"{kind}-floor.log", worker_class=options.worker_class)
        try:
            floor_rate = run_floor(floor_url, options.clients, options.seconds)
        finally:
            stop_gunicorn(floor)
    actions = len(posts) / elapsed
    requests_rate = (len(posts) + len(gets)) / elapsed
    workers = f"{options.worker_class} workers"
    print(f"\n[{kind}] throughput: gunicorn {options.workers} {workers}, {options.clients} client processes, "
          f"{options.seconds:g} s")
    print(f"  game:   {actions:7.1f} actions/s, {requests_rate:7.1f} requests/s (GET view + POST action per move)")
    print(f"          POST action p50 {percentile(posts, 50):6.1f} ms  p99 {percentile(posts, 99):6.1f} ms"
          f"   ({len(posts)} actions)")
    print(f"          GET view    p50 {percentile(gets, 50):6.1f} ms  p99 {percentile(gets, 99):6.1f} ms")
    print(f"  floor:  {floor_rate:7.1f} requests/s (one locked read + one write, same database, "
          f"{options.workers} sync workers)")
    print(f"  ratio:  game requests/s / floor = {requests_rate / floor_rate:.2f}   "
          f"actions/s / floor = {actions / floor_rate:.2f}   (target for the game endpoint: 0.60)")
    print(f"  worker peak RSS (VmHWM): {', '.join(f'{r:.0f} MB' for r in rss)}   (target: 150 MB or less)")
    if in_use:
        print(f"  database connections in use, all workers (gin_db_pool_in_use, {len(in_use)} scrapes): "
              f"mean {statistics.mean(in_use):.1f}, most {max(in_use):.0f}; per worker at most "
              f"{max(in_use) / options.workers:.1f} of DB_POOL_SIZE + DB_MAX_OVERFLOW")


@contextmanager
def pool_sampled(base_url: str, every: float = 0.25):
    """gin_db_pool_in_use (the workers' pools, each sampled by its worker every second), scraped
    every `every` seconds while the block runs: the list of values, filled as it goes."""
    import threading

    import requests
    from prometheus_client.parser import text_string_to_metric_families
    values, done = [], threading.Event()

    def scrape():
        while not done.wait(every):
            try:
                text = requests.get(base_url + "/metrics", timeout=5).text
            except requests.RequestException:
                continue
            values.extend(sample.value for family in text_string_to_metric_families(text)
                          for sample in family.samples if sample.name == "gin_db_pool_in_use")
    thread = threading.Thread(target=scrape, daemon=True)
    thread.start()
    try:
        yield values
    finally:
        done.set()
        thread.join()


# -- ratio: the move path against the floor, alternating ------------------------------------------

def serve_tree(root: Path, url: str, options, log_path):
    """gunicorn on the service of the source tree at `root` (this one, or a worktree of an older
    commit to compare), its database migrated first by that tree's own CLI."""
    import requests
    env = {"DATABASE_URL": url}
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"], cwd=root,
                   env={**os.environ, **env}, check=True, capture_output=True)
    return launch_gunicorn("service:create_app()", env,
                           lambda u: requests.get(u + "/health", timeout=5).status_code == 200,
                           workers=options.workers, log_path=log_path, cwd=root, worker_class=options.worker_class)


def statements_per_move(root: Path, kind: str, pg_url: str) -> dict:
    """bench/move_statements.py run on the tree at `root`: {kind: [fewest, most, moves]}."""
    command = [sys.executable, str(ROOT / "bench" / "move_statements.py"), "--root", str(root), "--matches", "1"]
    if kind == "postgresql":
        command += ["--db-url", pg_url]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def ratio(kind: str, options, directory: Path) -> None:
    """actions/s / floor requests/s, in --rounds rounds; in each, every tree's service (with each
    kind of game of --games) and the floor run one after another (the order turned each round), so
    drift on a shared machine falls on all alike, and each ratio divides by the floor of its own round."""
    import requests
    trees = [("after", ROOT)] + ([("before", Path(options.before))] if options.before else [])
    runs = [(f"{name} {games}", root, games) for name, root in trees for games in options.games]
    figures = {name: {"ratios": [], "actions": [], "posts": [], "cpu": [], "db_cpu": []} for name, _, _ in runs}
    floors, floor_cpu, floor_db_cpu = [], [], []
    with contextlib.ExitStack() as stack:
        urls = {name: stack.enter_context(fresh_database(kind, directory, options.pg_url)) for name, _, _ in runs}
        _, (floor_spec, floor_env) = urls[runs[0][0]]
        for round_number in range(options.rounds):
            order = runs if round_number % 2 == 0 else runs[::-1]
            rates = {}
            for name, root, games in order:
                log = directory / f"{kind}-{name.replace(' ', '-')}.log"
                process, base_url = serve_tree(root, urls[name][0], options, log)
                try:
                    used, db_used = cpu_seconds(process.pid), database_cpu_seconds(kind)
                    elapsed, _, posts = run_players(base_url, options.clients, options.seconds, games=games)
                    used, db_used = cpu_seconds(process.pid) - used, database_cpu_seconds(kind) - db_used
                finally:
                    stop_gunicorn(process)
                rates[name] = len(posts) / elapsed
                figures[name]["cpu"].append(used / len(posts) * 1000)  # ms of worker CPU per action
                figures[name]["db_cpu"].append(db_used / len(posts) * 1000)  # and of the database server's
                figures[name]["actions"].append(rates[name])
                figures[name]["posts"].extend(posts)
            floor, floor_url = launch_gunicorn(
                floor_spec, floor_env, cwd=ROOT / "bench", workers=options.workers,
                ready=lambda u: requests.post(u + "/bump/0", timeout=5).status_code == 200,
                log_path=directory / f"{kind}-floor.log", worker_class=options.worker_class)
            try:
                used, db_used = cpu_seconds(floor.pid), database_cpu_seconds(kind)
                floors.append(run_floor(floor_url, options.clients, options.seconds))
                floor_cpu.append((cpu_seconds(floor.pid) - used) / (floors[-1] * options.seconds) * 1000)
                floor_db_cpu.append((database_cpu_seconds(kind) - db_used) / (floors[-1] * options.seconds) * 1000)
            finally:
                stop_gunicorn(floor)
            for name in rates:
                figures[name]["ratios"].append(rates[name] / floors[-1])
    print(f"\n[{kind}] move path vs floor: gunicorn {options.workers} {options.worker_class} workers, "
          f"{options.clients} client processes, {options.rounds} rounds of {options.seconds:g} s each (service"
          f"{' before, after' if options.before else ''}, games {', '.join(options.games)}, and floor, alternating)")
    print(f"  floor:  {statistics.mean(floors):7.1f} requests/s  (rounds: {', '.join(f'{f:.0f}' for f in floors)}); "
          f"worker CPU {statistics.mean(floor_cpu):.3f} ms per request"
          + (f", database server CPU {statistics.mean(floor_db_cpu):.3f} ms" if kind == "postgresql" else ""))
    for name, root, games in runs:
        each = figures[name]
        print(f"  {name:16}  actions/s / floor = {statistics.mean(each['ratios']):.3f}  "
              f"(rounds: {', '.join(f'{r:.3f}' for r in each['ratios'])}; spread {min(each['ratios']):.3f}-"
              f"{max(each['ratios']):.3f})   {statistics.mean(each['actions']):6.1f} actions/s   "
              f"POST p50 {percentile(each['posts'], 50):5.1f} ms  p99 {percentile(each['posts'], 99):6.1f} ms  ({root})")
        # CPU time is less moved than throughput by other work on a shared machine: the same
        # ratio in the workers' CPU alone (the clients' share left out), floor ms / action ms.
        print(f"          worker CPU per action {statistics.mean(each['cpu']):.2f} ms (rounds: "
              f"{', '.join(f'{c:.2f}' for c in each['cpu'])}); floor's CPU per request / this = "
              f"{statistics.mean(floor_cpu) / statistics.mean(each['cpu']):.3f}")
        if kind == "postgresql":
            print(f"          database server CPU per action {statistics.mean(each['db_cpu']):.2f} ms (rounds: "
                  f"{', '.join(f'{c:.2f}' for c in each['db_cpu'])}); floor's per request / this = "
                  f"{statistics.mean(floor_db_cpu) / statistics.mean(each['db_cpu']):.3f}")
    for name, root in trees:
        counts = statements_per_move(root, kind, options.pg_url)
        print(f"  {name:6}  statements per move (anonymous games): " + ", ".join(
            f"{k} {low if low == high else f'{low}-{high}'}" for k, (low, high, _) in counts.items()))


# -- scale ----------------------------------------------------------------------------------------

def template_rows(url: str) -> dict:
    """One real finished match (played in-process), as rows to copy for filler games."""
    from service import create_app
    from service.core.extensions import db
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    client = app.test_client()
    # Both seats with an email (and the default move clock): filler games carry contact and clock
    # rows like real ones, so those lookups meet full tables too.
    created = client.post("/games", json={"name": "Ann", "rules": {"target": 100},
                                          "email": "ann@example.org"}).get_json()
    joined = client.post(f"/games/{created['game_id']}/join", json={
        "invite_code": created["invite_code"], "name": "Bob", "email": "bob@example.org"}).get_json()
    game = {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]}}
    for _ in range(5000):
        seen = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens'][0]}"}).get_json()
        if seen["status"] == "finished":
            break
        seat = seen["to_move"]
        mine = seen if seat == 0 else client.get(
            f"/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens'][1]}"}).get_json()
        client.post(f"/games/{game['id']}/actions", json=choose(mine),
                    headers={"Authorization": f"Bearer {game['tokens'][seat]}"})
    rows = {}
    with app.app_context():
        for table, keep in (("games", 1), ("seats", 2), ("deals", FILLER_DEALS), ("events", FILLER_EVENTS),
                            ("game_clocks", 1), ("contacts", 2)):
            key = "id" if table == "games" else "game_id"
            order = f" ORDER BY {'hand' if table == 'deals' else 'seq'}" if table in ("deals", "events") else ""
            result = db.session.execute(db.text(f"SELECT * FROM {table} WHERE {key} = :id{order}"),
                                        {"id": game["id"]})
            rows[table] = (list(result.keys()), [list(r) for r in result][:keep])
        db.session.rollback()
        db.engine.dispose()
    return rows


def seed(url: str, first: int, count: int, template: dict) -> float:
    """Add `count` finished games (copies of the template with fresh ids and token hashes) in bulk."""
    import hashlib
    import sqlalchemy as sa
    started = time.perf_counter()
    engine = sa.create_engine(url)
    sqlite = url.startswith("sqlite")
    batch = 20_000
    with engine.begin() as connection:
        raw = connection.connection.dbapi_connection
        cursor = raw.cursor()
        for offset in range(first, first + count, batch):
            rows = {table: [] for table in template}
            for n in range(offset, min(first + count, offset + batch)):
                game_id = f"seed{n:018d}"
                for table, (columns, values) in template.items():
                    for row in values:
                        row = dict(zip(columns, row))
                        if table == "games":
                            row["id"] = game_id
                        else:
                            row["game_id"] = game_id
                            row.pop("id", None)
                        if table == "contacts":
                            row["webhook_secret"] = None
                        if table == "seats":
                            row["token_hash"] = hashlib.sha256(f"{game_id}:{row['seat']}".encode()).hexdigest()
                            # No stored view (a GET of a filler game computes it): a million
                            # finished views would be some 12 GB, and no request measured reads them.
                            row["view_version"] = row["view_body"] = None
                        rows[table].append(row)
            for table, records in rows.items():
                columns = list(records[0])
                if sqlite:
                    marks = ", ".join("?" for _ in columns)
                    cursor.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                                       [[_plain(r[c]) for c in columns] for r in records])
                else:
                    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                        for record in records:
                            copy.write_row([_plain(record[c]) for c in columns])
    if not sqlite:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(sa.text("VACUUM ANALYZE"))  # now, not by autovacuum during the timing
    engine.dispose()
    return time.perf_counter() - started


def _plain(value):
    return json.dumps(value) if isinstance(value, (dict, list)) else value


def request_path_plans(url: str) -> list[tuple[str, str]]:
    """Every statement one GET view + one POST action runs, with its query plan."""
    import sqlalchemy as sa
    from service import create_app
    from service.core.extensions import db
    from tests.api.helpers import new_game
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    client = app.test_client()
    game = new_game(client)
    captured = []
    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute",
                        lambda conn, cur, stmt, params, ctx, many: captured.append((stmt, params[0] if many else params)))
    seen = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens'][0]}"}).get_json()
    seat = seen["to_move"]
    mine = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens'][seat]}"}).get_json()
    captured.clear()
    client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens'][seat]}"})
    client.post(f"/games/{game['id']}/actions", json=choose(mine),
                headers={"Authorization": f"Bearer {game['tokens'][seat]}"})
    plans = []
    with app.app_context():
        raw = db.engine.raw_connection()
        try:
            cursor = raw.cursor()
            for statement, params in captured:
                if not statement.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE")):
                    continue
                explain = "EXPLAIN QUERY PLAN " if url.startswith("sqlite") else "EXPLAIN "
                cursor.execute(explain + statement, params)
                plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
                plans.append((" ".join(statement.split())[:90], plan))
            raw.rollback()
        finally:
            raw.close()
        db.engine.dispose()
    return plans


def scale(kind: str, options, directory: Path) -> None:
    """Two databases, one with --small and one with --large filler games; measured in turns
    (small, large, small, large) so that drift on the machine falls on both alike."""
    from tests.conftest import migrate
    with fresh_database(kind, directory, options.pg_url) as (small_url, _), \
            fresh_database(kind, directory, options.pg_url) as (large_url, _):
        seeded = {}
        for url, count in ((small_url, options.small), (large_url, options.large)):
            migrate({"SQLALCHEMY_DATABASE_URI": url})
            seeded[count] = seed(url, 0, count, template_rows(url))
        samples = {options.small: ([], []), options.large: ([], [])}
        for _ in range(2):
            for url, count in ((small_url, options.small), (large_url, options.large)):
                process, base_url = start_gunicorn(url, workers=options.workers,
                                                   log_path=directory / f"{kind}-scale.log")
                try:
                    _, gets, posts = run_players(base_url, 1, options.seconds / 2, games_at_once=4)
                finally:
                    stop_gunicorn(process)
                samples[count][0].extend(gets)
                samples[count][1].extend(posts)
        plans = request_path_plans(large_url)
    print(f"\n[{kind}] scale: one client, GET view + POST action on live games, next to filler games "
          f"(each a finished match: its game, seats, clock, contacts, first {FILLER_DEALS} deals, "
          f"first {FILLER_EVENTS} events)")
    for count, (gets, posts) in samples.items():
        print(f"  {count:>9,} games: GET p50 {percentile(gets, 50):5.1f} ms, POST p50 {percentile(posts, 50):5.1f} ms, "
              f"p99 {percentile(posts, 99):5.1f} ms ({len(posts)} actions; seeded in {seeded[count]:.0f} s)")
    (small_gets, small_posts), (large_gets, large_posts) = samples[options.small], samples[options.large]
    print(f"  ratio {options.large:,} / {options.small:,}: GET {percentile(large_gets, 50) / percentile(small_gets, 50):.2f}, "
          f"POST {percentile(large_posts, 50) / percentile(small_posts, 50):.2f}   (target: 1.2 or better)")
    scans = [(s, p) for s, p in plans if ("SCAN" in p and "USING" not in p and "SEARCH" not in p)
             or "Seq Scan" in p]
    print(f"  request path ({options.large:,} games): {len(plans)} statements explained, "
          f"{len(scans)} without an index" + (f" ({'; '.join(p[:40] for _, p in scans)})" if scans else ""))
    for statement, plan in plans:
        print(f"    {plan[:70]:70}  {statement}")


# -- storage --------------------------------------------------------------------------------------

def table_bytes(url: str) -> dict[str, int]:
    import sqlalchemy as sa
    engine = sa.create_engine(url)
    sizes = {}
    if url.startswith("sqlite"):
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM")
            for name, size in connection.exec_driver_sql("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
                sizes[name] = size
    else:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM FULL")  # drop the dead row versions every UPDATE leaves
            tables = connection.exec_driver_sql(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").scalars().all()
            for table in tables:
                sizes[table] = connection.exec_driver_sql(
                    f"SELECT pg_total_relation_size('{table}')").scalar()
    engine.dispose()
    return sizes


def storage(kind: str, options, directory: Path) -> None:
    from service import create_app
    from tests.api.helpers import new_game
    from tests.conftest import migrate
    with fresh_database(kind, directory, options.pg_url) as (url, _):
        migrate({"SQLALCHEMY_DATABASE_URI": url})
        before = table_bytes(url)
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
        client = app.test_client()
        moves = hands = 0
        for _ in range(options.matches):
            game = new_game(client, rules={"target": 100})
            while True:
                seen = client.get(f"/games/{game['id']}",
                                  headers={"Authorization": f"Bearer {game['tokens'][0]}"}).get_json()
                if seen["status"] == "finished":
                    hands += seen["hand_number"]
                    break
                seat = seen["to_move"]
                mine = seen if seat == 0 else client.get(
                    f"/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens'][1]}"}).get_json()
                assert client.post(f"/games/{game['id']}/actions", json=choose(mine),
                                   headers={"Authorization": f"Bearer {game['tokens'][seat]}"}).status_code == 200
                moves += 1
        from service.core.extensions import db
        with app.app_context():
            db.engine.dispose()
        after = table_bytes(url)
    grown = {name: after.get(name, 0) - before.get(name, 0) for name in after}
    total = sum(v for v in grown.values() if v > 0)
    print(f"\n[{kind}] storage: {options.matches} finished matches to 100 points "
          f"({hands / options.matches:.1f} hands, {moves / options.matches:.0f} actions per match on average)")
    print(f"  bytes per match: {total / options.matches:,.0f} (tables and their indexes)")
    for name, size in sorted(grown.items(), key=lambda kv: -kv[1]):
        if size > 0:
            print(f"    {name:40} {size / options.matches:10,.0f}")


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, load average {load:.1f} at start"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", default=["throughput", "scale", "storage"],
                        help="throughput, scale, storage, ratio (default: the first three)")
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--pg-url", default=PG_DEFAULT)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", choices=["gevent", "sync", "gthread"], default="gevent",
                        help="gunicorn's worker class: gevent is the Procfile's (service/core/server.py)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="ratio: rounds of service(s) and floor")
    parser.add_argument("--games", type=lambda text: text.split(","), default=["anonymous"],
                        help=f"ratio: the kinds of game played, of {', '.join(GAMES)} (comma-separated)")
    parser.add_argument("--before", default="", help="ratio: a source tree to compare with this one "
                        "(e.g. git worktree add /tmp/before <commit>)")
    options = parser.parse_args()
    unknown = set(options.parts) - {"throughput", "scale", "storage", "ratio"}
    if unknown:
        parser.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    kinds = [k for k in options.db.split(",") if k == "sqlite" or (k == "postgresql" and options.pg_url)]
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {machine()}")
    if "postgresql" in options.db and not options.pg_url:
        print("PostgreSQL skipped: set TEST_DATABASE_URL or --pg-url")
    with tempfile.TemporaryDirectory() as directory:
        for part in options.parts:
            for kind in kinds:
                {"throughput": throughput, "scale": scale, "storage": storage,
                 "ratio": ratio}[part](kind, options, Path(directory))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
