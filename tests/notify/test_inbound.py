"""Moves by email through the service's own SMTP listener: a whole match, and every bad reply
answered with an explanation and no change."""
from __future__ import annotations

import re
import smtplib

import pytest

from service.rules import deadwood_count, parse_cards
from tests.api.helpers import stored_game

from .conftest import DOMAIN, act, deliver, flat, outbox_rows, reply, reply_address, start_game, text, view

ANN, BOB = "ann@example.org", "bob@example.org"
EMAILS = {0: ANN, 1: BOB}


def mailed_game(client, app, **rules):
    game = start_game(client, rules={"preset": "standard", **rules},
                      contact0={"email": ANN}, contact1={"email": BOB})
    deliver(app)
    return game


def latest(catcher, address):
    mails = catcher.to(address)
    return mails[-1] if mails else None


def hand_in(body: str) -> list[str]:
    section = body.split("Your hand (", 1)[1].split("Discard pile top:")[0]
    return [card for line in section.splitlines()[1:] if line.strip().startswith(("meld", "deadwood"))
            for card in line.split()[1:] if card != "-"]


def command_from(body: str) -> str:
    """A player who reads only the mail: Big Gin, gin or a knock when listed; take the discard
    (and discard in the same reply) when it lowers the deadwood; else draw from the stock and
    discard the suggested card."""
    listed = {line.split()[0] + (" gin" if line.startswith("big gin") else ""): line
              for line in (raw.strip() for raw in body.split("To play, reply")[1].splitlines()[1:]
                           if raw.startswith("  ")) if line}
    for verb in ("big gin", "gin"):
        if verb in listed:
            return verb
    if "knock" in listed:
        return "knock " + listed["knock"].split("one of ")[1].split()[0]
    hand, top = hand_in(body), re.search(r"Discard pile top: (\S+)", body).group(1)
    if "take" in listed and "draw" in listed:
        now = deadwood_count(parse_cards(hand))
        after, card = min((deadwood_count(parse_cards([c for c in hand if c != out] + [top])), out) for out in hand)
        if after < now:
            return f"take\n{'knock' if after <= 10 else 'discard'} {card}"
    if "pass" in listed:
        return "pass"
    if "draw" in listed:
        return "draw stock"
    return "discard " + re.search(r"best discard (\S+) leaves", body).group(1)


def test_a_whole_match_played_only_by_email_replies(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app, target=10)  # the shortest match the rules allow
    played = 0
    for _ in range(1000):
        mails = {seat: latest(mail_server.catcher, EMAILS[seat]) for seat in (0, 1)}
        if all("\nMatch over: " in "\n" + text(m) for m in mails.values()):
            break
        [seat] = [s for s, m in mails.items() if "\nYour turn, " in "\n" + text(m)]
        mail = mails[seat]
        command = command_from(text(mail))
        reply(listener, reply_address(mail), command + "\n\n-- \nsent from my desk", subject="Re: " + mail["Subject"],
              sender=EMAILS[seat], quoted=text(mail))
        played += len(command.splitlines())
        deliver(notify_app)
        answer = latest(mail_server.catcher, EMAILS[seat])
        assert text(answer).startswith(f"Played: {command.replace(chr(10), '; ')}"), \
            text(answer)
        assert answer["In-Reply-To"].endswith("@example.org>")  # threaded under the player's reply
    else:
        pytest.fail("the match did not end")
    result = view(nclient, game, 0)["result"]
    assert result is not None and result["reason"] == "target"
    from service.core.extensions import db
    from service.games.models import Event
    with notify_app.app_context():
        actions = [e.action for e in db.session.query(Event) if e.action]
    assert len(actions) == played  # every move came from a mail
    assert all(row.status == "sent" for row in outbox_rows(notify_app))


def state_of(app, game):
    stored = stored_game(app, game["id"])
    return stored.version, stored.state


def turn_mail(catcher, game, app):
    """(seat to move, its latest mail)."""
    seat = stored_game(app, game["id"]).to_move
    return seat, latest(catcher, EMAILS[seat])


def answer_to(catcher, address, before: int):
    mails = catcher.to(address)
    assert len(mails) == before + 1, [m["Subject"] for m in mails]
    return mails[-1], text(mails[-1])


def test_bad_replies_change_nothing_and_say_why(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    address, before = reply_address(mail), state_of(notify_app, game)
    count = len(mail_server.catcher.to(EMAILS[seat]))

    cases = [
        ("draw stock", "Not played: draw stock: draw is not allowed during the upcard offer"),  # illegal now
        ("hello, could we play tomorrow?", "could not read 'hello'"),  # garbage
        ("discard", "discard needs a card"),
        ("pass\nknock QX", "'knock QX': knock needs a card"),  # one bad line: nothing of it is played
    ]
    for body, explanation in cases:
        reply(listener, address, body, sender=EMAILS[seat])
        deliver(notify_app)
        answer, answer_text = answer_to(mail_server.catcher, EMAILS[seat], count)
        count += 1
        assert explanation in flat(answer_text) and "Nothing changed." in answer_text, answer_text
        assert "take            take the upcard" in answer_text  # what is legal now
        assert answer_text.startswith("Not played") and answer["Subject"] == mail["Subject"]
        assert state_of(notify_app, game) == before

    # An empty reply (the commands only in a subject that holds none): nothing to play.
    reply(listener, address, "", subject="Re: " + mail["Subject"], sender=EMAILS[seat])
    deliver(notify_app)
    assert "found no commands" in answer_to(mail_server.catcher, EMAILS[seat], count)[1]
    count += 1

    # The waiting seat may not move; its own reply address says so.
    other_mail = latest(mail_server.catcher, EMAILS[1 - seat])
    other_count = len(mail_server.catcher.to(EMAILS[1 - seat]))
    reply(listener, reply_address(other_mail), "pass", sender=EMAILS[1 - seat])
    deliver(notify_app)
    refused = answer_to(mail_server.catcher, EMAILS[1 - seat], other_count)[1]
    # The engine's "seat N" is named in the mail, and the phase said as a phase.
    mover = "Ann" if seat == 0 else "Bob"
    assert f"Not played: pass: it is {mover}'s turn, during the upcard offer" in flat(refused)
    assert "seat 0" not in refused and "seat 1" not in refused and state_of(notify_app, game) == before

    # A wrong secret from a player: answered in fixed words, nothing else happens.
    reply(listener, f"play+{'x' * 24}@{DOMAIN}", "pass", sender=EMAILS[seat])
    deliver(notify_app)
    bounce = answer_to(mail_server.catcher, EMAILS[seat], count)[1]
    count += 1
    assert "that reply address is not valid" in flat(bounce) and "Nothing changed." in bounce
    assert state_of(notify_app, game) == before

    # The same reply played once, then again (an old turn): the second changes nothing.
    reply(listener, address, "pass", sender=EMAILS[seat])
    deliver(notify_app)
    moved = state_of(notify_app, game)
    assert moved[0] == before[0] + 1
    assert answer_to(mail_server.catcher, EMAILS[seat], count)[1].startswith("Played: pass")
    count += 1
    reply(listener, address, "pass", sender=EMAILS[seat])
    deliver(notify_app)
    stale = answer_to(mail_server.catcher, EMAILS[seat], count)[1]
    assert "a move was made since the mail this reply answers was sent" in " ".join(stale.split())
    assert not re.search(r"version \d", stale)  # said in words, not version numbers
    assert state_of(notify_app, game) == moved


def test_answers_go_to_the_seat_address_and_duplicates_and_auto_replies_are_dropped(
        nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    count = len(mail_server.catcher.to(EMAILS[seat]))
    # Several commands in order, from the seat's address in another case and with a +tag:
    # played, answered to the seat's own address.
    local, domain = EMAILS[seat].split("@")
    reply(listener, reply_address(mail), "take\n" + "discard " + view(nclient, game, seat)["hand"][0],
          sender=f"{local.capitalize()}+cards@{domain.upper()}", message_id="<one@example.org>")
    deliver(notify_app)
    answer, answer_text = answer_to(mail_server.catcher, EMAILS[seat], count)
    assert answer_text.startswith("Played: take; discard")
    assert answer["In-Reply-To"] == "<one@example.org>" and "<one@example.org>" in answer["References"]
    assert "You took the upcard" in answer_text
    assert mail_server.catcher.to("someone@else.example") == []
    after = state_of(notify_app, game)
    assert after[1]["to_move"] == 1 - seat
    # The MTA delivers the same message again: nothing is played or answered twice.
    reply(listener, reply_address(mail), "take", sender=EMAILS[seat], message_id="<one@example.org>")
    # A vacation responder answers a mail: never answered, no loop.
    other = latest(mail_server.catcher, EMAILS[1 - seat])
    other_count = len(mail_server.catcher.to(EMAILS[1 - seat]))
    auto = other.get("Message-ID")
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = EMAILS[1 - seat], reply_address(other), "Out of office"
    message["Auto-Submitted"], message["In-Reply-To"] = "auto-replied", auto
    message.set_content("I am away until Monday.")
    with smtplib.SMTP("127.0.0.1", listener) as smtp:
        smtp.send_message(message)
    deliver(notify_app)
    assert len(mail_server.catcher.to(EMAILS[seat])) == count + 1
    assert len(mail_server.catcher.to(EMAILS[1 - seat])) == other_count
    assert state_of(notify_app, game) == after
    outcomes = [r.kind for r in outbox_rows(notify_app) if r.kind in ("answer", "unknown")]
    assert outcomes == ["answer"]


def test_the_listener_refuses_relaying_and_unknown_mailboxes(listener):
    with smtplib.SMTP("127.0.0.1", listener) as smtp:
        for address in ("someone@elsewhere.example", f"postmaster@{DOMAIN}"):
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                smtp.sendmail("ann@example.org", [address], b"Subject: hi\r\n\r\nhello\r\n")


def test_the_pipe_command_reads_one_message_from_standard_input(nclient, notify_app, mail_server):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    raw = (f"From: {EMAILS[seat]}\r\nTo: {reply_address(mail)}\r\nSubject: Re: your turn\r\n"
           "Message-ID: <pipe@example.org>\r\n\r\npass\r\n").encode()
    result = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=raw)
    assert result.exit_code == 0 and result.output.startswith("played: pass"), result.output
    assert stored_game(notify_app, game["id"]).to_move == 1 - seat
    again = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=raw)
    assert again.exit_code == 0 and again.output.startswith("duplicate"), again.output
    http = act(nclient, game, 1 - seat, {"type": "pass"})  # HTTP and mail moves share one game
    assert http.status_code == 200
    deliver(notify_app)
    # Commands in the subject, with an empty body, play too.
    mail = latest(mail_server.catcher, EMAILS[seat])
    raw = (f"From: {EMAILS[seat]}\r\nTo: {reply_address(mail)}\r\nSubject: Re: draw stock\r\n"
           "Message-ID: <subject@example.org>\r\n\r\n\r\n").encode()
    result = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=raw)
    assert result.output.startswith("played: draw stock"), result.output
    assert len(view(nclient, game, seat)["hand"]) == 11


def test_a_reply_whose_client_wrapped_the_attribution_line_plays(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    count = len(mail_server.catcher.to(EMAILS[seat]))
    quoted = "\n".join("> " + line for line in text(mail).splitlines())
    body = f"pass\n\nOn Mon, Jan 1, 2030 at 12:00 PM Gin Rummy <gin@{DOMAIN}>\nwrote:\n\n{quoted}"
    reply(listener, reply_address(mail), body, subject="Re: " + mail["Subject"], sender=EMAILS[seat])
    deliver(notify_app)
    answer, answer_text = answer_to(mail_server.catcher, EMAILS[seat], count)
    assert answer_text.startswith("Played: pass"), answer_text
    assert stored_game(notify_app, game["id"]).to_move == 1 - seat


def test_mail_to_a_wrong_secret_never_makes_us_mail_a_stranger_or_echo_the_mail(
        nclient, notify_app, mail_server, listener, clock):
    game = mailed_game(nclient, notify_app)
    before = state_of(notify_app, game)
    wrong = f"play+{'x' * 24}@{DOMAIN}"
    # A forged From naming an address no seat has on file: changes nothing, not answered, and not
    # even recorded (junk from strangers adds no rows).
    victim = "victim@elsewhere.example"
    reply(listener, wrong, "Buy cheap watches at http://spam.example", subject="Cheap watches!", sender=victim)
    deliver(notify_app)
    assert mail_server.catcher.to(victim) == []
    assert [r for r in outbox_rows(notify_app) if r.kind == "unknown"] == []
    assert state_of(notify_app, game) == before

    # A player (From in any case): answered, with none of the mail's own subject or text.
    count = len(mail_server.catcher.to(BOB))
    reply(listener, wrong, "Buy cheap watches at http://spam.example", subject="Cheap watches!",
          sender="Bob@Example.org")
    deliver(notify_app)
    answer, answer_text = answer_to(mail_server.catcher, BOB, count)
    assert answer["Subject"] == "[Gin] Your mail was not played: unknown reply address"
    assert "watches" not in answer.as_string().lower() and "x" * 24 not in answer.as_string()
    assert "that reply address is not valid" in flat(answer_text) and "Nothing changed." in answer_text
    assert state_of(notify_app, game) == before

    # At most UNKNOWN_ANSWERS_PER_HOUR answers an hour to one sender; only the answers are recorded.
    for _ in range(4):
        reply(listener, wrong, "pass", sender=BOB)
    deliver(notify_app)
    assert len(mail_server.catcher.to(BOB)) == count + 3
    clock.advance(hours=1, seconds=1)
    reply(listener, wrong, "pass", sender=BOB)
    deliver(notify_app)
    assert len(mail_server.catcher.to(BOB)) == count + 4
    from service.core.extensions import db
    from service.notify.models import InboundMail
    with notify_app.app_context():
        outcomes = [(m.sender, m.outcome) for m in db.session.query(InboundMail).order_by(InboundMail.id)]
    assert outcomes == [("bob@example.org", "unknown-address")] * 4
    assert state_of(notify_app, game) == before


def test_a_vacation_or_a_contact_change_leaves_the_reply_address_good(nclient, notify_app, mail_server, listener):
    from .conftest import auth
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    etag = nclient.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).headers["ETag"]
    # No move, but the view changes (the deadline moves): the version (ETag) moves on ...
    for who in (1 - seat, seat):
        taken = nclient.post(f"/games/{game['id']}/vacation", json={"days": 1}, headers=auth(game["tokens"][who]))
        assert taken.status_code == 200, taken.get_json()
    contact = nclient.patch(f"/games/{game['id']}/contact", json={"mail_mode": "turn"},
                            headers=auth(game["tokens"][1 - seat]))
    assert contact.status_code == 200
    assert nclient.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).headers["ETag"] != etag
    # ... and the reply to the turn mail from before still plays, both its commands.
    count = len(mail_server.catcher.to(EMAILS[seat]))
    card = view(nclient, game, seat)["hand"][0]
    reply(listener, reply_address(mail), f"take\ndiscard {card}", sender=EMAILS[seat])
    deliver(notify_app)
    answer, answer_text = answer_to(mail_server.catcher, EMAILS[seat], count)
    assert answer_text.startswith(f"Played: take; discard {card}"), answer_text
    assert stored_game(notify_app, game["id"]).to_move == 1 - seat
    # Once a move was made, that reply address is stale.
    reply(listener, reply_address(mail), "pass", sender=EMAILS[seat])
    deliver(notify_app)
    assert "a move was made since" in answer_to(mail_server.catcher, EMAILS[seat], count + 1)[1]


def test_a_reply_secret_from_before_event_seq_was_stored_is_judged_by_the_version(
        nclient, notify_app, mail_server, listener):
    from sqlalchemy import update

    from service.core.extensions import db
    from service.notify.models import MailToken

    from .conftest import auth
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    with notify_app.app_context():
        db.session.execute(update(MailToken).values(event_seq=None))
        db.session.commit()
    before = state_of(notify_app, game)
    nclient.post(f"/games/{game['id']}/vacation", json={"days": 1}, headers=auth(game["tokens"][1 - seat]))
    count = len(mail_server.catcher.to(EMAILS[seat]))
    reply(listener, reply_address(mail), "pass", sender=EMAILS[seat])
    deliver(notify_app)
    assert "a move was made since" in answer_to(mail_server.catcher, EMAILS[seat], count)[1]
    assert state_of(notify_app, game)[1] == before[1]


def test_a_reply_cut_short_by_a_crash_keeps_nothing_and_plays_whole_when_delivered_again(
        nclient, notify_app, mail_server, monkeypatch):
    from service.games import moves
    from service.notify.inbound import replies
    game = mailed_game(nclient, notify_app)
    seat, mail = turn_mail(mail_server.catcher, game, notify_app)
    card = view(nclient, game, seat)["hand"][0]
    raw = (f"From: {EMAILS[seat]}\r\nTo: {reply_address(mail)}\r\nSubject: Re: your turn\r\n"
           f"Message-ID: <crash@example.org>\r\n\r\ntake\r\ndiscard {card}\r\n").encode()
    before = stored_game(notify_app, game["id"]).version
    real_play, calls = moves.play, []

    def dies_before_the_second_command(*args, **kwargs):  # a crash: no test can pull the plug for real
        calls.append(args)
        if len(calls) == 2:
            raise SystemExit("the process dies between two commands")
        return real_play(*args, **kwargs)
    monkeypatch.setattr(moves, "play", dies_before_the_second_command)
    with notify_app.app_context(), pytest.raises(SystemExit):
        replies.receive(raw)
    assert stored_game(notify_app, game["id"]).version == before  # the take was not kept alone
    monkeypatch.setattr(moves, "play", real_play)
    with notify_app.app_context():
        outcome = replies.receive(raw)  # the mail server delivers it again: the reply is still good
    assert (outcome.status, outcome.detail) == ("played", f"take; discard {card}")
    assert stored_game(notify_app, game["id"]).to_move == 1 - seat
