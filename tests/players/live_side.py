"""A person's side of a game against a real server, for the bots' tests: wait for a change with
the long-poll, move with the simple policy when it is this seat's turn, until the match ends."""
from __future__ import annotations

import requests

from ..api.helpers import choose


def play_side(base: str, game_id: str, token: str, moves: int = 5000) -> dict:
    headers, version = {"Authorization": f"Bearer {token}"}, None
    for _ in range(moves):
        waiting = {"If-None-Match": f'"{version}"'} if version else {}
        response = requests.get(f"{base}/games/{game_id}" + ("?wait=30" if version else ""),
                                headers={**headers, **waiting}, timeout=40)
        if response.status_code == 304:
            continue
        view = response.json()
        version = view["version"]
        if view["status"] == "finished":
            return view
        if view["to_move"] == view["seat"]:
            answer = requests.post(f"{base}/games/{game_id}/actions", json=choose(view), headers=headers, timeout=10)
            assert answer.status_code == 200, answer.text
    raise AssertionError("the match did not end")
