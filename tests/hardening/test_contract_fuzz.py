"""Fuzzing the contract: schemathesis generates requests from openapi.yaml, positive and negative,
for every operation, and sends them in-process to the real app over a real (migrated) database.

An auth hook hands it real tokens of real games (seat to move, the other seat, a game waiting for
its opponent, a finished one), so the requests reach the engine instead of stopping at 401.
Every answer must be documented, match its schema, never be a 5xx. The run is bounded by
schemathesis.toml (max-examples per operation); GIN_LONG_TESTS=1 runs many more examples.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
import schemathesis
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation

from ..api.helpers import auth, create, mover, new_game
from .support import LONG

ROOT = Path(__file__).resolve().parents[2]
CONFIG = SchemathesisConfig.from_path(ROOT / "schemathesis.toml")
if LONG:
    CONFIG.projects.default.generation.update(max_examples=300)
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=CONFIG)


class GamePool:
    """Real games in each state, refilled as the fuzzer finishes them (it may resign or play on)."""

    def __init__(self, client):
        self.client = client
        self.turn = itertools.count()
        self.active = [new_game(client) for _ in range(2)]
        self.finished = new_game(client)
        seat, _ = mover(client, self.finished)
        assert client.post(f"/games/{self.finished['id']}/actions", json={"type": "resign"},
                           headers=auth(self.finished["tokens"][seat])).status_code == 200
        self.waiting = self._waiting()

    def _waiting(self) -> dict:
        created = create(self.client)
        return {"id": created["game_id"], "tokens": {0: created["token"]}, "invite": created["invite_code"]}

    @property
    def ids(self) -> set[str]:
        return {game["id"] for game in (*self.active, self.finished, self.waiting) if game}

    def pick(self, operation: str) -> tuple[dict, str | None]:
        """A game and a token for this operation, cycling through the interesting kinds."""
        turn = next(self.turn)
        if operation == "POST /games/{game_id}/join":
            if self.waiting is None or turn % 4 == 0:  # now and then a real invite: a 201
                self.waiting = self._waiting()
            return self.waiting, None
        kind = turn % 6
        if kind == 5:
            return self.finished, self.finished["tokens"][turn % 2]
        if kind == 4:
            return self.waiting, self.waiting["tokens"][0]
        game = self.active[turn % 2]
        seat, seen = mover(self.client, game)
        if seen["status"] == "finished":
            game = self.active[turn % 2] = new_game(self.client)
            seat, _ = mover(self.client, game)
        return game, game["tokens"][seat if kind < 3 else 1 - seat]  # mostly the seat to move


POOL: dict[str, GamePool] = {}


def aim(case, pool: GamePool) -> None:
    """Point a generated request at a real game: its id in the path and, where the request carries
    a bearer token at all, a real seat token (a request generated without one stays without)."""
    game, token = pool.pick(f"{case.method.upper()} {case.path}")
    case.path_parameters["game_id"] = game["id"]
    headers = case.headers if case.headers is not None else {}
    if token is not None and "Authorization" in headers:
        headers["Authorization"] = f"Bearer {token}"
        case.headers = headers
    positive = case.meta is None or case.meta.generation.mode == GenerationMode.POSITIVE
    if positive and case.path == "/games/{game_id}/join" and isinstance(case.body, dict) \
            and "invite_code" in case.body and next(pool.turn) % 2 == 0:
        case.body["invite_code"] = game["invite"]  # a valid request that can succeed


def path_made_invalid(case) -> bool:
    """Whether this case's path parameters were generated to break the schema (leave them be)."""
    path = case.meta.components.get(ParameterLocation.PATH) if case.meta else None
    return path is not None and path.mode == GenerationMode.NEGATIVE


@schema.auth(refresh_interval=None)
class RealSeatTokens:
    """The auth hook: every request it is asked about gets a real game and a real seat token.
    (schemathesis asks it in the fuzzing phase; the test aims the other phases' cases itself.)"""

    def get(self, case, context):
        pool = POOL.get("current")
        if pool is None or "game_id" not in (case.path_parameters or {}):
            return None
        case.headers = {**(case.headers or {}), "Authorization": "Bearer -"}
        aim(case, pool)
        return case.headers["Authorization"]

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": data}


@pytest.fixture
def game_pool(client):
    POOL["current"] = pool = GamePool(client)
    pool.statuses = []
    yield pool
    POOL.clear()
    # The hook must have worked: requests got past the token check to the game itself.
    operation = pool.statuses[0][0] if pool.statuses else ""
    if "{game_id}" in operation:
        assert any(status not in (401, 405) for _, status in pool.statuses), f"{operation}: only 401s"


@schema.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the pool is meant to persist
def test_every_operation_honours_the_contract(case, app, game_pool, monkeypatch):
    # The schema was loaded from the file, so it has no app: its follow-up checks (ignored_auth
    # sends the request again without the token) must reach the same in-process app.
    case.operation.schema.app = app
    # Confirmation mails are capped (429 too-many-confirmations) over many requests, which a
    # fuzzer sending the same example address again and again reaches at once; the caps have
    # their own test (tests/notify/test_confirmation.py), the contract is checked here.
    for cap in ("CONFIRM_MAILS_PER_GAME", "CONFIRM_MAILS_PER_ADDRESS", "CONFIRM_MAILS_PER_CLIENT",
                "INVITES_PER_SENDER_PER_DAY"):  # invitations by mail (invite_email) likewise
        monkeypatch.setitem(app.config, cap, 10**9)
    if "game_id" in (case.path_parameters or {}) and case.path_parameters["game_id"] not in game_pool.ids \
            and not path_made_invalid(case):
        aim(case, game_pool)
    # A stream lasts until the match ends: here it ends after a second, with what it sent by then.
    monkeypatch.setitem(app.config, "STREAM_MAX_SECONDS", 1.0)
    wait = case.query.get("wait") if isinstance(case.query, dict) else None
    if (type(wait) is int or (isinstance(wait, str) and wait.isdigit())) and 0 < int(wait) <= 60:
        # A long poll that finds nothing new sits out its wait: a game's a second at most here; the
        # messages' not at all, as no message comes while the fuzzer asks (the spec's examples send
        # it as text, "60", which waited a minute a database). Their waits are tested in
        # tests/players/test_messages_live.py.
        case.query["wait"] = 0 if case.path.endswith("/messages") else 1
    response = case.call_and_validate(app=app)
    operation = f"{case.method.upper()} {case.path}"
    game_pool.statuses.append((operation, response.status_code))
    # Honoured to the letter: a problem answers with one of the codes documented for that status.
    documented = DOCUMENTED_CODES.get(operation, {}).get(response.status_code)
    if documented:
        assert response.json()["code"] in documented, (operation, response.status_code, response.json())


def documented_codes() -> dict[str, dict[int, set[str]]]:
    """From openapi.yaml: per operation and status, the problem codes its examples document."""
    import yaml
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    codes = {}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, answer in operation["responses"].items():
                examples = (answer.get("content", {}).get("application/problem+json", {}) or {}).get("examples")
                if status.isdigit() and examples:
                    codes.setdefault(f"{method.upper()} {path}", {})[int(status)] = set(examples)
    return codes


DOCUMENTED_CODES = documented_codes()
