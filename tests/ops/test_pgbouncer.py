"""PostgreSQL through PgBouncer in transaction mode (DB_TRANSACTION_POOLING, docs/operations.md).

The distribution's pgbouncer (`apt-get install pgbouncer`, as .ci/run does; skipped without it) is
started on a free loopback port in front of a database of the test's own, with a server pool of 3.
The service is migrated through it, then served by two gunicorn instances (one worker each, pools
of 2 + 2) with wake-ups through Redis: a whole match is played, each move made on one instance
while the other seat's long-poll waits on the other, which only a wake-up from the other process
answers (the fallback poll is off), and PostgreSQL never sees more than the bouncer's 3 connections
for the service's 8. Without the setting, the move path's named prepared statements would be
EXECUTEd on server connections that never PREPAREd them; with it, a move leaves none behind."""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
import uuid

import pytest
import requests

from tests.api.helpers import choose

from ..conftest import PG_SKIP, free_port, start_gunicorn, stop_gunicorn

PGBOUNCER = shutil.which("pgbouncer") or next((p for p in ("/usr/sbin/pgbouncer",) if os.path.exists(p)), None)
REDIS_URL = "redis://127.0.0.1:6379"
SERVER_POOL = 3  # PgBouncer's server connections to the database
pytestmark = [
    pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason=PG_SKIP),
    pytest.mark.skipif(PGBOUNCER is None, reason="pgbouncer is not installed (apt-get install -y pgbouncer): "
                                                 "the transaction pooling test is skipped"),
]


def admin_engine():
    import sqlalchemy as sa
    return sa.create_engine(os.environ["TEST_DATABASE_URL"], isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)


@pytest.fixture(scope="module")
def bouncer():
    """(URL through PgBouncer, the database's name): a fresh database of this module's own (a
    pooler passes no per-connection search_path), PgBouncer in transaction mode in front of it."""
    import sqlalchemy as sa
    base = sa.engine.make_url(os.environ["TEST_DATABASE_URL"])
    name = f"gin_pgb_{uuid.uuid4().hex[:10]}"
    engine = admin_engine()
    with engine.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    directory = tempfile_directory()
    port = free_port()
    with open(os.path.join(directory, "users.txt"), "w") as users:
        users.write(f'"{base.username}" "{base.password or ""}"\n')
    with open(os.path.join(directory, "pgbouncer.ini"), "w") as ini:
        ini.write(f"""[databases]
gin = host={base.host or '127.0.0.1'} port={base.port or 5432} dbname={name} user={base.username}{
            f' password={base.password}' if base.password else ''}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {directory}/users.txt
pool_mode = transaction
default_pool_size = {SERVER_POOL}
reserve_pool_size = 0
max_client_conn = 500
""")
    for each in os.listdir(directory):
        os.chmod(os.path.join(directory, each), 0o644)
    as_user = ["-u", "postgres"] if os.geteuid() == 0 else []  # pgbouncer refuses to run as root
    process = subprocess.Popen([PGBOUNCER, *as_user, os.path.join(directory, "pgbouncer.ini")],
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "pgbouncer.log"), "wb"))
    url = base.set(host="127.0.0.1", port=port, database="gin").render_as_string(hide_password=False)
    try:
        wait_for_port(process, port)
        yield url, name
    finally:
        process.terminate()
        process.wait(timeout=10)
        with engine.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()
        shutil.rmtree(directory, ignore_errors=True)


def tempfile_directory() -> str:
    """A directory the bouncer's user can read (pytest's own are root's alone)."""
    import tempfile
    directory = tempfile.mkdtemp(prefix="gin-pgbouncer-")
    os.chmod(directory, 0o755)
    return directory


def wait_for_port(process, port: int) -> None:
    import socket
    give_up = time.monotonic() + 20
    while time.monotonic() < give_up:
        if process.poll() is not None:
            raise RuntimeError(f"pgbouncer exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("pgbouncer did not listen within 20 s")


def server_connections(name: str) -> int:
    import sqlalchemy as sa
    engine = admin_engine()
    with engine.connect() as connection:
        found = connection.execute(sa.text("SELECT count(*) FROM pg_stat_activity WHERE datname = :name"),
                                   {"name": name}).scalar()
    engine.dispose()
    return found


def call(base: str, method: str, path: str, token: str | None = None, **kwargs):
    headers = kwargs.pop("headers", {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return requests.request(method, base + path, headers=headers, timeout=60, **kwargs)


def test_a_match_through_pgbouncer_in_transaction_mode_with_long_polls_woken_across_processes(bouncer, tmp_path):
    import redis
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis at {REDIS_URL} does not answer ({exc})")
    url, name = bouncer
    env = {"DB_TRANSACTION_POOLING": "true", "WAKEUP_REDIS_URL": REDIS_URL, "WAKEUP_FALLBACK_SECONDS": "3600",
           "DB_POOL_SIZE": "2", "DB_MAX_OVERFLOW": "2"}
    one, base_one = start_gunicorn(url, workers=1, log_path=tmp_path / "one.log", env=env)
    try:
        other, base_other = start_gunicorn(url, workers=1, log_path=tmp_path / "other.log", env=env)
        try:
            for base in (base_one, base_other):
                ready = requests.get(base + "/ready", timeout=10)
                assert ready.status_code == 200, ready.text
            moves, peak = play_with_long_polls(base_one, base_other, name)
        finally:
            stop_gunicorn(other)
    finally:
        stop_gunicorn(one)
    assert moves >= 10
    assert peak <= SERVER_POOL, f"PostgreSQL saw {peak} connections for a bouncer pool of {SERVER_POOL}"
    for log in ("one.log", "other.log"):
        text = (tmp_path / log).read_text(errors="replace")
        assert "Traceback" not in text and "prepared statement" not in text, text[-3000:]


def play_with_long_polls(mover_base: str, waiter_base: str, name: str) -> tuple[int, int]:
    """A match to its end; before each move the other seat long-polls on the other instance, and
    its answer must be the move's view. Returns (moves made, most server connections seen)."""
    created = call(mover_base, "POST", "/games", json={"name": "Ann", "rules": {"target": 10}}).json()
    game_id = created["game_id"]
    joined = call(waiter_base, "POST", f"/games/{game_id}/join",
                  json={"invite_code": created["invite_code"], "name": "Bob"})
    assert joined.status_code == 201, joined.text
    tokens = {0: created["token"], 1: joined.json()["token"]}
    moves, peak = 0, 0
    while True:
        view = call(mover_base, "GET", f"/games/{game_id}", tokens[0]).json()
        if view["status"] == "finished":
            return moves, peak
        seat = view["to_move"]
        mine = call(mover_base, "GET", f"/games/{game_id}", tokens[seat]).json()
        answers = []
        poll = threading.Thread(target=lambda: answers.append(call(
            waiter_base, "GET", f"/games/{game_id}?wait=30", tokens[1 - seat],
            headers={"If-None-Match": f'"{mine["version"]}"'})))
        poll.start()
        time.sleep(0.2)  # (a poll that arrives after the move answers at once: still right, less telling)
        moved = call(mover_base, "POST", f"/games/{game_id}/actions", tokens[seat], json=choose(mine),
                     headers={"Idempotency-Key": uuid.uuid4().hex})
        assert moved.status_code == 200, moved.text
        peak = max(peak, server_connections(name))
        poll.join(60)
        assert answers and answers[0].status_code == 200, answers and answers[0].status_code
        assert answers[0].json()["version"] == moved.json()["version"]
        moves += 1


def test_with_transaction_pooling_a_move_leaves_no_prepared_statement_in_the_session(db_config):
    """On a direct PostgreSQL connection (where the session is ours to look at): a move prepares its
    statements by name without the setting, and none with it."""
    if not db_config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("PostgreSQL only: SQLite prepares nothing by name")
    from sqlalchemy import text

    from service import create_app
    from service.core.extensions import db
    from tests.api.helpers import act, mover, new_game
    found = {}
    for pooling in (False, True):
        app = create_app({"TESTING": True, **db_config, "DB_TRANSACTION_POOLING": pooling,
                          "DB_POOL_SIZE": 1, "DB_MAX_OVERFLOW": 0})
        client = app.test_client()
        game = new_game(client)
        seat, mine = mover(client, game)
        assert act(client, game, seat, choose(mine)).status_code == 200
        with app.app_context():
            with db.engine.connect() as connection:  # the pool's one connection: the move's
                found[pooling] = connection.execute(text(
                    "SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'gin_%'")).scalar()
            db.engine.dispose()
    assert found[False] > 0 and found[True] == 0, found
