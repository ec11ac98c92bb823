"""The client's player commands: register, me, games, challenges (make, list, accept, decline,
cancel), rematch, watch links, and `gin new --vs-bot` against the house bot. People are the `gin`
command with their own token files; the server is a real gunicorn; bad input changes nothing."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import pytest
import requests

from gin_client.cli.common import EXIT_ERROR, EXIT_NOT_FOUND, EXIT_RULES, EXIT_USAGE

from ..api.test_waiting_live import KINDS, servers
from ..conftest import ROOT
from ..players.live_side import play_side
from .conftest import GIN_BOT, Player


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


def person(tmp_path, server: str, name: str) -> Player:
    return Player(tmp_path / name, server)


def stored(player: Player) -> dict:
    import json
    return json.loads(player.config.read_text())


def pending(server: str, token: str) -> dict:
    return requests.get(f"{server}/challenges", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()


def test_register_keeps_the_token_and_me_shows_the_account(tmp_path, gin_server):
    name = unique("Ann")
    ann = person(tmp_path, gin_server, "ann")
    said = ann.run("register", name, "--email", "ann@example.org").stdout
    assert f"Registered {name}" in said and "token" in said and len(stored(ann)["players"][gin_server]["token"]) > 20
    assert os.stat(ann.config).st_mode & 0o077 == 0
    assert stored(ann)["players"][gin_server]["token"] not in said  # shown only with --show-token
    me = ann.json("me")
    assert me["name"] == name and me["email"] == "ann@example.org" and me["bot"] is False and "token" not in me
    assert stored(ann)["players"][gin_server]["token"] in ann.run("me", "--show-token").stdout


def test_register_refuses_bad_input_and_changes_nothing(tmp_path, gin_server):
    name = unique("Ann")
    ann, other = (person(tmp_path, gin_server, who) for who in ("ann", "other"))
    ann.run("register", name)
    before = ann.config.read_text()
    twice = ann.run("register", unique("Again"), check=EXIT_USAGE)
    assert "holds the player" in twice.stderr and ann.config.read_text() == before
    taken = other.run("register", name.upper(), check=EXIT_RULES)
    assert "[name-taken]" in taken.stderr and not other.config.exists()
    blank = other.run("register", "   ", check=EXIT_RULES)
    assert "[validation-error]" in blank.stderr and not other.config.exists()
    nobody = other.run("me", check=EXIT_USAGE)
    assert "gin register NAME" in nobody.stderr


def test_challenge_list_accept_and_both_see_the_game(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    names = unique("Ann"), unique("Bob")
    ann.run("register", names[0])
    bob.run("register", names[1])
    made = ann.json("challenge", names[1], "--preset", "oklahoma", "--option", "target=50", "--move-hours", "24")
    assert made["to"] == names[1] and made["rules"]["preset"] == "oklahoma" and made["move_time_hours"] == 24
    listed = bob.run("challenges").stdout
    assert made["challenge_id"] in listed and "oklahoma to 50" in listed
    accepted = bob.run("accept", made["challenge_id"][:10], "--plain").stdout  # a unique prefix will do
    assert "Accepted. Game" in accepted
    (game_id, entry), = stored(bob)["games"].items()
    assert entry["player"] == names[1] and "token" not in entry  # the player token opens the seat
    assert bob.json("show")["game_id"] == game_id
    games = ann.json("games")["games"]
    assert [g["game_id"] for g in games] == [game_id] and games[0]["opponent"]["player"] == names[1]
    assert game_id in stored(ann)["games"]  # `gin games` remembers it, so the seat commands work
    assert ann.json("show", "-g", game_id[:8])["seat"] == 1 - entry["seat"]
    assert f"{names[1][:24]}" in ann.run("games").stdout
    token = ann.run("token", "-g", game_id[:8], check=EXIT_USAGE)
    assert "player token" in token.stderr


def test_decline_cancel_and_their_bad_input(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    names = unique("Ann"), unique("Bob")
    ann.run("register", names[0])
    bob.run("register", names[1])
    token = stored(ann)["players"][gin_server]["token"]
    assert "[unknown-player]" in ann.run("challenge", unique("Nobody"), check=EXIT_RULES).stderr
    assert "[challenge-to-self]" in ann.run("challenge", names[0], check=EXIT_RULES).stderr
    assert "not both" in ann.run("challenge", check=EXIT_USAGE).stderr
    assert "not both" in ann.run("challenge", names[1], "--open", check=EXIT_USAGE).stderr
    assert "invalid choice" in ann.run("challenge", names[1], "--opponent", "robot", check=EXIT_USAGE).stderr
    assert "[invalid-option]" in ann.run("challenge", names[1], "--option", "target=-4", check=EXIT_RULES).stderr
    assert "from 1" in ann.run("challenge", names[1], "--expires-hours", "0", check=EXIT_USAGE).stderr
    assert pending(gin_server, token)["mine"] == []  # none of those made a challenge
    first = ann.json("challenge", names[1])["challenge_id"]
    assert "invalid choice" in bob.run("decline", first, "--reason", "tired", check=EXIT_USAGE).stderr
    assert "not a challenge id" in bob.run("decline", "no/such", check=EXIT_USAGE).stderr
    assert "no pending challenge" in bob.run("decline", "zzzz", check=EXIT_USAGE).stderr
    assert "[challenge-not-found]" in ann.run("decline", first, check=EXIT_NOT_FOUND).stderr  # not hers
    assert "(busy)" in bob.run("decline", first[:12], "--reason", "busy").stdout
    assert "[challenge-closed]" in bob.run("accept", first, check=EXIT_RULES).stderr
    second = ann.json("challenge", "--open", "--opponent", "human")["challenge_id"]
    assert second in bob.run("challenges").stdout
    assert "[challenge-not-found]" in bob.run("cancel", second, check=EXIT_NOT_FOUND).stderr  # not his
    assert "Withdrew" in ann.run("cancel", second).stdout
    assert pending(gin_server, token)["mine"] == []
    assert stored(bob)["games"] == {}


def test_player_commands_need_an_account_and_their_arguments(tmp_path, gin_server):
    ann = person(tmp_path, gin_server, "ann")
    for args in (("games",), ("challenges",), ("challenge", "Bob"), ("accept", "x" * 22), ("new", "--vs-bot")):
        assert "gin register NAME" in ann.run(*args, check=EXIT_USAGE).stderr, args
    assert "from 1" in ann.run("games", "--limit", "0", check=EXIT_USAGE).stderr
    assert "from 0" in ann.run("games", "--offset", "-1", check=EXIT_USAGE).stderr
    ann.run("register", unique("Ann"))
    assert "above 0" in ann.run("new", "--vs-bot", "--timeout", "0", check=EXIT_USAGE).stderr
    assert "--vs-bot --level" in ann.run("new", "--level", "2", check=EXIT_USAGE).stderr  # a level for a person
    assert "invalid choice" in ann.run("new", "--vs-bot", "--level", "6", check=EXIT_USAGE).stderr
    assert "above 0" in ann.run("challenge", "--open", "--wait", "-1", check=EXIT_USAGE).stderr
    assert "No games yet" in ann.run("games").stdout


def test_vs_bot_without_a_house_bot_says_so(tmp_path, gin_server):
    ann = person(tmp_path, gin_server, "ann")
    ann.run("register", unique("Ann"))
    assert requests.get(f"{gin_server}/house-bot", timeout=10).status_code == 404  # nobody runs it here
    refused = ann.run("new", "--vs-bot", check=EXIT_NOT_FOUND)
    assert "[no-house-bot]" in refused.stderr and stored(ann)["games"] == {}


def house_bot(server: str, tmp_path) -> subprocess.Popen:
    """The Procfile's `bot:` line, as written, serving `server`."""
    line = next(l for l in (ROOT / "Procfile").read_text().splitlines() if l.startswith("bot:"))
    env = {**os.environ, "GIN_SERVER": server, "HOUSE_BOT_TOKEN_FILE": str(tmp_path / "house.token"),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    env.pop("HOUSE_BOT_NAME", None)
    env.pop("GIN_PLAYER_TOKEN", None)
    return subprocess.Popen(["bash", "-c", "exec " + line.split(":", 1)[1]], cwd=ROOT, env=env,
                            stdout=open(tmp_path / "house.log", "w"), stderr=subprocess.STDOUT)


def set_level_rating(database_url: str, level: int, value: float, games: int) -> None:
    """Give one of the house bot's levels a rating, straight in the server's database."""
    import sqlalchemy as sa
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as connection:
            changed = connection.execute(sa.text("UPDATE house_level_ratings SET rating = :value, rated_games = :games "
                                                 "WHERE level = :level"), {"value": value, "games": games, "level": level})
            assert changed.rowcount == 1  # the migration stored every level's row
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", KINDS)
def test_gin_new_vs_bot_is_accepted_by_the_house_bot_and_played_out(kind, tmp_path):
    with servers(kind, tmp_path, count=1) as (database_url, (server,)):
        bot = house_bot(server, tmp_path)
        try:
            while requests.get(f"{server}/house-bot", timeout=10).status_code != 200:
                assert bot.poll() is None, (tmp_path / "house.log").read_text()
                time.sleep(0.05)
            set_level_rating(database_url, 4, 1710.4, 30)  # as if rated matches had moved it
            ann = person(tmp_path, server, "ann")
            ann.run("register", "Ann")
            # Each level is rated as an identity of its own: `gin rating House` lists them.
            rating = ann.run("rating", "House").stdout.splitlines()
            assert rating[0].startswith("House (a bot): 1500") and len(rating) == 8
            assert rating[1].startswith("Not on the leaderboard yet: about 11 more rated matches")
            assert rating[3] == "  House (level 1), 1500 (deviation 350, provisional), 0 rated matches"
            assert rating[6] == "  House (level 4), 1710 (deviation 350, provisional), 30 rated matches"
            assert ann.json("rating", "House")["levels"][3]["label"] == "House (level 4)"
            started = ann.run("new", "--vs-bot", "--level", "4", "--option", "target=10", "--move-hours", "none",
                              "--plain")
            assert "Challenging the computer, House (level 4), 1710; waiting" in started.stderr
            assert "House accepted. Game" in started.stdout and "(you) v House (level 4)" in started.stdout
            (game_id, entry), = stored(ann)["games"].items()
            assert entry["player"] == "Ann" and "token" not in entry
            token = stored(ann)["players"][server]["token"]
            link = ann.json("watch-link")
            assert link["page"] == f"{server}/watch/{game_id}#key={link['key']}"
            final = play_side(server, game_id, token)  # Ann's side; the house bot plays the other
            assert final["status"] == "finished" and final["result"]["winner"] in (0, 1)
            # The match moved level 4's rating (a rated identity), not the house account's.
            levels = requests.get(f"{server}/house-bot", timeout=10).json()["levels"]
            assert [row["rating"]["games"] for row in levels] == [0, 0, 0, 31, 0]
            assert requests.get(f"{server}/players/House", timeout=10).json()["rating"]["games"] == 0
            assert "The match is over" in ann.run("show", "--plain").stdout
            assert ann.json("games")["games"][0]["status"] == "finished"
            public = requests.get(f"{server}/games/{game_id}/public", timeout=10,
                                  headers={"Authorization": f"Bearer {link['key']}"})
            assert public.status_code == 200 and public.json()["status"] == "finished"
            assert "Revoked" in ann.run("watch-link", "--revoke", link["id"]).stdout
            assert requests.get(f"{server}/games/{game_id}/public", timeout=10,
                                headers={"Authorization": f"Bearer {link['key']}"}).status_code == 401
            offered = ann.json("rematch")
            assert offered["to"] == "House" and offered["rematch_of"] == game_id
            while len(ann.json("games")["games"]) < 2:  # the house bot accepts rematches from its stream
                assert bot.poll() is None, (tmp_path / "house.log").read_text()
                time.sleep(0.05)
            again = ann.json("rematch", "-g", game_id)
            assert again["status"] == "accepted" and again["game_id"] in stored(ann)["games"]
        finally:
            bot.terminate()
            bot.wait()
    log = (tmp_path / "house.log").read_text()
    assert "Traceback" not in log and f"game={game_id[:8]}" in log
    assert f"level=4 game={game_id[:8]}" in log  # the house bot played the level asked for (and logs it)


def test_challenge_wait_unanswered_is_withdrawn_and_declined_says_why(tmp_path, gin_server):
    ann = person(tmp_path, gin_server, "ann")
    ann.run("register", unique("Ann"))
    token = stored(ann)["players"][gin_server]["token"]
    quiet = unique("Quiet")
    requests.post(f"{gin_server}/players", json={"name": quiet}, timeout=10)
    unanswered = ann.run("challenge", quiet, "--wait", "1", check=EXIT_ERROR)
    assert "[challenge-unanswered]" in unanswered.stderr and "withdrawn" in unanswered.stderr
    assert pending(gin_server, token)["mine"] == [] and stored(ann)["games"] == {}
    picky = unique("Picky")
    bot = subprocess.Popen([GIN_BOT, "--server", gin_server,
                            "--token-file", str(tmp_path / "picky.token"), "--register", picky, "--presets", "standard"],
                           stdout=open(tmp_path / "picky.log", "w"), stderr=subprocess.STDOUT)
    try:
        while not (tmp_path / "picky.token").exists():
            assert bot.poll() is None, (tmp_path / "picky.log").read_text()
            time.sleep(0.05)
        declined = ann.run("challenge", picky, "--preset", "oklahoma", "--wait", "30", check=EXIT_RULES)
        assert "[challenge-declined]" in declined.stderr and "(reason: rules)" in declined.stderr
        accepted = ann.run("challenge", picky, "--option", "target=10", "--wait", "30", "--plain")
        assert f"{picky} accepted. Game" in accepted.stdout and len(stored(ann)["games"]) == 1
    finally:
        bot.terminate()
        bot.wait()


def test_rating_shows_yours_and_anothers_and_an_unrated_challenge_says_so(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    names = unique("Ann"), unique("Bob")
    ann.run("register", names[0])
    bob.run("register", names[1], "--bot")
    eligible = requests.get(f"{gin_server}/players/{names[0]}", timeout=10).json()["leaderboard"]["eligible_from"]
    assert ann.run("rating").stdout.strip().splitlines() == [
        (f"{names[0]}: 1500 (deviation 350, provisional), 0 rated matches; table rating 0.00 (mu 25.00, sigma 8.33), "
         "0 rated tables."),
        "Not on the leaderboard yet: about 11 more rated matches to settle the rating"
        + (f", and the account is old enough from {eligible[:10]}." if eligible else ".")]
    assert ann.json("rating", names[1]) == {"name": names[1], "bot": True, "rating": {
        "value": 1500.0, "deviation": 350.0, "volatility": 0.06, "games": 0, "provisional": True},
        "table_rating": {"mu": 25.0, "sigma": 8.3333, "ordinal": 0.0, "games": 0}}
    missing = ann.run("rating", unique("Nobody"), check=EXIT_NOT_FOUND)
    assert "[player-not-found]" in missing.stderr
    made = ann.json("challenge", names[1], "--unrated")
    assert made["rated"] is False
    token = stored(bob)["players"][gin_server]["token"]
    assert [c["rated"] for c in pending(gin_server, token)["to_me"]] == [False]
