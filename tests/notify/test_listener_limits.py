"""The SMTP listener's limits (issue 25, finding 8): a message whose MIME parts nest 2,000 deep
drove the parser to RecursionError after seconds on a listener thread, and was answered 451, so
a real mail server would retry it for days. It is now refused for good (554) before it is parsed,
a player's reply goes through beside a burst of them, and a connection's work is bounded. A real
listener on loopback, real SMTP clients."""
from __future__ import annotations

import re
import smtplib
import threading
import time
from pathlib import Path

import pytest

from service.notify.inbound import mime_shape, smtpd
from tests.api.helpers import stored_game

from .conftest import DOMAIN, reply, reply_address
from .test_inbound import EMAILS, mailed_game, turn_mail

ROOT = Path(__file__).resolve().parents[2]
SOME_REPLY_ADDRESS = f"play+{'a' * 24}@{DOMAIN}"


def nested(depth: int, sender: str = "mallory@evil.test", to: str = SOME_REPLY_ADDRESS) -> bytes:
    """A reply whose multiparts nest `depth` deep, the text `pass` innermost (118 kB at 2,000)."""
    lines = [f"From: {sender}", f"To: {to}", "Subject: Re: your turn", "MIME-Version: 1.0"]
    for level in range(depth):
        lines += [f'Content-Type: multipart/mixed; boundary="level{level}"', "", f"--level{level}"]
    lines += ["Content-Type: text/plain", "", "pass"] + [f"--level{level}--" for level in reversed(range(depth))]
    return ("\r\n".join(lines) + "\r\n").encode("ascii")


def send(smtp: smtplib.SMTP, raw: bytes, to: str = SOME_REPLY_ADDRESS) -> tuple[int, bytes]:
    """The listener's answer to DATA: (code, text)."""
    try:
        smtp.sendmail("mallory@evil.test", [to], raw)
    except smtplib.SMTPDataError as refused:
        return refused.smtp_code, refused.smtp_error
    return 250, b""


def test_a_message_nested_2000_deep_is_refused_for_good_at_once(listener):
    raw = nested(2000)
    assert len(raw) > 100_000
    with smtplib.SMTP("127.0.0.1", listener, timeout=30) as smtp:
        code, why = send(smtp, raw)
    assert code == 554, (code, why)  # permanent: a sending server gives up instead of retrying for days
    assert b"5.6.0" in why and b"nest deeper" in why


@pytest.mark.parametrize("shape", ["deep", "many parts", "deep in forwarded messages"])
def test_the_scan_refuses_what_no_reply_looks_like_and_takes_what_replies_do(shape):
    refused = {"deep": nested(mime_shape.MAX_DEPTH + 1),
               "many parts": b"Content-Type: multipart/mixed; boundary=b\r\n\r\n"
                             + b"--b\r\n\r\nx\r\n" * (mime_shape.MAX_PARTS + 1) + b"--b--\r\n",
               "deep in forwarded messages": b"".join(b"Content-Type: message/rfc822\r\n\r\nSubject: fwd\r\n"
                                                      for _ in range(mime_shape.MAX_DEPTH + 1)) + b"\r\nhi\r\n"}
    with pytest.raises(mime_shape.Refused):
        mime_shape.check(refused[shape])
    mime_shape.check(nested(mime_shape.MAX_DEPTH))  # as deep as allowed: taken


def test_a_players_reply_is_accepted_beside_a_burst_of_deep_messages(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    deep = nested(2000, sender="mallory@evil.test", to=reply_address(mail))
    burst, rounds = 8, 3
    answers: list[tuple[int, bytes]] = []
    lock = threading.Lock()
    first_answered = threading.Barrier(burst + 1, timeout=60)
    release = threading.Event()

    def attacker():
        with smtplib.SMTP("127.0.0.1", listener, timeout=60) as smtp:
            for number in range(rounds):
                answer = send(smtp, deep, reply_address(mail))
                with lock:
                    answers.append(answer)
                if number == 0:
                    first_answered.wait()
            release.wait(60)  # the connection stays open until the player's reply was taken

    threads = [threading.Thread(target=attacker) for _ in range(burst)]
    for thread in threads:
        thread.start()
    first_answered.wait()  # every attacker is connected and sending its next deep messages
    # The player's own reply, sent now, is taken (250) and played while all those connections are open.
    reply(listener, reply_address(mail), "pass", sender=EMAILS[seat])
    still_open = sum(thread.is_alive() for thread in threads)
    release.set()
    for thread in threads:
        thread.join(60)
    assert still_open == burst
    assert stored_game(notify_app, game["id"]).to_move == 1 - seat  # the reply's `pass` was played
    assert len(answers) == burst * rounds
    assert {code for code, _ in answers} == {554}, answers[:3]


def test_a_connection_sends_a_bounded_number_of_messages(listener):
    plain = b"From: mallory@evil.test\r\nSubject: hi\r\n\r\nhello\r\n"
    with smtplib.SMTP("127.0.0.1", listener, timeout=30) as smtp:
        for _ in range(smtpd.MESSAGES_PER_CONNECTION):
            assert send(smtp, plain)[0] == 250
        with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPServerDisconnected)):
            smtp.sendmail("mallory@evil.test", [SOME_REPLY_ADDRESS], plain)


def test_the_pipe_command_refuses_a_deep_message_for_good(notify_app):
    result = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=nested(2000))
    assert result.exit_code == 65, result.output  # EX_DATAERR: the MTA bounces it, no retry


# The headers the service reads are parsed by the email package at a cost that grows faster than
# their length: a From folded into 20,000 lines (100 kB) held a listener thread about 20 s and was
# then taken; a From or a multipart's Content-Type of nested comments drove the parser (and the
# shape scan) to RecursionError, answered 451 (retry later) like the nested parts of finding 8.

def long_from(to: str = SOME_REPLY_ADDRESS, lines: int = 20_000) -> bytes:
    """A reply whose From header is folded into `lines` lines (about 100 kB at 20,000)."""
    return (b"From: mallory@evil.test\r\n" + b"\t b\r\n" * lines + f"To: {to}\r\n".encode()
            + b"Subject: Re: your turn\r\n\r\npass\r\n")


def folded(text: bytes, width: int = 50) -> bytes:
    """`text` over lines of `width` (SMTP takes lines of 1,000 bytes at most; a comment may be folded)."""
    return b"\r\n\t".join(text[i:i + width] for i in range(0, len(text), width))


UNREADABLE = {
    # Within the From's bound, but nested deeper than Python's recursion limit: read, it raises.
    "a From of nested comments": b"From: " + folded(b"(" * 1600 + b")" * 1600) + b" mallory@evil.test\r\n"
                                 + f"To: {SOME_REPLY_ADDRESS}\r\n\r\npass\r\n".encode(),
    "a multipart of nested comments": f"From: mallory@evil.test\r\nTo: {SOME_REPLY_ADDRESS}\r\n".encode()
                                      + b"Content-Type: multipart/mixed; " + folded(b"(" * 3000 + b")" * 3000)
                                      + b" boundary=b\r\n\r\n--b\r\n\r\npass\r\n--b--\r\n",
    "a long From": long_from(),
}


@pytest.mark.parametrize("shape", list(UNREADABLE))
def test_a_message_whose_headers_cannot_be_read_cheaply_is_refused_for_good_at_once(listener, shape):
    started = time.monotonic()
    with smtplib.SMTP("127.0.0.1", listener, timeout=60) as smtp:
        code, why = send(smtp, UNREADABLE[shape])
    assert code == 554 and b"5.6.0" in why, (code, why)  # not 451: a retry would fail the same way
    assert time.monotonic() - started < 5


def test_the_header_bounds_take_what_replies_carry():
    """A reply from a large provider: long Received, DKIM and anti-spam headers (never read), a To
    and Cc of several people, a long encoded Subject, an attachment with a long file name."""
    blob = "\r\n\t".join(["A" * 76] * 60)  # a 4.6 kB folded anti-spam header
    people = ", ".join(f'"Person {n}" <person.{n}@example.org>' for n in range(20))
    raw = "\r\n".join([
        *(f"Received: from relay{n}.example.net (relay{n}.example.net [192.0.2.{n}]) by mx.example.org "
          "with ESMTPS id abcdef; Thu, 26 Nov 2026 12:00:00 +0000" for n in range(20)),
        f"X-Microsoft-Antispam-Message-Info: {blob}", f"ARC-Message-Signature: {blob}",
        "From: Ann <ann@example.org>", f"To: {SOME_REPLY_ADDRESS}", f"Cc: {people}",
        "Subject: =?utf-8?q?Re=3A_=5BGin=5D_Your_turn_against_Bob_=E2=80=94_hand_3?= " * 8,
        "MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="b"', "", "--b",
        "Content-Type: text/plain; charset=utf-8", "", "pass", "--b",
        "Content-Type: application/pdf; name*=utf-8''" + "%C3%A9" * 60 + ".pdf",
        "Content-Disposition: attachment; filename*=utf-8''" + "%C3%A9" * 60 + ".pdf",
        "Content-Transfer-Encoding: base64", "", "AAAA", "--b--", ""]).encode()
    mime_shape.check(raw)


def test_every_header_the_service_reads_is_bounded():
    """The fields read from inbound mail (msg.get / msg.get_all / msg[...] in service/notify) are
    the ones mime_shape bounds: a field read without a bound would bring the slow parse back."""
    read = set()
    for path in (ROOT / "service" / "notify").rglob("*.py"):
        read |= {name.lower() for name in re.findall(r'msg(?:\.get(?:_all)?\(|\[)"([A-Za-z-]+)"', path.read_text())}
    assert {"from", "subject", "authentication-results"} <= read  # the scan sees the reads
    assert read <= mime_shape.READ_FIELDS, read - mime_shape.READ_FIELDS


def test_a_players_reply_is_accepted_promptly_beside_a_burst_of_long_headers(nclient, notify_app, mail_server,
                                                                             listener):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    bomb = long_from(reply_address(mail))
    answers: list[int] = []
    connected = threading.Barrier(9, timeout=60)

    def attacker():
        with smtplib.SMTP("127.0.0.1", listener, timeout=120) as smtp:
            connected.wait()
            for _ in range(3):
                answers.append(send(smtp, bomb, reply_address(mail))[0])

    threads = [threading.Thread(target=attacker) for _ in range(8)]
    for thread in threads:
        thread.start()
    connected.wait()
    started = time.monotonic()
    reply(listener, reply_address(mail), "pass", sender=EMAILS[seat])
    took = time.monotonic() - started
    for thread in threads:
        thread.join(300)
    assert stored_game(notify_app, game["id"]).to_move == 1 - seat  # the reply's `pass` was played
    assert took < 5, took
    assert answers == [554] * 24
