"""Issue 38, item 6: the rating farm that reached rank 1 in 166 s fails. Two sock accounts play many
short rated matches, one always resigning, and a third beats them both the same way: with the
guards at their production values (a minimum target, resignations rated whatever the hand, a cap
on rated matches of one pair a day, an age and a settled rating for the board), the farmer stays
off the leaderboard, whose rules GET /players states."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ..api.helpers import auth
from .support import accepted_game, new_player

PRODUCTION = {"RATED_MIN_TARGET": 100, "RATED_PAIR_PER_DAY": 3, "LEADERBOARD_MIN_AGE_DAYS": 7}


@pytest.fixture
def guarded(app, client, monkeypatch):
    """The production guards, and a clock the test moves (`moment[0]`)."""
    moment = [datetime.now(UTC)]  # accounts are made at the real time
    for name, value in PRODUCTION.items():
        monkeypatch.setitem(app.config, name, value)
    monkeypatch.setitem(app.config, "CLOCK", lambda: moment[0])
    return moment


def established(app, client, name: str, value: float, created: datetime) -> dict:
    """A player who played long and well: a settled rating, many rated matches, an old account."""
    player = new_player(client, name)
    from service.core.extensions import db
    from service.players import accounts
    with app.app_context():
        row = accounts.by_name(name)
        row.rating, row.rating_deviation, row.rated_games, row.created_at = value, 60.0, 40, created
        db.session.commit()
    return player


def resigned_match(client, winner: dict, loser: dict) -> dict:
    """A rated match to 100 that the loser resigns at once: what GET /games/{id}/ratings says of it."""
    game = accepted_game(client, winner, loser, rules={"target": 100})
    resigned = client.post(f"/games/{game['id']}/actions", json={"type": "resign"},
                           headers=auth(game["tokens"][game["seats"][loser["name"]]]))
    assert resigned.status_code == 200 and resigned.get_json()["status"] == "finished", resigned.get_json()
    return client.get(f"/games/{game['id']}/ratings", headers=auth(winner["token"])).get_json()


def board(client) -> dict:
    answer = client.get("/players?sort=rating&limit=200")
    assert answer.status_code == 200
    return answer.get_json()


def test_the_farm_fails_to_reach_the_board(client, app, guarded):
    now = guarded[0]
    established(app, client, "Ann", 1700.0, now - timedelta(days=90))
    socks = [new_player(client, name) for name in ("SockOne", "SockTwo")]
    farmer = new_player(client, "Farmer")

    # One-hand matches cannot be rated at all: a rated match plays to the minimum target.
    short = client.post("/challenges", json={"to": "SockOne", "rules": {"target": 25}, "rated": True},
                        headers=auth(farmer["token"]))
    assert short.status_code == 422 and short.get_json()["code"] == "rated-target-too-low"
    unasked = client.post("/challenges", json={"to": "SockOne", "rules": {"target": 25}}, headers=auth(farmer["token"]))
    assert unasked.status_code == 201 and unasked.get_json()["rated"] is False  # the default follows the target

    # 30 matches between the socks, one always resigning: 3 are rated, the rest played unrated.
    rated = [resigned_match(client, socks[1], socks[0])["rated"] for _ in range(30)]
    assert rated == [True] * 3 + [False] * 27
    # The farmer beats each sock ten times: 3 rated a sock.
    for sock in socks:
        assert sum(resigned_match(client, farmer, sock)["rated"] for _ in range(10)) == 3
    me = client.get("/me", headers=auth(farmer["token"])).get_json()["rating"]
    assert me["games"] == 6 and me["provisional"] is True

    listed = board(client)
    assert [p["name"] for p in listed["players"]] == ["Ann"]  # a day-old farm is nowhere on it
    assert listed["rules"] == {"min_rated_games": 5, "max_deviation": 110.0, "typical_rated_games": 11,
                               "min_account_age_days": 7, "min_target": 100, "pair_rated_per_day": 3,
                               "forfeits_rated": True}

    # A week later, farming every day: still 3 rated matches a pair a day, and the farmer's rating
    # stays provisional against two socks whose ratings move as fast as its own.
    for day in range(1, 8):
        guarded[0] = now + timedelta(days=day)
        for sock in socks:
            assert sum(resigned_match(client, farmer, sock)["rated"] for _ in range(4)) == 3
    names = [p["name"] for p in board(client)["players"]]
    assert names[0] == "Ann", names
    farmed = client.get("/players/Farmer").get_json()["rating"]
    assert farmed["games"] == 6 * 8


def test_an_account_younger_than_a_week_stays_off_the_board(client, app, guarded):
    now = guarded[0]
    established(app, client, "Old", 1600.0, now - timedelta(days=30))
    established(app, client, "Young", 1800.0, now - timedelta(days=6, hours=23))
    assert [p["name"] for p in board(client)["players"]] == ["Old"]
    guarded[0] = now + timedelta(hours=2)
    assert [p["name"] for p in board(client)["players"]] == ["Young", "Old"]


def test_a_rated_game_of_its_own_needs_the_minimum_target(client, guarded):
    ann = new_player(client, "Ann")
    short = client.post("/me/games", json={"rules": {"target": 50}, "rated": True}, headers=auth(ann["token"]))
    assert short.status_code == 422 and short.get_json()["code"] == "rated-target-too-low"
    assert "100" in short.get_json()["detail"]
    made = client.post("/me/games", json={"rules": {"target": 50}}, headers=auth(ann["token"]))
    assert made.status_code == 201
    ratings = client.get(f"/games/{made.get_json()['game_id']}/ratings", headers=auth(made.get_json()["token"]))
    assert ratings.get_json()["rated"] is False
