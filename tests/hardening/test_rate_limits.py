"""Rate limits: per client address, per token, harder on refused tokens; 429 problem documents with
Retry-After and the draft RateLimit-* headers; shared through Redis across app instances and
gunicorn workers. (Limits are off in every other test: tests/conftest.py sets RATELIMIT_ENABLED.)"""
from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from ..api.helpers import auth, new_game
from ..conftest import start_gunicorn, stop_gunicorn
from .support import assert_problem, snapshot

REDIS_URL = "redis://127.0.0.1:6379"


@pytest.fixture(autouse=True)
def sqlite_is_enough(request):
    """The limiter never touches the database: once, on SQLite, is enough."""
    if "db_config" in request.fixturenames:
        if "postgresql" in request.getfixturevalue("db_config")["SQLALCHEMY_DATABASE_URI"]:
            pytest.skip("rate limits do not depend on the database: tested on SQLite")


def limited_app(db_config, **settings):
    from service import create_app
    return create_app({"TESTING": True, **db_config, "RATELIMIT_ENABLED": True,
                       "RATELIMIT_KEY_PREFIX": f"gin-test-{uuid.uuid4().hex[:8]}",
                       # no window boundary can fall inside a test and reset the counts
                       "RATELIMIT_STRATEGY": "moving-window",
                       "RATELIMIT_PER_ADDRESS": "1000 per minute", "RATELIMIT_PER_TOKEN": "1000 per minute",
                       "RATELIMIT_FAILED_AUTH": "1000 per minute", **settings})


def from_address(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def assert_rate_limited(response) -> dict:
    problem = assert_problem(response, 429, "rate-limited")
    assert int(response.headers["Retry-After"]) >= 1
    assert response.headers["RateLimit-Remaining"] == "0"
    assert 1 <= int(response.headers["RateLimit-Reset"]) <= 61
    return problem


def gunicorn_sharing_redis(tmp_path, monkeypatch, **limits):
    """Two gunicorn workers counting in Redis (moving window) with these limits: (process, URL)."""
    redis_or_skip()
    settings = {"RATELIMIT_ENABLED": "true", "RATELIMIT_STORAGE_URI": REDIS_URL,
                "RATELIMIT_KEY_PREFIX": f"gin-test-{uuid.uuid4().hex[:8]}", "RATELIMIT_STRATEGY": "moving-window",
                **limits}
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    return start_gunicorn(f"sqlite:///{tmp_path / 'limits.sqlite3'}", workers=2, log_path=tmp_path / "gunicorn.log")


def redis_or_skip():
    import redis
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis at {REDIS_URL} does not answer ({exc}): shared-storage tests skipped")


def test_the_per_address_limit_trips_with_a_problem_and_headers(client, app, db_config):
    limited = limited_app(db_config, RATELIMIT_PER_ADDRESS="5 per minute").test_client()
    remaining = []
    for _ in range(5):
        response = limited.post("/games", json={"name": "Ann"}, **from_address("10.0.0.1"))
        assert response.status_code == 201
        assert response.headers["RateLimit-Limit"] == "5"
        remaining.append(int(response.headers["RateLimit-Remaining"]))
        assert 1 <= int(response.headers["RateLimit-Reset"]) <= 61
    assert remaining == [4, 3, 2, 1, 0]
    before = snapshot(app)
    assert_rate_limited(limited.post("/games", json={"name": "Ann"}, **from_address("10.0.0.1")))
    assert_rate_limited(limited.get("/games/x", headers=auth("x"), **from_address("10.0.0.1")))
    assert snapshot(app) == before  # a refused request changes nothing
    # Another address has its own count; health checks are never limited.
    assert limited.post("/games", json={"name": "Bo"}, **from_address("10.0.0.2")).status_code == 201
    health = limited.get("/health", **from_address("10.0.0.1"))
    assert health.status_code == 200 and "RateLimit-Limit" not in health.headers


def test_the_per_token_limit_follows_the_token_across_addresses(client, db_config):
    game = new_game(client)
    limited = limited_app(db_config, RATELIMIT_PER_TOKEN="3 per minute").test_client()
    path = f"/games/{game['id']}"
    for n in range(3):
        response = limited.get(path, headers=auth(game["tokens"][0]), **from_address(f"10.0.1.{n}"))
        assert response.status_code == 200 and response.headers["RateLimit-Limit"] == "3"
    assert_rate_limited(limited.get(path, headers=auth(game["tokens"][0]), **from_address("10.0.1.9")))
    response = limited.post(path + "/actions", json={"type": "pass"}, headers=auth(game["tokens"][0]),
                            **from_address("10.0.1.9"))
    assert_rate_limited(response)
    # The other seat's token is counted on its own.
    assert limited.get(path, headers=auth(game["tokens"][1]), **from_address("10.0.1.9")).status_code == 200


def test_the_house_bots_token_has_a_limit_of_its_own(client, db_config):
    """Issue 38, item 5: the house bot plays everyone's games against the computer from one token; a
    person's limit (RATELIMIT_PER_TOKEN) would ration them all, so it has RATELIMIT_PER_HOUSE_BOT."""
    limited = limited_app(db_config, RATELIMIT_PER_TOKEN="3 per minute", RATELIMIT_PER_HOUSE_BOT="8 per minute",
                          HOUSE_BOT_NAME="House").test_client()
    house = limited.post("/players", json={"name": "House", "bot": True}, **from_address("127.0.0.1")).get_json()
    person = limited.post("/players", json={"name": "Robo", "bot": True}, **from_address("10.0.1.20")).get_json()
    for n in range(8):
        response = limited.get("/me", headers=auth(house["token"]), **from_address("127.0.0.1"))
        assert response.status_code == 200 and response.headers["RateLimit-Limit"] == "8", n
    assert_rate_limited(limited.get("/me", headers=auth(house["token"]), **from_address("127.0.0.1")))
    # Any other token, a bot's too, keeps the per-token limit.
    for _ in range(3):
        response = limited.get("/me", headers=auth(person["token"]), **from_address("10.0.1.20"))
        assert response.status_code == 200 and response.headers["RateLimit-Limit"] == "3"
    assert_rate_limited(limited.get("/me", headers=auth(person["token"]), **from_address("10.0.1.20")))


def test_refused_tokens_are_limited_harder_per_address(client, app, db_config):
    game = new_game(client)
    limited = limited_app(db_config, RATELIMIT_FAILED_AUTH="3 per minute").test_client()
    path = f"/games/{game['id']}"
    for n in range(3):
        response = limited.get(path, headers=auth(f"guess{n}"), **from_address("10.0.2.1"))
        assert_problem(response, 401, "invalid-token")
    # The guesser's next refused tokens are turned away with 429 ...
    assert_rate_limited(limited.get(path, headers=auth("guess4"), **from_address("10.0.2.1")))
    assert_rate_limited(limited.get("/games/other", headers=auth("guess5"), **from_address("10.0.2.1")))
    # ... but a player behind the same address (a NAT, a proxy) is not locked out by it: good
    # credentials are never refused by the failed-credential limit, nor counted.
    for _ in range(5):
        assert limited.get(path, headers=auth(game["tokens"][0]), **from_address("10.0.2.1")).status_code == 200
    # Wrong invite codes count as refused credentials too; the right one still opens the seat.
    created = limited.post("/games", json={"name": "Ann"}, **from_address("10.0.2.3")).get_json()
    for n in range(3):
        response = limited.post(f"/games/{created['game_id']}/join", json={"name": "B", "invite_code": f"x{n}"},
                                **from_address("10.0.2.4"))
        assert_problem(response, 422, "invalid-invite")
    before = snapshot(app)
    assert_rate_limited(limited.post(f"/games/{created['game_id']}/join",
                                     json={"name": "B", "invite_code": "x4"}, **from_address("10.0.2.4")))
    assert snapshot(app) == before
    joined = limited.post(f"/games/{created['game_id']}/join",
                          json={"name": "B", "invite_code": created["invite_code"]}, **from_address("10.0.2.4"))
    assert joined.status_code == 201


def test_behind_trusted_proxies_the_forwarded_address_is_the_client(client, db_config):
    forwarded = {"X-Forwarded-For": "203.0.113.7"}
    direct = limited_app(db_config, RATELIMIT_FAILED_AUTH="2 per minute").test_client()
    behind = limited_app(db_config, RATELIMIT_FAILED_AUTH="2 per minute", TRUSTED_PROXIES=1,
                         TRUSTED_PROXY_IPS="10.0.5.0/24").test_client()
    # Without TRUSTED_PROXIES the header is ignored: anyone could otherwise pick their address.
    statuses = [direct.get("/games/x", headers=auth("x", **{"X-Forwarded-For": f"203.0.113.{n}"}),
                           **from_address("10.0.5.1")).status_code for n in range(3)]
    assert statuses == [401, 401, 429]
    # With one trusted proxy, two clients behind it (same proxy address) count apart.
    for _ in range(2):
        assert behind.get("/games/x", headers=auth("x", **forwarded), **from_address("10.0.5.2")).status_code == 401
    assert behind.get("/games/x", headers=auth("x", **forwarded), **from_address("10.0.5.2")).status_code == 429
    other = {"X-Forwarded-For": "198.51.100.9"}
    assert behind.get("/games/x", headers=auth("x", **other), **from_address("10.0.5.2")).status_code == 401


def test_with_redis_refusals_sent_together_are_counted_before_any_answer(tmp_path, monkeypatch):
    """Twenty refused tokens at once through two gunicorn workers sharing Redis: exactly the
    limit's worth is answered 401, the rest 429 (each refusal is counted before it is answered)."""
    process, base_url = gunicorn_sharing_redis(tmp_path, monkeypatch, RATELIMIT_FAILED_AUTH="5 per minute")
    try:
        barrier = threading.Barrier(20)

        def guess(n):
            barrier.wait()
            return requests.get(f"{base_url}/games/x", headers=auth(f"guess{n}"), timeout=30).status_code
        with ThreadPoolExecutor(20) as pool:
            statuses = list(pool.map(guess, range(20)))
        assert statuses.count(401) == 5 and statuses.count(429) == 15, statuses
    finally:
        stop_gunicorn(process)


def test_limits_are_on_by_default_and_off_in_the_test_config(client, db_config, monkeypatch):
    from service import create_app
    for _ in range(30):
        response = client.get("/games/x", headers=auth("x"))
        assert response.status_code == 401 and "RateLimit-Limit" not in response.headers
    monkeypatch.delenv("RATELIMIT_ENABLED", raising=False)
    monkeypatch.setenv("RATELIMIT_FAILED_AUTH", "2 per minute")
    monkeypatch.setenv("RATELIMIT_STRATEGY", "moving-window")
    fresh = create_app({"TESTING": True, **db_config}).test_client()
    assert [fresh.get("/games/x", headers=auth("x")).status_code for _ in range(3)] == [401, 401, 429]


def test_in_memory_counts_are_per_instance(client, db_config):
    """Why Redis: with memory:// each process (each gunicorn worker) counts on its own."""
    settings = {"RATELIMIT_PER_ADDRESS": "2 per minute", "RATELIMIT_STORAGE_URI": "memory://"}
    first, second = (limited_app(db_config, **settings).test_client() for _ in range(2))
    statuses = [c.get("/docs", **from_address("10.0.3.1")).status_code for c in (first, second) * 3]
    assert statuses == [200, 200, 200, 200, 429, 429]


def test_with_redis_two_app_instances_count_together(client, db_config):
    redis_or_skip()
    settings = {"RATELIMIT_PER_ADDRESS": "4 per minute", "RATELIMIT_STORAGE_URI": REDIS_URL,
                "RATELIMIT_KEY_PREFIX": f"gin-test-{uuid.uuid4().hex[:8]}"}
    first, second = (limited_app(db_config, **settings).test_client() for _ in range(2))
    answers = [c.get("/docs", **from_address("10.0.4.1")) for c in (first, second) * 3]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429, 429]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["3", "2", "1", "0", "0", "0"]
    assert_rate_limited(answers[-1])


def test_with_redis_gunicorn_workers_count_together(tmp_path, monkeypatch):
    """Two real gunicorn workers, many fresh connections: exactly the limit gets through."""
    process, base_url = gunicorn_sharing_redis(tmp_path, monkeypatch, RATELIMIT_PER_ADDRESS="12 per minute")
    try:
        statuses = []
        for _ in range(20):
            with requests.Session() as session:  # a new connection each time: either worker may answer
                response = session.get(base_url + "/docs", timeout=10)
                statuses.append(response.status_code)
                if response.status_code == 429:
                    assert response.headers["Content-Type"] == "application/problem+json"
                    assert response.json()["code"] == "rate-limited" and int(response.headers["Retry-After"]) >= 1
        assert statuses.count(200) == 12 and statuses.count(429) == 8, statuses
    finally:
        stop_gunicorn(process)


def test_a_dead_redis_leaves_the_service_answering_unlimited(client, db_config, caplog):
    """A real fault: the configured Redis port has nobody listening. Games go on; no 500."""
    from ..conftest import free_port
    limited = limited_app(db_config, RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}",
                          RATELIMIT_PER_ADDRESS="2 per minute").test_client()
    for _ in range(4):
        response = limited.post("/games", json={"name": "Ann"})
        assert response.status_code == 201 and "RateLimit-Limit" not in response.headers
    assert any("rate limit" in record.getMessage().lower() for record in caplog.records)
