"""Creating and joining games, tokens, and the view."""
from __future__ import annotations

import hashlib

from service.core.extensions import db
from service.games.models import Deal, Event, Game, Seat

from .helpers import auth, create, new_game, view


def count_rows(app, model) -> int:
    with app.app_context():
        return db.session.query(model).count()


def test_create_returns_token_invite_and_a_waiting_view(client):
    response = client.post("/games", json={"name": "  Ann ", "rules": {"preset": "classic", "target": 150}})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"/games/{body['game_id']}"
    assert response.headers["ETag"] == '"1"'
    assert len(body["game_id"]) >= 22 and body["seat"] == 0
    assert len(body["token"]) >= 43 and len(body["invite_code"]) >= 32  # >= 192 bits, URL-safe base64
    game = body["game"]
    assert game["status"] == "waiting_for_opponent" and game["version"] == 1
    assert game["players"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": None}]
    assert game["rules"]["preset"] == "classic" and game["rules"]["gin_bonus"] == 20
    assert game["rules"]["target"] == 150
    assert game["hand"] == [] and game["legal_actions"] == [] and game["dealer"] is None
    assert game["deal_commitment"] is None and game["deadline"] is None
    assert body["links"]["join"] == f"/games/{body['game_id']}/join"


def test_secrets_are_stored_only_as_sha256(client, app):
    body = create(client)
    with app.app_context():
        seats = db.session.query(Seat).filter_by(game_id=body["game_id"]).order_by(Seat.seat).all()
        stored = {value for seat in seats for value in (seat.token_hash, seat.invite_hash) if value}
        assert hashlib.sha256(body["token"].encode()).hexdigest() == seats[0].token_hash
        assert hashlib.sha256(body["invite_code"].encode()).hexdigest() == seats[1].invite_hash
        assert body["token"] not in stored and body["invite_code"] not in stored


def test_unknown_option_is_422_naming_it_and_creates_nothing(client, app):
    response = client.post("/games", json={"name": "Ann", "rules": {"knock_limt": 5}})
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["code"] == "invalid-option" and problem["option"] == "knock_limt"
    assert "knock_limt" in problem["detail"]
    assert response.mimetype == "application/problem+json"
    for bad, option in (({"preset": "nope"}, "preset"), ({"knock_limit": 11}, "knock_limit"),
                        ({"oklahoma": 1}, "oklahoma")):
        response = client.post("/games", json={"name": "Ann", "rules": bad})
        assert (response.status_code, response.get_json()["option"]) == (422, option)
    assert count_rows(app, Game) == 0


def test_create_validation_errors_name_the_field(client, app):
    cases = [({}, "name"), ({"name": ""}, "name"), ({"name": "x" * 41}, "name"),
             ({"name": "Ann", "colour": "red"}, "colour"), ({"name": "Ann", "rules": "standard"}, "rules"),
             ({"name": 5}, "name")]
    for body, field in cases:
        response = client.post("/games", json=body)
        assert response.status_code == 422, body
        problem = response.get_json()
        assert problem["code"] == "validation-error" and field in problem["errors"]["json"], problem
        assert field in problem["detail"]
    response = client.post("/games", json=["not", "an", "object"])
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"
    assert count_rows(app, Game) == 0


def test_join_takes_seat_one_and_deals(client, app):
    created = create(client)
    response = client.post(f"/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": "Bob"})
    assert response.status_code == 201
    joined = response.get_json()
    assert joined["seat"] == 1 and joined["token"] != created["token"]
    game = joined["game"]
    assert game["status"] == "active" and game["hand_number"] == 1 and game["dealer"] in (0, 1)
    assert len(game["hand"]) == 10 and len(game["discard_pile"]) == 1 and game["stock_count"] == 31
    assert game["players"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]
    assert len(game["deal_commitment"]) == 64 and game["revealed_deals"] == []
    assert response.headers["ETag"] == f'"{game["version"]}"'
    assert game["version"] == 2  # one change: the join and its deal
    assert game["to_move"] == 1 - game["dealer"]  # the non-dealer is offered the upcard
    creator_view = view(client, {"id": created["game_id"], "tokens": {0: created["token"]}}, 0)
    assert creator_view["version"] == 2 and set(creator_view["hand"]).isdisjoint(game["hand"])
    assert count_rows(app, Deal) == 1 and count_rows(app, Event) == 1


def test_first_dealer_is_random(client):
    dealers = {new_game(client)["view"]["dealer"] for _ in range(24)}
    assert dealers == {0, 1}  # fails with probability 2 * 2**-24


def test_an_invite_works_once(client, app):
    created = create(client)
    url = f"/games/{created['game_id']}/join"
    assert client.post(url, json={"invite_code": created["invite_code"], "name": "Bob"}).status_code == 201
    version = view(client, {"id": created["game_id"], "tokens": {0: created["token"]}}, 0)["version"]
    again = client.post(url, json={"invite_code": created["invite_code"], "name": "Eve"})
    assert again.status_code == 409 and again.get_json()["code"] == "game-full"
    after = view(client, {"id": created["game_id"], "tokens": {0: created["token"]}}, 0)
    assert after["version"] == version and after["players"][1]["name"] == "Bob"


def test_wrong_invite_or_unknown_game_is_the_same_422(client, app):
    created = create(client)
    wrong = client.post(f"/games/{created['game_id']}/join", json={"invite_code": "guess", "name": "Eve"})
    unknown = client.post("/games/nosuchgame/join", json={"invite_code": created["invite_code"], "name": "Eve"})
    for response in (wrong, unknown):
        assert response.status_code == 422
        assert response.get_json()["code"] == "invalid-invite"
    assert wrong.get_json()["detail"] == unknown.get_json()["detail"]
    assert count_rows(app, Deal) == 0
    missing = client.post(f"/games/{created['game_id']}/join", json={"name": "Eve"})
    assert missing.status_code == 422 and "invite_code" in missing.get_json()["errors"]["json"]


def test_a_token_opens_exactly_one_seat_of_one_game(client):
    first, second = new_game(client), new_game(client)
    for seat in (0, 1):
        assert view(client, first, seat)["seat"] == seat
    foreign = client.get(f"/games/{first['id']}", headers=auth(second["tokens"][0]))
    unknown = client.get("/games/doesnotexist", headers=auth(first["tokens"][0]))
    wrong = client.get(f"/games/{first['id']}", headers=auth("x" * 43))
    missing = client.get(f"/games/{first['id']}")
    basic = client.get(f"/games/{first['id']}", headers={"Authorization": "Basic " + first["tokens"][0]})
    bodies = []
    for response in (foreign, unknown, wrong, missing, basic):
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        problem = response.get_json()
        assert problem["code"] == "invalid-token"
        bodies.append((problem["detail"], problem["title"]))
    assert len(set(bodies)) == 1  # no hint whether the game exists


def test_view_has_etag_and_if_none_match_answers_304(client):
    game = new_game(client)
    first = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0]))
    etag = first.headers["ETag"]
    assert etag == f'"{first.get_json()["version"]}"'
    again = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0], **{"If-None-Match": etag}))
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    stale = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0], **{"If-None-Match": '"1"'}))
    assert stale.status_code == 200
    # 401 comes before 304: a conditional request still needs the token.
    anonymous = client.get(f"/games/{game['id']}", headers={"If-None-Match": etag})
    assert anonymous.status_code == 401


def test_legal_actions_are_listed_in_the_posted_form(client):
    game = new_game(client)
    seat = game["view"]["to_move"]
    legal = view(client, game, seat)["legal_actions"]
    assert {"type": "take_upcard"} in legal and {"type": "pass"} in legal
    assert view(client, game, 1 - seat)["legal_actions"] == []


def test_ids_codes_and_tokens_never_begin_with_a_dash():
    # A command line would read "-abc..." as an option; a plain draw begins with '-' one time
    # in 64, so 3 x 3000 draws would all but surely show one if the redraw were gone.
    from service.core.tokens import new_game_id, new_invite_code, new_token
    drawn = [make() for make in (new_game_id, new_invite_code, new_token) for _ in range(3000)]
    assert not [text for text in drawn if text.startswith("-")]
    assert len(set(drawn)) == len(drawn)
