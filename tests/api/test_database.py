"""Migrations, the refusal to serve an unmigrated database, and the health check."""
from __future__ import annotations

import json

import flask_migrate
import pytest

from service import create_app
from service.core.extensions import db


def test_models_match_the_migrations(app, client):
    result = app.test_cli_runner().invoke(args=["db", "check"])
    assert result.exit_code == 0, result.output


def test_health_reports_the_database(client, db_config):
    response = client.get("/health")
    assert response.status_code == 200
    expected = "sqlite" if db_config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite") else "postgresql"
    assert response.get_json() == {"status": "ok", "database": expected}


def test_an_unmigrated_database_is_refused_until_upgraded(tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'empty.sqlite3'}"})
    client = app.test_client()
    for response in (client.post("/games", json={"name": "Ann"}), client.get("/health"),
                     client.get("/games/abc", headers={"Authorization": "Bearer x"})):
        assert response.status_code == 503
        problem = response.get_json()
        assert problem["code"] == "database-not-migrated" and "db upgrade" in problem["detail"]
    assert client.get("/openapi.json").status_code == 200  # the docs need no database
    with app.app_context():
        flask_migrate.upgrade()
        assert db.session.execute(db.text("SELECT count(*) FROM games")).scalar() == 0
    assert client.post("/games", json={"name": "Ann"}).status_code == 201


def test_an_unreachable_database_is_503(tmp_path):
    app = create_app({"TESTING": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.sqlite3'}"})
    response = app.test_client().get("/health")
    assert response.status_code == 503
    assert response.get_json()["code"] == "database-unavailable"
    assert response.headers["Retry-After"]


def test_a_sqlite_writer_waits_for_the_lock_and_takes_it_once_released(tmp_path):
    import sqlite3
    import threading

    import pytest

    from service.core.database import begin_immediate
    path = tmp_path / "locks.sqlite3"
    holder, waiter = (sqlite3.connect(path, isolation_level=None, check_same_thread=False) for _ in range(2))
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        begin_immediate(waiter, timeout=0.2)  # held throughout: gives up, saying why
    assert waiter.execute("PRAGMA busy_timeout").fetchone()[0] == 200  # its own setting restored
    release = threading.Timer(0.1, lambda: holder.execute("COMMIT"))
    release.start()
    begin_immediate(waiter, timeout=30)  # released meanwhile: the waiter gets the lock
    waiter.execute("INSERT INTO t VALUES (1)")
    waiter.execute("COMMIT")
    release.join()
    assert holder.execute("SELECT count(*) FROM t").fetchone()[0] == 1


def test_long_values_are_compressed_with_lz4_where_the_server_has_it(app, client):
    """A game's state and the stored views (about 2 KB of JSON each, rewritten by every move) are
    compressed with LZ4 on PostgreSQL (several times faster than its default, pglz); a server
    without LZ4 keeps pglz and the service runs as before."""
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite does not compress values")
    from .helpers import act, choose, mover, new_game
    game = new_game(client)
    for _ in range(400):  # a view grows with the discard pile and the score sheet: play on till it passes 2 KB
        seat, mine = mover(client, game)  # (one short hand can end below it: CI once saw 1,906 bytes)
        if mine["status"] == "finished" or len(json.dumps(mine, separators=(",", ":"))) > 2300:
            break
        assert act(client, game, seat, choose(mine)).status_code == 200
    with app.app_context():
        offered = db.session.execute(db.text(
            "SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")).scalar()
        expected = "lz4" if "lz4" in offered else "pglz"
        # PostgreSQL compresses a value once its row passes about 2 KB; NULL: stored as it is
        views = db.session.execute(db.text(
            "SELECT octet_length(view_body), pg_column_compression(view_body) FROM seats WHERE game_id = :game"),
            {"game": game["id"]}).all()
        assert max(length for length, _ in views) > 2100, views
        assert {method for length, method in views if length > 2100} == {expected}, views
        assert {method for _, method in views} <= {expected, None}, views
