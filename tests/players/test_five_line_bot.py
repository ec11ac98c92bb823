"""docs/api.md's five-line bot, run as written (with a `choose` of its own) against a real server:
challenged by name, it accepts and plays the match to its end from its one stream."""
from __future__ import annotations

import subprocess
import sys
import time

import requests

from ..api.helpers import choose
from ..doc_blocks import block

CHOOSE = '''
def choose(view):
    legal = view["legal_actions"]
    for kind in ("big_gin", "knock", "pass"):
        for action in legal:
            if action["type"] == kind:
                return action
    for action in legal:
        if action["type"] == "draw" and action["from"] == "stock":
            return action
    deadwood = set((view.get("arrangement") or {}).get("deadwood") or view["hand"])
    points = {c: min(10, "A23456789TJQK".index(c[0]) + 1) for c in view["hand"]}
    discards = [a for a in legal if a["type"] == "discard"]
    return max(discards, key=lambda a: (a["card"] in deadwood, points[a["card"]])) if discards else legal[0]
'''


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_the_five_line_bot_plays_a_whole_match(live_server, tmp_path):
    code = block("five-line-bot")
    assert len(code.strip().splitlines()) == 5
    script = tmp_path / "bot.py"
    script.write_text(CHOOSE + code.replace("http://127.0.0.1:8000", live_server))
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        ann = requests.post(f"{live_server}/players", json={"name": "Ann"}, timeout=10).json()["token"]
        while True:  # until the bot has made its account
            offer = requests.post(f"{live_server}/challenges", json={"to": "MyBot", "rules": {"target": 25}},
                                  headers=bearer(ann), timeout=10)
            if offer.status_code == 201:
                break
            assert offer.json()["code"] == "unknown-player" and bot.poll() is None
            time.sleep(0.1)
        listed = {}
        while not listed.get("games"):  # the bot accepts from its stream
            assert bot.poll() is None, bot.stderr.read().decode()
            listed = requests.get(f"{live_server}/me/games", headers=bearer(ann), timeout=10).json()
            time.sleep(0.1)
        game = listed["games"][0]["game_id"]
        version = None
        for _ in range(5000):  # Ann's side: wait for a change, move when it is her turn
            waiting = {"If-None-Match": f'"{version}"'} if version else {}
            response = requests.get(f"{live_server}/games/{game}" + ("?wait=30" if version else ""),
                                    headers={**bearer(ann), **waiting}, timeout=40)
            if response.status_code == 304:
                continue
            view = response.json()
            version = view["version"]
            if view["status"] == "finished":
                break
            if view["to_move"] == view["seat"]:
                answer = requests.post(f"{live_server}/games/{game}/actions", json=choose(view), headers=bearer(ann),
                                       timeout=10)
                assert answer.status_code == 200, answer.text
        assert view["status"] == "finished" and view["result"], view
    finally:
        bot.kill()
        bot.wait()
