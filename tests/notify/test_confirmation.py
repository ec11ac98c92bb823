"""Confirmed addresses (issue 17, finding 3): the service mails an address only after its owner
replied `confirm` to a confirmation mail of fixed text; `stop` is honoured for good; confirmation
mails are capped per game, per address and per client. Real SMTP server and listener."""
from __future__ import annotations

import hashlib
import re

from tests.api.helpers import choose

from .conftest import (DOMAIN, act, auth, deliver, flat, one_click, outbox_rows, reply, reply_address, start_game,
                       text, view)

ANN, BOB = "ann@example.org", "bob@example.org"
SUBJECT = "[Gin] Confirm your address for Gin Rummy mail"
NAMES = ("Buy Watches Now", "Visit evil.test")


def strangers_game(client, **contacts):
    """A game whose seats are named by someone who wants his text mailed out."""
    created = client.post("/games", json={"name": NAMES[0], **contacts.get("contact0", {})})
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    joined = client.post(f"/games/{created['game_id']}/join", json={
        "invite_code": created["invite_code"], "name": NAMES[1], **contacts.get("contact1", {})})
    assert joined.status_code == 201, joined.get_json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined.get_json()["token"]},
            "created": created, "joined": joined.get_json()}


def contact(client, game, seat) -> dict:
    return client.get(f"/games/{game['id']}/contact", headers=auth(game["tokens"][seat])).get_json()


def test_an_unconfirmed_address_gets_one_fixed_mail_and_game_mail_only_after_confirm(
        nclient, notify_app, mail_server, listener):
    game = strangers_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    assert game["created"]["contact"]["email_status"] == "unconfirmed"
    deliver(notify_app)
    for address in (ANN, BOB):
        [mail] = mail_server.catcher.to(address)
        assert mail["Subject"] == SUBJECT
        whole = mail.as_string()
        assert not any(name.split()[0] in whole for name in NAMES) and game["id"][:8] not in whole
        secret = re.fullmatch(rf"confirm\+([A-Za-z0-9_-]{{43}})@{re.escape(DOMAIN)}", reply_address(mail)).group(1)
        one_click(mail)
    from service.core.extensions import db
    from service.notify.models import MailConfirmation
    with notify_app.app_context():
        hashes = {row.token_hash for row in db.session.query(MailConfirmation)}
    assert hashlib.sha256(secret.encode()).hexdigest() in hashes and secret not in str(hashes)

    # A move mails nobody yet.
    seat = view(nclient, game, 0)["to_move"]
    assert act(nclient, game, seat, {"type": "pass"}).status_code == 200
    deliver(notify_app)
    assert len(mail_server.catcher.messages) == 2

    # Ann confirms by replying (from any client: the secret is what counts); she is told where her game stands.
    reply(listener, reply_address(mail_server.catcher.to(ANN)[0]), "Confirm\n\nthanks", sender=ANN)
    deliver(notify_app)
    greeting = mail_server.catcher.to(ANN)[-1]
    assert greeting["Subject"] == f"[Gin {game['id'][:8]}] A game of Gin Rummy by mail" and NAMES[1] in flat(text(greeting))
    assert contact(nclient, game, 0)["email_status"] == "confirmed"
    assert contact(nclient, game, 1)["email_status"] == "unconfirmed"
    for _ in range(12):  # moves until a turn of Ann's comes (three, unless the deal ends a hand first)
        seat = view(nclient, game, 0)["to_move"]
        assert act(nclient, game, seat, choose(view(nclient, game, seat))).status_code == 200
        if seat == 1 and view(nclient, game, 0)["to_move"] == 0:
            break
    deliver(notify_app)
    mailed = len(mail_server.catcher.to(ANN))
    assert mailed >= 3 and len(mail_server.catcher.to(BOB)) == 1

    # Replying again, or a reply that says something else, changes nothing and is not answered.
    reply(listener, reply_address(mail_server.catcher.to(BOB)[0]), "what is this?", sender=BOB)
    reply(listener, reply_address(mail_server.catcher.to(ANN)[0]), "confirm", sender=ANN)
    deliver(notify_app)
    assert len(mail_server.catcher.to(ANN)) == mailed and len(mail_server.catcher.to(BOB)) == 1
    assert contact(nclient, game, 1)["email_status"] == "unconfirmed"


def test_a_wrong_confirmation_secret_confirms_nothing(nclient, notify_app, mail_server, listener):
    game = strangers_game(nclient, contact0={"email": ANN})
    reply(listener, f"confirm+{'z' * 43}@{DOMAIN}", "confirm", sender=ANN)
    deliver(notify_app)
    assert contact(nclient, game, 0)["email_status"] == "unconfirmed"
    assert [m["Subject"] for m in mail_server.catcher.to(ANN)] == [SUBJECT]


def test_stop_is_honoured_for_good(nclient, notify_app, mail_server, listener):
    game = strangers_game(nclient, contact0={"email": BOB})
    deliver(notify_app)
    [mail] = mail_server.catcher.to(BOB)
    # What a mail client's unsubscribe button sends: the List-Unsubscribe mailto, subject "stop".
    reply(listener, reply_address(mail), "", subject="stop", sender=BOB)
    deliver(notify_app)
    assert contact(nclient, game, 0)["email_status"] == "stopped"
    reply(listener, reply_address(mail), "confirm", sender=BOB, message_id="<late@example.org>")
    # Set again, in this game and in new ones, under another spelling: never another mail.
    response = nclient.patch(f"/games/{game['id']}/contact", json={"email": "Bob@Example.ORG"},
                             headers=auth(game["tokens"][0]))
    assert response.status_code == 200 and response.get_json()["email_status"] == "stopped"
    for _ in range(3):
        strangers_game(nclient, contact0={"email": BOB}, contact1={"email": BOB})
    deliver(notify_app)
    assert len(mail_server.catcher.to(BOB)) == 1 and len(mail_server.catcher.to("Bob@Example.ORG")) == 0
    assert contact(nclient, game, 0)["email_status"] == "stopped"


def test_confirmation_mails_are_capped_per_address_per_game_and_per_client(
        nclient, notify_app, mail_server, clock):
    def create(email, **more):
        return nclient.post("/games", json={"name": "Eve.Mallory", "email": email}, **more)

    # Per address: three a day, whoever asks.
    for _ in range(3):
        assert create("victim@example.org").status_code == 201
    refused = create("victim@example.org")
    assert refused.status_code == 429 and refused.get_json()["code"] == "too-many-confirmations"
    games_before = len(outbox_rows(notify_app))
    assert games_before == 3  # the refused request created nothing, not even its game

    # Per game: six over the game's life, however many addresses.
    game = start_game(nclient)
    url = f"/games/{game['id']}/contact"
    for number in range(6):
        assert nclient.patch(url, json={"email": f"p{number}@example.org"},
                             headers=auth(game["tokens"][number % 2])).status_code == 200
    refused = nclient.patch(url, json={"email": "p9@example.org"}, headers=auth(game["tokens"][0]))
    assert refused.status_code == 429 and refused.get_json()["code"] == "too-many-confirmations"
    assert contact(nclient, game, 0)["email"] == "p4@example.org"

    # Per client address: CONFIRM_MAILS_PER_CLIENT a day, counted by the HTTP peer.
    notify_app.config["CONFIRM_MAILS_PER_CLIENT"] = 2
    try:
        other = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}}
        assert create("c1@example.org", **other).status_code == 201
        assert create("c2@example.org", **other).status_code == 201
        assert create("c3@example.org", **other).status_code == 429
        assert create("c3@example.org", environ_base={"REMOTE_ADDR": "192.0.2.8"}).status_code == 201
    finally:
        del notify_app.config["CONFIRM_MAILS_PER_CLIENT"]

    # A day later the address may be asked again.
    clock.advance(days=1, seconds=1)
    assert create("victim@example.org").status_code == 201
    deliver(notify_app)
    assert len(mail_server.catcher.to("victim@example.org")) == 4
    assert all(m["Subject"] == SUBJECT for _, m in mail_server.catcher.messages)
    assert "Eve.Mallory" not in "".join(text(m) for _, m in mail_server.catcher.messages)  # a dot: never inside a secret, never wrapped


def test_stop_in_a_reply_to_a_game_mail_stops_all_mail_to_that_address(
        nclient, notify_app, mail_server, listener):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(notify_app)
    mail = mail_server.catcher.to(BOB)[-1]
    assert "  stop " in text(mail)
    reply(listener, reply_address(mail), "stop", sender=BOB)
    before = len(mail_server.catcher.to(BOB))
    for _ in range(4):
        seat = view(nclient, game, 0)["to_move"]
        assert act(nclient, game, seat, choose(view(nclient, game, seat))).status_code == 200
    deliver(notify_app)
    assert len(mail_server.catcher.to(BOB)) == before and contact(nclient, game, 1)["email_status"] == "stopped"
    assert len(mail_server.catcher.to(ANN)) > 1
