"""Concurrency torture through a real gunicorn (sync workers, and gthread workers as the Procfile
runs them) on SQLite and PostgreSQL:
N client processes x M games of racing, repeated (same Idempotency-Key), out-of-turn and stale
submissions (tests/hardening/torture.py). Afterwards:

- no action applied twice: answers that share a version are replays of one keyed request;
- none lost: every applied action was answered 200, with its own version and action;
- every game's event log (with the revealed decks) replays to its stored state;
- versions strictly increase: by one per applied action, and never back in what a client sees;
- nobody got a 5xx, and every refusal carries one of the codes a race can explain.

(tests/api/test_concurrency.py is the in-process version: app instances in several processes.)
"""
from __future__ import annotations

import os

import pytest

from ..conftest import PG_SKIP, start_gunicorn, stop_gunicorn
from .support import scaled
from .torture import check_games, database_url, reader_app, run_clients, start_games

CLIENTS, GAMES, ROUNDS, WORKERS = scaled(4, 8), scaled(3, 16), scaled(8, 80), 3


@pytest.mark.parametrize("worker_class", ["sync", "gevent"])  # make run and the Procfile: gevent
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_torture_leaves_every_game_consistent(kind, worker_class, tmp_path):
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    with database_url(kind, tmp_path) as url:
        process, base_url = start_gunicorn(url, workers=WORKERS, log_path=tmp_path / "gunicorn.log",
                                           worker_class=worker_class)
        try:
            games = start_games(base_url, GAMES)
            logs = run_clients(base_url, games, CLIENTS, ROUNDS, tmp_path)
        finally:
            stop_gunicorn(process)
        log_text = (tmp_path / "gunicorn.log").read_text(errors="replace")
        assert "Traceback" not in log_text, log_text[-3000:]
        app = reader_app(url)
        counts = check_games(app, games, logs)
        from service.core.extensions import db
        with app.app_context():
            db.engine.dispose()
    print("torture counts", kind, counts)
    # The load really fought: moves went through, and racers lost and were told why.
    assert counts["applied"] >= GAMES * ROUNDS // 2, counts
    assert counts["out-of-turn refused"] and counts.get(200, 0) > counts["applied"], counts  # refused, replayed
