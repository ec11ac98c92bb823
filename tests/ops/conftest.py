"""A match played through a real gunicorn (2 gevent workers, as the Procfile runs it), with the
problem paths a client can hit, recorded: what was asked, what came back, every secret handed out.
The metrics and the logs tests read what the server made of it."""
from __future__ import annotations

import http.client
import json
import os
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.api.helpers import choose

from ..conftest import start_gunicorn, stop_gunicorn
from ..hardening.torture import database_url

METRICS_TOKEN = "metrics-token-for-tests"
GAME = "/games/<game_id>"


@dataclass
class Served:
    base_url: str
    log_path: Path
    metrics_dir: Path
    process: object = None
    moves: Counter = field(default_factory=Counter)  # kind -> moves made
    requests: Counter = field(default_factory=Counter)  # (route, method, status) -> how many
    secrets: list = field(default_factory=list)  # every token, code, key and secret that went by
    request_ids: list = field(default_factory=list)  # (the id sent or None, the X-Request-Id answered)
    by_game: Counter = field(default_factory=Counter)  # game id -> requests to its paths

    def count(self, route: str, method: str, status: int, path: str) -> None:
        self.requests[(route, method, str(status))] += 1
        if path.startswith("/games/"):
            self.by_game[path.split("/")[2]] += 1

    def call(self, method: str, path: str, route: str, body=None, token: str | None = None,
             headers: dict | None = None) -> tuple[int, dict, dict]:
        """One request on a fresh connection (so both workers take some), counted by its route."""
        host, port = self.base_url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if body is not None:
            sent["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        self.count(route, method, response.status, path)
        self.request_ids.append((sent.get("X-Request-Id"), response.getheader("X-Request-Id")))
        document = json.loads(data) if data and response.getheader("Content-Type", "").endswith("json") else {}
        return response.status, document, dict(response.getheaders())


def requests_counted_by(metrics_dir: Path) -> set[str]:
    """The processes (their counter files' pids) that counted a request. Every process that imports
    the metrics has a counter file from the start (its unlabelled counters, and the labelled series
    made at start, are there at zero), the `flask db upgrade` before the server's too: a process
    counted a request when its file holds a gin_http_requests sample above zero."""
    from prometheus_client.mmap_dict import MmapedDict
    return {path.name.rsplit("_", 1)[-1] for path in metrics_dir.glob("counter_*.db")
            if any(key.startswith('["gin_http_requests"') and value > 0
                   for key, value, *_ in MmapedDict.read_all_values_from_file(str(path)))}


def until_both_workers_counted(served: Served, path: str, token: str) -> None:
    """The kernel hands fresh connections to whichever worker accepts first, not in turn: on a loaded
    machine one worker can take a whole match. Read the game on (counted like every request) until
    both workers have counted something, so the scrape has two processes' counts to sum."""
    for _ in range(2000):
        if len(requests_counted_by(served.metrics_dir)) >= 2:
            return
        served.call("GET", path, GAME, token=token)
    raise AssertionError("one worker answered 2,000 fresh connections in a row")


def play_match(served: Served) -> str:
    """A whole match of two seats, with a webhook set (its secret), and on the way every kind of
    refusal a client meets: a wrong token, a wrong invite code, a wrong link key, an illegal and a
    malformed action, a stale If-Match, an unknown path. Returns the game's id."""
    status, created, _ = served.call("POST", "/games", "/games", {"name": "Ann", "rules": {"target": 10}})
    assert status == 201, created
    game_id, path = created["game_id"], f"/games/{created['game_id']}"
    served.secrets += [created["token"], created["invite_code"]]
    status, _, _ = served.call("POST", path + "/join", GAME + "/join", {"invite_code": "not-the-code", "name": "Eve"})
    assert status == 422
    status, joined, _ = served.call("POST", path + "/join", GAME + "/join",
                                    {"invite_code": created["invite_code"], "name": "Bob"})
    assert status == 201, joined
    tokens = {0: created["token"], 1: joined["token"]}
    served.secrets.append(joined["token"])
    status, hook, _ = served.call("PATCH", path + "/contact", GAME + "/contact",
                                  {"webhook_url": "http://127.0.0.1:9/hook"}, token=tokens[1])
    assert status == 200, hook
    served.secrets.append(hook["webhook_secret"])
    wrong_key = "a-link-key-nobody-was-given-0123456789abcdef"
    served.secrets.append(wrong_key)
    status, _, _ = served.call("POST", path + "/tokens", GAME + "/tokens", {"link_key": wrong_key})
    assert status == 401
    status, _, _ = served.call("GET", path, GAME, token="not-a-token-of-this-game")
    assert status == 401
    status, _, _ = served.call("GET", "/no/such/path", "(unmatched)")
    assert status == 404
    for step in range(3000):
        status, view, _ = served.call("GET", path, GAME, token=tokens[0])
        if view["status"] == "finished":
            until_both_workers_counted(served, path, tokens[0])
            return game_id
        seat = view["to_move"]
        status, mine, _ = served.call("GET", path, GAME, token=tokens[seat])
        if step == 3:  # refusals the move path answers: illegal, malformed, stale
            assert served.call("POST", path + "/actions", GAME + "/actions", {"type": "pass"},
                               token=tokens[1 - seat])[0] == 409
            assert served.call("POST", path + "/actions", GAME + "/actions", {"type": "fly"},
                               token=tokens[seat])[0] == 400
            assert served.call("POST", path + "/actions", GAME + "/actions", choose(mine), token=tokens[seat],
                               headers={"If-Match": '"1"'})[0] == 412
        action = choose(mine)
        status, moved, _ = served.call("POST", path + "/actions", GAME + "/actions", action, token=tokens[seat],
                                       headers={"X-Request-Id": f"proxy-id-{step}"})
        assert status == 200, moved
        served.moves[action["type"]] += 1
    raise AssertionError("the match did not end")


@pytest.fixture(scope="session")
def servers():
    """The served matches by database, each played once in the session (the logs and the metrics
    tests read the same one), their servers stopped and databases dropped at its end."""
    with ExitStack() as stack:
        yield {}, stack


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request, servers, tmp_path_factory):
    """The match, played once per database; the server stays up for the tests to read it."""
    if request.param == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("PostgreSQL: set TEST_DATABASE_URL")
    played, stack = servers
    if request.param not in played:
        directory = tmp_path_factory.mktemp(f"served-{request.param}")
        metrics_dir = directory / "metrics"
        metrics_dir.mkdir()
        url = stack.enter_context(database_url(request.param, directory))
        # One trusted proxy: X-Forwarded-For then names the client, so a caller that is not on
        # loopback can be played from here; the proxy's X-Request-Id is taken.
        env = {"TRUSTED_PROXIES": "1", "METRICS_TOKEN": METRICS_TOKEN, "WEBHOOK_ALLOW_PRIVATE": "true",
               "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "LOG_FORMAT": "json"}
        process, base_url = start_gunicorn(url, workers=2, log_path=directory / "gunicorn.log", env=env)
        stack.callback(stop_gunicorn, process)
        played[request.param] = result = Served(base_url, directory / "gunicorn.log", metrics_dir, process)
        result.game_id = play_match(result)
    return played[request.param]
