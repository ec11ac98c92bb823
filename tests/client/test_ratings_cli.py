"""The client's rating commands against a real gunicorn on each database: `gin rating` shows the
two-seat rating and the table rating (moved by a four-seat table played through the API), and
`gin leaderboard` lists GET /players?sort=rating a page at a time, printing the next page's command."""
from __future__ import annotations

import pytest
import requests
import sqlalchemy as sa

from ..api.table_helpers import mover_and_action
from ..api.test_waiting_live import KINDS, servers
from .test_players_cli import person, stored, unique


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_table_until_a_hand_ended(server: str, game_id: str, tokens: list[str]) -> None:
    for _ in range(3000):
        views = {s: requests.get(f"{server}/games/{game_id}", headers=bearer(t), timeout=10).json()
                 for s, t in enumerate(tokens)}
        if views[0]["last_hand"]:
            return
        seat, action = mover_and_action(views)
        moved = requests.post(f"{server}/games/{game_id}/actions", json=action, headers=bearer(tokens[seat]),
                              timeout=10)
        assert moved.status_code == 200, moved.text
    raise AssertionError("no hand ended")


@pytest.mark.parametrize("kind", KINDS)
def test_gin_rating_shows_the_table_rating_and_gin_leaderboard_pages(kind, tmp_path):
    with servers(kind, tmp_path, count=1) as (database, (server,)):
        people = [person(tmp_path, server, who) for who in ("ann", "bob", "cy", "dee")]
        names = [unique(n) for n in ("Ann", "Bob", "Cy", "Dee")]
        for who, name in zip(people, names):
            who.run("register", name)
        tokens = [stored(who)["players"][server]["token"] for who in people]
        standing = requests.get(f"{server}/players/{names[0]}", timeout=10).json()["leaderboard"]
        old_enough = "" if standing["eligible_from"] is None else \
            f", and the account is old enough from {standing['eligible_from'][:10]}"
        assert standing["rated_games_needed"] == 11
        assert people[0].run("rating").stdout.strip().splitlines() == [
            (f"{names[0]}: 1500 (deviation 350, provisional), 0 rated matches; "
             f"table rating 0.00 (mu 25.00, sigma 8.33), 0 rated tables."),
            f"Not on the leaderboard yet: about 11 more rated matches to settle the rating{old_enough}."]
        made = requests.post(f"{server}/me/games", json={"seats": 4, "rules": {"target": 150}},
                             headers=bearer(tokens[0]), timeout=10).json()
        for invite in made["invites"]:
            joined = requests.post(f"{server}/me/games/{made['game_id']}/join", timeout=10,
                                   json={"invite_code": invite["invite_code"]}, headers=bearer(tokens[invite["seat"]]))
            assert joined.status_code == 201, joined.text
        play_table_until_a_hand_ended(server, made["game_id"], tokens)
        resigned = requests.post(f"{server}/games/{made['game_id']}/actions", json={"type": "resign"},
                                 headers=bearer(tokens[1]), timeout=10)
        assert resigned.status_code == 200 and resigned.json()["status"] == "finished", resigned.text
        table = requests.get(f"{server}/players/{names[0]}", timeout=10).json()["table_rating"]
        assert table["games"] == 1 and table["ordinal"] > 0  # Ann's side won: Bob resigned
        assert people[0].run("rating").stdout.strip().splitlines()[0] == (
            f"{names[0]}: 1500 (deviation 350, provisional), 0 rated matches; table rating {table['ordinal']:.2f} "
            f"(mu {table['mu']:.2f}, sigma {table['sigma']:.2f}), 1 rated table.")
        shown = people[2].json("rating", names[1])
        assert shown["table_rating"] == requests.get(f"{server}/players/{names[1]}", timeout=10).json()["table_rating"]

        # The leaderboard: empty at first (nobody has 5 settled rated matches), then three players on
        # it, set so in the database (settling a rating takes dozens of matches), two to a page.
        assert "Nobody on this page of the leaderboard: it lists players whose rating is settled (a deviation of " \
               "110 or less: about 11 rated matches from a new account, 5 at the least)" in people[0].run("leaderboard").stdout
        engine = sa.create_engine(database)
        with engine.begin() as connection:
            for name, value in zip(names[:3], (1710.0, 1820.0, 1650.0)):
                connection.execute(sa.text("UPDATE players SET rating = :value, rating_deviation = 80, "
                                           "rated_games = 9 WHERE name = :name"), {"value": value, "name": name})
        engine.dispose()
        first = people[3].run("leaderboard", "--limit", "2").stdout.splitlines()
        assert [line.split()[:3] for line in first[:2]] == [["1.", names[1], "1820"], ["2.", names[0], "1710"]]
        assert "(deviation 80, 9 rated matches)" in first[0]
        assert first[2] == "More: gin leaderboard --offset 2 --limit 2"
        rest = people[3].run("leaderboard", "--limit", "2", "--offset", "2").stdout.splitlines()
        assert [line.split()[:3] for line in rest] == [["3.", names[2], "1650"]]
        assert people[3].json("leaderboard")["players"][2]["name"] == names[2]
        refused = people[3].run("leaderboard", "--limit", "0", check=2)
        assert "--limit" in refused.stderr
