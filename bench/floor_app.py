"""The floor for bench_api.py: a bare Flask endpoint doing one locked read and one write on a
SQLite file set up like the service's (WAL, busy_timeout, BEGIN IMMEDIATE). No game can be
served faster than this, so the service's figure is judged against it.

    FLOOR_DATABASE=/tmp/x.sqlite3 gunicorn --chdir bench floor_app:app
"""
import os
import sqlite3

from flask import Flask, jsonify

app = Flask(__name__)
_connection = None


def connection() -> sqlite3.Connection:
    global _connection
    if _connection is None:
        _connection = sqlite3.connect(os.environ["FLOOR_DATABASE"], isolation_level=None, timeout=30)
        for pragma in ("journal_mode=WAL", "busy_timeout=30000", "synchronous=NORMAL"):
            _connection.execute(f"PRAGMA {pragma}")
        _connection.execute("CREATE TABLE IF NOT EXISTS floor_rows "
                            "(id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
    return _connection


@app.post("/bump/<int:row>")
def bump(row: int):
    db = connection()
    db.execute("BEGIN IMMEDIATE")
    try:
        found = db.execute("SELECT version FROM floor_rows WHERE id = ?", (row,)).fetchone()
        version = (found[0] if found else 0) + 1
        db.execute("INSERT INTO floor_rows (id, version) VALUES (?, ?) "
                   "ON CONFLICT (id) DO UPDATE SET version = excluded.version", (row, version))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return jsonify(version=version)
