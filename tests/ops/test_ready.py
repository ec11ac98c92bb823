"""/ready: 200 only when the database answers, its schema is at the code's migration head (or
migrated past it, as in a rolling upgrade) and the wake-up listener listens; else 503 not-ready
naming each failing check. /health stays liveness."""
from __future__ import annotations

import os
import re
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


def code_at(tmp_path, drop_head: bool = False, extra_head: str | None = None) -> str:
    """A copy of migrations/ as other code would have it: without the newest migration (the release
    before it), or with one more of its own beside the newest (a branch the database never took)."""
    import shutil
    from service.core.database import default_migrations_directory, migration_heads
    copy = tmp_path / "migrations"
    shutil.copytree(default_migrations_directory(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    (head,) = migration_heads(str(copy))
    newest = next(path for path in (copy / "versions").glob("*.py") if f"revision = '{head}'" in path.read_text())
    if drop_head:
        newest.unlink()
    if extra_head:
        down = re.search(r"down_revision = '(\w+)'", newest.read_text()).group(1)
        (copy / "versions" / f"{extra_head}_elsewhere.py").write_text(
            f"revision = '{extra_head}'\ndown_revision = '{down}'\nbranch_labels = None\ndepends_on = None\n\n\n"
            "def upgrade():\n    pass\n\n\ndef downgrade():\n    pass\n")
    return str(copy)


def test_a_database_migrated_past_the_code_is_ready_and_served(fresh_url, tmp_path):
    """A rolling upgrade: the database is migrated by the next release while this code still runs.
    Its schema includes this code's head (schema_revisions), so /ready stays 200 and requests are
    served (no database-not-migrated)."""
    from service import create_app
    upgrade(fresh_url)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": fresh_url,
                      "MIGRATIONS_DIRECTORY": code_at(tmp_path, drop_head=True)})
    client = app.test_client()
    answer = client.get("/ready")
    assert answer.status_code == 200, answer.get_json()
    assert client.post("/games", json={"name": "Ann"}).status_code == 201


def test_a_database_migrated_elsewhere_is_not_ready(fresh_url, tmp_path):
    """A revision this code does not know, whose schema does not include this code's head (another
    branch's migration, not a later one of this line): not ready, and requests refused."""
    from service import create_app
    upgrade(fresh_url)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": fresh_url,
                      "MIGRATIONS_DIRECTORY": code_at(tmp_path, extra_head="0e15ewhere0001")})
    client = app.test_client()
    failing = not_ready(client)
    assert set(failing) == {"schema"} and "0e15ewhere0001" in failing["schema"]
    refused = client.post("/games", json={"name": "Ann"})
    assert refused.status_code == 503 and refused.get_json()["code"] == "database-not-migrated"


def test_schema_revisions_follows_upgrades_and_downgrades(fresh_url):
    """Every revision from the base to the database's head, after an upgrade and after a downgrade
    (a downgraded revision is no longer in the schema)."""
    from service.core.database import default_migrations_directory, migration_heads, schema_found
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    config = Config()
    config.set_main_option("script_location", default_migrations_directory())
    script = ScriptDirectory.from_config(config)
    (head,) = migration_heads(default_migrations_directory())
    everything = {each.revision for each in script.walk_revisions()}
    upgrade(fresh_url)
    app = app_on(fresh_url)
    with app.app_context():
        assert schema_found() == ({head}, everything)
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "downgrade"], cwd=ROOT,
                   env={**os.environ, "DATABASE_URL": fresh_url}, check=True, capture_output=True)
    below = script.get_revision(head).down_revision
    with app.app_context():
        found, included = schema_found()
    if "schema_revisions" in script.get_revision(head).path:  # the table itself went with it
        assert (found, included) == ({below}, set())
    else:
        assert (found, included) == ({below}, everything - {head})
