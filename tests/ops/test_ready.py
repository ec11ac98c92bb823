"""/ready: 200 only when the database answers, its schema is at the code's migration head and the
wake-up listener listens; else 503 not-ready naming each failing check. /health stays liveness."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..conftest import ROOT
from ..hardening.torture import database_url

KINDS = ["sqlite", "postgresql"]


@pytest.fixture(params=KINDS)
def fresh_url(request, tmp_path):
    """A database of its own (so its wake-up hub is this test's alone), not migrated yet."""
    if request.param == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("PostgreSQL: set TEST_DATABASE_URL")
    with database_url(request.param, tmp_path) as url:
        yield url


def upgrade(url: str, revision: str = "head") -> None:
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade", revision], cwd=ROOT,
                   env={**os.environ, "DATABASE_URL": url}, check=True, capture_output=True)


def app_on(url: str):
    from service import create_app
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})


def not_ready(client) -> dict:
    answer = client.get("/ready")
    assert answer.status_code == 503 and answer.mimetype == "application/problem+json", answer.data
    problem = answer.get_json()
    assert problem["code"] == "not-ready" and answer.headers["Retry-After"]
    return problem["failing"]


def test_ready_when_migrated_and_listening(client):
    answer = client.get("/ready")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["status"] == "ready"


def test_a_database_one_migration_behind_is_not_ready(fresh_url):
    from service.core.database import default_migrations_directory, migration_heads
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    config = Config()
    config.set_main_option("script_location", default_migrations_directory())
    (head,) = migration_heads(default_migrations_directory())
    behind = ScriptDirectory.from_config(config).get_revision(head).down_revision
    upgrade(fresh_url, behind)
    client = app_on(fresh_url).test_client()
    failing = not_ready(client)
    assert set(failing) == {"schema"} and behind in failing["schema"] and head in failing["schema"]
    upgrade(fresh_url)
    assert client.get("/ready").status_code == 200


def test_a_database_that_does_not_answer_is_not_ready(tmp_path):
    from service import create_app
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/no/such/dir/x.sqlite3"})
    failing = not_ready(app.test_client())
    assert "database" in failing and "schema" not in failing


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="PostgreSQL: set TEST_DATABASE_URL")
def test_a_postgresql_server_that_does_not_answer_is_not_ready():
    from service import create_app
    from ..conftest import free_port
    app = create_app({"TESTING": True,
                      "SQLALCHEMY_DATABASE_URI": f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/gone"})
    failing = not_ready(app.test_client())
    assert "database" in failing and "wakeup" in failing  # nothing to LISTEN on either


def test_a_stopped_wakeup_listener_is_not_ready(fresh_url):
    upgrade(fresh_url)
    app = app_on(fresh_url)
    client = app.test_client()
    assert client.get("/ready").status_code == 200
    from service.core import wakeup
    with app.app_context():
        wakeup.hub().close()  # as when the process is told to stop
    failing = not_ready(client)
    assert set(failing) == {"wakeup"} and "listen" in failing["wakeup"]
