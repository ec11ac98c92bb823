"""The ratings migration goes down and up again without losing a row: on SQLite its downgrade
drops columns in place, since copying `players` or `challenges` to a new table would run DROP
TABLE and cascade to their events, seats and rematch rows."""
from __future__ import annotations


import flask_migrate
import sqlalchemy as sa

from service import create_app

from ..api.helpers import auth
from ..conftest import migrate

BEFORE = "c5d2e8f41a93"  # the revision before ratings



def counts(db) -> dict:
    return {table: db.session.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar()
            for table in ("players", "player_events", "challenges")}


def test_the_ratings_migration_goes_down_and_up_keeping_every_row(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    client.post("/players", json={"name": "Bob"})
    offered = client.post("/challenges", json={"to": "Bob", "rated": False}, headers=auth(ann["token"]))
    assert offered.status_code == 201
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
    # Rows from before the ratings come back with the defaults: rated, at the start rating.
    assert client.get("/players/Ann").get_json()["rating"]["value"] == 1500.0
    assert client.get("/challenges", headers=auth(ann["token"])).get_json()["mine"][0]["rated"] is True


def seats(db) -> int:
    return db.session.execute(sa.text("SELECT count(*) FROM player_seats")).scalar()


def test_the_table_ratings_migration_goes_down_and_up_keeping_every_row(own_database):
    """Its columns are added and dropped in place: no copy of `players` (whose DROP would cascade)."""
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    client.post("/players", json={"name": "Bob"})
    client.post("/challenges", json={"to": "Bob"}, headers=auth(ann["token"]))
    made = client.post("/me/games", json={"seats": 4, "rated": False}, headers=auth(ann["token"]))
    assert made.status_code == 201, made.get_json()
    with app.app_context():
        from service.core.extensions import db
        before = {**counts(db), "player_seats": seats(db)}
        assert before == {"players": 2, "player_events": 1, "challenges": 1, "player_seats": 1}
        db.session.commit()
        flask_migrate.downgrade(revision="e2b7a4c9d513")  # the revision before table ratings
        assert {**counts(db), "player_seats": seats(db)} == before
        db.session.commit()
        flask_migrate.upgrade()
        db.engine.dispose()
        assert {**counts(db), "player_seats": seats(db)} == before
    # Players from before the table ratings come back at the start: mu 25, sigma 25/3, no table played.
    assert client.get("/players/Ann").get_json()["table_rating"] == {"mu": 25.0, "sigma": 8.3333, "ordinal": 0.0,
                                                                    "games": 0}
