"""openapi.yaml's requests, taken at their word: an operation whose body the spec marks required
refuses a request without one as POST /games does (and makes nothing), and every request example
in the spec is accepted when sent as written, to a game and players set up for it."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
import yaml

from .helpers import auth

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
OPERATIONS = [(path, method, op) for path, ops in SPEC["paths"].items() for method, op in ops.items()
              if method != "parameters"]
BODY_REQUIRED = [(path, method) for path, method, op in OPERATIONS if op.get("requestBody", {}).get("required")]


def player(client, name: str) -> str:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def test_the_spec_marks_bodies_required_where_routes_take_fields():
    assert {("/challenges", "post"), ("/me/games", "post"), ("/games", "post"), ("/players", "post"),
            ("/series", "post")} <= set(BODY_REQUIRED)


@pytest.mark.parametrize("path, method", BODY_REQUIRED)
def test_a_missing_required_body_is_refused_as_post_games_refuses_it(client, path, method):
    """No body at all is 415 (no media type), an empty JSON body 400: never taken as `{}` (POST
    /challenges would make an open challenge anyone can take, POST /me/games a game)."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = client.post("/me/games", json={}, headers=auth(ann)).get_json()
    challenge = client.post("/challenges", json={"to": "Ann"}, headers=auth(bob)).get_json()
    url = path.replace("{game_id}", game["game_id"]).replace("{challenge_id}", challenge["challenge_id"])
    documented = SPEC["paths"][path][method]["responses"]
    assert {"400", "415"} <= set(documented), (method, path)
    for headers, status, code in (({}, 415, "unsupported-media-type"),
                                  ({"Content-Type": "application/json"}, 400, "malformed-json")):
        response = client.open(url, method=method.upper(), headers=auth(ann, **headers))
        assert response.status_code == status and response.get_json()["code"] == code, (headers, response.get_json())
    # Nothing was made: Ann has her one game and no challenge of her own, nobody a second player.
    assert len(client.get("/me/games", headers=auth(ann)).get_json()["games"]) == 1
    assert client.get("/challenges", headers=auth(ann)).get_json()["mine"] == []
    assert client.get("/challenges", headers=auth(bob)).get_json()["mine"] == [challenge]


# -- every request example, sent as written --------------------------------------------------

# The deck of every deal in the examples' games: the non-dealer (who moves first) is dealt the even
# places, 7H among them, and draws KS; the dealer is dealt 7C 8C 9C KD, four aces, 2S and 2D and
# draws 2H, so that knocking with KD and the meld 7C 8C 9C leaves 10 points: the examples' moves.
NON_DEALER = ["7H", "3S", "4D", "5C", "6S", "8D", "9S", "TH", "JC", "QS"]
DEALER = ["KD", "7C", "8C", "9C", "AS", "AD", "AH", "AC", "2S", "2D"]
DECK = [card for pair in zip(NON_DEALER, DEALER) for card in pair] + ["3C", "KS", "2H"]
DECK += [f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789TJQK" if f"{rank}{suit}" not in DECK]
SECRETS = ("invite_code", "link_key")  # a secret's example is elided ("q3Jw..."): the set-up's goes in
MOVES_BEFORE = {"draw": 2, "discard": 3, "knock": 5}  # the examples' moves come after these


def request_examples():
    """(path, method, name, body, headers) of every request example: each of the operation's, one
    body made of its fields' examples (as schemathesis makes one), and the header examples with the
    first. An action's fields are its examples' (the union's members are each a whole move)."""
    for path, method, op in OPERATIONS:
        headers = {p["name"]: p["schema"]["example"] for p in op.get("parameters", ())
                   if p["in"] == "header" and "example" in p.get("schema", {})}
        media = op.get("requestBody", {}).get("content", {}).get("application/json")
        if media is None:
            continue
        named = media.get("examples") or {"example": {"value": media["example"]}}
        for name, example in named.items():
            yield path, method, name, example["value"], headers if name == "knock" or "knock" not in named else {}
        schema = media["schema"]
        if "$ref" in schema:
            schema = SPEC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        if "properties" in schema:
            fields = {name: prop["example"] for name, prop in schema["properties"].items() if "example" in prop}
            assert set(schema.get("required", ())) <= set(fields), (path, "a required field without example")
            yield path, method, "fields", fields, {}


EXAMPLES = list(request_examples())


def test_every_operation_with_a_body_has_examples():
    assert {(path, method) for path, method, *_ in EXAMPLES} == {
        (path, method) for path, method, op in OPERATIONS if "application/json" in op.get("requestBody", {}).get(
            "content", {})}
    # A body in another form (the one-click unsubscribe's RFC 8058 form, sent by mail clients and
    # tested in tests/notify) is not sent here, but it has its example too.
    others = [(path, media) for path, _, op in OPERATIONS
              for kind, media in op.get("requestBody", {}).get("content", {}).items() if kind != "application/json"]
    assert others and all("example" in media or "examples" in media for _, media in others), others
    assert ("/games/{game_id}/actions", "post", "knock", {"type": "knock", "discard": "KD", "melds": [
        ["7C", "8C", "9C"]]}, {"If-Match": '"7"'}) in EXAMPLES


def started_game(client, token, monkeypatch, moves: int) -> tuple[str, dict]:
    """A game made by the player `token` opens, on DECK, joined and played `moves` moves on; its
    seats' tokens by role. Its version is then 2 + moves."""
    from service.games import deals
    monkeypatch.setattr(deals, "shuffled_deck", lambda: list(DECK))
    made = client.post("/me/games", json={}, headers=auth(token)).get_json()
    joined = client.post(f"/games/{made['game_id']}/join", json={"invite_code": made["invite_code"], "name": "Dee"})
    dealer = joined.get_json()["game"]["dealer"]
    tokens = {"dealer": (token, joined.get_json()["token"])[dealer]}
    tokens["first"] = (token, joined.get_json()["token"])[1 - dealer]
    script = [("first", {"type": "pass"}), ("dealer", {"type": "pass"}), ("first", {"type": "draw", "from": "stock"}),
              ("first", {"type": "discard", "card": "7H"}), ("dealer", {"type": "draw", "from": "stock"})]
    for role, action in script[:moves]:
        response = client.post(f"/games/{made['game_id']}/actions", json=action, headers=auth(tokens[role]))
        assert response.status_code == 200, (action, response.get_json())
    return made["game_id"], tokens


def set_up(app, client, monkeypatch, path, name):
    """What the example needs: (url, token, the secrets its elided fields stand for)."""
    me = player(client, "Cleo")  # Bob, whom examples challenge, exists; Ann, whom they make, does not
    if path == "/games/{game_id}/join":  # except where an anonymous seat takes his name: no player has it
        made = client.post("/me/games", json={}, headers=auth(me)).get_json()
        return path.replace("{game_id}", made["game_id"]), me, {"invite_code": made["invite_code"]}
    bob = player(client, "Bob")
    if path == "/games/{game_id}/actions":
        game_id, tokens = started_game(client, me, monkeypatch, MOVES_BEFORE[name])
        return path.replace("{game_id}", game_id), tokens["dealer" if name == "knock" else "first"], {}
    if path == "/games/{game_id}/plans":  # the first to play is to draw, 7H in hand
        game_id, tokens = started_game(client, me, monkeypatch, 2)
        return path.replace("{game_id}", game_id), tokens["first"], {}
    if path in ("/games/{game_id}/vacation", "/games/{game_id}/messages", "/games/{game_id}/reports",
                "/games/{game_id}/orders"):
        game_id, tokens = started_game(client, me, monkeypatch, 0)
        return path.replace("{game_id}", game_id), me, {}
    if path == "/tournaments/{tournament_id}/house-bot":  # Cleo's tournament, and the house bot to enter
        from service.core.extensions import db
        from service.players import accounts
        with app.app_context():
            accounts.create("House", None, True, local=True)
            db.session.commit()
        made = client.post("/tournaments", json={"name": "Cup", "format": "knockout", "house_bot": True},
                           headers=auth(me)).get_json()
        return path.replace("{tournament_id}", made["tournament_id"]), me, {}
    if path == "/games/{game_id}/seat-rematch/decline":  # a finished game whose first seat offers one
        game_id, tokens = started_game(client, me, monkeypatch, 0)
        resigned = client.post(f"/games/{game_id}/actions", json={"type": "resign"}, headers=auth(tokens["first"]))
        assert resigned.status_code == 200, resigned.get_json()
        offered = client.post(f"/games/{game_id}/seat-rematch", headers=auth(tokens["first"]))
        assert offered.status_code == 201, offered.get_json()
        return path.replace("{game_id}", game_id), tokens["dealer"], {}
    if path == "/challenges/{challenge_id}/decline":
        challenge = client.post("/challenges", json={"to": "Cleo"}, headers=auth(bob)).get_json()
        return path.replace("{challenge_id}", challenge["challenge_id"]), me, {}
    made = client.post("/me/games", json={}, headers=auth(bob)).get_json()
    url = path.replace("{game_id}", made["game_id"])
    if path == "/games/{game_id}/tokens":
        from service.access.links import seat_link
        from service.core.extensions import db
        with app.app_context():
            key = seat_link(made["game_id"], 0, datetime.now(timezone.utc)).split("#link=", 1)[1]
            db.session.commit()
        return url, me, {"link_key": key}
    seat_holder = path in ("/games/{game_id}/contact", "/games/{game_id}/push-subscriptions")
    return url, (bob if seat_holder else me), {"invite_code": made["invite_code"]}


@pytest.mark.parametrize("path, method, name, body, headers", EXAMPLES,
                         ids=[f"{method}-{path}-{name}" for path, method, name, *_ in EXAMPLES])
def test_every_request_example_is_accepted_as_written(app, client, monkeypatch, path, method, name, body, headers):
    url, token, secrets = set_up(app, client, monkeypatch, path, name)
    sent = dict(body)
    for field in SECRETS:
        if field in sent:
            assert sent[field].endswith("..."), (field, sent[field])  # elided in the spec: never a live one
            sent[field] = secrets[field]
    response = client.open(url, method=method.upper(), json=sent, headers=auth(token, **headers))
    assert 200 <= response.status_code < 300, (method, path, name, sent, response.get_json())


# -- the email rule, stated in the spec and applied by the code -------------------------------

ADDRESSES = ["ann@example.org", " ann@example.org ", "Ann.B+tag@Example.ORG", "a/b=c?d@x.co", "ann@localhost",
             "ann@xn--bcher-kva.example", "a" * 64 + "@x.org", "a" * 65 + "@x.org", "ann@" + "x" * 63 + ".org",
             "ann@" + "x" * 64 + ".org", "a..b@x.org", ".a@x.org", "a.@x.org", "ann@x", "ann@x.o", "ann@x.org.",
             "ann@-x.org", "ann@x-.org", "ann@1.2.3.4", "ann@x.xn--", "=?utf-8?q?a?=@x.org", "ann @x.org", "ann@x..org",
             "ann", "@x.org", "ann@@x.org", "\"ann\"@x.org", "ännë@x.org", "ann@x.org\tx", "a@b@x.org", "ann@x.org ,",
             "ann@example.org\n"]


def email_fields(spec: dict):
    """(schema, field, its schema) of every email field of a request."""
    for name, schema in spec["components"]["schemas"].items():
        for field, prop in schema.get("properties", {}).items():
            if "email" in field and "status" not in field and name not in ("ContactOut", "Account"):
                yield name, field, prop.get("items", prop)


def test_the_spec_states_the_email_rule_the_code_applies():
    from service.core.fields import EMAIL_PATTERN, EMAIL_RULE
    found = list(email_fields(SPEC))
    assert {(name, field) for name, field, _ in found} >= {
        ("NewPlayer", "email"), ("CreateGame", "email"), ("CreateGame", "invite_email"),
        ("CreateGame", "invite_emails"), ("JoinGame", "email"), ("Contact", "email")}
    for name, field, prop in found:
        assert prop["pattern"] == EMAIL_PATTERN and prop["maxLength"] == 254, (name, field)
        assert EMAIL_RULE in prop["description"], (name, field)


def accepted_by_the_service(app, address: str) -> bool:
    from service.notify.consent.addresses import check_email
    with app.app_context():
        try:
            check_email(address)
            return True
        except ValueError:
            return False


@pytest.mark.parametrize("address", ADDRESSES)
def test_the_email_pattern_refuses_exactly_what_the_service_refuses(app, client, address):
    """Sent where an email is taken (a new player's, a seat's contact), an address is accepted exactly
    when the spec's pattern matches it (and it is not longer than maxLength)."""
    import re
    spec_says = bool(re.fullmatch(SPEC["components"]["schemas"]["NewPlayer"]["properties"]["email"]["pattern"],
                                  address)) and len(address) <= 254
    made = client.post("/players", json={"name": "Ann", "email": address})
    assert (made.status_code == 201) == spec_says, (address, made.get_json())
    created = client.post("/games", json={"name": "Guest"}).get_json()  # Ann is a player's name now
    patched = client.patch(f"/games/{created['game_id']}/contact", json={"email": address},
                           headers=auth(created["token"]))
    assert (patched.status_code == 200) == spec_says, (address, patched.get_json())


def test_the_email_pattern_and_the_mail_check_agree_on_any_text(app):
    """Beyond the listed addresses: any short text over the characters that matter."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from service.core.fields import EMAIL_PATTERN

    @settings(max_examples=3000, deadline=None, derandomize=True)
    @given(st.text(alphabet="aZ09.-@=?_+ ~x\"", min_size=1, max_size=14).map(lambda t: t.replace("~", "xn--")))
    def agree(address):
        assert bool(re.fullmatch(EMAIL_PATTERN, address)) == accepted_by_the_service(app, address), address
    agree()
