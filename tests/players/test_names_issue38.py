"""Issue 38, items 8 and 10: names that cannot be routed (`/`, `\\`, only dots) are refused, and the
stored ones renamed by a migration; names that pass for another (House (level 5), HouseBot, Hóuse,
ʜouse, Hou5e, H o u s e beside the house bot; Ālice and Alice_ beside Alice) are refused, for an
account and for an anonymous seat alike."""
from __future__ import annotations

import flask_migrate
import pytest
import sqlalchemy as sa

from service import create_app

from ..conftest import migrate
from .support import new_player

HOUSE_ALIKES = ["House (level 5)", "HouseBot", "Hóuse", "ʜouse", "Hou5e", "H o u s e", "house_", "HOUSE!"]
ALICE_ALIKES = ["Ālice", "Alice_", "A l i c e", "Alicé", "ALICE.", "A1ice"]


@pytest.mark.parametrize("name", ["a/b", "/", "..", ".", "...", "x\\y", "Ann/.."])
def test_a_name_no_address_can_hold_is_refused(client, name):
    answer = client.post("/players", json={"name": name})
    assert answer.status_code == 422 and answer.get_json()["code"] == "name-not-allowed", answer.get_json()
    seat = client.post("/games", json={"name": name})
    assert seat.status_code == 422 and seat.get_json()["code"] == "name-not-allowed"


def test_names_with_dots_inside_are_routable_and_taken(client):
    new_player(client, "J.R.")
    assert client.get("/players/J.R.").status_code == 200


@pytest.mark.parametrize("name", HOUSE_ALIKES)
def test_the_house_bots_look_alikes_are_reserved_to_accounts_and_seats(client, name):
    answer = client.post("/players", json={"name": name})
    assert answer.status_code == 409 and answer.get_json()["code"] == "name-reserved", answer.get_json()
    seat = client.post("/games", json={"name": name})
    assert seat.status_code == 409 and seat.get_json()["code"] == "name-reserved", seat.get_json()
    created = client.post("/games", json={"name": "Guest"}).get_json()
    joined = client.post(f"/games/{created['game_id']}/join", json={"invite_code": created["invite_code"],
                                                                   "name": name})
    assert joined.status_code == 409 and joined.get_json()["code"] == "name-reserved", name


@pytest.mark.parametrize("name", ["a\u200bb", "Hоuse\u200d", "Jоhn"])  # zero-width; mixed scripts
def test_an_anonymous_seats_name_is_judged_as_an_accounts(client, name):
    seat = client.post("/games", json={"name": name})
    assert seat.status_code in (409, 422) and seat.get_json()["code"] in ("name-not-allowed", "name-reserved")


def test_a_players_look_alikes_are_refused(client):
    new_player(client, "Alice")
    for name in ALICE_ALIKES + ["alice"]:
        answer = client.post("/players", json={"name": name})
        assert answer.status_code == 409 and answer.get_json()["code"] in ("name-confusable", "name-taken"), name
    # Names merely alike in part stay free: Alicia, Lighthouse, Bob2 beside Bob.
    for name in ("Alicia", "Lighthouse", "Bob", "Bob2"):
        new_player(client, name)


def test_the_migration_renames_unroutable_names_and_recomputes_the_keys(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    with app.app_context():
        from service.core.extensions import db
        flask_migrate.downgrade(revision="c0a7e1d5b341")
        insert = sa.text("INSERT INTO players (name, name_key, name_skeleton, bot, last_event_seq, created_at, rating, "
                         "rating_deviation, rating_volatility, rated_games, table_mu, table_sigma, table_games) VALUES "
                         "(:name, :key, :skeleton, false, 0, CURRENT_TIMESTAMP, 1500, 350, 0.06, 0, 25, 8.3, 0)")
        for name, skeleton in (("Alice", "alice"), ("a/b", "a/b"), ("..", ".."), ("a-b", "a-b"), ("Alice_", "alice_")):
            db.session.execute(insert, {"name": name, "key": name.casefold(), "skeleton": skeleton})
        db.session.commit()
        flask_migrate.upgrade()
        rows = db.session.execute(sa.text("SELECT name, name_key, name_skeleton FROM players ORDER BY id")).all()
        db.engine.dispose()
    names = [row[0] for row in rows]
    assert names[0] == "Alice" and names[2] == "player" and names[3] == "a-b" and names[4] == "Alice_"
    assert names[1].startswith("a-b-")  # a-b was taken: the id added
    assert all("/" not in n for n in names)
    assert rows[0][2] == "allce" and rows[4][2] is None  # Alice_ now looks like the older Alice: no key
    client = app.test_client()
    for name in names[:4]:
        assert client.get(f"/players/{name}").status_code == 200, name


# -- an anonymous seat may not pass for a registered player (issue 38, item 10) -------------------

def _seat(client, name: str, token: str | None = None):
    return client.post("/games", json={"name": name}, headers={"Authorization": f"Bearer {token}"} if token else {})


def _join(client, name: str, token: str | None = None):
    created = _seat(client, "Guest").get_json()
    return client.post(f"/games/{created['game_id']}/join", json={"invite_code": created["invite_code"], "name": name},
                       headers={"Authorization": f"Bearer {token}"} if token else {})


@pytest.mark.parametrize("name,code", [("Alice", "name-taken"), ("alice", "name-taken"), ("Ālice", "name-confusable"),
                                       ("Alice_", "name-confusable"), ("A1ice", "name-confusable")])
def test_an_anonymous_seat_may_not_take_a_players_name_or_its_look_alikes(client, name, code):
    new_player(client, "Alice")
    for answer in (_seat(client, name), _join(client, name)):
        assert answer.status_code == 409 and answer.mimetype == "application/problem+json", answer.get_json()
        assert answer.get_json()["code"] == code and "registered player" in answer.get_json()["detail"]
    # Nor with a token that is not Alice's: another player's, or a seat's.
    other = new_player(client, "Zed")
    seat_token = _seat(client, "Guest").get_json()["token"]
    for token in (other["token"], seat_token, "not-a-token"):
        assert _seat(client, name, token).get_json()["code"] == code, token


def test_a_name_unlike_any_players_is_taken_and_alice_may_sit_as_herself(client):
    alice = new_player(client, "Alice")
    for name in ("Alicia", "Malice", "Bob"):  # alike in part only
        assert _seat(client, name).status_code == 201, name
        assert _join(client, name).status_code == 201, name
    # Alice, sending her own token, may sit anonymously under her name (or a look-alike of it).
    for name in ("Alice", "Ālice"):
        made = _seat(client, name, alice["token"])
        assert made.status_code == 201, made.get_json()
        assert made.get_json()["game"]["players"][0]["name"] == name
        assert _join(client, name, alice["token"]).status_code == 201
    # Her old token, once she rotated it, speaks for nobody: only the new one does.
    rotated = client.post("/me/token", headers={"Authorization": f"Bearer {alice['token']}"}).get_json()["token"]
    assert _seat(client, "Alice", alice["token"]).get_json()["code"] == "name-taken"
    assert _seat(client, "Alice", rotated).status_code == 201


def test_the_seat_names_check_is_one_query_on_the_players_indexes(app, client):
    """The players' name_key and name_skeleton are both unique-indexed: the check reads by them."""
    new_player(client, "Alice")
    from sqlalchemy import event

    from service.core.extensions import db
    statements = []
    with app.app_context():
        listen = lambda conn, cursor, statement, *args: statements.append(statement)  # noqa: E731
        event.listen(db.engine, "before_cursor_execute", listen)
        try:
            assert _seat(client, "Ālice").status_code == 409
        finally:
            event.remove(db.engine, "before_cursor_execute", listen)
    reads = [s for s in statements if "FROM players" in s]
    assert len(reads) == 1 and "name_key" in reads[0] and "name_skeleton" in reads[0], statements
