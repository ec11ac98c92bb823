"""A busy player's profile: the page and its three listings, timed in process (Flask test client)
for a player with N finished rated matches against 20 opponents (rows written straight into the
tables, so that N can be large), plus 20 games in play.

    cd <source tree> && /path/to/.venv/bin/python bench/bench_profile.py [N]

URL=postgresql+psycopg://... measures on PostgreSQL (a fresh schema, dropped after); else a fresh
SQLite file. Prints the median and the 95th percentile wall time of 40 requests each. Figures only."""
import json, os, statistics, sys, tempfile, time, uuid
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.getcwd())
os.environ["RATELIMIT_ENABLED"] = "false"
os.environ["LOG_LEVEL"] = "WARNING"  # no line per request
from service import create_app
from tests.conftest import migrate

url = os.environ.get("URL") or f"sqlite:///{tempfile.mkdtemp()}/p.sqlite3"
config = {"SQLALCHEMY_DATABASE_URI": url}
if url.startswith("postgresql"):
    import sqlalchemy as sa
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    eng = sa.create_engine(url)
    with eng.begin() as c: c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={schema}"}}
migrate(config)
app = create_app(config)
client = app.test_client()
N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

ann = client.post("/players", json={"name": "Ann"}).get_json()
rivals = [client.post("/players", json={"name": f"Rival{i}"}).get_json()["player"]["id"] for i in range(20)]
client.patch("/me", json={"public_games": True}, headers={"Authorization": f"Bearer {ann['token']}"})
with app.app_context():
    from service.core.extensions import db
    from service.games.models import Game, Seat
    from service.players.models import PlayerSeat, RatingChange
    start, rating = datetime(2030, 1, 1, tzinfo=timezone.utc), 1500.0
    for i in range(N + 20):
        finished = i < N
        game_id, rival, moment = uuid.uuid4().hex[:22], rivals[i % 20], start + timedelta(hours=i)
        view = json.dumps({"result": {"winner": i % 2, "reason": "target"} if finished else None,
                           "scores": {"games": [{"totals": [100 + i % 7, 40]}]}})
        db.session.add(Game(id=game_id, version=1, status="finished" if finished else "active", rules={},
                            state=None, created_at=moment, updated_at=moment))
        db.session.add_all([Seat(game_id=game_id, seat=0, name="Ann", view_body=view),
                            Seat(game_id=game_id, seat=1, name=f"Rival{i % 20}", view_body=view),
                            PlayerSeat(game_id=game_id, seat=0, player_id=ann["player"]["id"]),
                            PlayerSeat(game_id=game_id, seat=1, player_id=rival)])
        if finished:
            after = rating + (12 if i % 2 == 0 else -11)
            db.session.add(RatingChange(game_id=game_id, player_id=ann["player"]["id"], opponent_id=rival,
                                        score=1.0 if i % 2 == 0 else 0.0, value_before=rating, value_after=after,
                                        deviation_after=60, volatility_after=0.06, created_at=moment))
            rating = after
        if i % 500 == 0:
            db.session.flush()
    db.session.commit()


def timed(path: str, headers: dict) -> tuple[float, float]:
    times = []
    for _ in range(40):
        t0 = time.perf_counter()
        response = client.get(path, headers=headers)
        times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, response.data[:300]
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


kind = url.split(":")[0]
print(f"# {N} rated matches, 20 opponents, 20 games in play; {kind}; load average {os.getloadavg()[0]:.1f}")
print(f"# cd <tree> && {'URL=' + kind + '... ' if kind != 'sqlite' else ''}.venv/bin/python bench/bench_profile.py {N}")
for label, path, headers in (("profile page (HTML)", "/players/Ann", {"Accept": "text/html"}),
                             ("GET /players/Ann/rating-history?limit=200", "/players/Ann/rating-history?limit=200", {}),
                             ("GET /players/Ann/record", "/players/Ann/record", {}),
                             ("GET /players/Ann/games?limit=50", "/players/Ann/games?limit=50", {}),
                             ("GET /leaderboard", "/leaderboard", {})):
    p50, p95 = timed(path, headers)
    print(f"{label:45s} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms")
if url.startswith("postgresql"):
    with app.app_context():
        db.engine.dispose()
    with eng.begin() as c:
        c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
