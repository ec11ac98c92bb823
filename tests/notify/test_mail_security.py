"""What a player sets cannot reach into mail headers, block anyone's moves, or make the service
mail a stranger (issue 17: findings 1, 2 and 7, and the smaller mail items). Each test failed on
the code before the fix; all run on SQLite and PostgreSQL, mail through a real SMTP server."""
from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import (DOMAIN, act, auth, confirm_addresses, deliver, outbox_rows, reply, reply_address,
                       start_game, view)

ANN, BOB = "ann@example.org", "bob@example.org"
INJECTING_NAME = "=?l1?q?=0AReply-To:m@evil.test=0A=0A?="
BREAKING_ADDRESS = "=?utf-8?q?a=0D=0Ab?=@x.org"


def count_games(app) -> int:
    from service.core.extensions import db
    from service.games.models import Game
    with app.app_context():
        return db.session.query(Game).count()


def stored_email(app, game_id: str, seat: int):
    from service.core.extensions import db
    from service.notify.models import Contact
    with app.app_context():
        contact = db.session.get(Contact, (game_id, seat))
        return contact.email if contact else None


def problem(response, status: int, code: str) -> dict:
    body = response.get_json()
    assert response.status_code == status and body["code"] == code, (response.status_code, body)
    assert response.mimetype == "application/problem+json"
    return body


# -- finding 1: a name that is an encoded word --------------------------------------------------

def test_a_name_that_decodes_to_a_linefeed_is_refused_and_changes_nothing(nclient, notify_app):
    body = problem(nclient.post("/games", json={"name": INJECTING_NAME, "email": ANN}), 422, "validation-error")
    assert "encoded word" in str(body["errors"])
    assert count_games(notify_app) == 0
    game = start_game(nclient, contact0={"email": ANN})
    created = nclient.post("/games", json={"name": "Ann"}).get_json()
    joined = nclient.post(f"/games/{created['game_id']}/join",
                          json={"invite_code": created["invite_code"], "name": "x =?utf-8?b?Cg==?= y"})
    problem(joined, 422, "validation-error")
    assert view(nclient, game, 0)["players"][1]["name"] == "Bob"


def test_no_mail_header_can_carry_a_decoded_linefeed(notify_app):
    """The second wall: whatever text reaches a header, the policy refuses a line break in it
    (the email package decodes encoded words, then would write the linefeed raw)."""
    from service.notify.mail import rfc5322
    from service.notify.mail.rfc5322 import HeaderInjection
    with notify_app.app_context():
        def build(**changes):
            fields = dict(to=ANN, subject="[Gin] Your turn - Ann v Bob", text="hello\n",
                          message_id="<m.1@play.test>", moment=notify_app.config["CLOCK"]())
            return rfc5322.build(**{**fields, **changes})
        for field, value in (("subject", f"[Gin] Your turn - Ann v {INJECTING_NAME}"),
                             ("subject", "plain\nReply-To: m@evil.test"), ("to", BREAKING_ADDRESS),
                             ("reply_to", "=?utf-8?q?x=0A?=@y.org")):
            with pytest.raises((HeaderInjection, ValueError)):
                rfc5322.serialise(build(**{field: value}))
        # An inbound Message-ID that is no Message-ID is not echoed into In-Reply-To.
        mail = build(in_reply_to="<=?utf-8?q?=0ABcc:_x@evil.test?=@x>")
        assert "In-Reply-To" not in mail and "evil" not in rfc5322.serialise(mail)
        text = rfc5322.serialise(build(subject="[Gin] Your turn - Zoë v Bob"))  # non-ASCII is encoded, not refused
        assert text.isascii() and "=?utf-8?q?Zo=C3=AB?=" in text


def test_a_played_hand_mails_only_the_service_headers(nclient, notify_app, mail_server):
    start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(notify_app)
    for _, mail in mail_server.catcher.messages:
        assert set(mail.keys()) <= {"From", "To", "Subject", "Date", "Message-ID", "Reply-To", "In-Reply-To",
                                    "References", "X-Gin-Game", "X-Gin-Seat", "X-Gin-Version", "Auto-Submitted",
                                    "Content-Type", "Content-Transfer-Encoding", "MIME-Version",
                                    "List-Unsubscribe", "List-Unsubscribe-Post"}
        assert mail["Reply-To"].endswith(f"@{DOMAIN}")


# -- finding 2: an address that breaks every move -----------------------------------------------

def test_an_address_the_composer_cannot_write_is_refused(nclient, notify_app):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    url = f"/games/{game['id']}/contact"
    for bad in (BREAKING_ADDRESS, "a@b.org\r\nBcc: c@d.org", '"quoted local"@x.org', "a@[127.0.0.1]",
                "ann@example.org, bob@example.org", "Ann <ann@example.org>", f"play+{'x' * 24}@{DOMAIN}"):
        problem(nclient.patch(url, json={"email": bad}, headers=auth(game["tokens"][1])), 422, "validation-error")
    assert stored_email(notify_app, game["id"], 1) == BOB
    problem(nclient.post("/games", json={"name": "Eve", "email": BREAKING_ADDRESS}), 422, "validation-error")


def test_an_unwritable_address_already_on_file_blocks_no_move_resign_or_sweep(nclient, notify_app, clock):
    """Addresses stored before the check (or any composing failure): the mail is a dead outbox
    row saying why, and the move, the resignation and the worker's sweep all go through."""
    from service.core.extensions import db
    from service.notify import sweeps
    from service.notify.models import Contact
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    confirm_addresses(notify_app, BREAKING_ADDRESS)
    with notify_app.app_context():
        db.session.get(Contact, (game["id"], 1)).email = BREAKING_ADDRESS
        db.session.commit()
    for _ in range(2):
        seat = view(nclient, game, 0)["to_move"]
        assert act(nclient, game, seat, {"type": "pass"}).status_code == 200
    dead = [r for r in outbox_rows(notify_app, status="dead") if r.seat == 1]
    assert dead and all(r.last_error.startswith("not composed:") and "\n" not in r.recipient for r in dead)
    clock.advance(hours=60)  # past the reminder point of the seat to move
    with notify_app.app_context():
        assert sweeps.sweep_clocks() >= 1
    assert act(nclient, game, 1, {"type": "resign"}).status_code == 200
    assert view(nclient, game, 0)["phase"] == "match_over"
    deliver(notify_app)
    assert {r.status for r in outbox_rows(notify_app) if r.seat == 0} == {"sent"}


# -- finding 7 (the setting side): an address no SMTP server without SMTPUTF8 takes ------------------

def test_a_non_ascii_local_part_is_refused_when_it_is_set(nclient, notify_app):
    game = start_game(nclient)
    for address in ("ü-player@example.org", "ann@exämple.org"):
        body = problem(nclient.patch(f"/games/{game['id']}/contact", json={"email": address},
                                     headers=auth(game["tokens"][0])), 422, "validation-error")
        assert "ASCII" in body["detail"]
    assert stored_email(notify_app, game["id"], 0) is None
    assert nclient.patch(f"/games/{game['id']}/contact", json={"email": "ann@xn--exmple-cua.org"},
                         headers=auth(game["tokens"][0])).status_code == 200


# -- smaller items ------------------------------------------------------------------------------

def test_a_nul_byte_in_an_email_or_webhook_url_is_a_validation_error(nclient, notify_app):
    game = start_game(nclient)
    for field, value in (("email", "ann\x00@example.org"), ("webhook_url", "https://hook.example/\x00x"),
                         ("email", "ann@example.org\x00")):
        problem(nclient.patch(f"/games/{game['id']}/contact", json={field: value},
                              headers=auth(game["tokens"][0])), 422, "validation-error")
        problem(nclient.post("/games", json={"name": "Ann", field: value}), 422, "validation-error")
    assert count_games(notify_app) == 1 and outbox_rows(notify_app) == []


def test_a_reply_for_a_seat_without_an_address_plays_nothing_and_is_never_answered_to_its_from(
        nclient, notify_app, mail_server, listener):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(notify_app)
    seat = view(nclient, game, 0)["to_move"]
    mine = ANN if seat == 0 else BOB
    mail = mail_server.catcher.to(mine)[-1]
    nclient.patch(f"/games/{game['id']}/contact", json={"email": None}, headers=auth(game["tokens"][seat]))
    reply(listener, reply_address(mail), "pass", sender="stranger@evil.test")
    reply(listener, reply_address(mail), "pass", sender=mine)  # not on file any more either
    deliver(notify_app)
    assert view(nclient, game, 0)["to_move"] == seat  # only the seat's confirmed address plays
    assert mail_server.catcher.to("stranger@evil.test") == []
    assert [r for r in outbox_rows(notify_app) if r.kind == "answer"] == []


def test_junk_from_strangers_adds_no_rows_and_a_player_is_answered_a_few_times(
        nclient, notify_app, mail_server, listener):
    from service.core.extensions import db
    from service.notify.models import InboundMail
    start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    wrong = f"play+{'y' * 24}@{DOMAIN}"
    for number in range(40):
        reply(listener, wrong, "buy watches", sender=f"spam{number % 3}@junk.example")
    for _ in range(10):
        reply(listener, wrong, "pass", sender=BOB)
    deliver(notify_app)
    with notify_app.app_context():
        rows = [(m.sender, m.outcome) for m in db.session.query(InboundMail)]
    assert rows == [(BOB, "unknown-address")] * 3
    answers = [m for m in mail_server.catcher.to(BOB) if "unknown reply address" in m["Subject"]]
    assert len(answers) == 3
    assert not any(rcpts[0].startswith("spam") for rcpts, _ in mail_server.catcher.messages)


# -- the import cycle store <-> notify.dispatch ------------------------------------------------

def test_the_games_import_nothing_of_notify():
    code = ("import sys, service.games.store, service.games.moves; "
            "assert not any(m.startswith('service.notify') for m in sys.modules), 'notify imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_change_still_runs_the_notify_hook(nclient, notify_app):
    """The games call dispatch.after_change through the hook notify registers (games.changes), and a
    move restarts the clock (a deadline for the new seat to move) with no import of notify."""
    game = start_game(nclient)
    seat = view(nclient, game, 0)["to_move"]
    before = view(nclient, game, 0)["deadline"]
    notify_app.config["CLOCK"].advance(minutes=5)
    assert act(nclient, game, seat, {"type": "pass"}).status_code == 200
    after = view(nclient, game, 0)["deadline"]
    assert after and after != before
