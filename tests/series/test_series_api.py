"""Series through the HTTP API on both databases: offered, accepted, played game after game to its
decision (each next game made in the same transaction as the one before ends), with the standings
recomputed here from the games' own results; bad input on every field changes nothing."""
from __future__ import annotations

import pytest

from ..api.helpers import CARD_TEXT, auth
from ..players.support import events_of, new_player, play_to_the_end

QUICK = {"preset": "wikipedia", "target": 40}  # short games: the series is what is tested


def offer(client, ann, bob, **fields):
    response = client.post("/series", json={"to": bob["name"], **fields}, headers=auth(ann["token"]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def read(client, series_id, player):
    response = client.get(f"/series/{series_id}", headers=auth(player["token"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def strings_in(node):
    if isinstance(node, dict):
        for value in node.values():
            yield from strings_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings_in(value)
    elif isinstance(node, str):
        yield node


def play_game(client, series, players):
    """Play the current game to its end with the players' tokens; returns its final view (seat 0's)."""
    game_id = series["current_game"]
    [entry] = [g for g in series["games"] if g["game_id"] == game_id]
    tokens = {seat: players[name]["token"] for seat, name in enumerate(entry["seating"])}
    return play_to_the_end(client, {"id": game_id, "tokens": tokens})


def test_a_best_of_three_series_is_played_to_its_decision(app, client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    players = {"Ann": ann, "Bob": bob}
    offered = offer(client, ann, bob, kind="best_of", matches=3, rules=QUICK, move_time_hours=24)
    assert offered["status"] == "offered" and offered["games"] == [] and offered["current_game"] is None
    assert offered["players"] == ["Ann", "Bob"] and offered["matches"] == 3 and offered["target"] is None
    assert [e["type"] for e in events_of(app, bob)] == ["series_offered"]

    accepted = client.post(f"/series/{offered['series_id']}/accept", headers=auth(bob["token"]))
    assert accepted.status_code == 201, accepted.get_json()
    series = accepted.get_json()
    assert series["status"] == "playing" and len(series["games"]) == 1
    assert series["games"][0]["seating"] == ["Ann", "Bob"] and series["current_game"] == series["games"][0]["game_id"]

    mine = {"Ann": {"won": 0, "points": 0, "net": 0, "played": 0}, "Bob": {"won": 0, "points": 0, "net": 0, "played": 0}}
    finals = []
    while series["status"] == "playing":
        number = len(series["games"])
        final = play_game(client, series, players)
        finals.append(final)
        # Recomputed from the game's own view: who sat where, who won, the totals.
        names = [p["name"] for p in sorted(final["players"], key=lambda p: p["seat"])]
        result = final["result"]
        for seat, name in enumerate(names):
            mine[name]["played"] += 1
            mine[name]["points"] += result["totals"][seat]
            mine[name]["net"] += result["totals"][seat] - result["totals"][1 - seat]
        mine[names[result["winner"]]]["won"] += 1
        series = read(client, series["series_id"], ann)
        assert read(client, series["series_id"], bob) == series
        ended = series["games"][number - 1]
        assert ended["status"] == "finished" and ended["seating"] == names
        assert ended["result"] == {"winner": names[result["winner"]], "reason": result["reason"],
                                   "totals": result["totals"]}
        decided = max(row["won"] for row in mine.values()) == 2
        if not decided:  # the next game is there already, dealt, the players in each other's seats
            assert series["status"] == "playing" and len(series["games"]) == number + 1
            following = series["games"][number]
            assert following["seating"] == names[::-1] and following["status"] == "active"
            assert series["current_game"] == following["game_id"]
            view = client.get(f"/games/{following['game_id']}", headers=auth(ann["token"])).get_json()
            assert view["hand_number"] == 1 and len(view["hand"]) in (10, 11)
        standings = series["standings"]
        assert {r["player"]: {k: r[k] for k in ("won", "points", "net", "played")} for r in standings["rows"]} == mine
        leader = max(mine, key=lambda n: (mine[n]["won"], mine[n]["points"]))
        other = "Bob" if leader == "Ann" else "Ann"
        level = (mine[leader]["won"], mine[leader]["points"]) == (mine[other]["won"], mine[other]["points"])
        assert standings["leader"] == (None if level else leader)
        assert standings["matches_played"] == number and standings["over"] == decided
        for text in strings_in(series):  # no card of any hand, in play or not, is in the series
            assert not CARD_TEXT.match(text)

    winner = max(mine, key=lambda n: mine[n]["won"])
    assert series["status"] == "decided" and series["standings"]["winner"] == winner
    assert series["current_game"] is None and 2 <= len(series["games"]) <= 3
    assert [g["number"] for g in series["games"]] == list(range(1, len(series["games"]) + 1))
    assert [r["player"] for r in series["standings"]["rows"]][0] == winner
    # Each player's stream: each game's end, then the next game's start, and the series' end.
    for player in (ann, bob):
        kinds = [e["type"] for e in events_of(app, player) if e["type"] in ("game_started", "game_over", "series_over")]
        assert kinds == ["game_started", "game_over"] * len(series["games"]) + ["series_over"]
        assert [e for e in events_of(app, player) if e["type"] == "series_over"][0]["winner"] == winner
    # The series, read from any of its games with a token of the game.
    for game in series["games"]:
        by_game = client.get(f"/games/{game['game_id']}/series", headers=auth(bob["token"]))
        assert by_game.status_code == 200 and by_game.get_json() == series


def test_a_points_series_ends_when_a_total_reaches_its_target(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    series = offer(client, ann, bob, kind="points", target=60, rules=QUICK)
    assert series["matches"] is None and series["target"] == 60
    series = client.post(f"/series/{series['series_id']}/accept", headers=auth(bob["token"])).get_json()
    totals = {"Ann": 0, "Bob": 0}
    while series["status"] == "playing":
        final = play_game(client, series, {"Ann": ann, "Bob": bob})
        for player in final["players"]:
            totals[player["name"]] += final["result"]["totals"][player["seat"]]
        series = read(client, series["series_id"], bob)
        assert {r["player"]: r["points"] for r in series["standings"]["rows"]} == totals
        assert series["standings"]["over"] == (max(totals.values()) >= 60 and len(set(totals.values())) == 2)
    assert max(totals.values()) >= 60 and series["standings"]["winner"] == max(totals, key=totals.get)


def test_the_defaults_are_000s_tournament(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    series = offer(client, ann, bob)
    assert (series["kind"], series["matches"], series["exactly_50_loses"]) == ("best_of", 5, False)
    assert series["rules"]["preset"] == "wikipedia_tournament" and series["rules"]["target"] == 250
    assert series["move_time_hours"] == 72


def counts(app):
    from service.core.extensions import db
    from service.games.models import Game
    from service.series.models import SeriesGame, SeriesRecord
    with app.app_context():
        return {model.__name__: db.session.query(model).count() for model in (Game, SeriesRecord, SeriesGame)}


@pytest.mark.parametrize("fields, status, code", [
    ({"kind": "knockout"}, 422, "validation-error"),
    ({"kind": None}, 422, "validation-error"),
    ({"matches": 4}, 422, "invalid-series"),
    ({"matches": 0}, 422, "validation-error"),
    ({"matches": 101}, 422, "validation-error"),
    ({"matches": "3"}, 422, "validation-error"),
    ({"matches": 3.5}, 422, "validation-error"),
    ({"matches": True}, 422, "validation-error"),
    ({"target": 500}, 422, "invalid-series"),
    ({"kind": "points", "matches": 3}, 422, "invalid-series"),
    ({"kind": "points", "target": 5}, 422, "validation-error"),
    ({"kind": "points", "target": 100001}, 422, "validation-error"),
    ({"exactly_50_loses": True}, 422, "invalid-series"),
    ({"kind": "points", "exactly_50_loses": 1}, 422, "validation-error"),
    ({"rules": {"preset": "nope"}}, 422, "invalid-option"),
    ({"rules": {"knock_limit": 11}}, 422, "invalid-option"),
    ({"rules": "standard"}, 422, "validation-error"),
    ({"move_time_hours": 0}, 422, "validation-error"),
    ({"to": None}, 422, "validation-error"),
    ({"to": ""}, 422, "validation-error"),
    ({"to": "Nobody"}, 422, "unknown-player"),
    ({"to": "ann"}, 422, "challenge-to-self"),
    ({"colour": "red"}, 422, "validation-error"),
])
def test_bad_input_to_offer_a_series_changes_nothing(app, client, fields, status, code):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    before = counts(app)
    response = client.post("/series", json={"to": "Bob", **fields}, headers=auth(ann["token"]))
    assert response.status_code == status and response.get_json()["code"] == code, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert counts(app) == before and events_of(app, bob) == []


def test_bad_requests_about_a_series_change_nothing(app, client):
    ann, bob, eve = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Eve")
    series = offer(client, ann, bob, matches=1, rules=QUICK)
    sid = series["series_id"]
    for who, path, code in [(None, f"/series/{sid}", "invalid-token"), (eve, f"/series/{sid}", "series-not-found"),
                            (ann, "/series/nope", "series-not-found"), (ann, "/series/%00", "series-not-found")]:
        response = client.get(path, headers=auth(who["token"]) if who else {})
        assert response.get_json()["code"] == code, (path, response.get_json())
    before = counts(app)
    for who, action, code in [(ann, "accept", "challenge-to-self"), (eve, "accept", "series-not-found"),
                              (eve, "decline", "series-not-found"), (None, "accept", "invalid-token")]:
        response = client.post(f"/series/{sid}/{action}", headers=auth(who["token"]) if who else {})
        assert response.get_json()["code"] == code, (action, response.get_json())
    assert counts(app) == before and read(client, sid, ann)["status"] == "offered"

    assert client.post(f"/series/{sid}/accept", headers=auth(bob["token"])).status_code == 201
    after = counts(app)
    for who, action in [(bob, "accept"), (bob, "decline"), (ann, "decline")]:
        response = client.post(f"/series/{sid}/{action}", headers=auth(who["token"]))
        assert response.status_code == 409 and response.get_json()["code"] == "series-closed"
    assert counts(app) == after and read(client, sid, ann)["status"] == "playing"

    # A game that is not part of a series; a game's series with another game's token.
    other = offer(client, ann, eve, rules=QUICK)
    declined = client.post(f"/series/{other['series_id']}/decline", headers=auth(eve["token"]))
    assert declined.status_code == 200 and declined.get_json()["status"] == "declined"
    assert [e["type"] for e in events_of(app, ann) if e["type"].startswith("series")] == ["series_declined"]
    plain = client.post("/games", json={"name": "Guest"}).get_json()
    response = client.get(f"/games/{plain['game_id']}/series", headers=auth(plain["token"]))
    assert response.status_code == 404 and response.get_json()["code"] == "not-in-series"
    game_id = read(client, sid, ann)["current_game"]
    response = client.get(f"/games/{game_id}/series", headers=auth(plain["token"]))
    assert response.status_code == 401 and response.get_json()["code"] == "invalid-token"
    response = client.get(f"/games/{game_id}/series", headers=auth(eve["token"]))
    assert response.status_code == 401


def test_a_resigned_game_counts_and_the_next_one_follows(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    series = offer(client, ann, bob, matches=3, rules=QUICK)
    series = client.post(f"/series/{series['series_id']}/accept", headers=auth(bob["token"])).get_json()
    first = series["current_game"]
    resigned = client.post(f"/games/{first}/actions", json={"type": "resign"}, headers=auth(ann["token"]))
    assert resigned.status_code == 200, resigned.get_json()
    series = read(client, series["series_id"], ann)
    assert series["games"][0]["result"]["winner"] == "Bob" and series["games"][0]["result"]["reason"] == "resign"
    assert series["standings"]["leader"] == "Bob" and not series["standings"]["over"]
    assert series["current_game"] == series["games"][1]["game_id"] != first


def test_a_blocked_player_cannot_reach_the_blocker_with_series_offers(app, client):
    # Issue 38, item 7: five offers in a row reached the blocker's stream, and one could be accepted.
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    early = offer(client, ann, bob, rules=QUICK)  # made before the block
    assert client.put("/me/blocks/Ann", headers=auth(bob["token"])).status_code in (200, 201)
    for _ in range(5):  # declined at once, as Bob would decline them: never shown to Bob
        declined = client.post("/series", json={"to": "Bob"}, headers=auth(ann["token"]))
        assert declined.status_code == 201 and declined.get_json()["status"] == "declined", declined.get_json()
    assert [e["series_id"] for e in events_of(app, bob) if e["type"] == "series_offered"] == [early["series_id"]]
    assert len([e for e in events_of(app, ann) if e["type"] == "series_declined"]) == 5
    accepted = client.post(f"/series/{early['series_id']}/accept", headers=auth(bob["token"]))
    assert accepted.status_code == 409 and accepted.get_json()["code"] == "series-closed"
    assert read(client, early["series_id"], bob)["status"] == "offered" and read(client, early["series_id"], bob)[
        "games"] == []
    # Unblocked, offers reach Bob again.
    assert client.delete("/me/blocks/Ann", headers=auth(bob["token"])).status_code == 204
    offer(client, ann, bob, rules=QUICK)
