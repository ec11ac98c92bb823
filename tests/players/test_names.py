"""Names (issue 26): normalised (NFKC) and compared ignoring case; refused, with a problem document
and no account made, when they look like a name taken (TR39's skeleton), hold invisible characters
or mix scripts."""
from __future__ import annotations

import pytest

from .support import new_player
from .test_players import count

CYRILLIC_O = "\u043e"


def register(client, name: str, bot: bool = False):
    return client.post("/players", json={"name": name, "bot": bot})


@pytest.mark.parametrize("look_alike,code", [
    ("\u041d\u043e\u0440", "name-confusable"),  # Нор, all Cyrillic, passes for the Latin Hop
    ("\uff28\uff4f\uff50", "name-taken"),  # full-width Ｈｏｐ: NFKC makes it Hop
    ("HOP", "name-taken"),
])
def test_a_name_that_looks_like_one_taken_is_refused(client, app, look_alike, code):
    new_player(client, "Hop")
    response = register(client, look_alike)
    assert response.status_code == 409 and response.get_json()["code"] == code, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert count(app, "players") == 1


def test_look_alikes_of_shape_are_refused_too(client, app):
    new_player(client, "Bill")
    for name in ("BiII", "Bi11"):  # capital I and the digit 1 pass for l
        response = register(client, name)
        assert response.status_code == 409 and response.get_json()["code"] == "name-confusable", name
    new_player(client, "rnike")
    assert register(client, "mike").get_json()["code"] == "name-confusable"  # r n looks like m
    assert count(app, "players") == 2


@pytest.mark.parametrize("name", [
    "Ann\u200dBob", "Ann\u200b", "\u200cAnn", "An\u2060n", "Ann\ufeff", "An\u00adn",  # zero-width, format chars
    "Ann\u3164", "Ann\u2800Bob", "Ann\ufe0f",  # blank fillers, a variation selector
])
def test_invisible_characters_are_refused(client, app, name):
    response = register(client, name)
    assert response.status_code == 422 and response.get_json()["code"] == "name-not-allowed", name
    assert response.mimetype == "application/problem+json"
    assert count(app, "players") == 0


@pytest.mark.parametrize("name", [f"H{CYRILLIC_O}use", "Hous\u0435", "\u0391nna", "Bob\u03b3"])  # Latin with Cyrillic, Greek
def test_mixed_scripts_are_refused(client, app, name):
    response = register(client, name)
    assert response.status_code == 422 and response.get_json()["code"] == "name-not-allowed", name
    assert "script" in response.get_json()["detail"]
    assert count(app, "players") == 0


@pytest.mark.parametrize("name", ["Ann_2", "Zoë", "Straße", "Иван", "Ελένη", "ゆき太郎", "김철수", "Ann Bob"])
def test_names_of_one_script_are_welcome(client, name):
    assert register(client, name).status_code == 201


def test_a_name_is_stored_normalised(client):
    response = register(client, "\uff21\uff4e\uff4e")  # full-width Ａｎｎ
    assert response.status_code == 201 and response.get_json()["player"]["name"] == "Ann"
    assert register(client, "ann").get_json()["code"] == "name-taken"
