"""The PostgreSQL floor for bench_load.py: a bare Flask endpoint doing one locked read
(SELECT ... FOR UPDATE) and one write, committed, on the same database server as the service.
No game can be served faster than this (floor_app.py is the SQLite one).

    FLOOR_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test gunicorn --chdir bench floor_pg_app:app
"""
import os

import psycopg
from flask import Flask, jsonify

app = Flask(__name__)
_connection = None


def connection() -> psycopg.Connection:
    global _connection
    if _connection is None:
        url = os.environ["FLOOR_DATABASE_URL"].replace("postgresql+psycopg://", "postgresql://")
        _connection = psycopg.connect(url, autocommit=False)
        with _connection.transaction():
            _connection.execute("CREATE TABLE IF NOT EXISTS floor_rows (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
    return _connection


@app.post("/bump/<int:row>")
def bump(row: int):
    db = connection()
    with db.transaction():
        found = db.execute("SELECT version FROM floor_rows WHERE id = %s FOR UPDATE", (row,)).fetchone()
        version = (found[0] if found else 0) + 1
        db.execute("INSERT INTO floor_rows (id, version) VALUES (%s, %s) "
                   "ON CONFLICT (id) DO UPDATE SET version = excluded.version", (row, version))
    return jsonify(version=version)
