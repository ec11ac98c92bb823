"""Problem details everywhere: statuses, stable codes, headers, and never a stack trace."""
from __future__ import annotations

import logging
import re
from pathlib import Path

from service.core.errors import CATALOGUE, LIBRARY_CODES
from service.core.extensions import db
from service.games.models import Game

from .helpers import act, auth, mover, new_game, stored_game

RULES_DIR = Path(__file__).resolve().parents[2] / "service" / "rules"


def assert_problem(response, status, code):
    assert response.status_code == status, response.data
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["status"] == status and problem["code"] == code
    assert problem["title"] and problem["detail"] and problem["type"] == f"/docs#problem-{code}"
    assert "Traceback" not in response.get_data(as_text=True)
    return problem


def test_malformed_json_is_400(client, app):
    for body in (b"{", b"", b"{'single': 'quotes'}", b"\xff\xfe"):
        response = client.post("/games", data=body, content_type="application/json")
        assert_problem(response, 400, "malformed-json")
    game = new_game(client)
    seat, seen = mover(client, game)
    response = client.post(f"/games/{game['id']}/actions", data=b'{"type": "pass"',
                           content_type="application/json", headers=auth(game["tokens"][seat]))
    assert_problem(response, 400, "malformed-json")
    assert stored_game(app, game["id"]).version == seen["version"]


def test_not_json_is_415(client):
    for kwargs in ({"data": "name=Ann", "content_type": "application/x-www-form-urlencoded"},
                   {"data": '{"name": "Ann"}', "content_type": "text/plain"}, {"data": '{"name": "Ann"}'}):
        assert_problem(client.post("/games", **kwargs), 415, "unsupported-media-type")


def test_body_over_the_limit_is_413(client, app):
    big = b'{"name": "' + b"x" * (app.config["MAX_CONTENT_LENGTH"] + 10) + b'"}'
    assert_problem(client.post("/games", data=big, content_type="application/json"), 413, "payload-too-large")
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_unknown_path_is_404(client):
    problem = assert_problem(client.get("/nowhere"), 404, "not-found")
    assert problem["instance"] == "/nowhere"
    assert_problem(client.get("/games/x/y/z"), 404, "not-found")


def test_wrong_method_is_405_with_allow(client):
    response = client.delete("/games")
    assert_problem(response, 405, "method-not-allowed")
    assert "POST" in response.headers["Allow"]
    response = client.put("/games/abc/actions", json={})
    assert_problem(response, 405, "method-not-allowed")
    assert "POST" in response.headers["Allow"] and "PUT" not in response.headers["Allow"]


def test_events_query_validation_is_422(client):
    game = new_game(client)
    for query in ("after=-1", "limit=0", "limit=501", "after=x"):
        response = client.get(f"/games/{game['id']}/events?{query}", headers=auth(game["tokens"][0]))
        problem = assert_problem(response, 422, "validation-error")
        assert problem["errors"]


def test_unexpected_failure_is_a_generic_500_logged_server_side(client, app, caplog):
    """A real fault: the stored engine snapshot is damaged behind the service's back."""
    game = new_game(client)
    with app.app_context():
        row = db.session.get(Game, game["id"])
        row.state = {"damaged": True}
        db.session.commit()
    with caplog.at_level(logging.ERROR, logger="service.core.errors"):
        response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0]))
    problem = assert_problem(response, 500, "internal-error")
    assert "KeyError" not in response.get_data(as_text=True) and "damaged" not in problem["detail"]
    assert any("Traceback" in (r.exc_text or "") or r.exc_info for r in caplog.records)


def test_every_engine_code_has_a_status_and_a_description():
    raised = set()
    for path in RULES_DIR.glob("*.py"):
        raised |= set(re.findall(r'IllegalAction\(\s*"([a-z-]+)"', path.read_text()))
    raised -= LIBRARY_CODES  # the engine as a library: no request can meet them
    assert raised and raised <= set(CATALOGUE), sorted(raised - set(CATALOGUE))


def test_not_your_turn_and_game_over_are_409(client):
    game = new_game(client)
    seat, _ = mover(client, game)
    assert_problem(act(client, game, 1 - seat, {"type": "pass"}), 409, "not-your-turn")
    assert act(client, game, seat, {"type": "resign"}).status_code == 200
    assert_problem(act(client, game, seat, {"type": "resign"}), 409, "game-over")
