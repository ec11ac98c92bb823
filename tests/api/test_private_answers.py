"""Issue 38, item 11: every API answer holding a hand (or a seat's token, or its messages) says
`Cache-Control: no-store`, so "Forget this seat" leaves nothing of it in the browser's disk cache.
Public answers stay cacheable as before. Checked on a real gunicorn (the headers as sent)."""
from __future__ import annotations

import requests

from .helpers import auth, choose


def test_answers_holding_a_hand_are_never_stored(live_server):
    base = live_server
    created = requests.post(f"{base}/games", json={"name": "Ann"}, timeout=10)
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    game_id, ann = created.json()["game_id"], created.json()["token"]
    joined = requests.post(f"{base}/games/{game_id}/join", json={"invite_code": created.json()["invite_code"],
                                                                 "name": "Bob"}, timeout=10)
    assert joined.status_code == 201 and joined.headers["Cache-Control"] == "no-store"
    tokens = {0: ann, 1: joined.json()["token"]}
    seen = requests.get(f"{base}/games/{game_id}", headers=auth(ann), timeout=10)
    assert seen.status_code == 200 and seen.json()["hand"] and seen.headers["Cache-Control"] == "no-store"
    again = requests.get(f"{base}/games/{game_id}", headers=auth(ann, **{"If-None-Match": seen.headers["ETag"]}),
                         timeout=10)
    assert again.status_code == 304 and again.headers["Cache-Control"] == "no-store"  # ETags still answer
    mover = seen.json()["to_move"]
    view = seen.json() if mover == 0 else requests.get(f"{base}/games/{game_id}", headers=auth(tokens[1]),
                                                        timeout=10).json()
    moved = requests.post(f"{base}/games/{game_id}/actions", json=choose(view), headers=auth(tokens[mover]),
                          timeout=10)
    assert moved.status_code == 200 and moved.headers["Cache-Control"] == "no-store"
    said = requests.post(f"{base}/games/{game_id}/messages", json={"text": "hello"}, headers=auth(ann), timeout=10)
    assert said.status_code == 201, said.text
    for path in ("/messages", "/events", "/replay"):
        answer = requests.get(f"{base}/games/{game_id}{path}", headers=auth(ann), timeout=10)
        assert answer.headers.get("Cache-Control") == "no-store", (path, answer.status_code)
    # A refused token too (its answer may say which game exists).
    assert requests.get(f"{base}/games/{game_id}", headers=auth("nope"), timeout=10).headers[
        "Cache-Control"] == "no-store"
    # Public answers are not touched.
    assert "no-store" not in requests.get(f"{base}/health", timeout=10).headers.get("Cache-Control", "")
