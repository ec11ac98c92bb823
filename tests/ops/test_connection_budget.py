"""The connection budget (service/core/pool.py), on both databases: the pool is as DB_POOL_SIZE,
DB_MAX_OVERFLOW and DB_POOL_TIMEOUT say (from the environment too); when every connection stays out
a request is answered 503 `database-unavailable` with Retry-After, not 500, and counted; a stream
whose read finds no connection ends with a `retry:` frame rather than cut mid-body."""
from __future__ import annotations

import time

import pytest
from prometheus_client.parser import text_string_to_metric_families

from service.core import wakeup
from tests.api.helpers import act, auth, choose, mover, new_game


@pytest.fixture
def budget_app(db_config):
    """An app of one connection and no overflow, which gives up waiting for it after 1 s."""
    from service import create_app
    return create_app({"TESTING": True, **db_config, "DB_POOL_SIZE": 1, "DB_MAX_OVERFLOW": 0,
                       "DB_POOL_TIMEOUT": 1, "STREAM_KEEPALIVE_SECONDS": 30})


def held(app):
    """The pool's one connection, checked out by the test."""
    from service.core.extensions import db
    with app.app_context():
        return db.engine.connect()


def scraped(client) -> dict:
    answer = client.get("/metrics")
    assert answer.status_code == 200
    return {sample.name: sample.value for family in text_string_to_metric_families(answer.get_data(as_text=True))
            for sample in family.samples if not sample.labels}


def test_the_pool_is_sized_by_the_settings_and_the_environment(db_config, monkeypatch):
    from service import create_app
    from service.core.extensions import db
    from service.core.pool import CountedPool
    monkeypatch.setenv("DB_POOL_SIZE", "3")
    monkeypatch.setenv("DB_MAX_OVERFLOW", "2")
    monkeypatch.setenv("DB_POOL_TIMEOUT", "7")
    app = create_app({"TESTING": True, **db_config})
    with app.app_context():
        pool = db.engine.pool
        assert isinstance(pool, CountedPool)
        assert (pool.size(), pool._max_overflow, pool._timeout, pool.capacity) == (3, 2, 7, 5)
    assert scraped(app.test_client())["gin_db_pool_capacity"] == 5


def test_a_request_that_finds_no_connection_is_answered_503_with_retry_after(budget_app):
    client = budget_app.test_client()
    game = new_game(client)
    seat, mine = mover(client, game)
    before = scraped(client)
    connection = held(budget_app)
    try:
        for answer in (client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])),
                       act(client, game, seat, choose(mine))):
            assert answer.status_code == 503, answer.get_data(as_text=True)
            assert answer.mimetype == "application/problem+json"
            assert answer.get_json()["code"] == "database-unavailable"
            assert 3 <= int(answer.headers["Retry-After"]) <= 8
    finally:
        connection.close()
    after = scraped(client)
    # (The wake-up's fallback poll may have waited for the held connection too.)
    assert after["gin_db_pool_timeouts_total"] >= before["gin_db_pool_timeouts_total"] + 2
    assert after["gin_db_pool_waits_total"] >= before["gin_db_pool_waits_total"] + 2
    assert after["gin_db_pool_wait_seconds_total"] - before["gin_db_pool_wait_seconds_total"] >= 1.5
    # The connection back, the game is served again, unchanged by the refused move.
    assert client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["version"] == \
        game["view"]["version"]


def test_a_stream_whose_read_finds_no_connection_ends_with_a_retry_frame(budget_app):
    """The stream sends its view, a move wakes it, and its read of the new view finds the pool's one
    connection held: the body ends with a comment and `retry:`, whole, and the next connection
    with Last-Event-ID resumes with the move's view."""
    client = budget_app.test_client()
    game = new_game(client)
    seat, mine = mover(client, game)
    watcher = game["tokens"][1 - seat]
    response = client.get(f"/games/{game['id']}/stream", headers=auth(watcher), buffered=False)
    assert response.status_code == 200
    frames = iter(response.response)
    assert _text(next(frames)) == "retry: 2000\n\n"
    first = _text(next(frames))
    assert first.startswith(f"id: {game['view']['version']}\nevent: view\n")
    assert act(client, game, seat, choose(mine)).status_code == 200  # wakes the stream
    connection = held(budget_app)
    try:
        started = time.monotonic()
        rest = [_text(frame) for frame in frames]  # to the end: the generator returns
        assert time.monotonic() - started < 10
    finally:
        connection.close()
        response.close()
    assert len(rest) == 1, rest
    comment, retry = rest[0].rstrip("\n").split("\n")
    assert comment.startswith(": database-unavailable")
    assert retry.startswith("retry: ") and 3000 <= int(retry.removeprefix("retry: ")) <= 8000
    again = client.get(f"/games/{game['id']}/stream", buffered=False,
                       headers=auth(watcher, **{"Last-Event-ID": str(game["view"]["version"])}))
    frames = iter(again.response)
    try:
        assert _text(next(frames)) == "retry: 2000\n\n"
        assert _text(next(frames)).startswith(f"id: {game['view']['version'] + 1}\nevent: view\n")
    finally:
        again.close()


def test_the_player_stream_ends_the_same_way(budget_app):
    client = budget_app.test_client()
    registered = client.post("/players", json={"name": "Pooled"})
    assert registered.status_code == 201, registered.get_json()
    token = registered.get_json()["token"]
    response = client.get("/me/stream", headers=auth(token), buffered=False)
    assert response.status_code == 200
    frames = iter(response.response)
    assert _text(next(frames)) == ": connected\n\n"  # a new stream with nothing pending reads nothing more
    connection = held(budget_app)
    try:
        with budget_app.app_context():  # a wake-up (as a token's rotation sends): the stream reads
            wakeup.hub().wake(wakeup.player_key(registered.get_json()["player"]["id"]))
        text = "".join(_text(frame) for frame in frames)
    finally:
        connection.close()
        response.close()
    assert text.endswith("\n\n") and "retry: " in text.split(": database-unavailable", 1)[1]


def _text(frame) -> str:
    return frame.decode() if isinstance(frame, bytes) else frame


def test_transaction_pooling_without_redis_is_not_ready(db_config):
    """LISTEN holds a session, which a pooler in transaction mode does not give: without Redis for
    the wake-ups, waiting clients would miss other processes' moves, so the process takes no traffic."""
    from service import create_app
    app = create_app({"TESTING": True, **db_config, "DB_TRANSACTION_POOLING": True})
    answer = app.test_client().get("/ready")
    assert answer.status_code == 503
    assert "WAKEUP_REDIS_URL" in answer.get_json()["failing"]["wakeup"]
