"""Every outbox row is on its own: whatever one delivery raises marks that row (dead, with the
reason, for a fault that would recur) and the rows claimed with it are delivered all the same.
A non-ASCII address goes out with SMTPUTF8 when the mail server offers it, and fails for good,
saying why, when it does not. Real SMTP servers (aiosmtpd, with and without SMTPUTF8) and a real
HTTP receiver."""
from __future__ import annotations

from email.utils import make_msgid

import pytest

from service.core.extensions import db
from service.notify import outbox
from service.notify.mail.channel import MAIL
from service.notify.models import Contact
from service.notify.worker import Worker

from .conftest import DOMAIN, MailServer, outbox_rows, start_game

NON_ASCII = "ü-spieler@example.org"


@pytest.fixture
def ascii_only_mail_server(configure):
    """A real SMTP server that does not offer SMTPUTF8, made the app's mail server."""
    server = MailServer(smtputf8=False)
    server.start()
    configure(SMTP_PORT=server.port)
    yield server
    server.stop()


def queue_mail(app, to: str) -> str:
    """A mail row as the composer leaves it (a whole message), queued directly."""
    message_id = make_msgid(domain=DOMAIN)
    payload = (f"From: Gin Rummy <gin@{DOMAIN}>\r\nTo: {to}\r\nSubject: Your turn\r\n"
               f"Message-ID: {message_id}\r\n\r\nIt is your turn.\r\n")
    with app.app_context():
        outbox.enqueue(MAIL, "turn", to, payload, message_id)
        db.session.commit()
    return message_id


def one_batch(app) -> int:
    with app.app_context():
        return Worker("w").deliver_due()


def test_a_non_ascii_address_without_smtputf8_fails_alone_and_for_good(nclient, notify_app, receiver,
                                                                       ascii_only_mail_server):
    poison = queue_mail(notify_app, NON_ASCII)  # the oldest row: claimed first
    start_game(nclient, move_time_hours=None, contact0={"webhook_url": receiver.url})
    others = [queue_mail(notify_app, f"player{n}@example.org") for n in range(3)]
    assert one_batch(notify_app) == 5
    received = [m["Message-ID"] for _, m in ascii_only_mail_server.catcher.messages]
    assert sorted(received) == sorted(others), "the other mails of the batch went out"
    assert len(receiver.delivered()) == 1, "and the webhook claimed with them"
    rows = {row.message_id: row for row in outbox_rows(notify_app)}
    dead = rows.pop(poison)
    assert dead.status == "dead" and dead.attempts == 1 and "SMTPUTF8" in dead.last_error
    assert NON_ASCII in dead.last_error and dead.claimed_by is None
    assert all(row.status == "sent" for row in rows.values())
    with notify_app.app_context():
        assert outbox.claim("next-worker", 20) == [], "the poison row is not claimed again"


def test_a_non_ascii_address_goes_out_with_smtputf8_when_offered(nclient, notify_app, mail_server):
    queue_mail(notify_app, NON_ASCII)
    plain = queue_mail(notify_app, "ann@example.org")
    assert one_batch(notify_app) == 2
    [message] = mail_server.catcher.to(NON_ASCII)
    assert message["To"] == NON_ASCII
    assert [m["Message-ID"] for m in mail_server.catcher.to("ann@example.org")] == [plain]
    assert [row.status for row in outbox_rows(notify_app)] == ["sent", "sent"]


def test_an_unexpected_fault_in_one_webhook_marks_that_row_only(nclient, notify_app, receiver, mail_server):
    """A seat whose stored signing secret is not base64 (a fault of the row's own data: the
    signature raises binascii.Error, no WebhookError) among healthy rows of both channels."""
    game = start_game(nclient, move_time_hours=None, contact0={"webhook_url": receiver.url},
                      contact1={"webhook_url": receiver.url})
    with notify_app.app_context():
        db.session.get(Contact, (game["id"], 0)).webhook_secret = "whsec_abc"  # bad padding
        db.session.commit()
    mail = queue_mail(notify_app, "ann@example.org")
    assert one_batch(notify_app) == 3
    rows = outbox_rows(notify_app)
    broken = [row for row in rows if row.channel == "webhook" and row.seat == 0]
    assert [(row.status, row.attempts) for row in broken] == [("dead", 1)]
    assert "Error" in broken[0].last_error and "padding" in broken[0].last_error
    assert all(row.status == "sent" for row in rows if row not in broken)
    assert [request["path"] for request in receiver.delivered()] == ["/hook"]  # seat 1's call
    assert [m["Message-ID"] for _, m in mail_server.catcher.messages] == [mail]
