"""The server's log of a played match (the problem paths too) through a real gunicorn: every line
is one JSON object with time, level and event; each request has its own line with request_id,
route, status and duration, and the game's id where it has one; no line holds a token, invite
code, link key or webhook secret. The request id is the trusted proxy's X-Request-Id, else made,
and is in every answer."""
from __future__ import annotations

import json
import logging
import re

from .conftest import GAME


def log_lines(served) -> list[dict]:
    text = served.log_path.read_text(errors="replace")
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"a log line that is not JSON: {line!r}") from None
    return parsed


def test_every_line_is_json_with_time_level_and_event(served):
    lines = log_lines(served)
    assert all(isinstance(line, dict) and {"time", "level", "event"} <= line.keys() for line in lines)
    assert any(line.get("logger", "").startswith("gunicorn.error") for line in lines)  # gunicorn's own too


def test_each_request_has_a_line_with_its_id_route_status_duration_and_game(served):
    requests = [line for line in log_lines(served) if line["event"] == "request"]
    for line in requests:
        assert {"request_id", "route", "status", "duration_ms", "method"} <= line.keys(), line
        assert line["duration_ms"] >= 0
        if line["route"] and "<game_id>" in line["route"]:
            assert line.get("game_id"), line
        else:
            assert "game_id" not in line, line
    for game_id, asked in served.by_game.items():
        assert sum(line.get("game_id") == game_id for line in requests) == asked
    for (route, method, status), asked in served.requests.items():
        logged = sum(1 for line in requests if (line["route"] or "(unmatched)") == route
                     and line["method"] == method and str(line["status"]) == status)
        assert logged == asked, (route, method, status, logged, asked)
    # The request ids answered are those of the lines, and unique.
    answered = [echoed for _, echoed in served.request_ids]
    assert all(answered) and len(set(answered)) == len(answered)
    assert set(answered) <= {line["request_id"] for line in requests}


def test_no_line_holds_a_secret(served):
    text = served.log_path.read_text(errors="replace")
    assert served.secrets
    for secret in served.secrets:
        assert secret not in text, "a secret reached the log"
    assert "Bearer" not in text and "invite_code" not in text


def test_behind_a_trusted_proxy_its_request_id_is_taken(served):
    """Through the trusted proxy (TRUSTED_PROXIES=1), the server took the X-Request-Id it was sent."""
    sent = [(given, echoed) for given, echoed in served.request_ids if given]
    assert sent and all(given == echoed for given, echoed in sent)


def test_without_a_trusted_proxy_the_request_id_is_made(client):
    """Without a trusted proxy (the default), a caller's X-Request-Id is not believed."""
    answer = client.get("/health", headers={"X-Request-Id": "made-up-by-the-caller"})
    assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["X-Request-Id"])
    assert client.get("/health").headers["X-Request-Id"] != answer.headers["X-Request-Id"]
    missing = client.get("/no/such/path")  # every answer, a problem's too
    assert missing.status_code == 404 and missing.headers["X-Request-Id"]


def test_a_malformed_request_id_from_the_proxy_is_replaced(app):
    from service import create_app
    config = {k: v for k, v in app.config.items() if k in ("SQLALCHEMY_DATABASE_URI", "SQLALCHEMY_ENGINE_OPTIONS")}
    behind = create_app({"TESTING": True, **config, "TRUSTED_PROXIES": 1}).test_client()
    assert behind.get("/health", headers={"X-Request-Id": "abc-123"}).headers["X-Request-Id"] == "abc-123"
    forged = behind.get("/health", headers={"X-Request-Id": "x\" injected=1"}).headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", forged)


def test_plain_text_for_development():
    from service.core.logs import handler
    record = logging.LogRecord("service.test", logging.WARNING, __file__, 1, "a %s thing", ("plain",), None)
    plain, structured = handler("plain"), handler("json")
    for each in (plain, structured):
        each.filter(record)
    assert "WARNING service.test [-] a plain thing" in plain.format(record)
    assert json.loads(structured.format(record))["event"] == "a plain thing"
