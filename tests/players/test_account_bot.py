"""The reference bot in account mode against a real server: it makes its own account, accepts the
challenges that fit its settings from its one stream (declining the others with a reason), and
plays three games at once to their ends."""
from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from ..conftest import ROOT
from .live_side import play_side


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
    bot = subprocess.Popen([sys.executable, str(ROOT / "client" / "account_bot.py"), "--server", live_server,
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
    house = subprocess.Popen([sys.executable, str(ROOT / "client" / "account_bot.py"), "--server", live_server,
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
