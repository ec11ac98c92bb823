"""Clients generated from openapi.yaml, as a third party would make them: Python with
openapi-python-client (it plays a whole match against a real server through its typed functions,
and reads every frame of both streams into its generated event classes; the server runs on SQLite,
and on PostgreSQL too when TEST_DATABASE_URL is set, as CI sets it), and TypeScript with
openapi-typescript (a small bot and consumers of both streams, written against the types, pass
`tsc --noEmit --strict`). Neither generator may warn. They skip, saying why, where the generator
or node is missing; .ci/run installs both (pip's test extra, `npm ci` in clients/ts)."""
from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ..conftest import PG_SKIP, start_gunicorn, stop_gunicorn
from ..hardening.torture import database_url
from .streams import PLAYER_EVENTS, every_player_event, frames, post

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
TS = ROOT / "clients" / "ts"
PACKAGE = "gin_generated"


def python_generator() -> list[str]:
    if importlib.util.find_spec("openapi_python_client") is None:
        pytest.skip("openapi-python-client is not installed (pip install -e '.[test]')")
    return [sys.executable, "-m", "openapi_python_client"]


@pytest.fixture(scope="module")
def generated_python(tmp_path_factory):
    folder = tmp_path_factory.mktemp("python-client")
    config = folder / "config.yaml"
    # No post-hooks: they would want ruff on PATH, and the code must be usable as generated.
    config.write_text(f"project_name_override: gin-generated\npackage_name_override: {PACKAGE}\npost_hooks: []\n")
    done = subprocess.run([*python_generator(), "generate", "--path", str(SPEC), "--config", str(config),
                           "--output-path", str(folder / "out")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert "warning" not in output.lower() and "error" not in output.lower(), output
    sys.path.insert(0, str(folder / "out"))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder / "out"))


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    """A real gunicorn (gevent, as the Procfile runs it) on a fresh SQLite file, and on a fresh
    PostgreSQL schema when TEST_DATABASE_URL is set: the generated client meets both."""
    if request.param == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    folder = tmp_path_factory.mktemp(f"generated-{request.param}")
    with database_url(request.param, folder) as url:
        process, base_url = start_gunicorn(url, log_path=folder / "server.log")
        try:
            yield base_url
        finally:
            stop_gunicorn(process)


def test_the_python_client_is_named_by_operation_and_typed(generated_python):
    from gin_generated.api.games import create_game, get_game, join_game, list_events, post_action, stream_game  # noqa: F401
    from gin_generated.models import DrawAction, GameView, GameViewPhase
    fields = GameView.__annotations__
    assert "Unset" not in str(fields["phase"]) and "Unset" not in str(fields["legal_actions"])
    assert {p.value for p in GameViewPhase} >= {"draw", "discard", "match_over"}
    assert "card" not in DrawAction.__annotations__  # exactly its own fields


def nullable_enums(spec: dict):
    """(schema, property, values) of every property of the spec that is an enum or null."""
    for schema_name, schema in spec["components"]["schemas"].items():
        for prop, field in schema.get("properties", {}).items():
            enums = [part["enum"] for part in field.get("anyOf", ()) if "enum" in part]
            nullable = {"type": "null"} in field.get("anyOf", ()) or "null" in (field.get("type") or ())
            if nullable and (enums or field.get("enum")):
                yield schema_name, prop, {value for value in (enums or [field["enum"]])[0] if value is not None}


def test_a_nullable_enum_is_one_enum_class(generated_python):
    """Challenge.reason, Invitation.format and every other nullable enum: one class each, which the
    field is typed with (written as marshmallow writes them, the generator made three identical ones)."""
    import enum

    import yaml

    from gin_generated import models
    found = list(nullable_enums(yaml.safe_load(SPEC.read_text())))
    assert {(schema, prop) for schema, prop, _ in found} >= {("Challenge", "reason"), ("Invitation", "format")}
    for schema, prop, values in found:
        prefix = schema + "".join(part.title() for part in prop.split("_"))
        classes = [cls for name, cls in vars(models).items()
                   if isinstance(cls, enum.EnumMeta) and name.startswith(prefix)]
        assert len(classes) == 1, (schema, prop, classes)
        assert {member.value for member in classes[0]} == values
        typed = getattr(models, schema).__annotations__
        assert classes[0].__name__ in str(typed.get(prop, typed.get(prop + "_"))), (schema, prop)  # format_


def test_the_python_client_plays_a_whole_match(generated_python, server):
    from gin_generated import AuthenticatedClient, Client
    from gin_generated.api.games import create_game, get_game, join_game, list_events, post_action
    from gin_generated.models import (CreateGame, DrawAction, DrawActionFrom, DrawActionType, GameView,
                                      GameViewStatus, JoinGame, Problem, ProblemCode, RulesChoice, RulesChoicePreset)

    created = create_game.sync(client=Client(server), body=CreateGame(
        name="Ann", rules=RulesChoice(preset=RulesChoicePreset.STANDARD, target=25)))
    joined = join_game.sync(game_id=created.game_id, client=Client(server),
                            body=JoinGame(invite_code=created.invite_code, name="Bob"))
    seats = {0: AuthenticatedClient(server, token=created.token),
             1: AuthenticatedClient(server, token=joined.token)}
    # Nobody may draw before the upcard is offered: the refusal is typed too.
    refused = post_action.sync(game_id=created.game_id, client=seats[0],
                               body=DrawAction(type_=DrawActionType.DRAW, from_=DrawActionFrom.STOCK))
    assert isinstance(refused, Problem) and refused.code in (ProblemCode.WRONG_PHASE, ProblemCode.NOT_YOUR_TURN)
    for _ in range(3000):
        view = get_game.sync(game_id=created.game_id, client=seats[0])
        assert isinstance(view, GameView), view
        if view.status == GameViewStatus.FINISHED:
            break
        mine = get_game.sync(game_id=created.game_id, client=seats[view.to_move])
        answer = post_action.sync(game_id=created.game_id, client=seats[view.to_move], body=choose(mine))
        assert isinstance(answer, GameView), answer.to_dict() if hasattr(answer, "to_dict") else answer
    else:
        pytest.fail("the match did not end")
    assert view.result is not None and view.result.winner in (0, 1)
    page = list_events.sync(game_id=created.game_id, client=seats[1], limit=500)
    assert page.events[-1].type_.value == "match_end"


def test_the_python_client_tells_a_table_from_a_two_seat_game_by_kind(generated_python, server):
    """A created game's view is a oneOf discriminated on `kind`: the client hands back a TableView
    for a table and a GameView for two seats, each saying its kind."""
    from gin_generated import Client
    from gin_generated.api.games import create_game
    from gin_generated.models import CreateGame, CreateGameSeats, GameView, GameViewKind, TableView, TableViewKind
    two = create_game.sync(client=Client(server), body=CreateGame(name="Ann"))
    table = create_game.sync(client=Client(server), body=CreateGame(name="Ann", seats=CreateGameSeats(3)))
    assert isinstance(two.game, GameView) and two.game.kind == GameViewKind.GAME
    assert isinstance(table.game, TableView) and table.game.kind == TableViewKind.TABLE


def choose(view):
    """Knock when possible, else pass or draw from the stock, else discard the card the view suggests.
    Every action posted is one of the typed legal_actions, sent back unchanged."""
    from gin_generated.models import BigGinAction, DiscardAction, DrawAction, KnockAction, PassAction
    legal = view.legal_actions
    for kind in (BigGinAction, KnockAction, PassAction):
        for action in legal:
            if isinstance(action, kind):
                return action
    for action in legal:
        if isinstance(action, DrawAction) and action.from_.value == "stock":
            return action
    best = view.arrangement.best_discard if view.arrangement else None
    discards = [a for a in legal if isinstance(a, DiscardAction)]
    return next((a for a in discards if a.card == best), discards[0] if discards else legal[0])


def stream_classes(models) -> dict[str, dict[str, list[type]]]:
    """Per stream union of openapi.yaml, its discriminator's values and the generated classes of each
    (the `view` event's are two: GameViewEvent, and TableViewEvent at a table)."""
    schemas = yaml.safe_load(SPEC.read_text())["components"]["schemas"]
    found = {}
    for union, discriminator in (("GameStreamEvent", "event"), ("PlayerStreamEvent", "type")):
        assert schemas[union]["discriminator"]["propertyName"] == discriminator
        found[union] = {}
        for name, target in schemas[union]["discriminator"]["mapping"].items():
            member = target.rsplit("/", 1)[1]
            parts = [p["$ref"].rsplit("/", 1)[1] for p in schemas[member].get("anyOf", [])] or [member]
            found[union][name] = [getattr(models, part) for part in parts]
    return found


def test_the_python_client_has_a_class_per_stream_event_and_reads_both_real_streams(generated_python, server):
    """Every frame of a real game stream and of two real player streams, read with the client's
    reader, is one of the generated event classes, chosen by the discriminator its data carries; and
    the generated stream function hands the body over as text instead of parsing it as JSON."""
    import httpx
    from gin_generated import AuthenticatedClient, models
    from gin_generated.api.games import stream_game
    from gin_generated.api.players import stream_me
    classes = stream_classes(models)
    assert set(classes["GameStreamEvent"]) == {"view", "rematch_offered", "rematch_declined", "message", "review_ready"}
    assert set(classes["PlayerStreamEvent"]) == PLAYER_EVENTS | {"review_ready"}
    story = every_player_event(server)

    game_frames = list(frames(f"{server}/games/{story['game']}/stream", story["ann"]))
    assert game_frames  # a finished match's stream: its last view, then the end
    for frame_id, event, text in game_frames:
        data = json.loads(text)
        two_seats, at_table = classes["GameStreamEvent"][data["event"]]
        assert "format" not in data  # a game of two: its view is a GameView
        parsed = two_seats.from_dict(data)
        assert parsed.event.value == event == "view" and parsed.version == int(frame_id)
        assert parsed.status.value == "finished" and parsed.hand is not None  # the view itself, typed
        assert models.GameStreamFrame.from_dict({"id": frame_id, "event": event, "data": text}).event.value == "view"

    # Seats that are not both players': the other seat's seat rematch offer, its own event class.
    anonymous = post(server, "/games", body={"name": "Ann"})
    bob = post(server, f"/games/{anonymous['game_id']}/join", body={"name": "Bob", "invite_code": anonymous["invite_code"]})
    post(server, f"/games/{anonymous['game_id']}/actions", bob["token"], {"type": "resign"}, status=200)
    offer = post(server, f"/games/{anonymous['game_id']}/seat-rematch", bob["token"])
    last_view, (frame_id, event, text) = frames(f"{server}/games/{anonymous['game_id']}/stream", anonymous["token"])
    (offered_class,) = classes["GameStreamEvent"]["rematch_offered"]
    parsed = offered_class.from_dict(json.loads(text))
    assert parsed.event.value == event == "rematch_offered" and frame_id == last_view[0]
    assert parsed.seat_rematch.game_id == offer["game_id"] and parsed.seat_rematch.by == "Bob"
    # Declined: the offering seat's stream (open for the answer) hears it, its own event class too.
    post(server, f"/games/{anonymous['game_id']}/seat-rematch/decline", anonymous["token"], {"reason": "busy"}, status=200)
    last_view, (frame_id, event, text) = frames(f"{server}/games/{anonymous['game_id']}/stream", bob["token"])
    (declined_class,) = classes["GameStreamEvent"]["rematch_declined"]
    parsed = declined_class.from_dict(json.loads(text))
    assert parsed.event.value == event == "rematch_declined" and frame_id == last_view[0]
    assert parsed.by == "Ann" and parsed.reason.value == "busy"

    # At a table the view is a TableView: its event class is TableViewEvent.
    table = post(server, "/games", body={"name": "Ann", "seats": 3})
    for invite in table["invites"]:  # every other seat: the first hand is dealt
        post(server, f"/games/{table['game_id']}/join", body={"name": "Bob", "invite_code": invite["invite_code"]})
    (frame_id, event, text), = frames(f"{server}/games/{table['game_id']}/stream", table["token"], stop_at="view")
    parsed = at_table.from_dict(json.loads(text))
    assert parsed.event.value == event == "view" and parsed.version == int(frame_id) and parsed.seats.value == 3
    assert parsed.status.value == "active"

    seen = set()
    for player in ("ann", "bob"):
        for frame_id, event, text in frames(f"{server}/me/stream", story[player], "0", stop_at="series_over"):
            data = json.loads(text)
            (event_class,) = classes["PlayerStreamEvent"][data["type"]]
            parsed = event_class.from_dict(data)
            assert parsed.type_.value == event and parsed.seq == int(frame_id)
            assert models.PlayerStreamFrame.from_dict({"id": frame_id, "event": event, "data": text}).data == text
            seen.add(event)
    assert seen == PLAYER_EVENTS  # review_ready needs the coach worker: tests/coach reads it on both streams

    # The generated functions read the text/event-stream body as text (the spec used to declare a
    # JSON object, and stream_me failed with a ValueError on a real frame).
    answer = stream_game.sync_detailed(game_id=story["game"], client=AuthenticatedClient(server, token=story["ann"]))
    assert answer.status_code == 200 and isinstance(answer.parsed, str) and "event: view" in answer.parsed
    body = "".join(f"id: {i}\nevent: {e}\ndata: {d}\n\n" for i, e, d in frames(
        f"{server}/me/stream", story["bob"], "0", stop_at="series_over"))
    assert stream_me._parse_response(client=AuthenticatedClient(server, token=story["bob"]),
                                     response=httpx.Response(200, text=body)) == body


def npm_tools() -> Path:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the TypeScript client is not checked")
    bin_folder = TS / "node_modules" / ".bin"
    if not (bin_folder / "openapi-typescript").exists() or not (bin_folder / "tsc").exists():
        pytest.skip("clients/ts has no node_modules: run `npm ci` in clients/ts (.ci/run does)")
    return bin_folder


def test_the_typescript_client_generates_without_warnings_and_a_bot_and_stream_consumers_type_check():
    """bot.ts, and stream.ts: docs/api.md's fetch reader and a consumer of each stream that switches
    on the discriminator of the generated event unions (GameStreamEvent, PlayerStreamEvent)."""
    tools = npm_tools()
    out = TS / "generated" / "api.d.ts"
    out.parent.mkdir(exist_ok=True)
    # Fields with a default are optional in a request: without this flag they would be typed required.
    done = subprocess.run([str(tools / "openapi-typescript"), str(SPEC), "-o", str(out), "--default-non-nullable", "false"],
                          capture_output=True, text=True, timeout=120, cwd=TS)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "warn" not in output.lower() and "error" not in output.lower(), output
    checked = subprocess.run([str(tools / "tsc"), "--noEmit", "--strict", "-p", str(TS)],
                             capture_output=True, text=True, timeout=300, cwd=TS)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    consumers = (TS / "stream.ts").read_text()
    assert 'Schemas["PlayerStreamEvent"]' in consumers and "switch (data.type)" in consumers
    assert 'Schemas["GameStreamEvent"]' in consumers and "switch (data.event)" in consumers
