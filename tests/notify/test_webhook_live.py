"""Issue 28, live: a bot owner behind a receiver that takes 0.25 s a call, beside a match played
as fast as the service answers, receives every event the game produced. Real gunicorn, the real
notify worker (`flask notify worker`), a real receiver on loopback; SQLite and PostgreSQL."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.api.helpers import stored_game
from tests.conftest import PG_SKIP, start_gunicorn, stop_gunicorn
from tests.hardening.torture import database_url, reader_app

from .live import SlowReceiver, play_match, settled, start_worker, stop_worker

TARGET = 100  # several hands: a match to 40 can end in its first (then no hand.ended at all)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_slow_receiver_beside_a_fast_match_gets_every_event(kind, tmp_path):
    import os
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    receiver = SlowReceiver(delay=0.25)
    with database_url(kind, tmp_path) as url:
        server, base = start_gunicorn(url, log_path=tmp_path / "gunicorn.log", env={"WEBHOOK_ALLOW_PRIVATE": "1"})
        worker = start_worker(url, tmp_path / "worker.log")
        try:
            game = play_match(base, TARGET, receiver.url)
            app = reader_app(url)
            rows = settled(app, game["id"])
            hands = stored_game(app, game["id"]).state["hand_number"]
        finally:
            stop_worker(worker)
            stop_gunicorn(server)
            receiver.stop()
        from service.core.extensions import db
        with app.app_context():
            db.engine.dispose()
    statuses = Counter(r.status for r in rows)
    assert statuses["dead"] == 0 and statuses["pending"] == 0, statuses
    received = receiver.delivered()
    sent = {r.message_id for r in rows if r.status == "sent"}
    # Each row's status is what the receiver was sent and answered: sent rows arrived, once each
    # (no worker died here), and nothing else arrived; replaced ones were never called.
    assert set(received) == sent and set(received.values()) == {1}
    assert all(r.response_code == 204 and r.attempts == 1 for r in rows if r.status == "sent")
    replaced = [r for r in rows if r.status == "replaced"]
    assert all(r.kind == "turn.started" and r.attempts == 0 for r in replaced)
    kinds = Counter((r.seat, r.kind) for r in rows if r.status == "sent")
    assert kinds[(0, "match.ended")] == kinds[(1, "match.ended")] == 1
    # Every hand's end, to both seats (the last hand's end is the match's end).
    assert kinds[(0, "hand.ended")] == kinds[(1, "hand.ended")] == hands - 1 >= 1, (kinds, hands)
    # A seat's calls arrived one after another in the order they were queued.
    arrived = sorted(receiver.calls, key=lambda c: c["arrived"])
    for seat in (0, 1):
        queued = [r.message_id for r in rows if r.seat == seat and r.status == "sent"]
        assert [c["id"] for c in arrived if c["id"] in set(queued)] == queued, f"seat {seat}'s calls out of order"
    with_type = Counter(c["type"] for c in receiver.calls)
    print(f"live slow receiver ({kind}): {len(rows)} calls queued, {statuses}, received {dict(with_type)}")
