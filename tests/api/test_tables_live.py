"""Whole matches of three and four seats through a real gunicorn (the Procfile's gevent workers),
on SQLite and PostgreSQL (Tedesco's teams of six and eight too): every seat, the one sitting out and the partners, reads its own view
before every move and is scanned for cards it may not see; moves carry If-Match."""
from __future__ import annotations

import urllib.parse

import pytest
import requests

from ..conftest import start_gunicorn, stop_gunicorn
from .helpers import stored_game
from .table_helpers import TEDESCO_TEAMS, assert_table_hides_secrets, mover_and_action, start_table, team_zero_wins_move


def url_of(config: dict) -> str:
    """The database URL for another process: a PostgreSQL test schema rides in `options`."""
    url = config["SQLALCHEMY_DATABASE_URI"]
    options = config.get("SQLALCHEMY_ENGINE_OPTIONS", {}).get("connect_args", {}).get("options")
    if options:
        url += ("&" if "?" in url else "?") + "options=" + urllib.parse.quote(options)
    return url


@pytest.fixture(scope="module")
def table_server(db_config, tmp_path_factory):
    log = tmp_path_factory.mktemp("tables-live") / "gunicorn.log"
    process, base_url = start_gunicorn(url_of(db_config), workers=2, log_path=log)
    yield base_url
    stop_gunicorn(process)


def bearer(token: str, **headers) -> dict:
    return {"Authorization": f"Bearer {token}", **headers}


def all_events(session, game_url: str, token: str) -> list[dict]:
    events, after = [], 0
    while after is not None:
        page = session.get(f"{game_url}/events?limit=500&after={after}", headers=bearer(token), timeout=10)
        assert page.status_code == 200, page.text
        events += page.json()["events"]
        after = page.json()["next_after"]
    return events


@pytest.mark.parametrize("seats", [3, 4, 6, 8])
def test_a_whole_table_match_through_gunicorn(app, table_server, seats):
    session = requests.Session()

    def post(path, body):
        response = session.post(table_server + path, json=body, timeout=10)
        return response.status_code, response.json()

    teams = seats > 4  # Tedesco's teams of three and four: the odd team plays to lose, to keep it short
    game = start_table(post, seats, TEDESCO_TEAMS if teams else None)
    for step in range(4000):
        answers = {seat: session.get(f"{table_server}/games/{game['id']}", headers=bearer(game["tokens"][seat]),
                                     timeout=10) for seat in range(seats)}
        views = {seat: answer.json() for seat, answer in answers.items()}
        version = views[0]["version"]
        assert all(a.status_code == 200 and a.headers["ETag"] == f'"{version}"' for a in answers.values())
        if views[0]["status"] == "finished":
            break
        state = stored_game(app, game["id"]).state
        for seat, view in views.items():
            events = []
            if step % 5 == 0:  # the events too, now and then (they only grow)
                events = all_events(session, f"{table_server}/games/{game['id']}", game["tokens"][seat])
            assert_table_hides_secrets(view, events, state, seat)
        seat, action = (team_zero_wins_move if teams else mover_and_action)(views)
        moved = session.post(f"{table_server}/games/{game['id']}/actions", json=action,
                             headers=bearer(game["tokens"][seat], **{"If-Match": f'"{version}"'}), timeout=10)
        assert moved.status_code == 200, moved.text
        assert moved.json()["version"] == version + 1 and moved.json()["seat"] == seat
    final = views[0]
    assert final["status"] == "finished" and final["result"]["reason"] == "target"
    assert all(v["result"] == final["result"] for v in views.values())
    stale = session.post(f"{table_server}/games/{game['id']}/actions", json={"type": "pass"},
                         headers=bearer(game["tokens"][1]), timeout=10)
    assert stale.status_code == 409 and stale.json()["code"] == "game-over"
