"""Issue 38, item 4: the leaderboard's rule says truly when a player appears. The page and GET
/players state what it takes (a settled deviation is what holds a newcomer back: about 11 rated
matches, not the 5 the page used to name), and a player's profile says how far it is; a newcomer
who plays the matches its profile named, once the account is old enough, is on the board."""
from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

from service.rules.glicko2 import Rating, games_to_settle

from ..web.test_profile_html import BROWSER
from .test_rating_farm import PRODUCTION, board, established, resigned_match
from .support import new_player


def standing(client, name: str) -> dict:
    answer = client.get(f"/players/{name}")
    assert answer.status_code == 200
    return answer.get_json()["leaderboard"]


def page_text(client, path: str) -> str:
    page = client.get(path, headers=BROWSER)
    assert page.status_code == 200
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page.get_data(as_text=True))).split())


def test_a_settled_rating_takes_about_eleven_matches_not_five():
    assert games_to_settle(Rating(), 110.0) == 11
    assert games_to_settle(Rating(deviation=100.0), 110.0) == 0
    assert games_to_settle(Rating(deviation=200.0), 110.0) < 11
    # Against new players (deviation 350) it takes longer: the page says so.
    assert games_to_settle(Rating(), 110.0, Rating(deviation=350.0)) > 11


def test_a_newcomer_appears_after_the_matches_its_profile_named(client, app, monkeypatch):
    moment = [datetime.now(UTC)]
    for name, value in PRODUCTION.items():
        monkeypatch.setitem(app.config, name, value)
    monkeypatch.setitem(app.config, "CLOCK", lambda: moment[0])
    ann = established(app, client, "Ann", 1500.0, moment[0] - timedelta(days=90))
    newcomer = new_player(client, "Newcomer")

    first = standing(client, "Newcomer")
    assert first["on_board"] is False and first["rated_games_needed"] == 11
    assert datetime.fromisoformat(first["eligible_from"]) > moment[0] + timedelta(days=6)
    text = page_text(client, "/players/Newcomer")
    assert "Not on the leaderboard yet: about 11 more rated matches to settle the rating, and the account is " \
           "old enough from" in text, text
    rules = page_text(client, "/leaderboard")
    assert "deviation of 110 or less, which takes a new account about 11 rated matches" in rules, rules
    assert "once the account is 7 days old" in rules

    moment[0] += timedelta(days=8)  # old enough: only the matches are missing
    assert standing(client, "Newcomer")["eligible_from"] is None
    needed, played = [first["rated_games_needed"]], 0
    while needed[-1]:
        if played and played % 3 == 0:  # three rated matches of one pair a day
            moment[0] += timedelta(days=1)
        winner, loser = (newcomer, ann) if played % 2 == 0 else (ann, newcomer)
        assert resigned_match(client, winner, loser)["rated"] is True
        played += 1
        now = standing(client, "Newcomer")
        assert ("Newcomer" in [p["name"] for p in board(client)["players"]]) is now["on_board"], now
        assert now["on_board"] is (now["rated_games_needed"] == 0)
        needed.append(now["rated_games_needed"])
        assert played <= first["rated_games_needed"], needed  # no later than the profile said
    assert needed == sorted(needed, reverse=True), needed  # each match brings it nearer
    assert played >= 5  # the minimum still holds (an opponent settled at 60 settles a rating faster)
    assert standing(client, "Newcomer") == {"on_board": True, "rated_games_needed": 0, "eligible_from": None}
    assert "Newcomer" in [p["name"] for p in board(client)["players"]]
    assert "On the leaderboard." in page_text(client, "/players/Newcomer")
