"""GET /house-bot: whom to challenge to play the computer. It names the house bot's account only
once that account exists and is a bot (a person who took the name first is not the computer)."""
from __future__ import annotations

from .support import new_player


def test_no_house_bot_until_its_account_exists(client):
    response = client.get("/house-bot")
    assert response.status_code == 404
    assert response.get_json()["code"] == "no-house-bot"
    assert response.mimetype == "application/problem+json"


def test_the_house_bot_is_named_once_registered_as_a_bot(client, app):
    assert app.config["HOUSE_BOT_NAME"] == "House"  # the Procfile's default
    new_player(client, "house", bot=True)  # names ignore case
    response = client.get("/house-bot")
    assert response.status_code == 200 and response.get_json() == {"name": "house", "bot": True}


def test_a_person_with_the_house_bots_name_is_not_the_house_bot(client):
    new_player(client, "House", bot=False)
    response = client.get("/house-bot")
    assert response.status_code == 404 and response.get_json()["code"] == "no-house-bot"


def test_an_empty_name_means_no_house_bot(client, app):
    new_player(client, "House", bot=True)
    app.config["HOUSE_BOT_NAME"] = ""
    try:
        response = client.get("/house-bot")
    finally:
        app.config["HOUSE_BOT_NAME"] = "House"
    assert response.status_code == 404 and response.get_json()["code"] == "no-house-bot"
