"""What a browser may subscribe to pushes with (POST /games/{id}/push-subscriptions and
/me/push-subscriptions): an https endpoint at a public address, judged as a webhook URL is, and
keys that are a P-256 point and a 16-byte secret; at most PUSH_SUBSCRIPTIONS_PER_OWNER per owner.
Every refusal a problem with its code, and nothing kept. And a move in a game whose only
subscribed seat turned push off still costs no statement."""
from __future__ import annotations

import pytest

from tests.players.support import new_player

from .conftest import auth, start_game, view
from .push_service import Browser, b64url

PUBLIC = "https://93.184.216.34/push/abc"  # a public address, never called by these tests


@pytest.fixture
def public_only(notify_app, monkeypatch):
    monkeypatch.setitem(notify_app.config, "PUSH_ALLOW_PRIVATE", False)


def post(client, game, body, seat=0):
    return client.post(f"/games/{game['id']}/push-subscriptions", json=body, headers=auth(game["tokens"][seat]))


def listed(client, game, seat=0) -> list[str]:
    response = client.get(f"/games/{game['id']}/push-subscriptions", headers=auth(game["tokens"][seat]))
    assert response.status_code == 200
    return [s["endpoint"] for s in response.get_json()["subscriptions"]]


@pytest.mark.parametrize("endpoint, why", [
    ("http://93.184.216.34/push/abc", "https://"),
    ("https://127.0.0.1/push", "not a public address"),
    ("https://localhost/push", "not a public address"),
    ("https://[::ffff:10.0.0.1]/push", "10.0.0.1"),
    ("https://2130706433/push", "not a public address"),
    ("https://user:pw@93.184.216.34/push", "user name"),
    ("https://93.184.216.34:99999/push", "port"),
    ("https://93.184.216.34/pu sh", "ASCII"),
    ("https://" + "a" * 1000 + ".example/", "1000"),
])
def test_an_endpoint_that_is_not_a_public_https_url_is_refused(nclient, public_only, endpoint, why):
    game = start_game(nclient)
    body = {**Browser(endpoint).subscription(), "endpoint": endpoint}
    response = post(nclient, game, body)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["code"] == "validation-error" and why in response.get_json()["detail"]
    assert listed(nclient, game) == []


def test_keys_must_be_a_p256_point_and_a_16_byte_secret(nclient, public_only):
    game = start_game(nclient)
    good = Browser(PUBLIC).subscription()
    not_on_curve = b64url(b"\x04" + b"\x01" * 64)
    for keys, why in [({**good["keys"], "p256dh": not_on_curve}, "P-256"),
                      ({**good["keys"], "p256dh": good["keys"]["p256dh"][:-4]}, "65 bytes"),
                      ({**good["keys"], "auth": b64url(b"\x00" * 15)}, "16 bytes"),
                      ({**good["keys"], "auth": "not*base64"}, "auth")]:
        response = post(nclient, game, {**good, "keys": keys})
        assert response.status_code == 422, (keys, response.get_json())
        assert why in str(response.get_json()), (why, response.get_json())
    for body in ({"endpoint": PUBLIC}, {**good, "extra": 1}, {**good, "keys": {"p256dh": good["keys"]["p256dh"]}}):
        response = post(nclient, game, body)
        assert response.status_code == 422 and response.get_json()["code"] == "validation-error"
    assert listed(nclient, game) == []
    assert post(nclient, game, good).status_code == 201
    assert listed(nclient, game) == [PUBLIC]
    assert listed(nclient, game, seat=1) == [], "a seat's subscriptions are its own"


def test_a_seat_and_a_player_are_capped(nclient, notify_app, public_only, monkeypatch):
    monkeypatch.setitem(notify_app.config, "PUSH_SUBSCRIPTIONS_PER_OWNER", 2)
    game = start_game(nclient)
    browsers = [Browser(f"{PUBLIC}/{n}") for n in range(3)]
    assert [post(nclient, game, b.subscription()).status_code for b in browsers[:2]] == [201, 201]
    refused = post(nclient, game, browsers[2].subscription())
    assert refused.status_code == 409 and refused.get_json()["code"] == "too-many-push-subscriptions"
    assert post(nclient, game, browsers[0].subscription()).status_code == 200, "a known browser is not one more"
    gone = nclient.delete(f"/games/{game['id']}/push-subscriptions", json={"endpoint": browsers[0].endpoint},
                          headers=auth(game["tokens"][0]))
    assert gone.status_code == 204
    assert post(nclient, game, browsers[2].subscription()).status_code == 201
    assert listed(nclient, game) == [browsers[1].endpoint, browsers[2].endpoint]

    ann = new_player(nclient, "Ann")
    for browser in browsers[:2]:
        assert nclient.post("/me/push-subscriptions", json=browser.subscription(),
                            headers=auth(ann["token"])).status_code == 201
    refused = nclient.post("/me/push-subscriptions", json=browsers[2].subscription(), headers=auth(ann["token"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "too-many-push-subscriptions"


def test_the_routes_want_the_seats_token_and_json(nclient, public_only):
    game = start_game(nclient)
    body = Browser(PUBLIC).subscription()
    url = f"/games/{game['id']}/push-subscriptions"
    assert nclient.post(url, json=body).get_json()["code"] == "invalid-token"
    assert nclient.post(url, json=body, headers=auth("nope" * 8)).status_code == 401
    wrong_type = nclient.post(url, data="endpoint=x", headers={**auth(game["tokens"][0]),
                                                               "Content-Type": "application/x-www-form-urlencoded"})
    assert wrong_type.status_code == 415 and wrong_type.get_json()["code"] == "unsupported-media-type"
    bad_json = nclient.post(url, data="{", headers={**auth(game["tokens"][0]), "Content-Type": "application/json"})
    assert bad_json.status_code == 400 and bad_json.get_json()["code"] == "malformed-json"
    no_endpoint = nclient.delete(url, json={}, headers=auth(game["tokens"][0]))
    assert no_endpoint.status_code == 422 and no_endpoint.get_json()["code"] == "validation-error"
    assert nclient.get("/me/push-subscriptions", headers=auth(game["tokens"][0])).status_code == 401
    key = nclient.get("/push/key").get_json()["public_key"]
    assert len(key) == 87 and key.startswith("B"), "an uncompressed P-256 point, base64url"


def test_a_seat_that_turned_push_off_costs_the_move_nothing(nclient, notify_app, public_only):
    """As a game with nobody to tell: the move's one read says so, and the hook runs no statement."""
    from tests.api.helpers import choose
    from tests.api.test_move_statements import counting

    def statements_of_a_draw(game) -> int:
        seat = view(nclient, game, 0)["to_move"]
        mine = view(nclient, game, seat)
        while mine["phase"] != "draw":
            nclient.post(f"/games/{game['id']}/actions", json=choose(mine), headers=auth(game["tokens"][seat]))
            seat = view(nclient, game, 0)["to_move"]
            mine = view(nclient, game, seat)
        with counting(notify_app) as statements:
            response = nclient.post(f"/games/{game['id']}/actions", json=choose(mine),
                                    headers=auth(game["tokens"][seat]))
        assert response.status_code == 200
        return len(statements)

    plain = statements_of_a_draw(start_game(nclient))
    muted = start_game(nclient)
    for seat in (0, 1):
        assert post(nclient, muted, Browser(f"{PUBLIC}/{seat}").subscription(), seat).status_code == 201
        nclient.patch(f"/games/{muted['id']}/contact", json={"push_mode": "off"}, headers=auth(muted["tokens"][seat]))
    assert statements_of_a_draw(muted) == plain
    told = start_game(nclient)
    for seat in (0, 1):
        assert post(nclient, told, Browser(f"{PUBLIC}/{seat}").subscription(), seat).status_code == 201
    assert statements_of_a_draw(told) > plain, "a subscribed seat is told: the hook has work"
