"""The JSON routes the pages use to get into a seat: an invitation read before joining, a mail's
link key exchanged once for a new bearer token, and a seat's tokens listed and revoked."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from service.core.tokens import hash_secret
from tests.api.helpers import auth, create, new_game, view


def make_link(app, game_id: str, seat: int, moment=None) -> str:
    """A link as a mail carries it (the same function the mail's composer calls); its key."""
    from service.access.links import seat_link
    from service.core.extensions import db
    with app.app_context():
        url = seat_link(game_id, seat, moment or datetime.now(timezone.utc))
        db.session.commit()
    assert f"/play/{game_id}#link=" in url
    return url.split("#link=", 1)[1]


def exchange(client, game_id, key, **more):
    return client.post(f"/games/{game_id}/tokens", json={"link_key": key, **more})


def test_invitation_shows_inviter_and_rules_and_changes_nothing(client):
    created = create(client, rules={"preset": "classic", "target": 50})
    game_id, code = created["game_id"], created["invite_code"]
    answer = client.post(f"/games/{game_id}/invitation", json={"invite_code": code})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["inviter"] == "Ann" and body["rules"]["preset"] == "classic" and body["rules"]["target"] == 50
    assert body["move_time_hours"] == 72 and code not in answer.get_data(as_text=True)
    wrong = client.post(f"/games/{game_id}/invitation", json={"invite_code": code + "x"})
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "invalid-invite"
    assert client.post(f"/games/{game_id}/join", json={"invite_code": code, "name": "Bob"}).status_code == 201
    used = client.post(f"/games/{game_id}/invitation", json={"invite_code": code})
    assert used.status_code == 409 and used.get_json()["code"] == "game-full"
    unknown = client.post("/games/nosuchgame/invitation", json={"invite_code": code})
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "invalid-invite"


def test_every_seat_of_a_table_reads_its_own_invitation(client):
    """At a table of three or four each seat has an invite code of its own: each reads the
    invitation (the join page shows it first), until that seat is taken."""
    created = client.post("/games", json={"name": "Ann", "seats": 4, "rules": {"target": 50}}).get_json()
    game_id = created["game_id"]
    for invite in created["invites"]:
        answer = client.post(f"/games/{game_id}/invitation", json={"invite_code": invite["invite_code"]})
        assert answer.status_code == 200, (invite["seat"], answer.get_json())
        assert answer.get_json()["inviter"] == "Ann" and answer.get_json()["rules"]["target"] == 50
    last = created["invites"][2]
    joined = client.post(f"/games/{game_id}/join", json={"invite_code": last["invite_code"], "name": "Dan"})
    assert joined.status_code == 201 and joined.get_json()["seat"] == 3
    used = client.post(f"/games/{game_id}/invitation", json={"invite_code": last["invite_code"]})
    assert used.status_code == 409 and used.get_json()["code"] == "game-full"
    still_open = client.post(f"/games/{game_id}/invitation", json={"invite_code": created["invites"][1]["invite_code"]})
    assert still_open.status_code == 200
    other = client.post("/games", json={"name": "Zed", "seats": 3}).get_json()
    crossed = client.post(f"/games/{game_id}/invitation", json={"invite_code": other["invites"][1]["invite_code"]})
    assert crossed.status_code == 422 and crossed.get_json()["code"] == "invalid-invite"


def test_a_tables_mail_link_opens_its_seat_with_the_table_view(app, client):
    """A mail's link to a seat of a table (the seat page exchanges it) gives that seat's TableView:
    its own board's cards only."""
    created = client.post("/games", json={"name": "Ann", "seats": 3}).get_json()
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        joined = client.post(f"/games/{created['game_id']}/join", json={"invite_code": invite["invite_code"], "name": "X"})
        tokens[invite["seat"]] = joined.get_json()["token"]
    for seat in (1, 2):
        answer = exchange(client, created["game_id"], make_link(app, created["game_id"], seat))
        assert answer.status_code == 201, answer.get_json()
        body = answer.get_json()
        assert body["seat"] == seat and body["game"]["format"] == "rotation" and body["game"]["seat"] == seat
        own = client.get(f"/games/{created['game_id']}", headers=auth(tokens[seat])).get_json()
        assert body["game"]["my_board"] == own["my_board"]  # the seat's own board (null sitting out), no other


def test_a_link_opens_its_seat_once(app, client):
    game = new_game(client)
    key = make_link(app, game["id"], 1)
    first = exchange(client, game["id"], key, label="phone")
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    assert body["seat"] == 1 and body["game"]["seat"] == 1 and body["token"] not in game["tokens"].values()
    assert body["game"]["hand"] == view(client, game, 1)["hand"]
    # The new token is a real bearer token of seat 1: it sees seat 1's view and may move for it.
    again = client.get(f"/games/{game['id']}", headers=auth(body["token"]))
    assert again.status_code == 200 and again.get_json()["seat"] == 1
    second = exchange(client, game["id"], key)
    assert second.status_code == 410 and second.get_json()["code"] == "link-used"
    assert "newest mail" in second.get_json()["detail"]


def test_wrong_link_keys_are_refused_like_wrong_tokens(app, client):
    game, other = new_game(client), new_game(client)
    key = make_link(app, game["id"], 0)
    for game_id, sent in ((game["id"], key + "x"), (other["id"], key), ("nosuchgame", key)):
        refused = exchange(client, game_id, sent)
        assert refused.status_code == 401 and refused.get_json()["code"] == "invalid-link", game_id
    assert exchange(client, game["id"], key).status_code == 201  # not spent by the refusals


def test_an_old_link_is_expired(app, client):
    game = new_game(client)
    key = make_link(app, game["id"], 0, datetime.now(timezone.utc) - timedelta(days=31))
    expired = exchange(client, game["id"], key)
    assert expired.status_code == 410 and expired.get_json()["code"] == "link-expired"


def test_link_keys_are_stored_only_hashed(app, client):
    from service.access.models import SeatLink, SeatToken
    from service.core.extensions import db
    game = new_game(client)
    key = make_link(app, game["id"], 0)
    token = exchange(client, game["id"], key).get_json()["token"]
    with app.app_context():
        links = db.session.query(SeatLink).all()
        tokens = db.session.query(SeatToken).all()
        assert [link.key_hash for link in links] == [hash_secret(key)]
        assert [t.token_hash for t in tokens] == [hash_secret(token)]


def test_tokens_are_listed_without_secrets_and_revoked(app, client):
    game = new_game(client)
    phone = exchange(client, game["id"], make_link(app, game["id"], 0), label="phone").get_json()
    listed = client.get(f"/games/{game['id']}/tokens", headers=auth(phone["token"]))
    assert listed.status_code == 200
    tokens = listed.get_json()["tokens"]
    assert [(t["id"], t["current"]) for t in tokens] == [("original", False), (phone["token_id"], True)]
    assert tokens[1]["label"] == "phone"
    text = listed.get_data(as_text=True)
    assert game["tokens"][0] not in text and phone["token"] not in text and hash_secret(phone["token"]) not in text
    # Seat 1 sees only its own token, and cannot revoke seat 0's.
    theirs = client.get(f"/games/{game['id']}/tokens", headers=auth(game["tokens"][1])).get_json()["tokens"]
    assert [t["id"] for t in theirs] == ["original"]
    refused = client.delete(f"/games/{game['id']}/tokens/{phone['token_id']}", headers=auth(game["tokens"][1]))
    assert refused.status_code == 404 and refused.get_json()["code"] == "not-found"
    # The lost phone's token is revoked from the first token: from then on it opens nothing.
    gone = client.delete(f"/games/{game['id']}/tokens/{phone['token_id']}", headers=auth(game["tokens"][0]))
    assert gone.status_code == 204
    after = client.get(f"/games/{game['id']}", headers=auth(phone["token"]))
    assert after.status_code == 401 and after.get_json()["code"] == "invalid-token"
    assert client.post(f"/games/{game['id']}/actions", json={"type": "pass"},
                       headers=auth(phone["token"])).get_json()["code"] == "invalid-token"


def test_revoking_the_first_token_keeps_the_seat_taken(app, client):
    created = create(client)
    game_id = created["game_id"]
    joined = client.post(f"/games/{game_id}/join", json={"invite_code": created["invite_code"], "name": "Bob"})
    bob = joined.get_json()["token"]
    assert client.delete(f"/games/{game_id}/tokens/original", headers=auth(bob)).status_code == 204
    assert client.get(f"/games/{game_id}", headers=auth(bob)).status_code == 401
    # The invite code does not open the seat again: it was taken, whatever became of its token.
    again = client.post(f"/games/{game_id}/join", json={"invite_code": created["invite_code"], "name": "Eve"})
    assert again.status_code == 409 and again.get_json()["code"] == "game-full"
    # A mail's link is the way back in.
    back = exchange(client, game_id, make_link(app, game_id, 1)).get_json()
    assert client.get(f"/games/{game_id}", headers=auth(back["token"])).get_json()["seat"] == 1
    assert client.delete(f"/games/{game_id}/tokens/original", headers=auth(back["token"])).status_code == 404


@pytest.mark.parametrize("path", ["/games/{id}/tokens", "/games/{id}/tokens/original"])
def test_token_routes_need_the_seats_token(client, path):
    game = new_game(client)
    url = path.format(id=game["id"])
    method = client.delete if url.endswith("original") else client.get
    for headers in ({}, auth("not-a-token"), auth(new_game(client)["tokens"][0])):
        answer = method(url, headers=headers)
        assert answer.status_code == 401 and answer.get_json()["code"] == "invalid-token"
