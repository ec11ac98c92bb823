"""The account bot (`gin-bot`) against a real server: it makes its own account, accepts the
challenges that fit its settings from its one stream (declining the others with a reason), and
plays three games at once to their ends."""
from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from ..api.helpers import choose
from ..conftest import ROOT
from .live_side import play_side

GIN_BOT = str(Path(sys.executable).parent / "gin-bot")  # the account bot, as the Procfile runs it


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="session")
def house_token_file(tmp_path_factory):
    """One house bot account per live server (one per test process): the first test to start the house
    bot registers it, the next reuses its token, as the Procfile's bot does after a restart."""
    return tmp_path_factory.mktemp("house") / "house.token"


def test_the_account_bot_plays_three_games_at_once_from_one_stream(live_server, tmp_path):
    token_file = tmp_path / "bot.token"
    log = open(tmp_path / "bot.log", "w+")
    bot = subprocess.Popen([GIN_BOT, "--server", live_server,
                            "--token-file", str(token_file), "--register", "RoboBot", "--presets", "standard",
                            "--max-games", "3"], stdout=log, stderr=subprocess.STDOUT)
    try:
        people = [requests.post(f"{live_server}/players", json={"name": f"Person{n}"}, timeout=10).json()["token"]
                  for n in range(4)]
        while not token_file.exists():  # the bot makes its account
            assert bot.poll() is None, (tmp_path / "bot.log").read_text()
            time.sleep(0.05)
        assert token_file.stat().st_mode & 0o077 == 0  # the token file is the owner's only
        refused = requests.post(f"{live_server}/challenges", json={"to": "RoboBot", "rules": {"preset": "oklahoma"}},
                                headers=bearer(people[3]), timeout=10).json()
        offers = [requests.post(f"{live_server}/challenges", json={"to": "RoboBot", "rules": {
            "preset": "standard", "target": 25}}, headers=bearer(token), timeout=10).json() for token in people[:3]]
        games = []
        for token, offer in zip(people, offers):
            while True:  # accepted from the stream (or, had it come first, from the catch-up)
                found = requests.get(f"{live_server}/me/games", headers=bearer(token), timeout=10).json()["games"]
                if found:
                    break
                assert bot.poll() is None, (tmp_path / "bot.log").read_text()
                time.sleep(0.05)
            games.append((found[0]["game_id"], token))
        with ThreadPoolExecutor(3) as pool:
            finals = list(pool.map(lambda game: play_side(live_server, *game), games))
        assert all(view["status"] == "finished" and view["result"] for view in finals)
        while True:  # the challenge outside its settings is declined, saying why
            declined = requests.get(f"{live_server}/challenges", headers=bearer(people[3]), timeout=10).json()["mine"]
            if not declined:
                break
            time.sleep(0.05)
        mine = requests.post(f"{live_server}/challenges/{refused['challenge_id']}/cancel", headers=bearer(people[3]),
                             timeout=10).json()
        assert mine["code"] == "challenge-closed"
        while sum(" rating " in line for line in (tmp_path / "bot.log").read_text().splitlines()) < 3:
            assert bot.poll() is None, (tmp_path / "bot.log").read_text()  # each match's rating, logged
            time.sleep(0.05)
    finally:
        bot.terminate()
        bot.wait()
    lines = (tmp_path / "bot.log").read_text().splitlines()
    assert any("declined: rules" in line for line in lines)
    decisions = [line for line in lines if " action=" in line]
    assert {game_id[:8] for game_id, _ in games} <= {line.split("game=")[1][:8] for line in decisions}
    assert "Traceback" not in "\n".join(lines)
    # After each match, a line with what it did to the bot's rating; the last one's is the rating now.
    rated = [line for line in lines if " rating " in line]
    assert {line.split("game=")[1][:8] for line in rated} == {game_id[:8] for game_id, _ in games}
    now = requests.get(f"{live_server}/players/RoboBot", timeout=10).json()["rating"]
    assert rated[-1].split(" -> ")[1].split(" ")[0] == str(now["value"]) and now["games"] == 3


def test_the_procfile_house_bot_accepts_a_challenge_and_plays_it_out(live_server, tmp_path, house_token_file):
    import os
    line = next(l for l in (ROOT / "Procfile").read_text().splitlines() if l.startswith("bot:"))
    env = {**os.environ, "GIN_SERVER": live_server, "HOUSE_BOT_TOKEN_FILE": str(house_token_file),
           "HOUSE_BOT_NAME": "House", "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    log = open(tmp_path / "house.log", "w+")
    house = subprocess.Popen(["bash", "-c", "exec " + line.split(":", 1)[1]], cwd=ROOT, env=env, stdout=log,
                             stderr=subprocess.STDOUT)
    try:
        person = requests.post(f"{live_server}/players", json={"name": "Visitor"}, timeout=10).json()["token"]
        while True:  # until the house bot has its account
            offer = requests.post(f"{live_server}/challenges", json={"to": "House", "rules": {"target": 25}},
                                  headers=bearer(person), timeout=10)
            if offer.status_code == 201:
                break
            assert house.poll() is None, (tmp_path / "house.log").read_text()
            time.sleep(0.05)
        while not (found := requests.get(f"{live_server}/me/games", headers=bearer(person), timeout=10).json()["games"]):
            assert house.poll() is None, (tmp_path / "house.log").read_text()
            time.sleep(0.05)
        assert found[0]["opponent"] == {"name": "House", "player": "House", "bot": True}
        final = play_side(live_server, found[0]["game_id"], person)
        assert final["status"] == "finished" and final["result"]
    finally:
        house.terminate()
        house.wait()


def test_the_house_bot_plays_a_game_at_the_level_its_challenger_chose(live_server, tmp_path, house_token_file):
    """Level 5 with a small --think-seconds, from the level on its seat: every decision logged with it."""
    token_file = house_token_file
    log = open(tmp_path / "house.log", "w+")
    house = subprocess.Popen([GIN_BOT, "--server", live_server,
                              "--token-file", str(token_file), "--register", "House", "--think-seconds", "0.01"],
                             stdout=log, stderr=subprocess.STDOUT)
    try:
        person = requests.post(f"{live_server}/players", json={"name": "Levelled"}, timeout=10).json()["token"]
        while not token_file.exists():
            assert house.poll() is None, (tmp_path / "house.log").read_text()
            time.sleep(0.05)
        offer = requests.post(f"{live_server}/challenges", json={"to": "House", "level": 5, "rules": {"target": 10}},
                              headers=bearer(person), timeout=10).json()
        assert offer["level"] == 5
        while True:
            found = requests.get(f"{live_server}/me/games", headers=bearer(person), timeout=10).json()["games"]
            if found:
                break
            assert house.poll() is None, (tmp_path / "house.log").read_text()
            time.sleep(0.05)
        game_id = found[0]["game_id"]
        final = play_side(live_server, game_id, person)
        assert final["status"] == "finished"
        assert {"seat": 1 - final["seat"], "name": "House", "level": 5} in final["players"]
    finally:
        house.terminate()
        house.wait()
    lines = (tmp_path / "house.log").read_text().splitlines()
    decisions = [line for line in lines if f"game={game_id[:8]}" in line and " action=" in line]
    assert decisions and all("level=5 " in line for line in decisions)
    assert "Traceback" not in "\n".join(lines)


# -- issue 38, item 5: a thinking pool serves many players at once --------------------------------

def start_house(live_server, tmp_path, token_file, *options):
    log = open(tmp_path / "house.log", "w+")
    house = subprocess.Popen([GIN_BOT, "--server", live_server, "--token-file", str(token_file), "--register", "House",
                              *options], stdout=log, stderr=subprocess.STDOUT)
    while not token_file.exists():
        assert house.poll() is None, (tmp_path / "house.log").read_text()
        time.sleep(0.05)
    return house


def stop_house(house, tmp_path) -> list[str]:
    house.terminate()
    house.wait(timeout=30)
    lines = (tmp_path / "house.log").read_text().splitlines()
    assert "Traceback" not in "\n".join(lines)
    return lines


def game_with_house(live_server, token: str, house, tmp_path, **challenge) -> str:
    """The game of the player's challenge to the house bot, once accepted (the player's only game)."""
    offer = requests.post(f"{live_server}/challenges", json={"to": "House", **challenge}, headers=bearer(token),
                          timeout=10)
    assert offer.status_code == 201, offer.text
    while not (games := requests.get(f"{live_server}/me/games", headers=bearer(token), timeout=10).json()["games"]):
        assert house.poll() is None, (tmp_path / "house.log").read_text()
        time.sleep(0.05)
    return games[0]["game_id"]


def my_turn_before(live_server, game_id: str, token: str, holding) -> dict:
    """Play the simple policy until it is this seat's turn with a move holding(view, move) is true of:
    the view, its move not made."""
    version = None
    while True:
        waiting = {"If-None-Match": f'"{version}"'} if version else {}
        response = requests.get(f"{live_server}/games/{game_id}" + ("?wait=30" if version else ""),
                                headers={**bearer(token), **waiting}, timeout=40)
        if response.status_code == 304:
            continue
        view = response.json()
        version = view["version"]
        assert view["status"] == "active", view
        if view["to_move"] == view["seat"]:
            if holding(view, choose(view)):
                return view
            answer = requests.post(f"{live_server}/games/{game_id}/actions", json=choose(view), headers=bearer(token),
                                   timeout=10)
            assert answer.status_code == 200, answer.text


def move(live_server, game_id: str, token: str, view: dict) -> int:
    """Make the simple policy's move; the version it made."""
    answer = requests.post(f"{live_server}/games/{game_id}/actions", json=choose(view), timeout=10,
                           headers={**bearer(token), "If-Match": f'"{view["version"]}"'})
    assert answer.status_code == 200, answer.text
    return answer.json()["version"]


def version_of(live_server, game_id: str, token: str) -> int:
    return requests.get(f"{live_server}/games/{game_id}", headers=bearer(token), timeout=10).json()["version"]


def test_a_slow_decision_in_one_game_does_not_hold_another_games_reply(live_server, tmp_path, house_token_file):
    """A level-5 game's bot thinks (it weighs taking the pile's top card against the stock for
    --think-seconds) while a level-1 game's reply is made and arrives: the two decisions are in
    flight at once, each game's move waits for its own decision only (before the pool: the level-1
    move waited in the stream's thread until the level-5 one was made)."""
    # 15 s of thought: the level-1 reply must arrive inside it, on a loaded two-core machine too.
    house = start_house(live_server, tmp_path, house_token_file, "--think-seconds", "15", "--thinkers", "2")
    try:
        ann, bea = (requests.post(f"{live_server}/players", json={"name": name}, timeout=10).json()["token"]
                    for name in ("PoolAnn", "PoolBea"))
        deep = game_with_house(live_server, ann, house, tmp_path, level=5, rules={"target": 100})
        quick = game_with_house(live_server, bea, house, tmp_path, level=1, rules={"target": 100})
        # Ann's discard leaves the bot a draw from the stock or the pile: level 5 plays both out.
        ann_view = my_turn_before(live_server, deep, ann, lambda view, action: action["type"] == "discard")
        bea_view = my_turn_before(live_server, quick, bea, lambda view, action: action["type"] in ("discard", "pass"))
        thinking = move(live_server, deep, ann, ann_view)
        time.sleep(1.0)  # the bot reads Ann's move from its stream and begins the level-5 decision
        waiting = move(live_server, quick, bea, bea_view)
        deadline = time.monotonic() + 60
        while version_of(live_server, quick, bea) == waiting:  # the level-1 game's reply arrives ...
            assert house.poll() is None, (tmp_path / "house.log").read_text()
            assert time.monotonic() < deadline, "the level-1 reply never came"
            time.sleep(0.02)
        assert version_of(live_server, deep, ann) == thinking  # ... while the level-5 game's is still thought
        while version_of(live_server, deep, ann) == thinking:  # and then that one comes too
            assert house.poll() is None, (tmp_path / "house.log").read_text()
            assert time.monotonic() < deadline, "the level-5 reply never came"
            time.sleep(0.05)
    finally:
        lines = stop_house(house, tmp_path)
    assert any(f"game={deep[:8]}" in line and "level=5 " in line for line in lines)


def test_the_house_bot_holds_more_games_than_four_players_caps_by_default(live_server, tmp_path, house_token_file):
    """Five players each hold the per-player most (3) with the house bot at once: 15 games, all
    accepted by gin-bot's default --max-games (before: 10, and the eleventh was declined `busy`)."""
    house = start_house(live_server, tmp_path, house_token_file, "--thinkers", "1")
    try:
        people = [requests.post(f"{live_server}/players", json={"name": f"Crowd{n}"}, timeout=10).json()["token"]
                  for n in range(5)]
        offers = [requests.post(f"{live_server}/challenges", json={"to": "House", "level": 1}, headers=bearer(token),
                                timeout=10) for token in people for _ in range(3)]
        assert all(offer.status_code == 201 for offer in offers), [offer.text for offer in offers]
        held = lambda: sum(len(requests.get(f"{live_server}/me/games", headers=bearer(token), timeout=10).json()[
            "games"]) for token in people)
        while (pending := sum(len(requests.get(f"{live_server}/challenges", headers=bearer(token),
                                               timeout=10).json()["mine"]) for token in people)):
            assert house.poll() is None, (tmp_path / "house.log").read_text()  # each accepted or declined
            time.sleep(0.1)
        assert held() == 15
    finally:
        lines = stop_house(house, tmp_path)
    assert not any("declined" in line for line in lines)
