"""Hostile input: every malicious or broken request is a 4xx problem with a stable code, and the
database is exactly as it was (every row of every table compared before and after)."""
from __future__ import annotations

import json

import pytest

from ..api.helpers import auth, create, mover, new_game
from .support import assert_problem, snapshot

BAD_NAMES = {
    "NUL": "A\x00B", "bell": "A\x07B", "newline": "Ann\nBob", "tab": "A\tB", "escape": "\x1b[31mred",
    "C1 control": "A\x85B", "DEL": "A\x7fB", "right-to-left override": "Ann\u202egnp.exe",
    "bidi isolate": "\u2066Ann\u2069", "line separator": "A\u2028B", "only spaces": "   ", "empty": "",
    "too long": "x" * 41, "too long with padding": " " + "x" * 40,
}
GOOD_NAMES = ["Zoë", "Łukasz", "渡辺", "Ann 🃏", "O'Brien-Smith", "a" * 40]


def post_raw(client, path, body: bytes | str, headers=None, content_type="application/json"):
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    return client.post(path, data=data, content_type=content_type, headers=headers or {})


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.fixture
def started(client):
    """A game some moves in, so that there are events, a deal and idempotency records to protect."""
    game = new_game(client)
    game["keys"] = {}
    for key in ("k1", "k2"):
        seat, seen = mover(client, game)
        game["keys"][key] = seat
        response = client.post(f"/games/{game['id']}/actions", json=seen["legal_actions"][0],
                               headers=auth(game["tokens"][seat], **{"Idempotency-Key": key}))
        assert response.status_code == 200, response.get_json()
    return game


def unchanged(app, client, send, status, code):
    """Send the request; it must be refused with this problem, and nothing may change."""
    before = snapshot(app)
    problem = assert_problem(send(), status, code)
    assert snapshot(app) == before, f"the refused request changed the database ({code})"
    return problem


# -- bodies --------------------------------------------------------------------------------

def test_oversized_bodies_are_413_on_every_post(app, client, started):
    limit = app.config["MAX_CONTENT_LENGTH"]
    token = auth(started["tokens"][0])
    padding = "x" * (limit + 1)
    for path, headers in (("/games", {}), (f"/games/{started['id']}/join", {}),
                          (f"/games/{started['id']}/actions", token)):
        unchanged(app, client, lambda: post_raw(client, path, json.dumps({"name": padding}), headers),
                  413, "payload-too-large")


def test_deeply_nested_json_is_400_malformed(app, client, started):
    token = auth(started["tokens"][0])
    for depth in (40, 1000, 20000):  # past the cap, past the C parser's recursion limit
        unchanged(app, client, lambda: post_raw(client, "/games", f'{{"name": "A", "rules": {deep(depth)}}}'),
                  400, "malformed-json")
        body = f'{{"type": "knock", "discard": "7H", "melds": {deep(depth)}}}'
        unchanged(app, client, lambda: post_raw(client, f"/games/{started['id']}/actions", body, token),
                  400, "malformed-json")
        unchanged(app, client, lambda: post_raw(
            client, f"/games/{started['id']}/join", f'{{"name": "B", "invite_code": {deep(depth)}}}'),
            400, "malformed-json")


def test_huge_but_shallow_json_is_refused_by_validation(app, client):
    many_options = json.dumps({"name": "A", "rules": {f"option{n}": n for n in range(2000)}})
    unchanged(app, client, lambda: post_raw(client, "/games", many_options), 422, "invalid-option")
    long_list = json.dumps({"name": list(range(10000))})
    unchanged(app, client, lambda: post_raw(client, "/games", long_list), 422, "validation-error")
    big_number = '{"name": "A", "rules": {"target": 1' + "0" * 4000 + "}}"
    unchanged(app, client, lambda: post_raw(client, "/games", big_number), 422, "invalid-option")
    huge_number = '{"name": "A", "rules": {"target": 1' + "0" * 5000 + "}}"  # past Python's int parsing
    unchanged(app, client, lambda: post_raw(client, "/games", huge_number), 400, "malformed-json")


@pytest.mark.parametrize("body", [b"{", b"", b"\xff\xfe{}", '{"name": "A"}'.encode("utf-16"),
                                  b'\xef\xbb\xbf{"name": "A"}', b"{'name': 'A'}", b'{"name": "A"} x',
                                  b'{"name": NaN}', b'{"name": "\\ud800"'])
def test_malformed_json_is_400(app, client, body):
    unchanged(app, client, lambda: post_raw(client, "/games", body), 400, "malformed-json")


def test_wrong_media_types_are_415(app, client, started):
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                         "application/xml"):
        unchanged(app, client, lambda: post_raw(client, "/games", '{"name": "A"}', content_type=content_type),
                  415, "unsupported-media-type")
        unchanged(app, client, lambda: post_raw(client, f"/games/{started['id']}/actions", '{"type": "pass"}',
                                                auth(started["tokens"][0]), content_type=content_type),
                  415, "unsupported-media-type")


@pytest.mark.parametrize("body", [[], "x", 7, None, {"name": 5}, {"name": ["A"]}, {"name": None},
                                  {"name": {"first": "A"}}, {"name": True}, {"name": "A", "rules": []},
                                  {"name": "A", "rules": "standard"}, {"name": "A", "colour": "red"},
                                  {"name": "A", "token": "mine"}, {}])
def test_wrong_types_and_unknown_fields_when_creating_are_422(app, client, body):
    problem = unchanged(app, client, lambda: post_raw(client, "/games", json.dumps(body)), 422, "validation-error")
    assert problem["errors"]


@pytest.mark.parametrize("body", [{"name": "B"}, {"invite_code": 5, "name": "B"}, {"invite_code": "x"},
                                  {"invite_code": ["x"], "name": "B"}, {"invite_code": "x", "name": "B", "seat": 0}])
def test_wrong_types_and_unknown_fields_when_joining_are_422(app, client, body):
    created = create(client)
    unchanged(app, client, lambda: client.post(f"/games/{created['game_id']}/join", json=body),
              422, "validation-error")


@pytest.mark.parametrize("action", [[], "pass", None, 5, {}, {"type": ["pass"]}, {"type": None},
                                    {"type": "pass", "extra": 1}, {"type": "draw"},
                                    {"type": "draw", "from": "pocket"}, {"type": "discard"},
                                    {"type": "discard", "card": 7}, {"type": "discard", "card": ["7H"]},
                                    {"type": "knock", "discard": "7H", "melds": "7C 8C 9C"},
                                    {"type": "teleport"}, {"TYPE": "pass"}])
def test_malformed_actions_are_400_invalid_action(app, client, started, action):
    seat, _ = mover(client, started)
    unchanged(app, client, lambda: post_raw(client, f"/games/{started['id']}/actions", json.dumps(action),
                                            auth(started["tokens"][seat])), 400, "invalid-action")


# -- names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("label", sorted(BAD_NAMES))
def test_control_characters_and_spoofing_in_names_are_refused(app, client, label):
    name = BAD_NAMES[label]
    body = json.dumps({"name": name})  # ensure_ascii: a lone surrogate travels as \ud800
    problem = unchanged(app, client, lambda: post_raw(client, "/games", body), 422, "validation-error")
    assert "name" in problem["errors"].get("json", problem["errors"])
    created = create(client)
    join = json.dumps({"name": name, "invite_code": created["invite_code"]})
    unchanged(app, client, lambda: post_raw(client, f"/games/{created['game_id']}/join", join),
              422, "validation-error")


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_in_any_script_are_kept_exactly(client, name):
    created = create(client, name=f" {name} " if len(name) < 38 else name)
    assert created["game"]["players"][0]["name"] == name


@pytest.mark.parametrize("where", ["name", "invite_code", "rules key", "action card"])
def test_unpaired_surrogate_escapes_are_malformed_json(app, client, started, where):
    """"\ud800" is legal JSON syntax but no text: it cannot be stored (PostgreSQL) or hashed."""
    seat, _ = mover(client, started)
    path, body, headers = {
        "name": ("/games", '{"name": "A\\ud800B"}', {}),
        "invite_code": (f"/games/{started['id']}/join", '{"name": "B", "invite_code": "\\udfff"}', {}),
        "rules key": ("/games", '{"name": "A", "rules": {"\\ud800": 1}}', {}),
        "action card": (f"/games/{started['id']}/actions", '{"type": "discard", "card": "7\\ud800"}',
                        auth(started["tokens"][seat])),
    }[where]
    problem = unchanged(app, client, lambda: post_raw(client, path, body, headers), 400, "malformed-json")
    assert "surrogate" in problem["detail"]


# -- cards ---------------------------------------------------------------------------------

@pytest.mark.parametrize("card", ["7X", "1H", "11H", "", " ", "7H7H", "7", "H7", "🂧", "7\x00H", "TEN of H"])
def test_bad_card_strings_are_400_invalid_action(app, client, started, card):
    game = new_game(client)
    seat, seen = mover(client, game)
    assert client.post(f"/games/{game['id']}/actions", json={"type": "take_upcard"},
                       headers=auth(game["tokens"][seat])).status_code == 200
    for action in ({"type": "discard", "card": card}, {"type": "knock", "discard": card}):
        unchanged(app, client, lambda: client.post(f"/games/{game['id']}/actions", json=action,
                                                   headers=auth(game["tokens"][seat])), 400, "invalid-action")
    knock = {"type": "knock", "discard": seen["hand"][0], "melds": [[card, "8C", "9C"]]}
    unchanged(app, client, lambda: client.post(f"/games/{game['id']}/actions", json=knock,
                                               headers=auth(game["tokens"][seat])), 400, "invalid-action")


# -- tokens, ids, headers ------------------------------------------------------------------

def test_tokens_of_another_game_or_garbage_open_nothing(app, client, started):
    other = new_game(client)
    path = f"/games/{started['id']}"
    tokens = [other["tokens"][0], other["tokens"][1], started["tokens"][0][:-1], started["tokens"][0] + "x",
              "", "null", "x" * 5000, "é" * 10, started["tokens"][0].upper()]
    for token in tokens:
        for send in (lambda: client.get(path, headers=auth(token)),
                     lambda: client.get(path + "/events", headers=auth(token)),
                     lambda: client.post(path + "/actions", json={"type": "pass"}, headers=auth(token))):
            unchanged(app, client, send, 401, "invalid-token")
    for header in ({}, {"Authorization": f"Basic {started['tokens'][0]}"},
                   {"Authorization": started["tokens"][0]}, {"Authorization": "Bearer"}):
        unchanged(app, client, lambda: client.post(path + "/actions", json={"type": "pass"}, headers=header),
                  401, "invalid-token")


def test_the_other_seats_token_cannot_move_out_of_turn(app, client, started):
    seat, seen = mover(client, started)
    for action in seen["legal_actions"]:
        unchanged(app, client, lambda: client.post(f"/games/{started['id']}/actions", json=action,
                                                   headers=auth(started["tokens"][1 - seat])),
                  409, "not-your-turn")


@pytest.mark.parametrize("game_id", ["%00", "a%00b", "x" * 3000, "%C3%A9t%C3%A9", "..%5C..%5Cetc",
                                     "%F0%9F%83%8F", "1%20OR%201%3D1", "%27%3B--"])
def test_hostile_game_ids_are_401_without_a_hint(app, client, started, game_id):
    token = auth(started["tokens"][0])
    for send in (lambda: client.get(f"/games/{game_id}", headers=token),
                 lambda: client.get(f"/games/{game_id}/events", headers=token),
                 lambda: client.post(f"/games/{game_id}/actions", json={"type": "pass"}, headers=token)):
        unchanged(app, client, send, 401, "invalid-token")
    unchanged(app, client, lambda: client.post(f"/games/{game_id}/join",
                                               json={"name": "B", "invite_code": "x"}), 422, "invalid-invite")


@pytest.mark.parametrize("invite", ["\x00", "x" * 100, "é", "\U0001f0cf", "' OR 1=1 --"])
def test_hostile_invite_codes_are_422(app, client, invite):
    created = create(client)
    body = json.dumps({"name": "Bob", "invite_code": invite})
    unchanged(app, client, lambda: post_raw(client, f"/games/{created['game_id']}/join", body),
              422, "invalid-invite")


def test_an_idempotency_key_replayed_with_another_body_is_422(app, client, started):
    seat, seen = mover(client, started)
    path, token = f"/games/{started['id']}/actions", started["tokens"][seat]
    first = client.post(path, json=seen["legal_actions"][0], headers=auth(token, **{"Idempotency-Key": "once"}))
    assert first.status_code == 200
    for other in [{"type": "resign"}, {**seen["legal_actions"][0], "extra": 1}, []]:
        unchanged(app, client, lambda: client.post(path, json=other, headers=auth(token, **{"Idempotency-Key": "once"})),
                  422, "idempotency-key-reused")
    # The earlier keys (k1, k2 from the fixture) with a new body: refused too, whoever's turn it is.
    for key, key_seat in started["keys"].items():
        unchanged(app, client, lambda: client.post(path, json={"type": "resign"}, headers=auth(
            started["tokens"][key_seat], **{"Idempotency-Key": key})), 422, "idempotency-key-reused")
    # The same body again is the first answer, not a second application.
    before = snapshot(app)
    again = client.post(path, json=seen["legal_actions"][0], headers=auth(token, **{"Idempotency-Key": "once"}))
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert snapshot(app) == before


@pytest.mark.parametrize("key", ["", "x" * 201, "ключ", "a\tb"])
def test_bad_idempotency_keys_are_422(app, client, started, key):
    seat, seen = mover(client, started)
    unchanged(app, client, lambda: client.post(f"/games/{started['id']}/actions", json=seen["legal_actions"][0],
                                               headers=auth(started["tokens"][seat], **{"Idempotency-Key": key})),
              422, "validation-error")


# Not entity-tags at all (`garbage`) is a 422: tests/api/test_contract_edges.py
@pytest.mark.parametrize("if_match", ['"1"', '"999999999999999999999"', '"2", "3"', 'W/"3"'])
def test_stale_or_garbage_if_match_is_412(app, client, started, if_match):
    seat, seen = mover(client, started)
    unchanged(app, client, lambda: client.post(f"/games/{started['id']}/actions", json=seen["legal_actions"][0],
                                               headers=auth(started["tokens"][seat], **{"If-Match": if_match})),
              412, "version-mismatch")


@pytest.mark.parametrize("query", ["after=-1", "after=99999999999999999999999999", "after=2147483648",
                                   "limit=0", "limit=501", "limit=99999999999999999999", "after=1e3",
                                   "after=%00", "limit=abc"])
def test_bad_event_queries_are_422(app, client, started, query):
    unchanged(app, client, lambda: client.get(f"/games/{started['id']}/events?{query}",
                                              headers=auth(started["tokens"][0])), 422, "validation-error")


def test_an_oversized_chunked_body_through_gunicorn_is_413(live_server):
    """No Content-Length to refuse up front: the limit must hold while the body streams in."""
    import http.client
    host, port = live_server.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.putrequest("POST", "/games")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Transfer-Encoding", "chunked")
        connection.endheaders()
        chunk = b'{"name": "' + b"x" * 65536
        try:
            for _ in range(16):  # 1 MiB offered; the server may stop reading (and answer) early
                connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                chunk = b"x" * 65536
            connection.send(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        response = connection.getresponse()
        body = json.loads(response.read())
    finally:
        connection.close()
    assert response.status == 413 and body["code"] == "payload-too-large"
    assert response.getheader("Content-Type") == "application/problem+json"
