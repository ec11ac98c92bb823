"""End to end: a real gunicorn (2 sync workers) on a loopback port, driven with requests."""
from __future__ import annotations

import requests

from .helpers import choose


def bearer(token: str, **headers) -> dict:
    return {"Authorization": f"Bearer {token}", **headers}


def test_create_join_and_play_turns_over_http(live_server):
    session = requests.Session()
    created = session.post(f"{live_server}/games", json={"name": "Ann"}, timeout=10)
    assert created.status_code == 201 and created.headers["Content-Type"] == "application/json"
    game_id, tokens = created.json()["game_id"], {0: created.json()["token"]}
    joined = session.post(f"{live_server}/games/{game_id}/join",
                          json={"invite_code": created.json()["invite_code"], "name": "Bob"}, timeout=10)
    assert joined.status_code == 201
    tokens[1] = joined.json()["token"]

    version = joined.json()["game"]["version"]
    for _ in range(12):  # a dozen moves, each seat reading its own view first
        views = {seat: session.get(f"{live_server}/games/{game_id}", headers=bearer(tokens[seat]), timeout=10)
                 for seat in (0, 1)}
        assert all(v.status_code == 200 and v.headers["ETag"] == f'"{version}"' for v in views.values())
        seat = views[0].json()["to_move"]
        action = choose(views[seat].json())
        moved = session.post(f"{live_server}/games/{game_id}/actions", json=action,
                             headers=bearer(tokens[seat], **{"If-Match": f'"{version}"'}), timeout=10)
        assert moved.status_code == 200, moved.text
        assert moved.json()["version"] == version + 1
        version += 1
        if moved.json()["status"] == "finished":
            break

    # Conditional GET, a stale If-Match and an unknown token, over the wire.
    unchanged = session.get(f"{live_server}/games/{game_id}",
                            headers=bearer(tokens[0], **{"If-None-Match": f'"{version}"'}), timeout=10)
    assert unchanged.status_code == 304
    stale = session.post(f"{live_server}/games/{game_id}/actions", json={"type": "pass"},
                         headers=bearer(tokens[0], **{"If-Match": '"1"'}), timeout=10)
    assert stale.status_code == 412 and stale.headers["Content-Type"] == "application/problem+json"
    assert stale.json()["code"] == "version-mismatch"
    denied = session.get(f"{live_server}/games/{game_id}", headers=bearer("nope"), timeout=10)
    assert denied.status_code == 401 and denied.json()["code"] == "invalid-token"
    history = session.get(f"{live_server}/games/{game_id}/events", headers=bearer(tokens[1]), timeout=10)
    assert history.status_code == 200 and history.json()["events"][0]["type"] == "deal"


def test_limits_and_docs_over_http(live_server):
    too_big = requests.post(f"{live_server}/games", data=b"{" + b" " * (65 * 1024) + b"}",
                            headers={"Content-Type": "application/json"}, timeout=10)
    assert too_big.status_code == 413 and too_big.json()["code"] == "payload-too-large"
    assert requests.get(f"{live_server}/health", timeout=10).json()["status"] == "ok"
    assert requests.get(f"{live_server}/openapi.json", timeout=10).json()["openapi"].startswith("3.")
    assert "/games/{game_id}/actions" in requests.get(f"{live_server}/docs", timeout=10).text
