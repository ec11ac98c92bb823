"""The levels migration (f3a1c5d7b209) goes down and up again without losing a row: its downgrade
drops challenges.level and seats.bot_level in place (a copy of either table would run DROP TABLE
and cascade); games from before it have no level and the house bot plays them at 3."""
from __future__ import annotations

import flask_migrate
import sqlalchemy as sa

from service import create_app

from ..api.helpers import auth
from ..conftest import migrate

BEFORE = "f3c8d1a6b920"  # messages, the revision before levels
TABLES = ("players", "player_events", "challenges", "games", "seats", "player_seats")


def counts(db) -> dict:
    return {table: db.session.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() for table in TABLES}


def test_the_levels_migration_goes_down_and_up_keeping_every_row(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    house = client.post("/players", json={"name": "House", "bot": True}).get_json()
    offered = client.post("/challenges", json={"to": "House", "level": 5}, headers=auth(ann["token"])).get_json()
    accepted = client.post(f"/challenges/{offered['challenge_id']}/accept", headers=auth(house["token"]))
    assert accepted.status_code == 201
    game_id = accepted.get_json()["game_id"]
    with app.app_context():
        from service.core.extensions import db
        before = counts(db)
        assert before["games"] == 1 and before["seats"] == 2 and before["challenges"] == 1
        db.session.commit()
        flask_migrate.downgrade(revision=BEFORE)
        assert counts(db) == before
        db.session.commit()
        flask_migrate.upgrade()
        db.engine.dispose()
        assert counts(db) == before
    # The game is still there to play (its views are remade without a level at the next move).
    view = client.get(f"/games/{game_id}", headers=auth(ann["token"])).get_json()
    assert view["status"] == "active" and len(view["players"]) == 2
    assert client.get("/challenges", headers=auth(ann["token"])).status_code == 200
