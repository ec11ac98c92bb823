"""Where the spec and the service once disagreed, they now refuse the same requests: an unknown
action before the opponent joined, webhook URLs, Idempotency-Key and If-Match syntax, whole-number
days. And refusals of a body keep the connection usable (over a real socket, real server)."""
from __future__ import annotations

import http.client

import pytest

from ..conftest import start_gunicorn, stop_gunicorn
from .helpers import act, auth, create, mover, new_game


def post_action(client, game_id, token, body, **headers):
    return client.post(f"/games/{game_id}/actions", json=body, headers=auth(token, **headers))


def test_an_unknown_action_is_400_even_before_the_opponent_joins(client):
    created = create(client)
    for body in ({"type": "fly"}, {"type": "draw", "from": "stock", "card": "7H"}, {"type": "discard", "card": "7h"},
                 {"type": "discard", "card": "10H"}, {"type": "knock", "discard": "KD", "melds": [["7C", "X"]]}, []):
        response = post_action(client, created["game_id"], created["token"], body)
        assert response.status_code == 400 and response.get_json()["code"] == "invalid-action", body
    # A well-formed action is judged on the game's state.
    response = post_action(client, created["game_id"], created["token"], {"type": "pass"})
    assert response.status_code == 409 and response.get_json()["code"] == "game-not-started"


def test_an_action_with_a_field_of_another_type_is_refused_and_changes_nothing(client):
    game = new_game(client)
    seat, seen = mover(client, game)
    response = post_action(client, game["id"], game["tokens"][seat], {"type": "pass", "card": "7H"})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid-action"
    assert mover(client, game)[1]["version"] == seen["version"]


@pytest.mark.parametrize("value", ['7', 'W/7', '"7', '', '"7",', '"7" "8"', '*, "1"'])
def test_if_match_must_be_entity_tags(client, value):
    game = new_game(client)
    seat, seen = mover(client, game)
    response = post_action(client, game["id"], game["tokens"][seat], {"type": "pass"}, **{"If-Match": value})
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error", value
    assert mover(client, game)[1]["version"] == seen["version"]


@pytest.mark.parametrize("value", ['"999"', '*', 'W/"3", "4"'])
def test_well_formed_if_match_is_judged_on_the_version(client, value):
    game = new_game(client)
    seat, _ = mover(client, game)
    response = post_action(client, game["id"], game["tokens"][seat], {"type": "pass"}, **{"If-Match": value})
    assert response.status_code in (200, 412), response.get_json()
    assert response.status_code == (200 if value.startswith("*") else 412)


@pytest.mark.parametrize("key", ["é", "a\tb", "x" * 201])
def test_idempotency_key_is_printable_ascii(client, key):
    game = new_game(client)
    seat, _ = mover(client, game)
    response = client.post(f"/games/{game['id']}/actions", json={"type": "pass"},
                           headers={"Authorization": f"Bearer {game['tokens'][seat]}",
                                    "Idempotency-Key": key.encode("utf-8").decode("latin-1")})
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"


@pytest.mark.parametrize("url, status", [("ftp://example.org/x", 422), ("example.org", 422),
                                         ("https://exa mple.org/", 422), ("HTTPS://example.org/hook", 200)])
def test_webhook_url_is_an_http_url(client, url, status):
    created = create(client)
    response = client.patch(f"/games/{created['game_id']}/contact", json={"webhook_url": url},
                            headers=auth(created["token"]))
    assert response.status_code == status, response.get_json()


def test_days_and_hours_are_whole_numbers_as_json_schema_means_them(client):
    response = client.post("/games", json={"name": "Ann", "move_time_hours": 48.0})
    assert response.status_code == 201
    game = new_game(client)
    ok = client.post(f"/games/{game['id']}/vacation", json={"days": 2.0}, headers=auth(game["tokens"][0]))
    assert ok.status_code == 200, ok.get_json()
    for days in (2.5, "2", True, 8):
        refused = client.post(f"/games/{game['id']}/vacation", json={"days": days}, headers=auth(game["tokens"][0]))
        assert refused.status_code == 422 and refused.get_json()["code"] == "validation-error", days
    assert client.post("/games", json={"name": "Ann", "move_time_hours": 1.5}).status_code == 422


def test_whole_numbers_in_actions_and_seats_may_be_written_with_a_zero_fraction(client):
    """3.0 is 3 to JSON Schema's `integer` (schemathesis sends it as a valid request): an action's
    count or meld index and a game's seats take it; 2.5 and "2" stay refused and change nothing."""
    assert client.post("/games", json={"name": "Ann", "seats": 3.0}).get_json()["game"]["seats"] == 3
    assert client.post("/games", json={"name": "Ann", "seats": 3.5}).status_code == 422
    game = new_game(client)
    seat, seen = mover(client, game)
    # Well formed, so judged on the game: a standard game has no melds on the table to add to.
    response = post_action(client, game["id"], game["tokens"][seat], {"type": "add_on", "card": "4S", "meld": 0.0})
    assert response.status_code in (409, 422) and response.get_json()["code"] != "invalid-action"
    for body in ({"type": "add_on", "card": "4S", "meld": 0.5}, {"type": "add_on", "card": "4S", "meld": "0"},
                 {"type": "draw", "from": "discard", "count": 2.5}, {"type": "draw", "from": "stock", "count": True}):
        response = post_action(client, game["id"], game["tokens"][seat], body)
        assert response.status_code == 400 and response.get_json()["code"] == "invalid-action", body
    assert mover(client, game)[1]["version"] == seen["version"]


@pytest.fixture(scope="module")
def gevent_server(tmp_path_factory):
    process, base_url = start_gunicorn(f"sqlite:///{tmp_path_factory.mktemp('wire') / 'wire.sqlite3'}", workers=1)
    yield base_url
    stop_gunicorn(process)


@pytest.mark.parametrize("media, size, chunked", [
    ("application/json", 70_000, False), ("application/json", 70_000, True), ("text/plain", 70_000, False),
    ("text/plain", 2_000_000, False), ("text/plain", 300_000, True), ("text/plain", 100, False)])
def test_a_refused_body_leaves_the_connection_usable_or_closes_it(gevent_server, media, size, chunked):
    """413 and 415 over a real socket: the next request on the same connection is answered, or the
    refusal said `Connection: close`."""
    connection = http.client.HTTPConnection(gevent_server.removeprefix("http://"), timeout=30)
    body = b"x" * size
    if chunked:
        connection.request("POST", "/games", body=iter([body[i:i + 8192] for i in range(0, size, 8192)]),
                           headers={"Content-Type": media}, encode_chunked=True)
    else:
        connection.request("POST", "/games", body=body, headers={"Content-Type": media})
    refused = connection.getresponse()
    refused.read()
    assert refused.status == (415 if media == "text/plain" else 413)
    if (refused.getheader("Connection") or "").lower() == "close":
        return
    connection.request("GET", "/health")
    after = connection.getresponse()
    assert after.status == 200 and after.read()
    connection.close()


def request_integer_fields(app):
    """(route, location, field name, field) of every integer field a request is read with: each
    route's declared arguments, and each action's fields (the actions route loads them itself)."""
    from marshmallow import fields

    from service.games.action_schemas import ACTION_SCHEMAS

    def walk(schema, where):
        for name, field in (schema() if isinstance(schema, type) else schema).fields.items():
            while isinstance(field, fields.List):
                field = field.inner
            if isinstance(field, fields.Nested):
                yield from walk(field.schema, where)
            elif isinstance(field, fields.Number):
                yield (*where, name, field)

    for endpoint, view in app.view_functions.items():
        for argument in getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", []):
            yield from walk(argument["schema"], (endpoint, argument["in"]))
    for kind, schema in ACTION_SCHEMAS.items():
        yield from walk(schema, (f"action {kind}", "json"))


def test_every_integer_of_a_request_is_one_field_type(app):
    from service.core.fields import WholeNumber
    found = list(request_integer_fields(app))
    assert {(where, name) for where, _, name, _ in found} >= {
        ("games.create_game", "seats"), ("games.get_events", "limit"), ("series.offer_series", "target")}
    for where, location, name, field in found:
        assert type(field) is WholeNumber, (where, name, type(field))
        assert field.text == (location == "query"), (where, name)  # a query is text: "50" and "50.0"


def test_integral_floats_are_whole_numbers_wherever_integers_are_accepted(client):
    """100.0 is 100 to JSON Schema's `integer`: the rules' options (target, knock_limit, ...) take it
    as seats and days do, on every route that takes rules; 100.5 is refused with one message."""
    ann = client.post("/players", json={"name": "Ann"}).get_json()["token"]
    client.post("/players", json={"name": "Bob"})
    rules = {"preset": "standard", "target": 100.0, "knock_limit": 10.0}
    for path, body in (("/games", {"name": "Ann", "rules": rules}), ("/me/games", {"rules": rules}),
                       ("/challenges", {"to": "Bob", "rules": rules}),
                       ("/series", {"to": "Bob", "rules": rules, "kind": "points", "target": 500.0})):
        made = client.post(path, json=body, headers=auth(ann))
        assert made.status_code == 201, (path, made.get_json())
        shown = made.get_json().get("game", made.get_json())["rules"]
        assert shown["target"] == 100 and type(shown["target"]) is int, (path, shown)
        refused = client.post(path, json={**body, "rules": {**rules, "target": 100.5}}, headers=auth(ann))
        problem = refused.get_json()
        assert refused.status_code == 422 and problem["code"] == "invalid-option" and problem["option"] == "target"
        assert problem["detail"] == "option 'target' must be a whole number (like 3 or 3.0), got 100.5", path
    seats = client.post("/games", json={"name": "Ann", "seats": 2.5}).get_json()
    assert seats["code"] == "validation-error"
    assert "must be a whole number (like 3 or 3.0), got 2.5" in str(seats), seats
    # A query is text: "50.0" is 50 there too, "2.5" is refused.
    assert client.get("/me/games?limit=50.0", headers=auth(ann)).status_code == 200
    refused = client.get("/me/games?limit=2.5", headers=auth(ann))
    assert refused.status_code == 422 and refused.get_json()["code"] == "validation-error"
