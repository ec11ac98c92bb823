"""Invitations by mail for every seat of a table: POST /games with `invite_emails` mails each
address the invite code of its own seat; each joins by replying `join`, the last one's join deals.
Against the service's real SMTP listener and a real SMTP catcher on loopback. The refusals
(a list of the wrong length, an address twice, a stopped or own address, the day's cap) make
nothing and mail nobody."""
from __future__ import annotations

import pytest

from tests.api.helpers import stored_game

from .conftest import auth, confirm_addresses, deliver, flat, outbox_rows, reply, reply_address, text
from .table_mail_helpers import EMAILS, expected_subject, scan_mail
from .test_invitations import invitation_to, seat_names

NAMES = {0: "Ann", 1: "Bob", 2: "Carl", 3: "Dan"}


def create_table(client, seats: int, invite_emails: list, **extra):
    return client.post("/games", json={"name": "Ann", "seats": seats, "email": EMAILS[0], "rules": {"target": 25},
                                       "invite_emails": invite_emails, **extra})


def code_in(invitation) -> str:
    body = text(invitation)
    return body.split("#invite=", 1)[1].split()[0]


@pytest.mark.parametrize("seats", [3, 4])
def test_every_seat_of_a_table_is_invited_by_mail_and_joins_by_reply(nclient, notify_app, mail_server, listener,
                                                                     seats):
    confirm_addresses(notify_app, EMAILS[0])
    created = create_table(nclient, seats, [EMAILS[s] for s in range(1, seats)])
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    game_id, codes = created["game_id"], {i["seat"]: i["invite_code"] for i in created["invites"]}
    deliver(notify_app)
    invitations = {seat: invitation_to(mail_server.catcher, EMAILS[seat]) for seat in range(1, seats)}
    for seat, invitation in invitations.items():
        # Each address gets its own seat's code (in the link and, hashed, behind the reply address).
        assert code_in(invitation) == codes[seat] and invitation["X-Gin-Seat"] == str(seat)
        assert len(mail_server.catcher.to(EMAILS[seat])) == 1
        body = flat(text(invitation))
        assert ("for three players" if seats == 3 else "for four players in two partnerships") in body
        if seats == 4:
            team = "1, 3" if seat % 2 else "0, 2"
            assert f"you take seat {seat}, in the team of seats {team}" in body
    assert len({reply_address(m) for m in invitations.values()}) == seats - 1

    # Someone else replying to an invitation takes nothing.
    reply(listener, reply_address(invitations[1]), "join", sender="mallory@evil.test")
    assert seat_names(notify_app, game_id)[1] is None
    # The invitees join by reply, the last seat first: each reply takes the seat its mail opens.
    for seat in reversed(range(1, seats)):
        assert stored_game(notify_app, game_id).status == "waiting_for_opponent"
        reply(listener, reply_address(invitations[seat]), f"join {NAMES[seat]}", sender=EMAILS[seat])
        assert seat_names(notify_app, game_id)[seat] == NAMES[seat]
    game = stored_game(notify_app, game_id)
    assert game.status == "active" and seat_names(notify_app, game_id) == [NAMES[s] for s in range(seats)]
    view = nclient.get(f"/games/{game_id}", headers=auth(created["token"])).get_json()
    assert [b for b in view["boards"] if b is not None and b["deal"] is not None], "the first hand is dealt"
    # Every invitee now plays by mail: a game mail of its own seat, reply address play+.
    deliver(notify_app)
    for seat in range(1, seats):
        latest = mail_server.catcher.to(EMAILS[seat])[-1]
        assert latest["Subject"] == expected_subject(game_id)
        assert reply_address(latest).startswith("play+") and latest["X-Gin-Seat"] == str(seat)
        scan_mail(latest, stored_game(notify_app, game_id).state, seat)
    joined = [r for r in outbox_rows(notify_app) if r.kind == "invitation"]
    assert sorted(r.seat for r in joined) == list(range(1, seats))
    # A second join reply changes nothing.
    reply(listener, reply_address(invitations[1]), "join Robert", sender=EMAILS[1])
    assert seat_names(notify_app, game_id)[1] == NAMES[1]


def test_a_seat_left_null_is_not_mailed_and_joins_by_its_code(nclient, notify_app, mail_server, listener):
    confirm_addresses(notify_app, EMAILS[0])
    created = create_table(nclient, 3, [None, EMAILS[2]]).get_json()
    deliver(notify_app)
    assert [r.seat for r in outbox_rows(notify_app) if r.kind == "invitation"] == [2]
    reply(listener, reply_address(invitation_to(mail_server.catcher, EMAILS[2])), "join", sender=EMAILS[2])
    assert stored_game(notify_app, created["game_id"]).status == "waiting_for_opponent"
    joined = nclient.post(f"/games/{created['game_id']}/join",
                          json={"invite_code": created["invites"][0]["invite_code"], "name": "Bob"})
    assert joined.status_code == 201 and joined.get_json()["seat"] == 1
    assert stored_game(notify_app, created["game_id"]).status == "active"


def games_count(app) -> int:
    from service.core.extensions import db
    from service.games.models import Game
    with app.app_context():
        return db.session.query(Game).count()


@pytest.mark.parametrize("emails, seats, code, status", [
    ([EMAILS[1]], 3, "validation-error", 422),  # one short
    ([EMAILS[1], EMAILS[2], EMAILS[3]], 3, "validation-error", 422),  # one too many
    ([EMAILS[1], "BOB@Example.org"], 3, "validation-error", 422),  # the same address twice
    ([EMAILS[1], "not an address"], 3, "validation-error", 422),
    ([EMAILS[1], EMAILS[0]], 3, "invitation-refused", 422),  # the inviter's own
    ([EMAILS[1], 7], 3, "validation-error", 422),
    ("bob@example.org", 3, "validation-error", 422),  # not a list
])
def test_bad_invite_lists_make_nothing(nclient, notify_app, mail_server, emails, seats, code, status):
    confirm_addresses(notify_app, EMAILS[0])
    answer = create_table(nclient, seats, emails)
    assert answer.status_code == status and answer.get_json()["code"] == code, answer.get_json()
    assert "Traceback" not in answer.get_data(as_text=True)
    deliver(notify_app)
    assert games_count(notify_app) == 0 and outbox_rows(notify_app) == [] and mail_server.catcher.messages == []


def test_both_invite_fields_at_once_are_refused(nclient, notify_app, mail_server):
    answer = create_table(nclient, 3, [EMAILS[1], EMAILS[2]], invite_email=EMAILS[3])
    assert answer.status_code == 422 and answer.get_json()["code"] == "validation-error"
    assert "invite_emails" in answer.get_json()["errors"]["json"]
    assert games_count(notify_app) == 0


def test_a_stopped_address_or_the_days_cap_refuses_the_whole_table(nclient, notify_app, mail_server, listener,
                                                                   configure):
    configure(INVITES_PER_SENDER_PER_DAY=4)
    confirm_addresses(notify_app, EMAILS[0])
    # Dan says stop to an invitation: no table may invite him, and nobody else of it is mailed.
    made = nclient.post("/games", json={"name": "Ann", "email": EMAILS[0], "invite_email": EMAILS[3]})
    assert made.status_code == 201
    deliver(notify_app)
    reply(listener, reply_address(invitation_to(mail_server.catcher, EMAILS[3])), "stop", sender=EMAILS[3])
    before, mails = games_count(notify_app), len(mail_server.catcher.messages)
    refused = create_table(nclient, 4, [EMAILS[1], EMAILS[2], "DAN@example.org"])
    assert refused.status_code == 422 and refused.get_json()["code"] == "invitation-refused"
    assert "dan@example.org" in refused.get_json()["detail"].lower()
    # One invitation sent today, the cap 4: a table of four asks three more (fits), then no more.
    over = create_table(nclient, 3, [EMAILS[1], EMAILS[2]])
    assert over.status_code == 201
    too_many = create_table(nclient, 3, ["eve@example.org", "fay@example.org"])
    assert too_many.status_code == 429 and too_many.get_json()["code"] == "too-many-invitations"
    deliver(notify_app)
    assert games_count(notify_app) == before + 1
    assert mail_server.catcher.to("eve@example.org") == [] and mail_server.catcher.to("fay@example.org") == []
    assert len(mail_server.catcher.messages) == mails + 2
    assert len([m for m in mail_server.catcher.to(EMAILS[3]) if "invites you to a game" in flat(text(m))]) == 1


def test_a_mail_to_new_naming_two_addresses_starts_a_table_of_three(nclient, notify_app, mail_server, listener):
    from .conftest import DOMAIN
    catcher = mail_server.catcher
    reply(listener, f"new@{DOMAIN}", f"{EMAILS[1]}\n{EMAILS[2]}\nname Ann\nrules target 25", sender=EMAILS[0])
    # Not a table: five players, an address twice, Mahjong gin at three: nobody is asked anything.
    for body in ("\n".join(EMAILS[s] for s in (1, 2, 3)) + "\neve@example.org", f"{EMAILS[1]}\n{EMAILS[1].upper()}",
                 f"{EMAILS[1]}\n{EMAILS[2]}\nrules mahjong_gin"):
        reply(listener, f"new@{DOMAIN}", body, sender="zed@example.org")
    deliver(notify_app)
    assert catcher.to("zed@example.org") == []
    [ask] = catcher.to(EMAILS[0])
    assert f"a game against {EMAILS[1]}, {EMAILS[2]}" in flat(text(ask))
    reply(listener, reply_address(ask), "confirm", sender=EMAILS[0])
    deliver(notify_app)
    invitations = {seat: invitation_to(catcher, EMAILS[seat]) for seat in (1, 2)}
    game_id = invitations[1]["X-Gin-Game"]
    assert invitations[2]["X-Gin-Game"] == game_id and invitations[2]["X-Gin-Seat"] == "2"
    assert "for three players" in flat(text(invitations[2]))
    assert f"the invitation went to {EMAILS[1]}, {EMAILS[2]}" in flat(text(catcher.to(EMAILS[0])[-1]))
    for seat in (2, 1):
        reply(listener, reply_address(invitations[seat]), f"join {NAMES[seat]}", sender=EMAILS[seat])
    assert seat_names(notify_app, game_id) == ["Ann", "Bob", "Carl"]
    game = stored_game(notify_app, game_id)
    assert game.status == "active" and game.rules["target"] == 25 and len(game.state["board_hands"]) >= 1
