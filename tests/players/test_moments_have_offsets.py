"""Every moment the API answers carries its UTC offset, on SQLite too (which stores none): a
client's `datetime.fromisoformat(...)` compared with an aware now must not raise. The reference
bot's claims on time died of it (GET /me/games answered `deadline` naive on SQLite)."""
from __future__ import annotations

from datetime import UTC, datetime

from ..api.helpers import auth
from .support import accepted_game, new_player


def aware(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    assert moment.tzinfo is not None and moment.utcoffset().total_seconds() == 0, text
    return moment


def test_deadlines_and_dates_read_back_from_the_database_have_their_offset(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob, move_time_hours=24)
    listed = client.get("/me/games", headers=auth(ann["token"])).get_json()["games"]
    assert aware(listed[0]["deadline"]) > datetime.now(UTC)
    me = client.get("/me", headers=auth(ann["token"])).get_json()
    aware(me["created_at"]) and aware(me["token_created_at"])
    aware(client.get("/players/Ann").get_json()["created_at"])
    view = client.get(f"/games/{game['id']}", headers=auth(ann["token"])).get_json()
    assert aware(view["deadline"]) > datetime.now(UTC)
    assert client.put("/me/blocks/Bob", headers=auth(ann["token"])).status_code in (200, 201, 204)
    blocks = client.get("/me/blocks", headers=auth(ann["token"])).get_json()["blocks"]
    assert [aware(block["blocked_at"]) for block in blocks]
