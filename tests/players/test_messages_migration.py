"""The messages migration (f3c8d1a6b920: game_messages, blocks, reports, mailed_messages) goes down
and up again on both databases without losing a row of the tables it does not own: it only creates
and drops its own tables, never copying `players` or `games` (whose DROP would cascade)."""
from __future__ import annotations

import flask_migrate
import sqlalchemy as sa

from service import create_app

from ..api.helpers import auth
from ..conftest import migrate

BEFORE = "f4c1d7a2b9e3"  # public games, the revision before messages


def counts(db) -> dict:
    return {table: db.session.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar()
            for table in ("players", "player_seats", "player_events", "games", "seats", "events")}


def test_the_messages_migration_goes_down_and_up_keeping_every_other_row(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    bob = client.post("/players", json={"name": "Bob"}).get_json()
    offer = client.post("/challenges", json={"to": "Bob"}, headers=auth(ann["token"])).get_json()
    game_id = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"])).get_json()["game_id"]
    assert client.post(f"/games/{game_id}/messages", json={"text": "hi"}, headers=auth(ann["token"])).status_code == 201
    assert client.put("/me/blocks/Ann", headers=auth(bob["token"])).status_code == 200
    with app.app_context():
        from service.core.extensions import db
        before = counts(db)
        db.session.commit()
        flask_migrate.downgrade(revision=BEFORE)
        assert counts(db) == before
        assert not {"game_messages", "blocks", "reports", "mailed_messages"} & set(sa.inspect(db.session.connection()).get_table_names())
        db.session.commit()
        flask_migrate.upgrade()
        db.engine.dispose()
        assert counts(db) == before
    # The new tables come back empty, and work.
    assert client.get(f"/games/{game_id}/messages", headers=auth(bob["token"])).get_json()["messages"] == []
    assert client.get("/me/blocks", headers=auth(bob["token"])).get_json()["blocks"] == []
