"""Shared fixtures: migrated databases (SQLite always, PostgreSQL when TEST_DATABASE_URL is set),
an app and test client per database, and `live_server`, a real gunicorn on a loopback port."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PG_SKIP = ("PostgreSQL tests skipped: set TEST_DATABASE_URL "
           "(e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test) to run them")


def migrate(config: dict) -> None:
    """Bring the database named by `config` to the code's migration head (flask db upgrade)."""
    import flask_migrate
    from service import create_app
    app = create_app(config)
    with app.app_context():
        flask_migrate.upgrade()
        from service.extensions import db
        db.engine.dispose()


def _postgres_schema(url: str):
    """A fresh schema for this test run, so runs never see each other's tables; dropped after."""
    import sqlalchemy as sa
    schema = f"test_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    config = {"SQLALCHEMY_DATABASE_URI": url,
              "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}}}

    def drop():
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
    return config, drop


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def db_config(request, tmp_path_factory) -> dict:
    """Config overrides naming a freshly migrated database (picklable, for other processes too)."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("sqlite") / "test.sqlite3"
        config, drop = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}, None
    else:
        url = os.environ.get("TEST_DATABASE_URL")
        if not url:
            pytest.skip(PG_SKIP)
        config, drop = _postgres_schema(url)
    migrate(config)
    yield config
    if drop:
        drop()


@pytest.fixture(scope="session")
def app(db_config):
    from service import create_app
    return create_app({"TESTING": True, **db_config})


@pytest.fixture
def client(app):
    """A test client on an empty (but migrated) database."""
    from service.extensions import db
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    return app.test_client()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(database_url: str, workers: int = 2, port: int | None = None, log_path=None):
    """Migrate the database with the real CLI, then serve it with gunicorn (sync workers) on a free
    loopback port. Returns (process, base_url) once /health answers."""
    import requests
    env = {**os.environ, "DATABASE_URL": database_url}
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    port = port or free_port()
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "sync",
         "--bind", f"127.0.0.1:{port}", "service:create_app()"],
        cwd=ROOT, env=env, stdout=log, stderr=log)
    base_url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            if requests.get(base_url + "/health", timeout=1).status_code == 200:
                return process, base_url
        except requests.ConnectionError:
            pass
        time.sleep(0.05)
    process.terminate()
    raise RuntimeError("gunicorn did not answer /health within 10 s")


def stop_gunicorn(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """Base URL of a real gunicorn (2 sync workers) serving a fresh, migrated SQLite file."""
    directory = tmp_path_factory.mktemp("live")
    process, base_url = start_gunicorn(f"sqlite:///{directory / 'live.sqlite3'}",
                                       log_path=directory / "gunicorn.log")
    yield base_url
    stop_gunicorn(process)
