"""`flask admin export` and `erase` (and their -seat forms): the export holds the person's data and
no one else's secrets; an erasure leaves no trace of the name or the address in any text column of
any table, and the opponent's finished game still reads."""
from __future__ import annotations

from ..api.helpers import auth, new_game
from ..players.support import play_to_the_end
from .support import admin, game_between, player, text_columns_holding

ANN, ANN_MAIL = "Zelda Quux", "zelda.quux@example.org"


def finished_and_running(client, app):
    """Ann (with an address on her account and her seats) has a finished game and a running one
    with Bob, whose seat has a webhook; plus a challenge and a device of hers."""
    ann, bob = player(client, ANN, ANN_MAIL), player(client, "Bob", "bob@example.org")
    done = game_between(client, ann, bob)
    done["tokens"] = {0: ann["token"], 1: bob["token"]}
    for seat, address in ((0, ANN_MAIL), (1, "bob@example.org")):
        response = client.patch(f"/games/{done['id']}/contact", json={"email": address},
                                headers=auth(done["tokens"][seat]))
        assert response.status_code == 200, response.get_json()
    hook = client.patch(f"/games/{done['id']}/contact", json={"webhook_url": "https://hooks.example.org/bob"},
                        headers=auth(bob["token"]))
    assert hook.status_code == 200, hook.get_json()
    bob_secret = hook.get_json().get("webhook_secret")
    play_to_the_end(client, done)
    running = game_between(client, ann, bob)
    client.post("/challenges", json={"to": "Bob"}, headers=auth(ann["token"]))
    return ann, bob, done, running, bob_secret


def test_export_holds_the_players_data_and_no_other_players_secrets(client, app):
    ann, bob, done, running, bob_secret = finished_and_running(client, app)
    document = admin(app, "export", ANN)
    assert document["player"]["name"] == ANN and document["player"]["email"] == ANN_MAIL
    assert {g["game_id"] for g in document["games"]} == {done["id"], running["id"]}
    finished = next(g for g in document["games"] if g["game_id"] == done["id"])
    assert finished["status"] == "finished" and finished["contact"]["email"] == ANN_MAIL
    assert finished["history"] and finished["view"]["result"] is not None
    assert [c["other"] for c in document["challenges"]] == ["Bob"]
    # The finished match between two players was rated: her rating and what the match did to it.
    assert [(r["game_id"], r["opponent"]) for r in document["rating_changes"]] == [(done["id"], "Bob")]
    assert document["player"]["rating"]["games"] == 1
    assert document["player"]["rating"]["value"] == round(document["rating_changes"][0]["after"], 2)
    assert document["player"]["table_rating"]["games"] == 0 and document["table_rating_changes"] == []
    assert document["stream_events"]  # her stream: the games started, her turns, ...
    assert ANN_MAIL in {a["address"] for a in document["mail"]["confirmations"]} | \
        {m["recipient"] for m in document["mail"]["log"]}
    text = repr(document)
    secrets = [ann["token"], bob["token"], *done["seat_tokens"].values(), *running["seat_tokens"].values(),
               "bob@example.org", "hooks.example.org"] + ([bob_secret] if bob_secret else [])
    assert [secret for secret in secrets if secret in text] == []
    assert document["reports"] == {"filed": [], "about": []} and document["blocks"] == []
    assert "request log" in document["not_held"]


def test_erase_leaves_no_trace_of_the_name_or_address_and_the_opponents_game_still_reads(client, app):
    ann, bob, done, running, _ = finished_and_running(client, app)
    before = text_columns_holding(app, [ANN, ANN_MAIL])
    assert {("players", "name"), ("contacts", "email"), ("seats", "view_body"), ("player_events", "payload"),
            ("outbox", "payload"), ("mail_confirmations", "address")} <= set(before)  # found before
    summary = admin(app, "erase", ANN, "--yes")
    new_name = f"deleted player {ann['id']}"
    assert summary["name"] == new_name
    assert text_columns_holding(app, [ANN, ANN_MAIL]) == []
    # Her tokens open nothing (the account is closed for good), her seat's own token neither.
    assert client.get("/me", headers=auth(ann["token"])).status_code == 401
    assert client.get(f"/games/{done['id']}", headers=auth(done["seat_tokens"][0])).status_code in (401, 403)
    # Bob's finished game reads as before, under the new name, and replays.
    seen = client.get(f"/games/{done['id']}", headers=auth(bob["token"]))
    assert seen.status_code == 200 and seen.get_json()["status"] == "finished"
    assert [p["name"] for p in seen.get_json()["players"]] == [new_name, "Bob"]
    assert client.get(f"/games/{done['id']}/events", headers=auth(bob["token"])).status_code == 200
    assert client.get(f"/games/{done['id']}/replay", headers=auth(bob["token"])).status_code == 200
    # The running game: Bob may claim it at once.
    claim = client.post(f"/games/{running['id']}/actions", json={"type": "claim_timeout"}, headers=auth(bob["token"]))
    assert claim.status_code == 200 and claim.get_json()["status"] == "finished"
    assert admin(app, "export", "Bob")["player"]["name"] == "Bob"  # Bob's own data untouched
    admin(app, "erase", new_name, "--yes", ok=False)  # once only
    admin(app, "unsuspend", new_name, ok=False)  # an erased account stays closed


def test_an_anonymous_seat_is_exported_and_erased_by_game_and_seat(client, app):
    game = new_game(client)  # Ann and Bob without accounts
    set_mail = client.patch(f"/games/{game['id']}/contact", json={"email": "anon.ann@example.org"},
                            headers=auth(game["tokens"][0]))
    assert set_mail.status_code == 200, set_mail.get_json()
    client.patch(f"/games/{game['id']}/contact", json={"email": "anon.bob@example.org"},
                 headers=auth(game["tokens"][1]))
    document = admin(app, "export-seat", game["id"], "0")
    seat = document["games"][0]
    assert seat["name"] == "Ann" and seat["contact"]["email"] == "anon.ann@example.org"
    assert "anon.bob@example.org" not in repr(document) and game["tokens"][1] not in repr(document)
    admin(app, "export-seat", game["id"], "5", ok=False)
    admin(app, "erase-seat", "no-such-game", "0", "--yes", ok=False)
    admin(app, "erase-seat", game["id"], "0", "--yes")
    assert text_columns_holding(app, ["anon.ann@example.org"]) == []
    assert client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).status_code == 401
    seen = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][1])).get_json()
    assert seen["players"][0]["name"].startswith("deleted seat ") and seen["players"][1]["name"] == "Bob"


def test_a_players_seat_is_erased_by_name_only(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = game_between(client, ann, bob)
    assert "erase the player by name" in admin(app, "erase-seat", game["id"], "0", "--yes", ok=False)
    assert client.get("/me", headers=auth(ann["token"])).status_code == 200
