"""A rolling upgrade, with the real previous release: the code of the commit before the newest
migration (`git archive` of it into a temporary directory) served by gunicorn on a database that
the current code migrated to its head, beside a server of the current code. The old release must
stay ready and play: expand-then-contract (docs/operations.md, "Upgrades without downtime") means a
migration never breaks the code before it. On both databases; skipped without the git history
(a shallow clone), or when the release before the newest migration predates the check."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile

import pytest
import requests

from tests.api.helpers import choose

from ..conftest import ROOT, launch_gunicorn, start_gunicorn, stop_gunicorn
from ..hardening.torture import database_url

CAPPED = {"DB_POOL_SIZE": "2", "DB_MAX_OVERFLOW": "2"}


def git(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True).stdout


@pytest.fixture(scope="module")
def previous_release(tmp_path_factory):
    """(the previous release's source tree, the newest migration's commit)."""
    try:
        newest = git("log", "-1", "--format=%H", "--", "migrations/versions").decode().strip()
        before = git("rev-parse", f"{newest}^").decode().strip()
        archive = git("archive", "--format=tar", before)
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.skip(f"no git history to take the previous release from ({exc})")
    tree = tmp_path_factory.mktemp("previous-release")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    database = (tree / "service" / "core" / "database.py")
    if not database.exists() or "schema_revisions" not in database.read_text():
        pytest.skip(f"the release before the newest migration ({before[:10]}) predates the rolling-upgrade "
                    "check (issue 37): it cannot tell a database migrated past it")
    return tree, newest


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_previous_release_serves_a_database_migrated_by_the_next(kind, previous_release, tmp_path):
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("PostgreSQL: set TEST_DATABASE_URL")
    tree, _ = previous_release
    with database_url(kind, tmp_path) as url:
        new, new_base = start_gunicorn(url, workers=1, log_path=tmp_path / "new.log", env=CAPPED)  # migrates to head
        try:
            head = subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "current"], cwd=ROOT,
                                  env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True, check=True)
            old, old_base = launch_gunicorn("service:create_app()", {**CAPPED, "DATABASE_URL": url},
                                            lambda base: requests.get(base + "/health", timeout=5).status_code == 200,
                                            workers=1, log_path=tmp_path / "old.log", cwd=tree)
            try:
                ready = requests.get(old_base + "/ready", timeout=10)
                assert ready.status_code == 200, (ready.text, head.stdout)
                play_on_both(old_base, new_base)
            finally:
                stop_gunicorn(old)
        finally:
            stop_gunicorn(new)
    old_log = (tmp_path / "old.log").read_text(errors="replace")
    assert "Traceback" not in old_log and "not migrated" not in old_log, old_log[-3000:]


def play_on_both(old: str, new: str) -> None:
    """A game made on the old release, joined on the new, then moves made alternately on each, every
    answer's view read back on the other."""
    created = requests.post(old + "/games", json={"name": "Ann"}, timeout=10)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["game_id"], {0: created.json()["token"]}
    joined = requests.post(f"{new}/games/{game_id}/join", timeout=10,
                           json={"invite_code": created.json()["invite_code"], "name": "Bob"})
    assert joined.status_code == 201, joined.text
    tokens[1] = joined.json()["token"]
    servers = [old, new]
    for step in range(6):
        here, there = servers[step % 2], servers[(step + 1) % 2]
        seat = requests.get(f"{here}/games/{game_id}", headers=auth(tokens[0]), timeout=10).json()["to_move"]
        mine = requests.get(f"{here}/games/{game_id}", headers=auth(tokens[seat]), timeout=10).json()
        moved = requests.post(f"{here}/games/{game_id}/actions", json=choose(mine), headers=auth(tokens[seat]),
                              timeout=10)
        assert moved.status_code == 200, (here, moved.text)
        seen = requests.get(f"{there}/games/{game_id}", headers=auth(tokens[seat]), timeout=10).json()
        assert seen["version"] == moved.json()["version"] == mine["version"] + 1


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}
