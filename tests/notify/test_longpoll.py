"""GET /games/{id}?wait=N: returns when the game moves, 304 after N seconds otherwise, and never
holds up the requests that move the game meanwhile."""
from __future__ import annotations

import threading

from service.core import wakeup

from .conftest import act, auth, start_game, view


def get(client, game, seat, query="", etag=None):
    headers = auth(game["tokens"][seat]) | ({"If-None-Match": etag} if etag else {})
    return client.get(f"/games/{game['id']}{query}", headers=headers)


def test_a_waiting_request_returns_as_soon_as_the_game_moves(nclient, notify_app, monkeypatch):
    game = start_game(nclient)
    seat = view(nclient, game, 0)["to_move"]
    first = get(nclient, game, 1 - seat)
    answers, waiting = {}, threading.Event()
    real_wait = wakeup.Waiter.wait

    def wait(self, seconds):  # the real wait, telling the test when it has begun
        waiting.set()
        return real_wait(self, seconds)
    monkeypatch.setattr(wakeup.Waiter, "wait", wait)

    def wait_for_it():
        answers["wait"] = get(notify_app.test_client(), game, 1 - seat, "?wait=30", first.headers["ETag"])
    waiter = threading.Thread(target=wait_for_it)
    waiter.start()
    assert waiting.wait(10)
    assert "wait" not in answers  # it is waiting
    # The move goes through while the other request waits (it holds no lock or transaction),
    # and wakes it: the answer is the view after the move.
    moved = act(notify_app.test_client(), game, seat, {"type": "pass"})
    assert moved.status_code == 200
    waiter.join(40)
    answer = answers["wait"]
    assert answer.status_code == 200 and answer.headers["ETag"] == moved.headers["ETag"] != first.headers["ETag"]
    assert answer.get_json()["to_move"] == 1 - seat


def test_unchanged_after_the_wait_is_304_and_a_stale_version_answers_at_once(nclient):
    game = start_game(nclient)
    current = get(nclient, game, 0)
    version = current.get_json()["version"]
    timed_out = get(nclient, game, 0, "?wait=1", current.headers["ETag"])
    assert timed_out.status_code == 304 and timed_out.headers["ETag"] == current.headers["ETag"]
    by_param = get(nclient, game, 0, f"?wait=1&version={version}")
    assert by_param.status_code == 304
    stale = get(nclient, game, 0, f"?wait=30&version={version - 1}")
    assert stale.status_code == 200 and stale.get_json()["version"] == version
    plain = get(nclient, game, 0, "?wait=30")  # nothing to compare with: no waiting
    assert plain.status_code == 200


def test_wait_is_bounded_and_checked(nclient):
    game = start_game(nclient)
    for query in ("?wait=61", "?wait=-1", "?wait=soon", "?version=x"):
        response = get(nclient, game, 0, query)
        assert response.status_code == 422 and response.get_json()["code"] == "validation-error", query
    assert get(nclient, {**game, "tokens": {0: "nope"}}, 0, "?wait=5").status_code == 401
