"""openapi.yaml is generated from the code, valid, complete, and served with a docs page."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from openapi_spec_validator import validate

from service import create_app
from service.core.errors import CATALOGUE

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"


@pytest.fixture(scope="module")
def spec_app(tmp_path_factory):
    # The spec and the docs never touch the database; an empty SQLite file is enough.
    path = tmp_path_factory.mktemp("spec") / "unused.sqlite3"
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})


@pytest.fixture(scope="module")
def generated(spec_app) -> str:
    result = spec_app.test_cli_runner().invoke(args=["openapi", "print", "--format", "yaml"])
    assert result.exit_code == 0, result.output
    return result.output


def test_checked_in_spec_matches_the_code(generated):
    assert yaml.safe_load(SPEC_FILE.read_text()) == yaml.safe_load(generated), \
        "openapi.yaml is stale: run `make openapi` and commit it"


def test_no_two_schemas_share_a_name(tmp_path):
    """apispec renames a second schema of the same name (GameRatingChange1) with only a warning: the
    contract would then name a type by accident."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'unused.sqlite3'}"})
    assert not [str(w.message) for w in caught if "Multiple schemas resolved" in str(w.message)]


def test_spec_is_valid_openapi_3(generated):
    spec = yaml.safe_load(generated)
    assert spec["openapi"].startswith("3.")
    validate(spec)


def test_every_operation_documents_success_errors_and_auth(generated):
    spec = yaml.safe_load(generated)
    assert spec["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer", "description": spec["components"]["securitySchemes"][
            "bearerAuth"]["description"]}
    operations = {(path, method): op for path, ops in spec["paths"].items()
                  for method, op in ops.items() if method != "parameters"}
    expected = {("/games", "post"), ("/games/{game_id}/join", "post"), ("/games/{game_id}", "get"),
                ("/games/{game_id}/actions", "post"), ("/games/{game_id}/events", "get"),
                ("/health", "get"), ("/docs", "get")}
    assert expected <= set(operations)
    for (path, method), op in operations.items():
        assert op.get("summary"), (path, method)
        assert "default" in op["responses"], (path, method)
        assert any(code.startswith("2") for code in op["responses"]), (path, method)
        for code, response in op["responses"].items():
            if code.startswith(("4", "5")):
                assert "application/problem+json" in response["content"], (path, method, code)
        if op.get("security") == [{"bearerAuth": []}]:
            assert "401" in op["responses"], (path, method)
    documented = set()
    for op in operations.values():
        for response in op["responses"].values():
            for media in response.get("content", {}).values():
                documented |= set(media.get("examples", {}))
    anywhere = {"not-found", "method-not-allowed", "bad-request", "internal-error", "rate-limited",
                "header-too-large", "uri-too-long"}  # answered by the server itself, on any path
    missing = {code for code in CATALOGUE if code not in documented} - anywhere  # those: `default`
    assert not missing, missing
    actions = operations[("/games/{game_id}/actions", "post")]
    assert {p["name"] for p in actions["parameters"]} >= {"If-Match", "Idempotency-Key"}
    assert set(actions["responses"]) >= {"200", "400", "401", "409", "412", "413", "415", "422"}
    assert "ETag" in operations[("/games/{game_id}", "get")]["responses"]["200"]["headers"]
    assert "304" in operations[("/games/{game_id}", "get")]["responses"]


def test_served_spec_and_docs_page(spec_app, generated):
    client = spec_app.test_client()
    served = client.get("/openapi.json")
    assert served.status_code == 200 and served.get_json() == yaml.safe_load(generated)
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert 'href="/openapi.json"' in html and "<script" not in html  # self-contained, no CDN
    for path in served.get_json()["paths"]:
        assert path in html
    for code in CATALOGUE:
        assert f'id="problem-{code}"' in html


def test_the_docs_page_shows_how_to_read_the_streams(spec_app):
    """docs/api.md's "Reading the streams", readers and all, is on /docs, where client authors look."""
    from html import unescape

    from ..doc_blocks import block
    html = spec_app.test_client().get("/docs").get_data(as_text=True)
    assert '<h2 id="streams">Reading the streams</h2>' in html and 'href="#streams"' in html
    for name in ("stream-reader", "stream-reader-ts"):
        assert block(name).rstrip("\n") in unescape(html)


def test_served_yaml_is_the_checked_in_contract(spec_app):
    response = spec_app.test_client().get("/openapi.yaml")
    assert response.status_code == 200 and response.mimetype == "application/yaml"
    assert yaml.safe_load(response.get_data(as_text=True)) == yaml.safe_load(SPEC_FILE.read_text())


def test_answers_with_a_body_carry_a_real_example(generated):
    # Third parties write clients from these: a recorded answer beats a schema alone.
    paths = yaml.safe_load(generated)["paths"]
    for path, method, status in (("/games", "post", "201"), ("/games/{game_id}/join", "post", "201"),
                                 ("/games/{game_id}", "get", "200"), ("/games/{game_id}/actions", "post", "200"),
                                 ("/games/{game_id}/events", "get", "200")):
        content = paths[path][method]["responses"][status]["content"]["application/json"]
        assert "example" in content or "examples" in content, (method, path)
    created = paths["/games"]["post"]["responses"]["201"]["content"]["application/json"]["example"]
    assert created["seat"] == 0 and created["game"]["status"] == "waiting_for_opponent"


def test_every_operation_has_a_short_unique_operation_id(generated):
    spec = yaml.safe_load(generated)
    ids = [op.get("operationId") for ops in spec["paths"].values() for method, op in ops.items()
           if method != "parameters"]
    assert all(ids) and len(set(ids)) == len(ids), ids
    assert {"createGame", "joinGame", "getGame", "postAction", "listEvents", "streamGame", "getContact"} <= set(ids)
    assert all(re.fullmatch(r"[a-z]+[A-Za-z]*", op_id) and len(op_id) <= 20 for op_id in ids), ids


def object_schemas(spec: dict, schema: dict, seen: set):
    """Every object schema reachable from `schema` (following $refs once each)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        if name in seen:
            return
        seen.add(name)
        yield from object_schemas(spec, spec["components"]["schemas"][name], seen)
        return
    if schema.get("properties"):
        yield schema
    for key in ("oneOf", "anyOf", "allOf"):
        for part in schema.get(key, []):
            yield from object_schemas(spec, part, seen)
    for part in (*schema.get("properties", {}).values(), *([schema["items"]] if "items" in schema else [])):
        yield from object_schemas(spec, part, seen)


def test_every_success_schema_lists_its_required_fields(generated):
    spec = yaml.safe_load(generated)
    checked = 0
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if method == "parameters":
                continue
            for status, response in op["responses"].items():
                if not status.startswith("2"):
                    continue
                for media, content in response.get("content", {}).items():
                    for schema in object_schemas(spec, content.get("schema", {}), set()):
                        if schema is spec["components"]["schemas"]["SeatCards"]:
                            continue  # a deal's cards, as far as the seat may see them
                        assert schema.get("required"), (method, path, status, sorted(schema["properties"]))
                        checked += 1
    assert checked > 20


def test_actions_and_events_are_unions_with_one_schema_per_type(generated):
    from service.games.action_schemas import ACTION_TYPES
    from service.games.event_schemas import EVENT_SCHEMAS
    from service.games.table_schemas import TABLE_EVENT_SCHEMAS
    schemas = yaml.safe_load(generated)["components"]["schemas"]
    for union, types in (("Action", ACTION_TYPES), ("Event", {**EVENT_SCHEMAS, **TABLE_EVENT_SCHEMAS})):
        assert schemas[union]["discriminator"]["propertyName"] == "type"
        mapping = schemas[union]["discriminator"]["mapping"]
        assert set(mapping) == set(types)
        for kind, target in mapping.items():
            member = schemas[target.rsplit("/", 1)[1]]
            assert member["properties"]["type"]["enum"] == [kind]
            assert "type" in member["required"]
            if union == "Action":  # a request: exactly its fields
                assert member["additionalProperties"] is False
    draw = schemas["DrawAction"]
    # `count` is Mahjong gin's (several discards at once); optional, so a plain draw is as before.
    assert set(draw["properties"]) == {"type", "from", "count"} and set(draw["required"]) == {"type", "from"}
    assert schemas["GameView"]["properties"]["phase"]["enum"]
    assert schemas["Problem"]["properties"]["code"]["enum"] == sorted(CATALOGUE)


def test_a_view_of_either_kind_is_a_union_discriminated_on_kind(generated):
    """GameView and TableView (and their public forms) each have a required `kind` of one value, and
    every operation that may answer either says so with a oneOf a generator switches on by `kind`."""
    spec = yaml.safe_load(generated)
    schemas = spec["components"]["schemas"]
    for game, table in (("GameView", "TableView"), ("PublicView", "PublicTableView")):
        for name, kind in ((game, "game"), (table, "table")):
            assert schemas[name]["properties"]["kind"]["enum"] == [kind] and "kind" in schemas[name]["required"]
        union = {"oneOf": [{"$ref": f"#/components/schemas/{game}"}, {"$ref": f"#/components/schemas/{table}"}],
                 "discriminator": {"propertyName": "kind", "mapping": {"game": f"#/components/schemas/{game}",
                                                                       "table": f"#/components/schemas/{table}"}}}
        found = [schema for schema in _all_schemas(spec)
                 if {"$ref": f"#/components/schemas/{table}"} in schema.get("oneOf", schema.get("anyOf", []))]
        assert found and all({key: schema.get(key) for key in union} == union for schema in found), (table, found)


def _all_schemas(node):
    """Every mapping in the document, depth first (schemas among them)."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _all_schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _all_schemas(value)


def test_streams_are_event_streams_with_a_named_schema_per_event(generated):
    """Each stream answers text/event-stream: a frame (what schemathesis and OpenAPI 3.1's tools check
    each event against) or, for a client reading the body at once, a string (never JSON to parse).
    Each frame's data is a union with one named schema per event, discriminated by a property that
    names the event, required and one value per member."""
    from service.coach.events import COACH_STREAM_SCHEMAS
    from service.players.stream_schemas import PLAYER_STREAM_SCHEMAS
    from service.series.stream_schemas import SERIES_STREAM_SCHEMAS
    from service.tournaments.stream_schemas import TOURNAMENT_STREAM_SCHEMAS
    spec = yaml.safe_load(generated)
    schemas = spec["components"]["schemas"]
    for path, frame, union, discriminator, names in (
            ("/games/{game_id}/stream", "GameStreamFrame", "GameStreamEvent", "event",
             {"view", "rematch_offered", "rematch_declined", "message", "review_ready"}),
            ("/me/stream", "PlayerStreamFrame", "PlayerStreamEvent", "type",
             {*PLAYER_STREAM_SCHEMAS, *SERIES_STREAM_SCHEMAS, *TOURNAMENT_STREAM_SCHEMAS, *COACH_STREAM_SCHEMAS})):
        content = spec["paths"][path]["get"]["responses"]["200"]["content"]
        assert list(content) == ["text/event-stream"] and "example" in content["text/event-stream"]
        assert content["text/event-stream"]["schema"]["anyOf"] == [
            {"$ref": f"#/components/schemas/{frame}"},
            {"type": "string", "description": content["text/event-stream"]["schema"]["anyOf"][1]["description"]}]
        data = schemas[frame]["properties"]["data"]
        assert data["contentMediaType"] == "application/json" and data["contentSchema"] == {
            "$ref": f"#/components/schemas/{union}"}
        assert set(schemas[frame]["properties"]["event"]["enum"]) == names
        assert schemas[union]["discriminator"]["propertyName"] == discriminator
        mapping = schemas[union]["discriminator"]["mapping"]
        assert set(mapping) == names and len(set(mapping.values())) == len(names)  # a schema per event
        for name, target in mapping.items():
            member = schemas[target.rsplit("/", 1)[1]]
            for each in member.get("anyOf", [member]):  # ViewEvent: GameViewEvent or TableViewEvent
                each = schemas[each["$ref"].rsplit("/", 1)[1]] if "$ref" in each else each
                assert each["properties"][discriminator]["enum"] == [name] and discriminator in each["required"]
    for path in ("/games/{game_id}/stream", "/me/stream"):
        assert "content" not in spec["paths"][path]["get"]["responses"].get("204", {})


def validator_for(spec: dict, name: str):
    """A validator of the component `name` (OpenAPI 3.1's schemas are JSON Schema 2020-12). The Rust
    jsonschema-rs (schemathesis's own): the pure-Python one resolved every $ref anew, and with the
    views' discriminated unions a whole table match's answers took minutes to check."""
    import jsonschema_rs
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]},
                                              validate_formats=False)


@pytest.mark.parametrize("rules", [{"preset": "standard", "target": 30}, {"preset": "hollywood", "target": 25},
                                   {"preset": "oklahoma", "target": 20, "last_discard_rule": "take_to_finish"},
                                   {"preset": "straight", "target": 10}])
def test_every_answer_of_whole_matches_validates_against_the_spec(client, generated, rules):
    """The strict spec (required fields, closed enums, one schema per action and event) describes
    what the service really sends, in every phase of real matches."""
    from .helpers import act, auth, choose, create, new_game
    spec = yaml.safe_load(generated)
    views, pages, actions = (validator_for(spec, name) for name in ("GameView", "EventsPage", "Action"))
    views.validate(create(client)["game"])  # a game waiting for its opponent
    game = new_game(client, rules=rules)
    for _ in range(2000):
        answers = [client.get(f"/games/{game['id']}", headers=auth(game["tokens"][s])).get_json() for s in (0, 1)]
        for answer in answers:
            views.validate(answer)
            for action in answer["legal_actions"]:
                actions.validate(action)
        if answers[0]["status"] == "finished":
            break
        seat = answers[0]["to_move"]
        response = act(client, game, seat, choose(answers[seat]))
        assert response.status_code == 200, response.get_json()
    else:
        pytest.fail("the match did not end")
    for seat in (0, 1):
        kinds, after = set(), 0
        while True:  # every page: a straight gin match of void hands can run past one page
            page = client.get(f"/games/{game['id']}/events?after={after}&limit=500",
                              headers=auth(game["tokens"][seat])).get_json()
            pages.validate(page)
            if not page["events"]:
                break
            kinds |= {e["type"] for e in page["events"]}
            after = page["events"][-1]["seq"]
        assert {"deal", "draw", "discard", "hand_end", "match_end"} <= kinds


def test_mahjong_gin_is_playable_over_http_and_described_by_the_spec(client, generated):
    """Mahjong gin offers actions of its own (meld, add_on, several discards drawn at once): every
    one it offers is accepted, and every answer and event matches the spec."""
    import random

    from .helpers import act, auth, new_game
    spec = yaml.safe_load(generated)
    views, pages, actions = (validator_for(spec, name) for name in ("GameView", "EventsPage", "Action"))
    chooser, posted = random.Random(7), set()
    for _ in range(5):  # until a meld has been put on the table over HTTP
        game = new_game(client, rules={"preset": "mahjong_gin"})
        for _ in range(150):
            answers = [client.get(f"/games/{game['id']}", headers=auth(game["tokens"][s])).get_json() for s in (0, 1)]
            for answer in answers:
                views.validate(answer)
            if answers[0]["status"] == "finished":
                break
            seat = answers[0]["to_move"]
            offered = answers[seat]["legal_actions"]
            melds = [a for a in offered if a["type"] in ("meld", "add_on")]
            action = chooser.choice(melds or offered)
            actions.validate(action)
            response = act(client, game, seat, action)
            assert response.status_code == 200, (action, response.get_json())
            posted.add(action["type"])
        for seat in (0, 1):
            pages.validate(client.get(f"/games/{game['id']}/events?limit=500",
                                      headers=auth(game["tokens"][seat])).get_json())
        if "meld" in posted:
            break
    assert "meld" in posted
