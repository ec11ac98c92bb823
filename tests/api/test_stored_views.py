"""GET answers each seat's view as stored with the change that made it (seats.view_body): it must
be exactly the view the engine gives for that version, documented by the schema, and a game whose
stored view is from another version is answered from the match instead."""
from __future__ import annotations

from service.core.extensions import db
from service.games.models import Game, Seat
from service.games.view_schemas import GameViewSchema
from service.games import store, views

from .helpers import act, auth, choose, mover, new_game, view


def fresh_view(app, game_id: str, seat: int) -> dict:
    with app.app_context():
        game = db.session.get(Game, game_id)
        computed = views.view_for(game, seat, store.load_match(game))
        db.session.rollback()
        return computed


def test_the_stored_view_is_the_engines_view_of_that_version(client, app):
    game = new_game(client)
    schema = GameViewSchema()
    for _ in range(30):
        for seat in (0, 1):
            answered = view(client, game, seat)
            assert answered == fresh_view(app, game["id"], seat)
            assert schema.dump(answered) == answered  # the schema documents every field, unchanged
        seat, mine = mover(client, game)
        assert act(client, game, seat, choose(mine)).status_code == 200


def test_a_view_stored_for_another_version_is_not_answered(client, app):
    game = new_game(client)
    seat, mine = mover(client, game)
    assert act(client, game, seat, choose(mine)).status_code == 200
    with app.app_context():  # as if the game had changed without storing views (an older release)
        db.session.query(Seat).filter_by(game_id=game["id"]).update({"view_version": 1, "view_body": "{}"})
        db.session.commit()
    for seat in (0, 1):
        response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat]))
        assert response.status_code == 200
        assert response.get_json() == fresh_view(app, game["id"], seat)
        assert response.headers["ETag"] == f'"{response.get_json()["version"]}"'


def test_a_vacation_stores_views_with_the_new_deadline(client, app):
    game = new_game(client)
    seat, before = mover(client, game)
    response = client.post(f"/games/{game['id']}/vacation", json={"days": 2}, headers=auth(game["tokens"][seat]))
    assert response.status_code == 200
    after = view(client, game, seat)
    assert after["version"] == before["version"] + 1 and after["deadline"] == response.get_json()["deadline"]
    assert after["deadline"] > before["deadline"]
    with app.app_context():
        stored = db.session.query(Seat.view_version).filter_by(game_id=game["id"]).all()
    assert {version for (version,) in stored} == {after["version"]}  # both seats' views were stored
