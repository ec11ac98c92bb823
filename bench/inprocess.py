"""GET view + POST action in process, through the Flask test client: CPU time (time.process_time)
per request, no gunicorn and no client processes; optionally a cProfile of either.

    cd <source tree> && /path/to/.venv/bin/python /path/to/bench/inprocess.py [N] [prof [get|post] [tottime|cumulative]]

The tree whose service is measured is the current directory's (run it from a checkout of an older
commit to compare). URL=postgresql+psycopg://... measures on PostgreSQL (a fresh schema, dropped
after); else a fresh SQLite file. Three games are played in turns by the tests' simple policy.
Figures only."""
import cProfile, io, json, os, pstats, sys, tempfile, time, uuid
from pathlib import Path
sys.path.insert(0, os.getcwd())
os.environ["RATELIMIT_ENABLED"] = os.environ.get("RATELIMIT_ENABLED", "false")
from service import create_app
from tests.api.helpers import choose
from tests.conftest import migrate

url = os.environ.get("URL") or f"sqlite:///{tempfile.mkdtemp()}/p.sqlite3"
config = {"SQLALCHEMY_DATABASE_URI": url}
if url.startswith("postgresql"):
    import sqlalchemy as sa
    schema = f"prof_{uuid.uuid4().hex[:8]}"
    eng = sa.create_engine(url)
    with eng.begin() as c: c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={schema}"}}
migrate(config)
app = create_app(config)
client = app.test_client()

def newgame():
    c = client.post("/games", json={"name": "Ann"}).get_json()
    j = client.post(f"/games/{c['game_id']}/join", json={"invite_code": c["invite_code"], "name": "Bob"}).get_json()
    return [f"/games/{c['game_id']}", {0: c["token"], 1: j["token"]}, j["game"]["to_move"]]

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
tables = [newgame() for _ in range(3)]
gt = pt = 0.0
prof = cProfile.Profile(time.process_time) if "prof" in sys.argv else None  # CPU time, not waiting
moves = 0
for i in range(N):
    t = tables.pop(0)
    path, tokens, to_move = t
    h = {"Authorization": f"Bearer {tokens[to_move]}"}
    t0 = time.process_time()
    if prof and "post" not in sys.argv: prof.enable()
    r = client.get(path, headers=h)
    if prof and "post" not in sys.argv: prof.disable()
    t1 = time.process_time()
    mine = json.loads(r.data)
    body = json.dumps(choose(mine))
    t2 = time.process_time()
    if prof and "get" not in sys.argv: prof.enable()
    r = client.post(path + "/actions", data=body, headers={**h, "Content-Type": "application/json"})
    if prof and "get" not in sys.argv: prof.disable()
    t3 = time.process_time()
    assert r.status_code == 200, r.data
    gt += t1 - t0; pt += t3 - t2
    v = json.loads(r.data)
    if v["status"] != "finished":
        tables.append([path, tokens, v["to_move"]])
    else:
        tables.append(newgame())
if url.startswith("postgresql"):
    import service
    if (Path(service.__file__).parent / "core" / "extensions.py").exists():
        from service.core.extensions import db
    else:  # a tree from before the layout of issue 23 (asked by file: see move_statements.py)
        from service.extensions import db
    with app.app_context():
        db.engine.dispose()
    with eng.begin() as c:
        c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
print(f"GET {gt/N*1000:.3f} ms  POST {pt/N*1000:.3f} ms  per request (test client, in process, {url.split(':')[0]})")
if prof:
    s = io.StringIO(); pstats.Stats(prof, stream=s).sort_stats(sys.argv[-1] if sys.argv[-1] in ("tottime","cumulative") else "cumulative").print_stats(70); print(s.getvalue())
