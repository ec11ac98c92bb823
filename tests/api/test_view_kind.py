"""Every view says its kind ("game": two seats, a GameView; "table": 3 to 8, a TableView), and the
migration that added it gives it to the views stored before: each seat's stored view, a retried
move's answer and a your_turn event's view come out as a view made now would be."""
from __future__ import annotations

import json

import flask_migrate
import sqlalchemy as sa

from service import create_app

from ..conftest import migrate
from .helpers import auth, mover, new_game

BEFORE = "a8c41d2e9b70"  # the revision before views said their kind



def stored(app) -> dict:
    with app.app_context():
        from service.core.extensions import db
        return {"views": dict(db.session.execute(sa.text(
                    "SELECT game_id || ':' || seat, view_body FROM seats WHERE view_body IS NOT NULL")).all()),
                "events": [json.loads(p) if isinstance(p, str) else p for p in db.session.execute(sa.text(
                    "SELECT payload FROM player_events WHERE type = 'your_turn' ORDER BY id")).scalars()],
                "answers": [json.loads(r) if isinstance(r, str) else r for r in db.session.execute(sa.text(
                    "SELECT response FROM idempotency_records ORDER BY id")).scalars()]}


def test_views_stored_before_kind_get_it_from_the_migration(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    game = new_game(client)  # two seats; a move retried with its Idempotency-Key is remembered
    seat, _ = mover(client, game)
    assert client.post(f"/games/{game['id']}/actions", json={"type": "pass"},
                       headers=auth(game["tokens"][seat], **{"Idempotency-Key": "k1"})).status_code == 200
    table = client.post("/games", json={"name": "Ann", "seats": 3}).get_json()
    players = [client.post("/players", json={"name": name}).get_json()["token"] for name in ("Cy", "Di")]
    made = client.post("/me/games", json={}, headers=auth(players[0])).get_json()
    client.post(f"/me/games/{made['game_id']}/join", json={"invite_code": made["invite_code"]}, headers=auth(players[1]))
    now = stored(app)
    kinds = {json.loads(text)["kind"] for text in now["views"].values()}
    assert kinds == {"game", "table"} and now["events"] and now["answers"]
    assert all(text.startswith('{"kind":"') for text in now["views"].values())
    assert client.get(f"/games/{table['game_id']}", headers=auth(table["token"])).get_json()["kind"] == "table"

    with app.app_context():  # as a service older than `kind` stored them
        from service.core.extensions import db
        for key, text in now["views"].items():
            game_id, seat = key.rsplit(":", 1)
            db.session.execute(sa.text("UPDATE seats SET view_body = :body WHERE game_id = :g AND seat = :s"),
                               {"body": "{" + text.split(",", 1)[1], "g": game_id, "s": int(seat)})
        for table_name, column, where in (("player_events", "payload", "type = 'your_turn'"),
                                          ("idempotency_records", "response", "TRUE")):
            for row_id, value in db.session.execute(sa.text(f"SELECT id, {column} FROM {table_name} WHERE {where}")):
                value = json.loads(value) if isinstance(value, str) else value
                view = value["view"] if "view" in value else value
                del view["kind"]
                db.session.execute(sa.text(f"UPDATE {table_name} SET {column} = :v WHERE id = :i"),
                                   {"v": json.dumps(value), "i": row_id})
        db.session.commit()
        assert "kind" not in client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()
        flask_migrate.downgrade(revision=BEFORE)
        flask_migrate.upgrade()
        db.engine.dispose()
    after = stored(app)
    assert after["views"] == now["views"]  # the very text a view made now has
    assert after["events"] == now["events"] and after["answers"] == now["answers"]
    assert client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["kind"] == "game"
