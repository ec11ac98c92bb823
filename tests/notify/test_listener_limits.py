"""The SMTP listener's limits (issue 25, finding 8): a message whose MIME parts nest 2,000 deep
drove the parser to RecursionError after seconds on a listener thread, and was answered 451, so
a real mail server would retry it for days. It is now refused for good (554) before it is parsed,
a player's reply goes through beside a burst of them, and a connection's work is bounded. A real
listener on loopback, real SMTP clients."""
from __future__ import annotations

import smtplib
import threading

import pytest

from service.notify import mime_shape, smtpd
from tests.api.helpers import stored_game

from .conftest import DOMAIN, reply, reply_address
from .test_inbound import EMAILS, mailed_game, turn_mail

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
