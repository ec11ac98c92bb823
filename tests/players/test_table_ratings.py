"""Table ratings (issue 26): a table of players played through the API moves each player's OpenSkill
rating as the `openskill` package computes it for that result, partners as a team, a resignation
last; unrated tables and tables with an anonymous seat leave every rating alone, a table resigned in
its first hand is rated; a bad `rated` is a problem that makes nothing."""
from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from service.players.table_ratings import side_ranks

from ..admin.support import admin
from ..api.helpers import act, auth
from ..api.table_helpers import mover_and_action
from .support import events_of, new_player
from .test_table_rematch import players_table, resign

START = {"mu": 25.0, "sigma": round(25 / 3, 4), "ordinal": 0.0, "games": 0}
GLICKO_START = {"value": 1500.0, "deviation": 350.0, "volatility": 0.06, "games": 0, "provisional": True}


def views_of(client, game: dict) -> dict[int, dict]:
    answers = {}
    for seat, token in game["tokens"].items():
        response = client.get(f"/games/{game['id']}", headers=auth(token))
        assert response.status_code == 200, response.get_json()
        answers[seat] = response.get_json()
    return answers


def play_table(client, game: dict, until_a_hand_ended: bool = False, limit: int = 6000) -> dict[int, dict]:
    """Move the first seat to move until the table is over (or, asked so, until a hand ended)."""
    for _ in range(limit):
        views = views_of(client, game)
        if views[0]["status"] == "finished" or (until_a_hand_ended and views[0]["last_hand"]):
            return views
        seat, action = mover_and_action(views)
        response = act(client, game, seat, action)
        assert response.status_code == 200, (seat, action, response.get_json())
    raise AssertionError("the table did not end")


def table_rating(client, player: dict) -> dict:
    me = client.get("/me", headers=auth(player["token"])).get_json()
    public = client.get(f"/players/{player['name']}").get_json()
    assert public["table_rating"] == me["table_rating"]  # the profile shows what /me shows
    assert public["rating"] == GLICKO_START  # a table never moves the two-seat rating
    return me["table_rating"]


def expected(before: dict[int, dict], sides: list[list[int]], ranks: list[int]) -> dict[int, tuple[float, float]]:
    """{seat: (mu, sigma)} as the openskill package rates this result, independently of the service."""
    model = PlackettLuce()
    teams = [[model.rating(mu=before[s]["mu"], sigma=before[s]["sigma"]) for s in side] for side in sides]
    rated = model.rate(teams, ranks=ranks)
    return {seat: (after.mu, after.sigma) for side, seats in enumerate(sides) for seat, after in zip(seats, rated[side])}


def assert_rated_as(client, app, players: list[dict], before: dict[int, dict], sides, ranks, games: int) -> None:
    want = expected(before, sides, ranks)
    for seat, player in enumerate(players):
        now = table_rating(client, player)
        mu, sigma = want[seat]
        assert (now["mu"], now["sigma"], now["games"]) == (round(mu, 4), round(sigma, 4), games), (seat, now)
        assert now["ordinal"] == round(mu - 3 * sigma, 2)
        over = [e for e in events_of(app, player) if e["type"] == "game_over"][-1]
        change = over["table_rating_change"]
        assert "rating_change" not in over
        assert change["after"] == now["ordinal"] and change["mu"] == now["mu"]
        side = next(i for i, seats in enumerate(sides) if seat in seats)
        assert change["rank"] == ranks[side]


def test_a_four_seat_table_moves_each_player_as_openskill_computes_partners_as_a_team(client, app):
    players, game = players_table(client, 4, rules={"target": 25})
    assert all(table_rating(client, p) == START for p in players)
    final = play_table(client, game)
    result = final[0]["result"]
    assert result["reason"] == "target" and result["winner"] in (0, 1)
    sides = final[0]["sides"]
    assert sides == [[0, 2], [1, 3]]
    ranks = [0, 1] if result["winner"] == 0 else [1, 0]
    start = {seat: {"mu": 25.0, "sigma": 25 / 3} for seat in range(4)}
    assert_rated_as(client, app, players, start, sides, ranks, games=1)
    winners = [players[s] for s in result["winner_seats"]]
    assert all(table_rating(client, p)["mu"] > 25 for p in winners)
    # Partners' ratings moved alike (they started alike); the other side's went down.
    rated = [table_rating(client, p) for p in players]
    assert rated[0] == rated[2] and rated[1] == rated[3] and rated[0] != rated[1]
    # The result page's answer: each seat's table rating before and after, by seat.
    answer = client.get(f"/games/{game['id']}/ratings", headers=auth(players[3]["token"]))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json() == {"rated": True, "changes": [
        {"seat": s, "player": p["name"], "level": None, "label": p["name"], "kind": "table_rating", "before": 0.0, "after": rated[s]["ordinal"],
         "delta": rated[s]["ordinal"]} for s, p in enumerate(players)]}
    refused = client.get(f"/games/{game['id']}/ratings", headers=auth("not-a-token"))
    assert refused.status_code == 401 and refused.get_json()["code"] == "invalid-token"


def test_a_table_in_play_says_whether_it_will_be_rated(client):
    players, game = players_table(client, 3)
    answer = client.get(f"/games/{game['id']}/ratings", headers=auth(players[0]["token"]))
    assert answer.get_json() == {"rated": True, "changes": []}


def test_a_resignation_at_three_seats_ranks_the_resigner_last(client, app):
    players, game = players_table(client, 3, rules={"target": 150})  # no single hand ends it
    assert play_table(client, game, until_a_hand_ended=True)[0]["status"] == "active"
    before = {seat: table_rating(client, p) for seat, p in enumerate(players)}
    resign(client, game["id"], players[1])
    result = views_of(client, game)[0]["result"]
    assert result["reason"] == "resign" and result["winner"] != 1
    other = ({0, 2} - {result["winner"]}).pop()
    ranks = [0, 0, 0]
    ranks[result["winner"]], ranks[other], ranks[1] = 0, 1, 2  # the winner, the other, the resigner
    assert side_ranks([[0], [1], [2]], result, forfeited_by=1) == ranks
    start = {seat: {"mu": 25.0, "sigma": 25 / 3} for seat in before}
    assert_rated_as(client, app, players, start, [[0], [1], [2]], ranks, games=1)
    # A person's export holds the table rating and what each table did to it.
    document = admin(app, "export", players[1]["name"])
    assert document["player"]["table_rating"] == table_rating(client, players[1])
    assert [(r["game_id"], r["seat"], r["rank"]) for r in document["table_rating_changes"]] == [(game["id"], 1, 2)]


def test_side_ranks_winner_first_then_totals_and_ties_share_a_place():
    assert side_ranks([[0], [1], [2]], {"winner": 2, "totals": [10, 30, 40]}, None) == [2, 1, 0]
    assert side_ranks([[0], [1], [2]], {"winner": None, "totals": [30, 30, 10]}, None) == [0, 0, 1]
    assert side_ranks([[0, 2], [1, 3]], {"winner": None, "totals": [50, 50]}, None) == [0, 0]
    assert side_ranks([[0, 2], [1, 3]], {"winner": 1, "totals": [90, 10]}, forfeited_by=2) == [1, 0]


def test_an_unrated_table_leaves_ratings_alone_and_so_does_its_rematch(client, app):
    names = ["Ann", "Bob", "Cy", "Dee"]
    players = [new_player(client, name) for name in names]
    made = client.post("/me/games", json={"seats": 4, "rules": {"target": 150}, "rated": False},
                       headers=auth(players[0]["token"]))
    assert made.status_code == 201, made.get_json()
    made = made.get_json()
    for invite in made["invites"]:
        joined = client.post(f"/me/games/{made['game_id']}/join", json={"invite_code": invite["invite_code"]},
                             headers=auth(players[invite["seat"]]["token"]))
        assert joined.status_code == 201, joined.get_json()
    game = {"id": made["game_id"], "tokens": {s: p["token"] for s, p in enumerate(players)}}
    assert play_table(client, game, until_a_hand_ended=True)[0]["status"] == "active"
    resign(client, game["id"], players[3])
    assert all(table_rating(client, p) == START for p in players)
    assert all("table_rating_change" not in e for p in players for e in events_of(app, p) if e["type"] == "game_over")
    rematch = client.post(f"/games/{game['id']}/rematch", headers=auth(players[0]["token"]))
    assert rematch.status_code == 201 and rematch.get_json()["rated"] is False, rematch.get_json()


def test_a_table_with_an_anonymous_seat_is_not_rated(client, app):
    ann, bob, cy = (new_player(client, name) for name in ("Ann", "Bob", "Cy"))
    made = client.post("/me/games", json={"seats": 4, "rules": {"target": 25}},
                       headers=auth(ann["token"])).get_json()
    tokens = {0: ann["token"]}
    for invite, who in zip(made["invites"], (bob, cy, None)):
        if who is None:
            joined = client.post(f"/games/{made['game_id']}/join", json={"invite_code": invite["invite_code"],
                                                                         "name": "Guest"})
            tokens[invite["seat"]] = joined.get_json()["token"]
        else:
            joined = client.post(f"/me/games/{made['game_id']}/join", json={"invite_code": invite["invite_code"]},
                                 headers=auth(who["token"]))
            tokens[invite["seat"]] = who["token"]
        assert joined.status_code == 201, joined.get_json()
    game = {"id": made["game_id"], "tokens": tokens}
    assert play_table(client, game)[0]["status"] == "finished"
    assert all(table_rating(client, p) == START for p in (ann, bob, cy))


def test_a_table_resigned_before_any_hand_ended_is_rated_the_resigner_last(client, app):
    # Issue 38: a table given up is rated whatever the hand (unrated, bad deals were resigned for free).
    players, game = players_table(client, 4)
    resign(client, game["id"], players[2])
    assert all(table_rating(client, p)["games"] == 1 for p in players)
    over = [e for e in events_of(app, players[0]) if e["type"] == "game_over"]
    assert len(over) == 1 and "table_rating_change" in over[0]
    resigner = [e for e in events_of(app, players[2]) if e["type"] == "game_over"][0]["table_rating_change"]
    assert resigner["delta"] < 0 and resigner["rank"] == 1


@pytest.mark.parametrize("rated", ["no", 0, None, "false"])
def test_a_bad_rated_gets_a_problem_and_makes_no_game(client, rated):
    ann = new_player(client, "Ann")
    response = client.post("/me/games", json={"seats": 4, "rated": rated}, headers=auth(ann["token"]))
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "validation-error" and "rated" in str(response.get_json())
    assert client.get("/me/games", headers=auth(ann["token"])).get_json()["games"] == []
