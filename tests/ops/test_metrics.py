"""GET /metrics after a match through a real gunicorn with 2 workers, read with prometheus_client's
own parser: the counts are what was done, summed over both workers; refused to a caller that is
neither on loopback nor holds METRICS_TOKEN."""
from __future__ import annotations

import threading
import time

import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.api.helpers import choose

from .conftest import GAME, METRICS_TOKEN


def scrape(served, **headers) -> dict:
    """{(sample name, frozen labels): value} of one scrape."""
    answer = requests.get(served.base_url + "/metrics", headers=headers, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(answer.text) for sample in family.samples}


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_counts_after_a_match_are_what_was_done_on_both_workers(served):
    samples = scrape(served)
    for kind, made in served.moves.items():
        assert value(samples, "gin_moves_total", kind=kind) == made, kind
    assert sum(v for (name, _), v in samples.items() if name == "gin_moves_total") == sum(served.moves.values())
    for (route, method, status), asked in served.requests.items():
        if route == "/metrics":
            continue
        assert value(samples, "gin_http_requests_total", route=route, method=method, status=status) == asked, \
            (route, method, status)
    # No raw path, so no game id, in any label.
    assert not any(served.game_id in dict(labels).get("route", "") for _, labels in samples)
    moves = served.requests[(GAME + "/actions", "POST", "200")]
    assert value(samples, "gin_http_request_seconds_count", route=GAME + "/actions") == sum(
        asked for (route, _, _), asked in served.requests.items() if route == GAME + "/actions") > moves > 0
    assert value(samples, "gin_games_active") == 0  # the one game is over
    assert value(samples, "gin_outbox_pending") >= 1  # its webhook calls: no worker runs here
    assert ("gin_db_pool_in_use", frozenset()) in samples
    # Both workers counted: each process keeps its own files, and the scrape summed them.
    counting = {path.name.rsplit("_", 1)[-1] for path in served.metrics_dir.glob("counter_*.db")}
    assert len(counting) == 2, sorted(p.name for p in served.metrics_dir.iterdir())


def test_waiting_clients_are_counted_across_workers(served):
    """A stream held open shows in gin_waiting_clients{kind="stream"}, whichever worker serves it."""
    status, created, _ = served.call("POST", "/games", "/games", {"name": "Cy"})
    path = f"/games/{created['game_id']}"
    assert status == 201 and served.call("POST", path + "/join", GAME + "/join",
                                         {"invite_code": created["invite_code"], "name": "Di"})[0] == 201
    assert value(scrape(served), "gin_games_active") == 1
    before = value(scrape(served), "gin_waiting_clients", kind="stream")
    stream = requests.get(served.base_url + path + "/stream", stream=True, timeout=10,
                          headers={"Authorization": f"Bearer {created['token']}"})
    try:
        lines = stream.iter_lines()
        assert next(lines) == b"retry: 2000"  # the server is in the stream's loop: it counts
        assert value(scrape(served), "gin_waiting_clients", kind="stream") == before + 1
    finally:
        stream.close()
    served.count(GAME + "/stream", "GET", 200, path + "/stream")


def test_long_polls_are_counted_while_they_wait(served):
    """A long-poll waiting for a move shows in gin_waiting_clients{kind="long-poll"}, and no more
    once it is answered."""
    status, created, _ = served.call("POST", "/games", "/games", {"name": "Ed"})
    path = f"/games/{created['game_id']}"
    assert status == 201
    status, joined, _ = served.call("POST", path + "/join", GAME + "/join",
                                    {"invite_code": created["invite_code"], "name": "Fay"})
    assert status == 201
    tokens = {0: created["token"], 1: joined["token"]}
    seen = joined["game"]
    before = value(scrape(served), "gin_waiting_clients", kind="long-poll")
    answers = []
    poll = threading.Thread(target=lambda: answers.append(served.call(
        "GET", f"{path}?wait=30", GAME, token=tokens[1 - seen["to_move"]],
        headers={"If-None-Match": f'"{seen["version"]}"'})))
    poll.start()
    try:
        counted = None
        for _ in range(200):  # until the worker that took it counts it waiting
            counted = value(scrape(served), "gin_waiting_clients", kind="long-poll")
            if counted == before + 1:
                break
            time.sleep(0.05)
        assert counted == before + 1
    finally:
        mover = tokens[seen["to_move"]]
        _, mine, _ = served.call("GET", path, GAME, token=mover)
        assert served.call("POST", path + "/actions", GAME + "/actions", choose(mine), token=mover)[0] == 200
        poll.join(60)
    assert answers and answers[0][0] == 200
    assert value(scrape(served), "gin_waiting_clients", kind="long-poll") == before


def test_refused_to_a_caller_not_on_loopback_unless_it_holds_the_token(served):
    remote = {"X-Forwarded-For": "203.0.113.9"}  # through the trusted proxy, from elsewhere
    refused = requests.get(served.base_url + "/metrics", headers=remote, timeout=10)
    assert refused.status_code == 403 and refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "metrics-forbidden" and "gin_" not in refused.text
    wrong = requests.get(served.base_url + "/metrics", headers={**remote, "Authorization": "Bearer nope"},
                         timeout=10)
    assert wrong.status_code == 403
    assert ("gin_moves_total", frozenset({("kind", "draw")})) in scrape(
        served, **remote, Authorization=f"Bearer {METRICS_TOKEN}")


def test_metrics_can_be_turned_off_and_moved(app):
    from service import create_app
    config = {key: app.config[key] for key in ("SQLALCHEMY_DATABASE_URI",)}
    config.update({k: v for k, v in app.config.items() if k == "SQLALCHEMY_ENGINE_OPTIONS"})
    off = create_app({"TESTING": True, **config, "METRICS_ENABLED": False}).test_client()
    assert off.get("/metrics").status_code == 404
    moved = create_app({"TESTING": True, **config, "METRICS_PATH": "/internal/metrics"}).test_client()
    assert moved.get("/metrics").status_code == 404
    assert b"gin_http_requests_total" in moved.get("/internal/metrics").data
