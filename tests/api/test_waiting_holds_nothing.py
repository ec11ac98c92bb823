"""Waiting holds no database connection and reads nothing (issue 37): 500 waiters in one process
(80% streams, 20% long-polls, threads) hold no pooled connection and make no read while nothing
changes, a new waiter costs at most one read, and after one move per game every one of them answers
with the move's version. A stream's keep-alive reads nothing (the game's stream and the player's)."""
from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import event

from service.core import wakeup
from service.core.extensions import db
from service.games import waiting_slots

from .helpers import act, auth, choose, mover, new_game

GAMES, PER_GAME = 5, 100  # 500 waiters: on each game 80 streams and 20 long-polls


class Reads:
    """The pool checkouts (every read takes one: driver SQL's and the session's alike) and the
    statements sent through SQLAlchemy, on the app's engine, from now on, by the threads named in
    `threads` (a set of idents, filled in later): the waiters' own, not a background job's."""

    def __init__(self, engine, threads: set[int]):
        self.engine, self.threads, self._checkouts, self._statements = engine, threads, [], []
        event.listen(engine, "checkout", self._checkout)
        event.listen(engine, "before_cursor_execute", self._statement)

    def _checkout(self, *_):
        self._checkouts.append(threading.get_ident())

    def _statement(self, *_):
        self._statements.append(threading.get_ident())

    @property
    def checkouts(self) -> int:
        return sum(ident in self.threads for ident in list(self._checkouts))

    @property
    def statements(self) -> int:
        return sum(ident in self.threads for ident in list(self._statements))

    def stop(self):
        event.remove(self.engine, "checkout", self._checkout)
        event.remove(self.engine, "before_cursor_execute", self._statement)


@pytest.fixture
def roomy(app, monkeypatch):
    """The caps out of the way (every waiter is one address, two tokens per game): the point is the pool."""
    for name, value in {"WAIT_PER_TOKEN": 100000, "WAIT_ADDRESS_SHARE": 1.0, "WAIT_PER_PROCESS": 100000,
                        "STREAM_KEEPALIVE_SECONDS": 30.0}.items():
        monkeypatch.setitem(app.config, name, value)
    with app.app_context():  # listening first: a listener that (re)connects wakes every waiter to read once more
        assert wakeup.hub().ready(10)
    return app


def _text(frame) -> str:
    return frame.decode() if isinstance(frame, bytes) else frame


def test_500_waiters_hold_no_pooled_connection_and_all_wake_after_a_move(roomy, client):
    app = roomy
    games = [new_game(client) for _ in range(GAMES)]
    with app.app_context():
        engine = db.engine
    held_before, answers, lock = waiting_slots.slots.total, [], threading.Lock()

    def long_poll(game, seat):
        version = game["view"]["version"]
        answer = app.test_client().get(f"/games/{game['id']}?wait=60",
                                       headers=auth(game["tokens"][seat], **{"If-None-Match": f'"{version}"'}))
        with lock:
            answers.append((game["id"], "long-poll", answer.status_code, answer.headers.get("ETag")))

    def stream(game, seat):
        version = game["view"]["version"]  # named as seen: no view is sent until the game moves
        response = app.test_client().get(f"/games/{game['id']}/stream", buffered=False,
                                         headers=auth(game["tokens"][seat], **{"Last-Event-ID": str(version)}))
        seen = None
        try:
            for frame in response.response:
                text = _text(frame)
                if text.startswith("id: "):
                    seen = text.split("\n", 1)[0].removeprefix("id: ")
                    break
        finally:
            response.close()
        with lock:
            answers.append((game["id"], "stream", response.status_code, seen))

    idents: set[int] = set()
    reads = Reads(engine, idents)
    threads = [threading.Thread(target=long_poll if n % 5 == 0 else stream, args=(game, n % 2), daemon=True)
               for game in games for n in range(PER_GAME)]
    try:
        for thread in threads:
            thread.start()
            idents.add(thread.ident)
        deadline = time.monotonic() + 120
        while waiting_slots.slots.total < held_before + len(threads) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert waiting_slots.slots.total == held_before + len(threads), "not all waiting"
        time.sleep(0.5)  # the last ones past their read, into their wait
        assert reads.checkouts <= len(threads)  # a new waiter: at most one read
        quiet, in_use = reads.checkouts, []
        for _ in range(40):  # 2 s of 500 waiters waiting
            in_use.append(engine.pool.checkedout())
            time.sleep(0.05)
        assert set(in_use) == {0}, in_use
        assert reads.checkouts == quiet  # nothing read while nothing changes

        moved = {}
        for game in games:
            seat, mine = mover(client, game)
            answer = act(client, game, seat, choose(mine))
            assert answer.status_code == 200, answer.get_json()
            moved[game["id"]] = answer.get_json()["version"]
        for thread in threads:
            thread.join(60)
        # After the wake-up, one read each: a woken waiter reads its view once.
        assert reads.checkouts - quiet <= len(threads) + 10 * GAMES
    finally:
        reads.stop()
    assert len(answers) == len(threads)
    for game_id, kind, status, version in answers:
        if kind == "long-poll":
            assert (status, version) == (200, f'"{moved[game_id]}"')
        else:
            assert (status, version) == (200, str(moved[game_id]))
    assert waiting_slots.slots.total == held_before
    assert engine.pool.checkedout() == 0


def test_a_game_streams_keep_alives_read_nothing(roomy, client, monkeypatch):
    monkeypatch.setitem(roomy.config, "STREAM_KEEPALIVE_SECONDS", 0.1)
    game = new_game(client)
    with roomy.app_context():
        engine, hub = db.engine, wakeup.hub()
    response = client.get(f"/games/{game['id']}/stream", headers=auth(game["tokens"][0]), buffered=False)
    frames = iter(response.response)
    try:
        assert _text(next(frames)) == "retry: 2000\n\n"
        assert _text(next(frames)).startswith(f"id: {game['view']['version']}\nevent: view\n")
        # Half a second of keep-alives reads nothing. A wake-up of every waiter meanwhile (the
        # listener reconnecting: CI saw one) is a read no keep-alive made: that window is tried again.
        for _ in range(3):
            mark = hub.mark()
            reads = Reads(engine, {threading.get_ident()})  # the stream's generator runs in this thread
            try:
                assert [_text(next(frames)) for _ in range(5)] == [": keep-alive\n\n"] * 5
            finally:
                reads.stop()
            if not hub.woken_since(mark, wakeup.game_key(game["id"])):
                break
        else:
            pytest.fail("every window was woken")
        assert (reads.checkouts, reads.statements) == (0, 0)
        seat, mine = mover(client, game)  # and it still hears a move
        version = act(client, game, seat, choose(mine)).get_json()["version"]
        assert next(text for text in map(_text, frames) if text.startswith("id:")).startswith(f"id: {version}\n")
    finally:
        response.close()


def test_a_players_streams_keep_alives_read_nothing(roomy, client, monkeypatch):
    monkeypatch.setitem(roomy.config, "STREAM_KEEPALIVE_SECONDS", 0.1)
    registered = client.post("/players", json={"name": "Quiet"}).get_json()
    with roomy.app_context():
        engine = db.engine
    reads = Reads(engine, {threading.get_ident()})
    response = client.get("/me/stream", headers=auth(registered["token"]), buffered=False)
    frames = iter(response.response)
    try:
        assert _text(next(frames)) == ": connected\n\n"
        opened = reads.checkouts  # the route's read of the player (its token)
        assert opened <= 1
        assert [_text(next(frames)) for _ in range(5)] == [": keep-alive\n\n"] * 5
        assert reads.checkouts == opened
    finally:
        reads.stop()
        response.close()


def test_a_late_wake_up_for_a_version_the_waiter_has_wakes_nobody(roomy):
    """A wake-up can arrive after the waiter read past it (a datagram behind a later read, under
    load): versions only grow, so one for a version the waiter has, or an older one, costs no read."""
    with roomy.app_context():
        hub = wakeup.hub()
        waiter = hub.join("game:late", 5)
        try:
            for stale in (4, 5):
                hub.wake("game:late", stale)
                assert not waiter.wait(0.05), stale
            hub.wake("game:late", 6)
            assert waiter.wait(1) and waiter.news() == (True, False)
            hub.wake("game:late", None)  # "anything may have changed" (a listener back) wakes all
            assert waiter.wait(1) and waiter.news() == (True, True)
        finally:
            waiter.leave()


def test_a_late_wake_up_for_a_version_the_waiters_read_saw_is_no_news():
    """A waiter joins before its read and learns its version after it: a commit's wake-up that
    arrives in between (PostgreSQL echoes a process's own NOTIFY, late) for a version the read saw
    asks for no second read; a later version, or a wake-up that names none, does."""
    waiter = wakeup.Waiter("game:x", None)
    waiter.wake(chatted=False, version=3)  # the join's commit, heard after the read began
    waiter.version = 3  # what the read found
    assert waiter.wait(0) and waiter.news() == (False, False)
    waiter.wake(chatted=False, version=4)
    assert waiter.news() == (True, False)
    waiter.wake(chatted=False, version=2)
    waiter.wake()  # a listener reconnecting: anything may have moved
    assert waiter.news() == (True, True)
    waiter.wake(moved=False)  # a message
    assert waiter.news() == (False, True)
