"""Player accounts: creating one, names unique ignoring case, the token opening /me and the
player's seats, rotation and revocation, my games in order, and bad input changing nothing."""
from __future__ import annotations

import pytest

from ..api.helpers import auth
from .support import accepted_game, new_player, play_one


def count(app, table: str) -> int:
    from sqlalchemy import text
    from service.core.extensions import db
    with app.app_context():
        return db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar()


def test_a_player_is_made_and_its_token_opens_me(client):
    response = client.post("/players", json={"name": "Ann", "email": "ann@example.org", "bot": False})
    assert response.status_code == 201
    body = response.get_json()
    assert body["player"]["name"] == "Ann" and body["player"]["email"] == "ann@example.org"
    me = client.get("/me", headers=auth(body["token"]))
    assert me.status_code == 200 and me.get_json()["name"] == "Ann" and me.get_json()["bot"] is False


def test_the_token_is_stored_only_as_a_hash(client, app):
    from sqlalchemy import text
    from service.core.extensions import db
    token = new_player(client, "Ann")["token"]
    with app.app_context():
        rows = db.session.execute(text("SELECT * FROM players")).all()
    assert token not in repr(rows)


@pytest.mark.parametrize("second", ["ann", "ANN", " Ann "])
def test_names_are_unique_ignoring_case(client, app, second):
    new_player(client, "Ann")
    response = client.post("/players", json={"name": second})
    assert response.status_code == 409 and response.get_json()["code"] == "name-taken"
    assert count(app, "players") == 1


@pytest.mark.parametrize("body", [
    {}, {"name": ""}, {"name": "   "}, {"name": "x" * 41}, {"name": "A\u202eB"}, {"name": 7},
    {"name": "Ann", "email": "not an address"}, {"name": "Ann", "email": "a@b\nBcc: c@d"},
    {"name": "Ann", "email": 3}, {"name": "Ann", "bot": "yes"}, {"name": "Ann", "bot": 0}, {"name": "Ann", "bot": 1}, {"name": "Ann", "colour": "red"},
])
def test_bad_input_on_every_field_is_a_problem_and_changes_nothing(client, app, body):
    response = client.post("/players", json=body)
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"
    assert response.mimetype == "application/problem+json"
    assert count(app, "players") == 0


def test_not_json_and_no_body(client, app):
    assert client.post("/players", data="name=Ann", content_type="text/plain").get_json()["code"] == \
        "unsupported-media-type"
    assert client.post("/players", data="{", content_type="application/json").get_json()["code"] == "malformed-json"
    assert count(app, "players") == 0


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}])
def test_me_needs_a_player_token(client, headers):
    for path in ("/me", "/me/games", "/challenges"):
        response = client.get(path, headers=headers)
        assert response.status_code == 401 and response.get_json()["code"] == "invalid-token", path


def test_a_seat_token_is_not_a_player_token(client):
    created = client.post("/games", json={"name": "Ann"}).get_json()
    assert client.get("/me", headers=auth(created["token"])).status_code == 401


def test_rotation_replaces_the_token_everywhere(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    rotated = client.post("/me/token", headers=auth(ann["token"]))
    assert rotated.status_code == 200
    new = rotated.get_json()["token"]
    assert new != ann["token"]
    assert client.get("/me", headers=auth(ann["token"])).status_code == 401
    assert client.get(f"/games/{game['id']}", headers=auth(ann["token"])).status_code == 401
    assert client.get("/me", headers=auth(new)).status_code == 200
    assert client.get(f"/games/{game['id']}", headers=auth(new)).get_json()["seat"] == game["seats"]["Ann"]


def test_revocation_closes_the_account_but_not_the_seat_tokens(client):
    ann = new_player(client, "Ann")
    created = client.post("/me/games", json={}, headers=auth(ann["token"])).get_json()
    assert client.delete("/me/token", headers=auth(ann["token"])).status_code == 204
    assert client.get("/me", headers=auth(ann["token"])).status_code == 401
    assert client.get(f"/games/{created['game_id']}", headers=auth(ann["token"])).status_code == 401
    assert client.post("/me/token", headers=auth(ann["token"])).status_code == 401
    assert client.get(f"/games/{created['game_id']}", headers=auth(created["token"])).status_code == 200


def test_a_player_creates_and_joins_games_and_its_token_opens_the_seats(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    created = client.post("/me/games", json={"rules": {"preset": "standard", "target": 50}},
                          headers=auth(ann["token"]))
    assert created.status_code == 201
    body = created.get_json()
    assert body["seat"] == 0 and body["game"]["players"][0]["name"] == "Ann"
    joined = client.post(f"/me/games/{body['game_id']}/join", json={"invite_code": body["invite_code"]},
                         headers=auth(bob["token"]))
    assert joined.status_code == 201 and joined.get_json()["seat"] == 1
    for player, seat in ((ann, 0), (bob, 1)):
        view = client.get(f"/games/{body['game_id']}", headers=auth(player["token"])).get_json()
        assert view["seat"] == seat and len(view["hand"]) == 10
    # the seat tokens work as before
    assert client.get(f"/games/{body['game_id']}", headers=auth(body["token"])).get_json()["seat"] == 0


def test_joining_ones_own_game_is_refused_and_changes_nothing(client, app):
    ann = new_player(client, "Ann")
    body = client.post("/me/games", json={}, headers=auth(ann["token"])).get_json()
    response = client.post(f"/me/games/{body['game_id']}/join", json={"invite_code": body["invite_code"]},
                           headers=auth(ann["token"]))
    assert response.status_code == 409 and response.get_json()["code"] == "already-seated"
    assert count(app, "player_seats") == 1
    assert client.get(f"/games/{body['game_id']}", headers=auth(ann["token"])).get_json()["status"] == \
        "waiting_for_opponent"


@pytest.mark.parametrize("path,body,code", [
    ("/me/games", {"rules": {"preset": "nope"}}, "invalid-option"),
    ("/me/games", {"move_time_hours": 0}, "validation-error"),
    ("/me/games", {"move_time_hours": 2.5}, "validation-error"),
    ("/me/games", {"name": "Ann"}, "validation-error"),
    ("/me/games/unknown/join", {"invite_code": "x"}, "invalid-invite"),
    ("/me/games/unknown/join", {}, "validation-error"),
])
def test_bad_game_input_is_a_problem_and_changes_nothing(client, app, path, body, code):
    ann = new_player(client, "Ann")
    response = client.post(path, json=body, headers=auth(ann["token"]))
    assert response.get_json()["code"] == code, response.get_json()
    assert count(app, "games") == 0 and count(app, "player_seats") == 0


def test_my_games_your_turn_first_then_by_deadline_then_waiting_and_finished(client):
    ann = new_player(client, "Ann")
    others = [new_player(client, name) for name in ("Bob", "Cat", "Dan")]
    waiting = client.post("/me/games", json={}, headers=auth(ann["token"])).get_json()["game_id"]
    games = [accepted_game(client, ann, other, move_time_hours=hours)
             for other, hours in zip(others, (24, 48, 12))]
    # Make it Ann's turn in none, then in the first: move until the turn is hers or not as wanted.
    for game in games:
        while client.get(f"/games/{game['id']}", headers=auth(ann["token"])).get_json()["to_move"] == \
                game["seats"]["Ann"]:
            play_one(client, game)
    while client.get(f"/games/{games[0]['id']}", headers=auth(ann["token"])).get_json()["to_move"] != \
            games[0]["seats"]["Ann"]:
        play_one(client, games[0])
    client.post(f"/games/{games[2]['id']}/actions", json={"type": "resign"},
                headers=auth(games[2]["tokens"][1 - games[2]["seats"]["Ann"]]))
    listed = client.get("/me/games", headers=auth(ann["token"])).get_json()
    order = [g["game_id"] for g in listed["games"]]
    # your turn; the other active game; waiting for an opponent; finished
    assert order == [games[0]["id"], games[1]["id"], waiting, games[2]["id"]]
    first = listed["games"][0]
    assert first["your_turn"] is True and first["opponent"] == {"name": "Bob", "player": "Bob", "bot": False}
    assert first["links"]["actions"] == f"/games/{games[0]['id']}/actions" and first["deadline"]
    assert listed["games"][3]["status"] == "finished" and listed["next_offset"] is None
    page = client.get("/me/games?limit=2", headers=auth(ann["token"])).get_json()
    assert [g["game_id"] for g in page["games"]] == order[:2] and page["next_offset"] == 2
    rest = client.get("/me/games?limit=2&offset=2", headers=auth(ann["token"])).get_json()
    assert [g["game_id"] for g in rest["games"]] == order[2:]


def test_my_games_by_deadline_when_none_is_your_turn(client):
    ann = new_player(client, "Ann")
    games = [accepted_game(client, ann, new_player(client, name), move_time_hours=hours)
             for name, hours in (("Bob", 48), ("Cat", 12))]
    for game in games:
        while client.get(f"/games/{game['id']}", headers=auth(ann["token"])).get_json()["to_move"] == \
                game["seats"]["Ann"]:
            play_one(client, game)
    listed = client.get("/me/games", headers=auth(ann["token"])).get_json()["games"]
    assert [g["game_id"] for g in listed] == [games[1]["id"], games[0]["id"]]  # the nearer deadline first


@pytest.mark.parametrize("query", ["limit=0", "limit=201", "offset=-1", "limit=x"])
def test_my_games_bad_paging(client, query):
    ann = new_player(client, "Ann")
    response = client.get(f"/me/games?{query}", headers=auth(ann["token"]))
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"
