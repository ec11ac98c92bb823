"""The level ratings migration (a8c4e6f2d917) stores all five levels' rows at a new player's start
(so games only ever lock rows), and goes down and up again without losing a row of any other table:
rating_changes' new columns are dropped in place (a copy would run DROP TABLE and cascade)."""
from __future__ import annotations

import flask_migrate
import sqlalchemy as sa

from service import create_app

from ..api.helpers import auth
from ..conftest import migrate

BEFORE = "f3a1c5d7b209"  # the house bot's levels, the revision before this one
TABLES = ("players", "challenges", "games", "seats", "player_seats", "rating_changes")
START_ROWS = [(level, 1500.0, 350.0, 0.06, 0) for level in range(1, 6)]


def counts(db) -> dict:
    return {table: db.session.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() for table in TABLES}


def level_rows(db) -> list[tuple]:
    return [tuple(row) for row in db.session.execute(sa.text(
        "SELECT level, rating, rating_deviation, rating_volatility, rated_games FROM house_level_ratings "
        "ORDER BY level"))]


def test_the_level_ratings_migration_stores_five_rows_and_goes_down_and_up(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    house = client.post("/players", json={"name": "House", "bot": True}).get_json()
    offered = client.post("/challenges", json={"to": "House", "level": 4}, headers=auth(ann["token"])).get_json()
    assert client.post(f"/challenges/{offered['challenge_id']}/accept",
                       headers=auth(house["token"])).status_code == 201
    with app.app_context():
        from service.core.extensions import db
        assert level_rows(db) == START_ROWS
        before = counts(db)
        assert before["games"] == 1 and before["players"] == 2
        db.session.commit()
        flask_migrate.downgrade(revision=BEFORE)
        assert counts(db) == before
        assert "house_level_ratings" not in sa.inspect(db.session.connection()).get_table_names()
        assert {"level", "opponent_level"}.isdisjoint(c["name"] for c in sa.inspect(db.session.connection()).get_columns(
            "rating_changes"))
        db.session.commit()
        flask_migrate.upgrade()
        db.engine.dispose()
        assert counts(db) == before and level_rows(db) == START_ROWS
    assert [row["level"] for row in client.get("/house-bot").get_json()["levels"]] == [1, 2, 3, 4, 5]
