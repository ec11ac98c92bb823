"""Start and join by mail (issue 13): an invitation from POST /games or from a mail to new@, joined
by a `join` reply, then played by mail only; the limits (per sender a day, stop, List-Unsubscribe).
Against the real SMTP listener and a real SMTP catcher on loopback."""
from __future__ import annotations

import re

from tests.api.helpers import stored_game

from .conftest import (DOMAIN, confirm_addresses, deliver, flat, one_click, outbox_rows, reply, reply_address,
                       start_game, text)
from .test_inbound import command_from
from .test_mail_reading import check_lines

ANN, BOB = "ann@example.org", "bob@example.org"


def seat_names(app, game_id) -> list:
    from service.core.extensions import db
    from service.games.models import Game
    with app.app_context():
        game = db.session.get(Game, game_id)
        return [seat.name for seat in game.seats]


def invitation_to(catcher, address):
    mails = [m for m in catcher.to(address) if "invites you to a game of Gin Rummy" in flat(text(m))]
    return mails[-1] if mails else None


def the_subject(game_id: str) -> str:
    """Every mail of a game has it, the invitation's too: no name in it (an inviter's is a stranger's
    words, a joiner's unknown until the join)."""
    return f"[Gin {game_id[:8]}] A game of Gin Rummy by mail"


def test_a_game_started_by_mail_and_joined_by_reply_is_played_by_mail_to_its_first_hands_end(
        nclient, notify_app, mail_server, listener):
    catcher = mail_server.catcher
    # Ann, who never used the service, mails new@ with her opponent and the rules.
    reply(listener, f"new@{DOMAIN}", f"{BOB}\nname Ann\nrules oklahoma target 150", subject="a game?",
          sender=f"Ann Smith <{ANN}>")
    deliver(notify_app)
    [ask] = catcher.to(ANN)
    assert ask["Subject"] == "[Gin] Confirm your new game" and catcher.to(BOB) == []
    assert BOB in flat(text(ask)) and "first to 150 points" in flat(text(ask))
    assert re.fullmatch(rf"start\+[A-Za-z0-9_-]{{43}}@{DOMAIN}", reply_address(ask))
    # Someone else replying confirm to it starts nothing.
    reply(listener, reply_address(ask), "confirm", sender="mallory@evil.test")
    deliver(notify_app)
    assert catcher.to(BOB) == []
    # Ann confirms: the game exists, Bob is invited, Ann is told.
    reply(listener, reply_address(ask), "confirm", sender=ANN)
    deliver(notify_app)
    invitation = invitation_to(catcher, BOB)
    body = flat(text(invitation))
    game_id = invitation["X-Gin-Game"]
    assert invitation["Subject"] == the_subject(game_id) and "Ann" not in invitation["Subject"]
    assert 'invites you to a game of Gin Rummy' in body and 'their own words, not checked by the service): "Ann"' in body
    assert "oklahoma Gin Rummy" in body
    assert "first to 150 points" in body and "join Bob" in body
    assert re.search(rf"http://gin\.test/join/{re.escape(game_id)}#invite=[A-Za-z0-9_-]{{32}}", body)
    assert re.fullmatch(rf"join\+[A-Za-z0-9_-]{{32}}@{DOMAIN}", reply_address(invitation))
    one_click(invitation)
    assert "the invitation went to bob@example.org" in flat(text(catcher.to(ANN)[-1]))
    check_lines(invitation)

    # Bob joins by reply, under the name he gives; both are mailed where the game stands.
    reply(listener, reply_address(invitation), "join Bobby", sender=BOB)
    deliver(notify_app)
    game = stored_game(notify_app, game_id)
    assert game.status == "active" and seat_names(notify_app, game_id)[1] == "Bobby"
    seen = {ANN: len(catcher.to(ANN)) - 1, BOB: len(catcher.to(BOB)) - 1}  # from the first game mail

    # Played to the first hand's end by replies only.
    for _ in range(200):
        if any(re.search(r"Hand 1 is (over|void)", text(m)) for a in (ANN, BOB) for m in catcher.to(a)):
            break
        seat = stored_game(notify_app, game_id).to_move
        address = (ANN, BOB)[seat]
        mail = catcher.to(address)[-1]
        reply(listener, reply_address(mail), command_from(text(mail)), subject="Re: " + mail["Subject"],
              sender=address, quoted=text(mail))
        deliver(notify_app)
    else:
        raise AssertionError("the first hand did not end")
    for address in (ANN, BOB):
        mails = catcher.to(address)[seen[address]:]
        assert {m["Subject"] for m in mails} == {the_subject(game_id)}  # one subject from the first to the last
        for mail in mails:
            check_lines(mail)
    assert stored_game(notify_app, game_id).state["sheet"]  # the hand was scored
    # A second join reply (or anyone else's) changes nothing.
    reply(listener, reply_address(invitation), "join", sender=BOB)
    deliver(notify_app)
    assert seat_names(notify_app, game_id)[1] == "Bobby"


def test_every_mail_of_a_whole_game_by_mail_has_one_subject_from_the_first(nclient, notify_app, mail_server, listener):
    """Issue 38: the first mails (Ann told her game is set up, Bob's invitation) are sent before Bob
    joined and named himself; they, every turn and answer, the hands' ends and the match's end all
    have one subject, so a client threading by subject keeps the whole game in one conversation."""
    catcher = mail_server.catcher
    reply(listener, f"new@{DOMAIN}", f"{BOB}\nname Ann\nrules target 10", sender=ANN)
    deliver(notify_app)
    reply(listener, reply_address(catcher.to(ANN)[-1]), "confirm", sender=ANN)
    deliver(notify_app)
    invitation = invitation_to(catcher, BOB)
    game_id = invitation["X-Gin-Game"]
    reply(listener, reply_address(invitation), "join Bobby", sender=BOB)
    deliver(notify_app)
    for _ in range(1000):
        game = stored_game(notify_app, game_id)
        if game.status == "finished":
            break
        address = (ANN, BOB)[game.to_move]
        mail = catcher.to(address)[-1]
        reply(listener, reply_address(mail), command_from(text(mail)), subject="Re: " + mail["Subject"],
              sender=address, quoted=text(mail))
        deliver(notify_app)
    else:
        raise AssertionError("the match did not end")
    for address in (ANN, BOB):
        mails = [m for m in catcher.to(address) if m["X-Gin-Game"] == game_id]
        firsts = {ANN: "Your game is set up", BOB: "invites you to a game of Gin Rummy"}
        assert firsts[address] in flat(text(mails[0])) and any("Match over" in text(m) for m in mails[-2:])
        assert {m["Subject"] for m in mails} == {the_subject(game_id)}, [m["Subject"] for m in mails]
        assert {m["References"].split()[0] for m in mails} == {f"<gin.{game_id}.{(ANN, BOB).index(address)}@{DOMAIN}>"}


def test_an_invitation_from_post_games_is_joined_by_reply(nclient, notify_app, mail_server, listener):
    confirm_addresses(notify_app, ANN)
    created = nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": BOB})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["game_id"]
    deliver(notify_app)
    invitation = invitation_to(mail_server.catcher, BOB)
    assert f"#invite={created.get_json()['invite_code']}" in text(invitation)  # the web link's code
    # Only the invited address joins: another sender changes nothing.
    reply(listener, reply_address(invitation), "join", sender="mallory@evil.test")
    deliver(notify_app)
    assert stored_game(notify_app, game_id).status == "waiting_for_opponent"
    reply(listener, reply_address(invitation), "join", sender=f"Bob Jones <{BOB}>")
    deliver(notify_app)
    game = stored_game(notify_app, game_id)
    assert game.status == "active" and seat_names(notify_app, game_id)[1] == "Bob Jones"
    first = mail_server.catcher.to(BOB)[-1]
    assert first["Subject"] == the_subject(game_id) and "Your hand" in text(first)
    contact = [r for r in outbox_rows(notify_app, recipient=BOB) if r.kind in ("turn", "start")]
    assert contact, "the joiner's address counts as confirmed by the join reply"


def test_invitation_limits_stop_and_unsubscribe(nclient, notify_app, mail_server, listener, configure):
    configure(INVITES_PER_SENDER_PER_DAY=2)
    confirm_addresses(notify_app, ANN)
    for number in range(2):
        made = nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": f"p{number}@example.org"})
        assert made.status_code == 201, made.get_json()
    over = nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": "p9@example.org"})
    assert over.status_code == 429 and over.get_json()["code"] == "too-many-invitations"
    # Per client too: another inviting address from the same client is over the day's count.
    other = nclient.post("/games", json={"name": "Cy", "invite_email": "p8@example.org"})
    assert other.status_code == 429 and other.get_json()["code"] == "too-many-invitations"
    bad = nclient.post("/games", json={"name": "Ann", "invite_email": "not an address"})
    assert bad.status_code == 422 and bad.get_json()["code"] == "validation-error"
    deliver(notify_app)
    assert mail_server.catcher.to("p9@example.org") == [] and mail_server.catcher.to("p8@example.org") == []
    assert len([r for r in outbox_rows(notify_app) if r.kind == "invitation"]) == 2  # refusals changed nothing

    # The List-Unsubscribe button (a mail whose Subject is `stop`) stops p0 for good.
    invitation = invitation_to(mail_server.catcher, "p0@example.org")
    reply(listener, reply_address(invitation), "", subject="stop", sender="p0@example.org")
    configure(INVITES_PER_SENDER_PER_DAY=10)
    again = nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": "P0@Example.org"})
    assert again.status_code == 422 and again.get_json()["code"] == "invitation-refused"
    # Nor by mail: a new@ request naming a stopped address is dropped.
    reply(listener, f"new@{DOMAIN}", "p0@example.org", sender=ANN)
    deliver(notify_app)
    assert [m for m in mail_server.catcher.to(ANN) if "Confirm your new game" in m["Subject"]] == []
    # A stopped sender's own mail to new@ is dropped too, and an address never invited gets nothing.
    reply(listener, f"new@{DOMAIN}", BOB, sender="p0@example.org")
    deliver(notify_app)
    assert len(mail_server.catcher.to("p0@example.org")) == 1 and mail_server.catcher.to(BOB) == []


def test_new_game_requests_per_sender_a_day(nclient, notify_app, mail_server, listener, configure):
    configure(INVITES_PER_SENDER_PER_DAY=2)
    for number in range(4):
        reply(listener, f"new@{DOMAIN}", f"p{number}@example.org", sender=ANN)
    reply(listener, f"new@{DOMAIN}", "hello, fancy a game?", sender="cy@example.org")  # not a request
    deliver(notify_app)
    assert len(mail_server.catcher.to(ANN)) == 2 and mail_server.catcher.to("cy@example.org") == []
    game = start_game(nclient)  # an ordinary game: unaffected
    assert game["id"]
