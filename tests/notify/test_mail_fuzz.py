"""Fuzzing what players set (names, addresses) through a whole mailed hand (issue 17, finding 2):
every setting is either refused with a 422 validation-error, or accepted and then every move of
the hand is answered 200, every mail is composed and delivered to a real SMTP server, and every
mail delivered carries the service's own headers only. SQLite and PostgreSQL."""
from __future__ import annotations

import email.utils

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.api.helpers import choose, mover

from .conftest import DOMAIN, START, act, confirm_addresses, deliver, outbox_rows

HEADERS = {"From", "To", "Subject", "Date", "Message-ID", "Reply-To", "In-Reply-To", "References",
           "X-Gin-Game", "X-Gin-Seat", "X-Gin-Version", "Auto-Submitted", "Content-Type",
           "Content-Transfer-Encoding", "MIME-Version", "List-Unsubscribe",
           "List-Unsubscribe-Post"}
NASTY = ["=?l1?q?=0AReply-To:m@evil.test=0A=0A?=", "=?utf-8?b?DQpCY2M6IHhAZXZpbC50ZXN0?=", "a\r\nBcc: x@evil.test",
         "Zoë", "名前", "\u2028x", "x\u202ey", "=?", "?=", "a=?b", "\x00", " ", "<x@y>", "\"q\"", "a,b", "a;b"]
names = st.one_of(st.text(min_size=1, max_size=40), st.sampled_from(NASTY),
                  st.builds("".join, st.lists(st.sampled_from(NASTY + ["Ann", " ", "="]), min_size=1, max_size=4)))
locals_ = st.one_of(st.from_regex(r"[A-Za-z0-9._%+=?-]{1,20}", fullmatch=True), st.sampled_from(NASTY),
                    st.text(min_size=1, max_size=20))
addresses = st.one_of(st.emails(), st.builds(lambda local, domain: f"{local}@{domain}", locals_,
                                             st.sampled_from(["example.org", "x.org", "xn--bcher-kva.example",
                                                              "exämple.org", "localhost", DOMAIN, "-x.org"])),
                      st.text(max_size=60), st.sampled_from(NASTY))


def wipe(app, mail_server, clock) -> None:
    from service.core.extensions import db
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    mail_server.catcher.clear()
    clock.now = START


def accepted(response) -> bool:
    assert response.status_code in (201, 422), (response.status_code, response.get_json())
    if response.status_code == 422:
        assert response.get_json()["code"] == "validation-error"
    return response.status_code == 201


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(name0=names, name1=names, email0=addresses, email1=addresses)
@example(name0="Ann", name1=NASTY[0], email0="ann@example.org", email1="bob@example.org")  # finding 1
@example(name0="Ann", name1="Bob", email0="ann@example.org", email1="=?utf-8?q?a=0D=0Ab?=@x.org")  # finding 2
@example(name0="Ann", name1="Bob", email0="ü-ann@example.org", email1="bob@example.org")  # finding 7
def test_fuzzed_names_and_addresses_through_a_whole_mailed_hand(
        nclient, notify_app, mail_server, clock, name0, name1, email0, email1):
    wipe(notify_app, mail_server, clock)
    created = nclient.post("/games", json={"name": name0, "email": email0})
    if not accepted(created):
        created = nclient.post("/games", json={"name": "Ann", "email": "ann@example.org"})
        assert created.status_code == 201
    created = created.get_json()
    joined = nclient.post(f"/games/{created['game_id']}/join",
                          json={"invite_code": created["invite_code"], "name": name1, "email": email1})
    if not accepted(joined):
        joined = nclient.post(f"/games/{created['game_id']}/join",
                              json={"invite_code": created["invite_code"], "name": "Bob", "email": "bob@example.org"})
        assert joined.status_code == 201
    joined = joined.get_json()
    game = {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]}}
    emails = {0: created["contact"]["email"], 1: joined["contact"]["email"]}
    confirm_addresses(notify_app, *emails.values())  # their owners said yes: game mail goes out

    hand = 1
    for _ in range(200):  # one whole hand, moved by the seat to move
        seat, seen = mover(nclient, game)
        if seen["hand_number"] != hand or seen["phase"] == "match_over":
            break
        response = act(nclient, game, seat, choose(seen))
        assert response.status_code == 200, response.get_json()
    else:
        raise AssertionError("the hand did not end")
    deliver(notify_app)

    rows = outbox_rows(notify_app, channel="mail")
    assert rows and all(row.status == "sent" for row in rows), [(r.kind, r.last_error) for r in rows]
    assert len(mail_server.catcher.messages) == len(rows)
    for recipients, mail in mail_server.catcher.messages:
        assert set(mail.keys()) <= HEADERS and len(mail.keys()) == len(set(mail.keys())), mail.keys()
        assert email.utils.parseaddr(mail["To"])[1] in emails.values() and recipients[0] in emails.values()
        assert email.utils.parseaddr(mail["Reply-To"])[1].endswith("@" + DOMAIN)
        assert all("\n" not in str(value) and "\r" not in str(value) for value in mail.values())
