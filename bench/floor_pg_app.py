"""The PostgreSQL floor for bench_load.py: a bare Flask endpoint doing one locked read
(SELECT ... FOR UPDATE) and one write, committed, on the same database server as the service.
No game can be served faster than this (floor_app.py is the SQLite one).

    FLOOR_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test gunicorn --chdir bench floor_pg_app:app
"""
import os
from contextlib import contextmanager

import psycopg
from flask import Flask, jsonify

app = Flask(__name__)
_idle: list = []  # open connections not in use: one per request in flight (gevent workers run several)


@contextmanager
def connection():
    if _idle:
        db = _idle.pop()
    else:
        db = psycopg.connect(os.environ["FLOOR_DATABASE_URL"].replace("postgresql+psycopg://", "postgresql://"))
        with db.transaction():
            db.execute("CREATE TABLE IF NOT EXISTS floor_rows (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
    try:
        yield db
    finally:
        _idle.append(db)


@app.post("/bump/<int:row>")
def bump(row: int):
    with connection() as db, db.transaction():
        found = db.execute("SELECT version FROM floor_rows WHERE id = %s FOR UPDATE", (row,)).fetchone()
        version = (found[0] if found else 0) + 1
        db.execute("INSERT INTO floor_rows (id, version) VALUES (%s, %s) "
                   "ON CONFLICT (id) DO UPDATE SET version = excluded.version", (row, version))
    return jsonify(version=version)
