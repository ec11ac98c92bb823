"""A seat rematch reaches the other seat by mail too (issue 24): its confirmed address hears of the
offer, with a link that opens its seat of the finished game, where it accepts; a seat that wants
no mail gets none."""
from __future__ import annotations

import re

from .conftest import act, auth, deliver, start_game, text


def test_the_other_seat_is_mailed_the_offer_with_a_link_to_accept(nclient, notify_app, mail_server):
    game = start_game(nclient, contact0={"email": "ann@example.org"}, contact1={"email": "bob@example.org"})
    assert act(nclient, game, 1, {"type": "resign"}).status_code == 200
    deliver(notify_app)
    mail_server.catcher.clear()
    offered = nclient.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0]))
    assert offered.status_code == 201, offered.get_json()
    deliver(notify_app)
    [mail] = mail_server.catcher.to("bob@example.org")
    assert mail["Subject"] == f"[Gin {game['id'][:8]}] A game of Gin Rummy by mail"  # in the game's thread
    body = text(mail)
    assert body.startswith("Ann offers a rematch: the same rules and move time. Accept or decline?\n")  # a sentence
    link = re.search(r"Answer in your browser: (\S+)", body).group(1)
    assert link.startswith(f"http://gin.test/play/{game['id']}#link=")
    assert not mail_server.catcher.to("ann@example.org")  # the offering seat is not told of its own offer

    # The link opens Bob's seat of the finished game (a new token), which accepts the rematch.
    key = link.split("#link=")[1]
    opened = nclient.post(f"/games/{game['id']}/tokens", json={"link_key": key})
    assert opened.status_code == 201, opened.get_json()
    accepted = nclient.post(f"/games/{game['id']}/seat-rematch/accept", headers=auth(opened.get_json()["token"]))
    assert accepted.status_code == 201 and accepted.get_json()["game_id"] == offered.get_json()["game_id"]


def test_no_mail_to_a_seat_that_wants_none(nclient, notify_app, mail_server):
    game = start_game(nclient, contact0={"email": "ann@example.org"},
                      contact1={"email": "bob@example.org", "mail_mode": "off"})
    assert act(nclient, game, 0, {"type": "resign"}).status_code == 200
    deliver(notify_app)
    mail_server.catcher.clear()
    assert nclient.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0])).status_code == 201
    deliver(notify_app)
    assert not mail_server.catcher.to("bob@example.org")


def test_the_offering_seat_is_mailed_a_decline_with_its_reason(nclient, notify_app, mail_server):
    game = start_game(nclient, contact0={"email": "ann@example.org"}, contact1={"email": "bob@example.org"})
    assert act(nclient, game, 1, {"type": "resign"}).status_code == 200
    assert nclient.post(f"/games/{game['id']}/seat-rematch", headers=auth(game["tokens"][0])).status_code == 201
    deliver(notify_app)
    mail_server.catcher.clear()
    declined = nclient.post(f"/games/{game['id']}/seat-rematch/decline", json={"reason": "move-time"},
                            headers=auth(game["tokens"][1]))
    assert declined.status_code == 200, declined.get_json()
    deliver(notify_app)
    [mail] = mail_server.catcher.to("ann@example.org")
    assert mail["Subject"] == f"[Gin {game['id'][:8]}] A game of Gin Rummy by mail"
    body = text(mail)
    assert body.startswith("Bob declined the rematch (move time).\n"), body
    assert re.search(rf"Your game: http://gin\.test/play/{game['id']}#link=\S+", body), body
    assert not mail_server.catcher.to("bob@example.org")  # the declining seat is not told of its own answer
