"""The floor for bench_api.py: a bare Flask endpoint doing one locked read and one write on a
SQLite file set up like the service's (WAL, busy_timeout, BEGIN IMMEDIATE). No game can be
served faster than this, so the service's figure is judged against it.

    FLOOR_DATABASE=/tmp/x.sqlite3 gunicorn --chdir bench floor_app:app
"""
import os
import sqlite3
from contextlib import contextmanager

from flask import Flask, jsonify

app = Flask(__name__)
_idle: list = []  # open connections not in use: one per request in flight (gevent workers run several)


@contextmanager
def connection():
    if _idle:
        db = _idle.pop()
    else:
        db = sqlite3.connect(os.environ["FLOOR_DATABASE"], isolation_level=None, timeout=30)
        for pragma in ("journal_mode=WAL", "busy_timeout=30000", "synchronous=NORMAL"):
            db.execute(f"PRAGMA {pragma}")
        db.execute("CREATE TABLE IF NOT EXISTS floor_rows (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
    try:
        yield db
    finally:
        _idle.append(db)


@app.post("/bump/<int:row>")
def bump(row: int):
    with connection() as db:
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
