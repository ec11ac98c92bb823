"""The public-games migration (f4c1d7a2b9e3) goes down and up again without losing a row: on SQLite
it adds and drops its column in place, never copying `players` (whose DROP would cascade)."""
from __future__ import annotations

import flask_migrate
import sqlalchemy as sa

from service import create_app

from ..api.helpers import auth
from ..conftest import migrate

BEFORE = "b7d3e9a1c422"  # table ratings, the revision before public games


def counts(db) -> dict:
    return {table: db.session.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar()
            for table in ("players", "player_events", "challenges")}


def test_the_public_games_migration_goes_down_and_up_keeping_every_row(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    client.post("/players", json={"name": "Bob"})
    assert client.post("/challenges", json={"to": "Bob"}, headers=auth(ann["token"])).status_code == 201
    assert client.patch("/me", json={"public_games": True}, headers=auth(ann["token"])).status_code == 200
    with app.app_context():
        from service.core.extensions import db
        before = counts(db)
        assert before == {"players": 2, "player_events": 1, "challenges": 1}
        db.session.commit()
        flask_migrate.downgrade(revision=BEFORE)
        assert counts(db) == before
        db.session.commit()
        flask_migrate.upgrade()
        db.engine.dispose()
        assert counts(db) == before
    # The column came back empty: every player's games private again until it says otherwise.
    assert client.get("/players/Ann").get_json()["public_games"] is False
    assert client.get("/me", headers=auth(ann["token"])).get_json()["public_games"] is False
