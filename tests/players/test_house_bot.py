"""GET /house-bot: whom to challenge to play the computer. It names the house bot's account only
once that account exists and is a bot. Its name, and every look-alike of it, is reserved from the
first start: only a bot registered from the service's own host (the Procfile's `bot:` line) takes it."""
from __future__ import annotations

import pytest

from .support import new_player
from .test_players import count
from .test_ratings import START


def test_no_house_bot_until_its_account_exists(client):
    response = client.get("/house-bot")
    assert response.status_code == 404
    assert response.get_json()["code"] == "no-house-bot"
    assert response.mimetype == "application/problem+json"


def test_the_house_bot_is_named_once_registered_as_a_bot(client, app):
    assert app.config["HOUSE_BOT_NAME"] == "House"  # the Procfile's default
    new_player(client, "house", bot=True)  # names ignore case
    response = client.get("/house-bot")
    assert response.status_code == 200 and response.get_json() == {"name": "house", "bot": True, "levels": [
        {"level": level, "label": f"house (level {level})", "rating": START} for level in range(1, 6)]}


ELSEWHERE = {"REMOTE_ADDR": "203.0.113.9"}  # a client address that is not the service's host


@pytest.mark.parametrize("name,bot,environ", [
    ("House", False, {}),  # a person, even from the host
    ("House", True, ELSEWHERE),  # a bot from elsewhere
    ("HOUSE", True, ELSEWHERE),
    ("\uff28\uff4f\uff55\uff53\uff45", True, ELSEWHERE),  # full-width
    ("H0use", True, ELSEWHERE),  # a zero for the o
])
def test_nobody_but_the_house_bot_takes_its_name_or_a_look_alike(client, app, name, bot, environ):
    response = client.post("/players", json={"name": name, "bot": bot}, environ_base=environ)
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["code"] == "name-reserved" and response.mimetype == "application/problem+json"
    assert count(app, "players") == 0
    assert client.get("/house-bot").get_json()["code"] == "no-house-bot"


def test_the_house_bot_registers_its_reserved_name_from_the_host(client):
    assert client.post("/players", json={"name": "House", "bot": True}).status_code == 201  # loopback
    assert client.get("/house-bot").get_json()["name"] == "House"
    again = client.post("/players", json={"name": "Hоuse", "bot": True}, environ_base=ELSEWHERE)
    assert again.status_code in (409, 422) and again.mimetype == "application/problem+json"


def test_an_empty_name_means_no_house_bot(client, app):
    new_player(client, "House", bot=True)
    app.config["HOUSE_BOT_NAME"] = ""
    try:
        response = client.get("/house-bot")
    finally:
        app.config["HOUSE_BOT_NAME"] = "House"
    assert response.status_code == 404 and response.get_json()["code"] == "no-house-bot"
