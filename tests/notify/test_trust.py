"""Only the player moves (issue 13): a reply plays only when it comes from the seat's confirmed
address (From and the envelope sender), optionally with the MX's Authentication-Results pass.
Against the service's real SMTP listener and a real SMTP catcher on loopback."""
from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from tests.api.helpers import stored_game

from .conftest import DOMAIN, deliver, flat, outbox_rows, reply_address, start_game, text

ANN, BOB = "ann@example.org", "bob@example.org"
EMAILS = {0: ANN, 1: BOB}
MX = "mx.play.test"


def mailed_game(client, app):
    game = start_game(client, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(app)
    return game


def turn(catcher, app, game):
    seat = stored_game(app, game["id"]).to_move
    return seat, catcher.to(EMAILS[seat])[-1]


def send(port, to, body, sender, envelope=None, headers=()):
    """A reply as a mail server would pass it on: `envelope` is the SMTP MAIL FROM (default: From)."""
    message = EmailMessage()
    for name, value in headers:  # as the receiving MX prepends them: above everything else
        message[name] = value
    message["From"], message["To"], message["Subject"] = sender, to, "Re: your game"
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.send_message(message, from_addr=envelope if envelope is not None else sender)


def state(app, game):
    row = stored_game(app, game["id"])
    return row.version, row.to_move


def test_a_reply_from_another_sender_plays_nothing_is_not_answered_and_the_seat_is_told_once(
        nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn(mail_server.catcher, notify_app, game)
    before, mine = state(notify_app, game), len(mail_server.catcher.to(EMAILS[seat]))
    other = EMAILS[1 - seat]
    # The opponent (a forwarded mail's reader, anyone) replies to the seat's reply address.
    send(listener, reply_address(mail), "pass", sender=other)
    send(listener, reply_address(mail), "resign", sender="mallory@evil.test")
    # From is right but the envelope sender is not: refused too.
    send(listener, reply_address(mail), "resign", sender=EMAILS[seat], envelope="mallory@evil.test")
    deliver(notify_app)
    assert state(notify_app, game) == before
    assert mail_server.catcher.to("mallory@evil.test") == []
    notices = mail_server.catcher.to(EMAILS[seat])[mine:]
    assert len(notices) == 1, [text(m) for m in notices]  # told once: capped per hour
    notice = text(notices[0])
    assert f"A reply from {other} tried to play for you" in flat(notice) and "nothing changed" in notice
    assert notices[0]["Subject"] == mail["Subject"]  # in the game's thread, same subject
    assert notices[0]["Reply-To"] is None and "play+" not in notice and "Your hand" not in notice
    assert [r.kind for r in outbox_rows(notify_app, recipient=other)] == ["start"]  # no answer to it

    # The seat's own address still plays, with any case and a +tag.
    local, domain = EMAILS[seat].split("@")
    send(listener, reply_address(mail), "pass", sender=f"{local.upper()}+gin@{domain.upper()}")
    deliver(notify_app)
    assert state(notify_app, game)[1] == 1 - seat


def test_with_dmarc_required_a_forged_from_is_refused_and_an_authenticated_one_plays(
        nclient, notify_app, mail_server, listener, configure):
    configure(MAIL_REQUIRE_AUTH="dmarc", MAIL_AUTHSERV_ID=MX)
    game = mailed_game(nclient, notify_app)
    seat, mail = turn(mail_server.catcher, notify_app, game)
    before, mine = state(notify_app, game), len(mail_server.catcher.to(EMAILS[seat]))
    address, owner = reply_address(mail), EMAILS[seat]
    forged = [
        [],  # no verdict at all
        [("Authentication-Results", f"{MX}; spf=fail smtp.mailfrom=example.org; dmarc=fail header.from=example.org")],
        # A pass from an authserv-id we do not trust (the sender wrote it himself).
        [("Authentication-Results", "mx.evil.test; dmarc=pass header.from=example.org")],
        # Our MX's fail on top, a forged pass with our id below it: only the topmost counts.
        [("Authentication-Results", f"{MX}; dmarc=fail (p=reject) header.from=example.org"),
         ("Authentication-Results", f"{MX}; dmarc=pass header.from=example.org")],
        # A pass for another domain.
        [("Authentication-Results", f"{MX}; dmarc=pass header.from=evil.test")],
    ]
    for headers in forged:
        send(listener, address, "pass", sender=owner, headers=headers)
    deliver(notify_app)
    assert state(notify_app, game) == before
    assert len(mail_server.catcher.to(owner)) == mine + 1  # one notice, whatever the number of tries

    send(listener, address, "pass", sender=owner, headers=[(
        "Authentication-Results", f"{MX.upper()}; dkim=pass header.d=example.org; "
                                  "dmarc=pass (p=none dis=none) header.from=example.org")])
    deliver(notify_app)
    assert state(notify_app, game)[1] == 1 - seat


def test_with_dkim_required_an_aligned_signature_plays(nclient, notify_app, mail_server, listener, configure):
    configure(MAIL_REQUIRE_AUTH="dkim", MAIL_AUTHSERV_ID=MX)
    game = mailed_game(nclient, notify_app)
    seat, mail = turn(mail_server.catcher, notify_app, game)
    before = state(notify_app, game)
    unaligned = [("Authentication-Results", f"{MX} 1; dkim=pass header.d=bulkmailer.test")]
    send(listener, reply_address(mail), "pass", sender=EMAILS[seat], headers=unaligned)
    deliver(notify_app)
    assert state(notify_app, game) == before
    aligned = [("Authentication-Results", f"{MX} 1; dkim=pass header.i=@example.org header.s=s1")]
    send(listener, reply_address(mail), "pass", sender=EMAILS[seat], headers=aligned)
    deliver(notify_app)
    assert state(notify_app, game)[1] == 1 - seat


def test_the_mta_pipe_checks_the_envelope_sender_it_is_given(nclient, notify_app, mail_server):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn(mail_server.catcher, notify_app, game)
    raw = (f"From: {EMAILS[seat]}\r\nTo: {reply_address(mail)}\r\nSubject: Re: x\r\n"
           "Message-ID: <pipe1@example.org>\r\n\r\npass\r\n").encode()
    refused = notify_app.test_cli_runner().invoke(
        args=["notify", "inbound", "--sender", "mallory@evil.test"], input=raw)
    assert refused.output.startswith("wrong-sender"), refused.output
    played = notify_app.test_cli_runner().invoke(args=["notify", "inbound", "--sender", EMAILS[seat]],
                                                 input=raw.replace(b"pipe1", b"pipe2"))
    assert played.output.startswith("played: pass"), played.output
    assert DOMAIN in reply_address(mail)
