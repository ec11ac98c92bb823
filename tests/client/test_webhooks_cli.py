"""`gin webhooks`: the seat's webhook calls as the service lists them, paged, and --redeliver (issue
28). The receiver here is a public address nobody delivers to (no notify worker runs), so the
calls wait: listed pending, not called yet."""
from __future__ import annotations

import requests

from gin_client.cli.common import EXIT_NOT_FOUND


def test_gin_webhooks_lists_the_seats_calls_and_redelivers_one(players):
    ann, bob = players
    created = ann.json("new", "--name", "Ann")
    bob.run("join", created["game_id"], created["invite_code"], "--name", "Bob")
    token = ann.games()[created["game_id"]]["token"]
    patched = requests.patch(f"{ann.server}/games/{created['game_id']}/contact", timeout=10,
                             json={"webhook_url": "http://93.184.216.34/gin"}, headers={"Authorization": f"Bearer {token}"})
    assert patched.status_code == 200, patched.text  # setting it queues where the game stands

    page = ann.json("webhooks")
    [delivery] = page["deliveries"]
    assert delivery["status"] == "pending" and delivery["attempts"] == 0 and page["next_cursor"] is None
    shown = ann.run("webhooks").stdout
    assert delivery["webhook_id"] in shown and delivery["event"] in shown and "pending" in shown

    again = ann.json("webhooks", "--redeliver", delivery["webhook_id"])
    assert again["webhook_id"] == delivery["webhook_id"] and again["redelivered_at"]
    assert "Queued again" in ann.run("webhooks", "--redeliver", delivery["webhook_id"]).stdout
    missing = ann.run("webhooks", "--redeliver", "msg_nothing", check=EXIT_NOT_FOUND)
    assert "[delivery-not-found]" in missing.stderr
    assert bob.json("webhooks")["deliveries"] == [], "a seat sees only its own calls"
