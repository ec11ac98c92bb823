"""Issue 25, finding 10: caps and `stop` counted the exact address, so `+tag` variants got one
mailbox 40 confirmation mails (cap: 3 a day) and mail after `stop`; invitations were capped per
inviter only (a stranger got 15, the attacker's words in the Subject); the List-Unsubscribe
header was written as RFC 2047 encoded words, so clients offered no unsubscribe button.

Now one key per mailbox (addresses.normalised) for every cap and `stop`, a cap per invited
address, a fixed invitation Subject, and RFC 8058 one-click unsubscribing on every mail, POSTed
to as a mail client does. Clients come from several loopback addresses, so no per-client cap
hides a per-address one. Real SMTP server and listener; SQLite and PostgreSQL."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from service.notify.consent.addresses import normalised

from .conftest import (DOMAIN, START, auth, confirm_addresses, deliver, flat, one_click, outbox_rows, reply,
                       reply_address, start_game, text)
from .test_confirmation import SUBJECT as CONFIRM_SUBJECT
from .test_confirmation import contact

ANN = "ann@example.org"


def from_client(number: int) -> dict:
    return {"environ_base": {"REMOTE_ADDR": f"127.0.0.{number}"}}


@pytest.mark.parametrize("given, key", [
    ("Victim+1@Example.ORG", "victim@example.org"), ("victim+a+b@example.org", "victim@example.org"),
    ("v.i.c.t.i.m@example.org", "v.i.c.t.i.m@example.org"),  # dots count where no provider says otherwise
    ("V.ic.tim+x@GMail.com", "victim@gmail.com"), ("vic.tim@googlemail.com", "victim@gmail.com"),
])
def test_one_key_per_mailbox(given, key):
    assert normalised(given) == key


def test_tag_variants_share_the_confirmation_cap(nclient, notify_app, mail_server):
    answers = [nclient.post("/games", json={"name": "Eve", "email": f"victim+{number}@example.org"},
                            **from_client(number + 1)) for number in range(6)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429, 429]
    assert {a.get_json()["code"] for a in answers[3:]} == {"too-many-confirmations"}
    # Gmail's documented dots rule: the same mailbox again, under dots and the other domain.
    for number, variant in enumerate(("v.ictim@gmail.com", "vict.im+x@googlemail.com", "VICTIM@gmail.com"), 10):
        assert nclient.post("/games", json={"name": "Eve", "email": variant}, **from_client(number)).status_code == 201
    assert nclient.post("/games", json={"name": "Eve", "email": "vi.ctim@gmail.com"},
                        **from_client(20)).status_code == 429
    deliver(notify_app)
    sent = [rcpts[0] for rcpts, mail in mail_server.catcher.messages if mail["Subject"] == CONFIRM_SUBJECT]
    assert len(sent) == 6 and {normalised(a) for a in sent} == {"victim@example.org", "victim@gmail.com"}
    assert sent[:3] == [f"victim+{number}@example.org" for number in range(3)]  # mailed as given


def test_stop_counts_for_every_variant_of_the_mailbox(nclient, notify_app, mail_server, listener):
    confirm_addresses(notify_app, "bob@gmail.com")
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": "bob@gmail.com"})
    deliver(notify_app)
    reply(listener, reply_address(mail_server.catcher.to("bob@gmail.com")[-1]), "stop", sender="bob@gmail.com")
    mail_server.catcher.clear()
    # Neither a +tag, other dots, the other domain nor another case brings mail back.
    for seat_email in ("bob+cards@gmail.com", "B.o.b@GoogleMail.com"):
        other = start_game(nclient, contact0={"email": ANN}, contact1={"email": seat_email}, confirmed=False)
        assert contact(nclient, other, 1)["email_status"] == "stopped"
    refused = nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": "bo.b+x@gmail.com"})
    assert refused.status_code == 422 and refused.get_json()["code"] == "invitation-refused"
    # Plays go on; no mail of any kind reaches the mailbox.
    deliver(notify_app)
    assert [rcpts for rcpts, _ in mail_server.catcher.messages if "gmail.com" in rcpts[0].lower()] == []
    assert contact(nclient, game, 1)["email_status"] == "stopped"
    # Dots count elsewhere: b.ob@example.org is not bob@example.org.
    assert normalised("b.ob@example.org") != normalised("bob@example.org")


def test_invitations_are_capped_per_invited_address_with_a_fixed_subject(nclient, notify_app, mail_server):
    attacker_words = "Buy cheap watches at evil.test"
    answers = []
    for number in range(6):  # six inviters, six client addresses: each under its own cap
        inviter = f"inviter{number}@example.org"
        confirm_addresses(notify_app, inviter)
        answers.append(nclient.post("/games", json={"name": attacker_words[:40], "email": inviter,
                                                    "invite_email": f"stranger+{number}@example.org"},
                                    **from_client(number + 1)))
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429, 429]
    assert {a.get_json()["code"] for a in answers[3:]} == {"too-many-invitations"}
    deliver(notify_app)
    invitations = [(rcpts[0], mail) for rcpts, mail in mail_server.catcher.messages
                   if "invites you to a game of Gin Rummy" in flat(text(mail))]
    assert [to for to, _ in invitations] == [f"stranger+{number}@example.org" for number in range(3)]
    for _, mail in invitations:
        assert mail["Subject"] == f"[Gin {mail['X-Gin-Game'][:8]}] A game of Gin Rummy by mail"  # fixed words
        assert "watches" not in mail["Subject"]
        assert f'(their own words, not checked by the service):\n\n    "{attacker_words}"' in text(mail)
    # A table's list naming the mailbox twice is refused whole.
    twice = nclient.post("/games", json={"name": "Ann", "seats": 3, "email": "inviter0@example.org",
                                         "invite_emails": ["carl@example.org", "Carl+2@example.org"]},
                         **from_client(50))
    assert twice.status_code == 422 and twice.get_json()["code"] == "validation-error"


def test_a_new_game_by_mail_is_not_sent_to_an_address_invited_enough(nclient, notify_app, mail_server, listener,
                                                                      configure):
    configure(INVITES_PER_RECIPIENT_PER_DAY=1)
    confirm_addresses(notify_app, ANN)
    assert nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": "dan@example.org"}).status_code == 201
    reply(listener, f"new@{DOMAIN}", "Dan+games@example.org", sender="cy@example.org")
    deliver(notify_app)
    assert mail_server.catcher.to("cy@example.org") == []  # not even asked to confirm
    assert len(mail_server.catcher.to("dan@example.org")) == 1


# -- RFC 8058 on every mail ---------------------------------------------------------------------

def test_every_kind_of_mail_offers_one_click_unsubscribe(nclient, notify_app, mail_server, listener, configure,
                                                         clock):
    configure(BASE_URL="https://gin.test")
    # confirmation; a game's start and turn mails, an answer, a wrong sender's notice, an unknown
    # address's answer; invitation, new game request, started notice; digest.
    nclient.post("/games", json={"name": "Eve", "email": "new@example.org"})
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": "bob@example.org"})
    deliver(notify_app)
    mover = next(seat for seat in (0, 1) if "Your turn" in text(mail_server.catcher.to((ANN, "bob@example.org")[seat])[-1]))
    mover_mail = mail_server.catcher.to((ANN, "bob@example.org")[mover])[-1]
    reply(listener, reply_address(mover_mail), "pass", sender="mallory@evil.test")
    reply(listener, reply_address(mover_mail), "pass", sender=(ANN, "bob@example.org")[mover])
    reply(listener, f"play+{'x' * 24}@{DOMAIN}", "pass", sender=ANN)
    reply(listener, f"new@{DOMAIN}", "dan@example.org", sender=ANN)
    deliver(notify_app)
    ask = [m for m in mail_server.catcher.to(ANN) if m["Subject"] == "[Gin] Confirm your new game"][-1]
    reply(listener, reply_address(ask), "confirm", sender=ANN)
    nclient.patch(f"/games/{game['id']}/contact", json={"mail_mode": "digest"}, headers=auth(game["tokens"][1]))
    clock.advance(days=1, minutes=1)
    deliver(notify_app)
    kinds = {row.kind for row in outbox_rows(notify_app, channel="mail")}
    assert {"confirm", "start", "turn", "answer", "wrong-sender", "unknown", "invitation", "started",
            "digest"} <= kinds, kinds
    urls = []
    for _, mail in mail_server.catcher.messages:
        url, address = one_click(mail)
        assert url.startswith("https://gin.test/unsubscribe/") and address.endswith(f"@{DOMAIN}")
        urls.append(url)
    assert len(set(urls)) == len(urls) == len(mail_server.catcher.messages)  # a key per mail


def test_posting_to_the_url_unsubscribes_as_a_mail_client_does(nclient, notify_app, mail_server, listener):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": "bob@example.org"})
    deliver(notify_app)
    url, _ = one_click(mail_server.catcher.to("bob@example.org")[-1])
    # A client without RFC 8058 mails the header's address instead (any sender: the key counts).
    _, address = one_click(mail_server.catcher.to(ANN)[-1])
    reply(listener, address, "", subject="unsubscribe", sender="ann+list@example.org")
    assert contact(nclient, game, 0)["email_status"] == "stopped"
    path = urlsplit(url).path
    form = {"content_type": "application/x-www-form-urlencoded", "data": "List-Unsubscribe=One-Click"}
    answer = nclient.post(path, **form)
    assert answer.status_code == 200 and answer.get_json()["result"] == "stopped", answer.get_json()
    assert contact(nclient, game, 1)["email_status"] == "stopped"
    assert nclient.post(path).status_code == 200  # pressed twice (or with no body): no error
    mail_server.catcher.clear()
    assert nclient.post(f"/games/{game['id']}/actions", json={"type": "resign"},
                        headers=auth(game["tokens"][0])).status_code == 200
    deliver(notify_app)
    assert mail_server.catcher.to("bob@example.org") == [] and mail_server.catcher.to(ANN) == []
    for wrong in ("/unsubscribe/" + "A" * 43, "/unsubscribe/short", "/unsubscribe/%00" + "a" * 20):
        refused = nclient.post(wrong, **form)
        assert refused.status_code == 404 and refused.get_json()["code"] == "unknown-unsubscribe-key"


def test_the_digests_button_turns_the_digest_off_for_the_whole_mailbox(nclient, notify_app, mail_server, clock):
    games = [start_game(nclient, contact0={"email": email}, move_time_hours=None)
             for email in ("ann@example.org", "Ann+second@example.org")]
    for game in games:
        assert nclient.patch(f"/games/{game['id']}/contact", json={"mail_mode": "digest"},
                             headers=auth(game["tokens"][0])).status_code == 200
    clock.advance(days=1, minutes=1)
    deliver(notify_app)
    [digest] = [m for _, m in mail_server.catcher.messages if "digest" in m["Subject"]]  # one per mailbox
    answer = nclient.post(urlsplit(one_click(digest)[0]).path)
    assert answer.status_code == 200 and answer.get_json()["result"] == "digest-off"
    for game in games:
        assert contact(nclient, game, 0)["mail_mode"] == "off"


# -- the migration --------------------------------------------------------------------------------

def test_the_migration_files_old_rows_under_mailbox_keys(request, tmp_path):
    """Rows written under the old key (the address in lower case) are filed under the new one,
    mailboxes merged: a stop given to `b.ob+x@gmail.com` holds for `bob@gmail.com` after upgrading."""
    import os

    import flask_migrate
    import sqlalchemy as sa

    from service import create_app
    from service.core.extensions import db
    from service.notify.consent import confirm
    from tests.conftest import _postgres_schema
    config, drop = ({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite3'}"}, None)
    if os.environ.get("TEST_DATABASE_URL"):
        config, drop = _postgres_schema(os.environ["TEST_DATABASE_URL"])
    try:
        app = create_app({"TESTING": True, **config})
        with app.app_context():
            flask_migrate.upgrade(revision="a8c41d2e9b70")
            for address, confirmed, stopped in (("b.ob+x@gmail.com", None, START), ("bob@gmail.com", START, None),
                                                ("carl+x@example.org", START, None), ("dan@example.org", START, None)):
                db.session.execute(sa.text("INSERT INTO mail_addresses (address, confirmed_at, stopped_at) "
                                           "VALUES (:a, :c, :s)"), {"a": address, "c": confirmed, "s": stopped})
            db.session.execute(sa.text(
                "INSERT INTO mail_invitations (sender, invitee, created_at) VALUES (:s, :i, :t)"),
                {"s": "ann+x@example.org", "i": "eve+y@example.org", "t": START})
            db.session.execute(sa.text(
                "INSERT INTO mail_confirmations (token_hash, address, created_at) VALUES (:h, :a, :t)"),
                {"h": "0" * 64, "a": "fay+z@example.org", "t": START})
            db.session.commit()
            flask_migrate.upgrade()
            rows = dict((r.address, (r.confirmed_at is not None, r.stopped_at is not None))
                        for r in db.session.execute(sa.text("SELECT * FROM mail_addresses")))
            assert rows == {"bob@gmail.com": (True, True), "carl@example.org": (True, False),
                            "dan@example.org": (True, False)}
            assert confirm.status("Bob@GoogleMail.com") == confirm.STOPPED
            invitation = db.session.execute(sa.text("SELECT sender, invitee, invitee_key FROM mail_invitations")).one()
            assert tuple(invitation) == ("ann@example.org", "eve+y@example.org", "eve@example.org")
            assert db.session.execute(sa.text("SELECT address FROM mail_confirmations")).scalar() == "fay@example.org"
            db.session.remove()
            db.engine.dispose()
    finally:
        if drop:
            drop()
