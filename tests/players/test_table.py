"""Rematches (same rules, same seats, the first deal to the other side, old and new linked) and
watch links (read-only, revocable, never a card of a hand in play: scanned after every move of
whole matches as tests/api's secrets checks do)."""
from __future__ import annotations

import pytest

from ..api.helpers import assert_hides_secrets, auth, cards_in, secret_cards, stored_game
from .support import accepted_game, events_of, new_player, play_one
from .test_players import count


def resign(client, game: dict, seat: int) -> None:
    response = client.post(f"/games/{game['id']}/actions", json={"type": "resign"}, headers=auth(game["tokens"][seat]))
    assert response.status_code == 200 and response.get_json()["status"] == "finished"


def test_a_rematch_is_offered_accepted_and_linked(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    old = accepted_game(client, ann, bob, rules={"preset": "hollywood", "target": 25}, move_time_hours=12)
    resign(client, old, old["seats"]["Ann"])
    offered = client.post(f"/games/{old['id']}/rematch", headers=auth(ann["token"]))
    assert offered.status_code == 201
    offer = offered.get_json()
    assert offer["rematch_of"] == old["id"] and offer["to"] == "Bob" and offer["move_time_hours"] == 12
    assert [e["type"] for e in events_of(app, bob)][-1] == "rematch_offered"
    accepted = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"]))
    assert accepted.status_code == 201
    new_id = accepted.get_json()["game_id"]
    old_state, new_state = stored_game(app, old["id"]), stored_game(app, new_id)
    assert new_state.rules == old_state.rules
    assert new_state.first_dealer == 1 - old_state.first_dealer  # the first deal to the other side
    for player in (ann, bob):  # the same seats
        assert client.get(f"/games/{new_id}", headers=auth(player["token"])).get_json()["seat"] == \
            old["seats"][player["name"]]
    assert client.get(f"/games/{new_id}/rematch", headers=auth(ann["token"])).get_json()["rematch_of"] == old["id"]
    after = client.get(f"/games/{old['id']}/rematch", headers=auth(bob["token"])).get_json()["rematch"]
    assert after["game_id"] == new_id and after["status"] == "accepted"


def test_a_rematch_once_only_after_the_end_and_between_players(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    early = client.post(f"/games/{game['id']}/rematch", headers=auth(ann["token"]))
    assert early.status_code == 409 and early.get_json()["code"] == "rematch-unavailable"
    resign(client, game, 0)
    declined = client.post(f"/games/{game['id']}/rematch", headers=auth(bob["token"])).get_json()
    assert client.post(f"/challenges/{declined['challenge_id']}/decline", json={"reason": "busy"},
                       headers=auth(ann["token"])).status_code == 200
    again = client.post(f"/games/{game['id']}/rematch", headers=auth(ann["token"]))
    assert again.status_code == 409 and again.get_json()["code"] == "rematch-unavailable"
    anonymous = client.post("/games", json={"name": "Cat"}).get_json()
    joined = client.post(f"/games/{anonymous['game_id']}/join",
                         json={"name": "Dan", "invite_code": anonymous["invite_code"]}).get_json()
    client.post(f"/games/{anonymous['game_id']}/actions", json={"type": "resign"}, headers=auth(joined["token"]))
    refused = client.post(f"/games/{anonymous['game_id']}/rematch", headers=auth(anonymous["token"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "rematch-unavailable"
    assert count(app, "challenges") == 2


def test_a_rematch_needs_a_seat(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    cat = new_player(client, "Cat")
    for headers in ({}, auth(cat["token"])):
        response = client.post(f"/games/{game['id']}/rematch", headers=headers)
        assert response.status_code == 401 and response.get_json()["code"] == "invalid-token"


def watch(client, game_id: str, key: str):
    return client.get(f"/games/{game_id}/public", headers=auth(key))


@pytest.mark.parametrize("rules", [{"preset": "standard", "target": 25}, {"preset": "oklahoma", "target": 25}])
def test_a_watch_link_never_shows_a_hand_in_play(client, app, rules):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob, rules=rules)
    made = client.post(f"/games/{game['id']}/watch-links", headers=auth(ann["token"]))
    assert made.status_code == 201
    key = made.get_json()["key"]
    finished_hands = 0
    for _ in range(3000):
        public = watch(client, game["id"], key)
        assert public.status_code == 200
        body = public.get_json()
        state = stored_game(app, game["id"]).state
        if state["phase"] != "match_over":
            current = {k: v for k, v in body.items() if k not in ("last_hand", "revealed_deals")}
            leaked = cards_in(current) & (secret_cards(state, 0) | secret_cards(state, 1) |
                                          set(state["hands"][0]) | set(state["hands"][1]))
            assert not leaked, f"the watcher was shown {sorted(leaked)}"
            assert body["card_counts"] == [len(state["hands"][0]), len(state["hands"][1])]
            assert all(d["hand"] < state["hand_number"] for d in body["revealed_deals"])
        assert "hand" not in body and "legal_actions" not in body and "arrangement" not in body
        finished_hands = len(body["revealed_deals"])
        if body["status"] == "finished":
            break
        play_one(client, game)
    else:
        pytest.fail("the match did not end")
    assert finished_hands >= 1 and body["scores"] and body["result"]


def test_the_seat_views_still_hide_the_opponent(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    for _ in range(20):
        for seat in (0, 1):
            view = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).get_json()
            assert_hides_secrets(view, stored_game(app, game["id"]).state, seat)
        play_one(client, game)


def test_watch_links_are_listed_without_keys_and_revoked(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    other = accepted_game(client, new_player(client, "Cat"), new_player(client, "Dan"))
    made = client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][1])).get_json()
    listed = client.get(f"/games/{game['id']}/watch-links", headers=auth(ann["token"])).get_json()["links"]
    assert [link["id"] for link in listed] == [made["id"]] and made["key"] not in repr(listed)
    assert listed[0]["created_by_seat"] == 1
    assert watch(client, other["id"], made["key"]).get_json()["code"] == "invalid-watch-key"
    for key in ("", "nope", made["key"][:-1]):
        response = watch(client, game["id"], key)
        assert response.status_code == 401 and response.get_json()["code"] == "invalid-watch-key"
    # a watch key is no seat token
    assert client.get(f"/games/{game['id']}", headers=auth(made["key"])).status_code == 401
    assert client.post(f"/games/{game['id']}/watch-links", headers=auth(made["key"])).status_code == 401
    missing = client.delete(f"/games/{other['id']}/watch-links/{made['id']}", headers=auth(other["tokens"][0]))
    assert missing.status_code == 404 and watch(client, game["id"], made["key"]).status_code == 200
    for bad in ("x", "99999", "1" * 20):
        assert client.delete(f"/games/{game['id']}/watch-links/{bad}", headers=auth(ann["token"])).status_code == 404
    assert client.delete(f"/games/{game['id']}/watch-links/{made['id']}", headers=auth(ann["token"])).status_code == 204
    assert watch(client, game["id"], made["key"]).status_code == 401
    assert count(app, "watch_links") == 0


def test_watch_keys_are_stored_only_as_hashes(client, app):
    from sqlalchemy import text
    from service.core.extensions import db
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    key = client.post(f"/games/{game['id']}/watch-links", headers=auth(ann["token"])).get_json()["key"]
    with app.app_context():
        assert key not in repr(db.session.execute(text("SELECT * FROM watch_links")).all())


def test_watch_links_per_game_are_capped(client, app, monkeypatch):
    """Issue 38, item 14: 150 of 150 were made; now WATCH_LINKS_PER_GAME live at once, per game."""
    from ..api.helpers import new_game
    monkeypatch.setitem(app.config, "WATCH_LINKS_PER_GAME", 3)
    game = new_game(client)
    made = [client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][seat % 2]))
            for seat in range(3)]
    assert [m.status_code for m in made] == [201, 201, 201]
    refused = client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][1]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "too-many-watch-links"
    assert len(client.get(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][0])).get_json()["links"]) == 3
    gone = client.delete(f"/games/{game['id']}/watch-links/{made[0].get_json()['id']}", headers=auth(game["tokens"][0]))
    assert gone.status_code == 204
    assert client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][0])).status_code == 201
    other = new_game(client)  # per game
    assert client.post(f"/games/{other['id']}/watch-links", headers=auth(other["tokens"][0])).status_code == 201


def test_the_default_cap_is_ten(client):
    from ..api.helpers import new_game
    game = new_game(client)
    statuses = [client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][0])).status_code
                for _ in range(12)]
    assert statuses == [201] * 10 + [409, 409]
