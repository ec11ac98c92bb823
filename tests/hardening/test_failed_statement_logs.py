"""Issue 28, finding 3, made certain: a statement that fails while it carries a token's hash is
logged without its parameters (hide_parameters), on each path a request takes to the database: a
stored view's read (driver SQL, one statement), a move (driver SQL, its own transaction) and a
read through the session. The live log scan (test_database_faults.py) cuts connections once a
second and so catches such a statement only when a cut happens to fall on one; here every request
below has its first statement with the hash fail:

- PostgreSQL: the statement's own connection is terminated (pg_terminate_backend, as a failover
  does) right before the statement is sent, from a listener of the engine's before_cursor_execute;
- SQLite: the table the token is looked up in is renamed away for the request, so the statement
  fails as SQLite prepares it.

Each request is answered 503 `database-unavailable`, and its log record holds the failed SQL but
neither the token nor its hash."""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager

from sqlalchemy import event, text

from service.core.logs import JsonLines
from service.core.tokens import hash_secret
from tests.api.helpers import auth, choose, mover, new_game


@contextmanager
def failing_statements(app, token: str):
    """Every statement carrying `token`'s hash fails while this is open; yields the failures made."""
    from service.core.extensions import db
    hashed, failures = hash_secret(token), []
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        with engine.begin() as connection:
            connection.execute(text("ALTER TABLE seat_tokens RENAME TO seat_tokens_away"))
        failures.append("seat_tokens renamed away")
        try:
            yield failures
        finally:
            with engine.begin() as connection:
                connection.execute(text("ALTER TABLE seat_tokens_away RENAME TO seat_tokens"))
        return

    def cut(connection, cursor, statement, parameters, context, executemany):
        if hashed not in repr(parameters):
            return
        pid = cursor.connection.info.backend_pid
        with engine.connect() as other:
            other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            for _ in range(100):  # until the backend is gone, so the statement surely fails
                if not other.execute(text("SELECT 1 FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}).first():
                    break
                time.sleep(0.01)
            other.rollback()
        failures.append(pid)
    event.listen(engine, "before_cursor_execute", cut)
    try:
        yield failures
    finally:
        event.remove(engine, "before_cursor_execute", cut)


def test_a_failed_statement_is_logged_without_the_token_hash_it_carried(app, client, caplog):
    game = new_game(client)
    seat, seen = mover(client, game)
    token = game["tokens"][seat]
    path = f"/games/{game['id']}"
    requests = [("GET", path, None),  # the stored view's read: driver SQL, one statement
                ("POST", path + "/actions", choose(seen)),  # the move: driver SQL, its own transaction
                ("GET", path + "/webhook-deliveries", None)]  # the seat read through the session
    caplog.set_level(logging.ERROR, logger="service.core.errors")
    for method, url, body in requests:
        caplog.clear()
        with failing_statements(app, token) as failures:
            answer = client.open(url, method=method, json=body, headers=auth(token))
        assert failures, (method, url, "no statement failed")
        assert answer.status_code == 503 and answer.get_json()["code"] == "database-unavailable", (
            method, url, answer.status_code, answer.get_json())
        logged = "\n".join(JsonLines().format(record) for record in caplog.records)
        assert "database error on " + method in logged and "[SQL: " in logged, (method, url, logged[:2000])
        assert "hide_parameters=True" in logged, (method, url, "the parameters were not hidden")
        assert hash_secret(token) not in logged and token not in logged, (method, url, "a secret in the log")
    # The faults healed: the same requests are served (the move once, by its seat).
    assert client.get(path, headers=auth(token)).status_code == 200
    assert client.post(path + "/actions", json=choose(seen), headers=auth(token)).status_code == 200
