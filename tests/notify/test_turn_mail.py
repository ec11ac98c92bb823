"""Turn mails through a real SMTP server: content, headers, threading, and never a hidden card."""
from __future__ import annotations

import re

from service.core.tokens import hash_secret
from tests.api.helpers import cards_in, choose, secret_cards, stored_game

from .conftest import (DOMAIN, act, auth, confirm_addresses, deliver, outbox_rows, reply_address, start_game, text,
                       view)

ANN, BOB = "ann@example.org", "bob@example.org"
EMAILS = {0: ANN, 1: BOB}


def both_mailed(client):
    return start_game(client, contact0={"email": ANN}, contact1={"email": BOB})


def test_turn_mail_shows_the_hand_pile_stock_scores_deadline_and_commands(nclient, notify_app, mail_server):
    game = both_mailed(nclient)
    deliver(notify_app)
    seat = view(nclient, game, 0)["to_move"]
    seen = view(nclient, game, seat)
    [mail] = mail_server.catcher.to(EMAILS[seat])
    body = text(mail)

    assert mail["Subject"] == f"[Gin {game['id'][:8]}] A game of Gin Rummy by mail"
    assert body.startswith(f"Your turn, {'Ann' if seat == 0 else 'Bob'}: hand 1, the upcard offer.")
    assert re.fullmatch(rf"<gin\.{re.escape(game['id'])}\.{seat}\.turn\.[0-9a-f]{{16}}@{DOMAIN}>", mail["Message-ID"])
    assert mail["In-Reply-To"] == mail["References"] == f"<gin.{game['id']}.{seat}@{DOMAIN}>"
    assert re.fullmatch(rf"play\+[A-Za-z0-9_-]{{24}}@{DOMAIN}", reply_address(mail))
    assert mail["X-Gin-Version"] == str(seen["version"]) and mail["Auto-Submitted"] == "auto-generated"
    assert mail["Date"] and mail.get_content_type() == "multipart/alternative"  # plain, then HTML
    assert [p.get_content_type() for p in mail.iter_parts()] == ["text/plain", "text/html"]

    arrangement = seen["arrangement"]
    for meld in arrangement["melds"]:
        assert f"meld      {' '.join(meld)}" in body
    assert f"deadwood  {' '.join(arrangement['deadwood']) or '-'}" in body
    assert f"({len(seen['hand'])} cards, deadwood {arrangement['deadwood_points']})" in body
    assert f"Discard pile top: {seen['discard_pile'][-1]}" in body
    assert f"Stock: {seen['stock_count']} cards" in body
    assert "Score: " in body and "(target 100)" in body
    assert "Deadline for your move: 2030-01-04 12:00 UTC (in 3 days 0 h)." in body
    assert f"take            take the upcard {seen['discard_pile'][-1]}" in body and "\n  pass\n" in body
    assert f"\nPlay in your browser: http://gin.test/play/{game['id']}#link=" in body  # never broken
    # The other seat heard that the game started, with no commands to reply with but resign.
    [other] = mail_server.catcher.to(EMAILS[1 - seat])
    assert other["Subject"] == mail["Subject"]  # one subject for both seats
    assert "\nWaiting for " in text(other) and "take " not in text(other)
    assert "To play, reply" not in text(other) and "Nothing to play until" in text(other)


def test_reply_secret_and_bearer_tokens_are_never_stored_or_mailed(nclient, notify_app, mail_server):
    game = both_mailed(nclient)
    deliver(notify_app)
    from service.core.extensions import db
    from service.notify.models import MailToken
    with notify_app.app_context():
        stored = [(t.token_hash, t.seat, t.version) for t in db.session.query(MailToken)]
    everything = "\n".join(m.as_string() for _, m in mail_server.catcher.messages)
    for _, mail in mail_server.catcher.messages:
        secret = reply_address(mail).split("+", 1)[1].split("@")[0]
        assert (hash_secret(secret), int(mail["X-Gin-Seat"]), int(mail["X-Gin-Version"])) in stored
        assert all(secret not in str(row) for row in stored)
    assert game["tokens"][0] not in everything and game["tokens"][1] not in everything


def test_a_whole_match_by_http_mails_turns_hands_and_result_without_leaking(nclient, notify_app, mail_server):
    game = start_game(nclient, rules={"preset": "standard", "target": 10},
                      contact0={"email": ANN}, contact1={"email": BOB})
    seen_mails = 0
    hand_ends, finals = {0: 0, 1: 0}, {0: None, 1: None}
    for _ in range(2000):
        deliver(notify_app)
        state = stored_game(notify_app, game["id"])
        for rcpts, mail in mail_server.catcher.messages[seen_mails:]:
            seat = int(mail["X-Gin-Seat"])
            body = text(mail)
            assert mail["References"] == f"<gin.{game['id']}.{seat}@{DOMAIN}>"  # one thread per seat
            assert int(mail["X-Gin-Version"]) == state.version  # composed at the version just made
            if state.state["phase"] != "match_over":
                # The state part comes from view(seat) alone: no stock card, no unknown opponent card.
                shown = cards_in(body[body.index("Your hand ("):].split())
                assert not shown & secret_cards(state.state, seat), body
            assert mail["Subject"] == f"[Gin {game['id'][:8]}] A game of Gin Rummy by mail"
            hand_over = body.startswith(("Hand over", "Match over"))
            for line in body.splitlines():
                if "drew from the stock" in line and not line.strip().startswith("You") and not hand_over:
                    # The opponent's stock card stays hidden until the hand is over and revealed.
                    assert line.strip().endswith("drew from the stock."), (mail["Subject"], line)
            if hand_over:
                hand_ends[seat] += 1
                assert re.search(r"\n  (you|Ann|Bob) \(knocker\): .*deadwood", body) or "void" in body
                assert "(defender)" in body or "void" in body
                assert "Score sheet:" in body
            if body.startswith("Match over"):
                finals[seat] = body
        seen_mails = len(mail_server.catcher.messages)
        if state.state["phase"] == "match_over":
            break
        seat = state.to_move
        response = act(nclient, game, seat, choose(view(nclient, game, seat)))
        assert response.status_code == 200, response.get_json()
    assert finals[0] and finals[1], "both seats get the end-of-match mail"
    result = view(nclient, game, 0)["result"]
    winner = "Ann" if result["winner"] == 0 else "Bob"
    assert finals[1 - result["winner"]].startswith(f"Match over: {winner} wins by {result['margin']}.")
    assert finals[result["winner"]].startswith(f"Match over: you win by {result['margin']}.")
    assert "game 1 closed, won by" in finals[0] and hand_ends[0] == hand_ends[1] >= 1
    assert all("The computer reviews every decision of the match" in final for final in finals.values())  # issue 41
    assert all(row.status == "sent" for row in outbox_rows(notify_app))


def test_contact_settings_validate_greet_and_show_the_secret_once(nclient, notify_app, mail_server, receiver):
    game = start_game(nclient)
    assert outbox_rows(notify_app) == []  # no contact given: nothing to send
    seat = view(nclient, game, 0)["to_move"]
    url = f"/games/{game['id']}/contact"
    for bad in ({"email": "not an address"}, {"webhook_url": "ftp://x.test/"}, {"mail_mode": "hourly"},
                {"email": ANN, "phone": "123"}):
        response = nclient.patch(url, json=bad, headers=auth(game["tokens"][seat]))
        assert response.status_code == 422 and response.get_json()["code"] == "validation-error", bad
    assert nclient.patch(url, json={"email": ANN}, headers=auth("wrong")).status_code == 401
    assert outbox_rows(notify_app) == []

    confirm_addresses(notify_app, ANN)  # its owner confirmed it in an earlier game
    response = nclient.patch(url, json={"email": ANN, "webhook_url": receiver.url},
                             headers=auth(game["tokens"][seat]))
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["email"] == ANN and answer["mail_mode"] == "turn"
    assert answer["webhook_secret"].startswith("whsec_")
    shown = nclient.get(url, headers=auth(game["tokens"][seat])).get_json()
    assert shown == {"email": ANN, "email_status": "confirmed", "mail_mode": "turn", "push_mode": "turn",
                     "webhook_url": receiver.url}
    # It is this seat's turn: the new address gets the turn mail now, the hook a turn.started.
    deliver(notify_app)
    [mail] = mail_server.catcher.to(ANN)
    assert text(mail).startswith("Your turn")
    [call] = receiver.delivered()
    assert '"type":"turn.started"' in call["body"]

    response = nclient.patch(url, json={"mail_mode": "off", "webhook_url": None}, headers=auth(game["tokens"][seat]))
    assert response.get_json() == {"email": ANN, "email_status": "confirmed", "mail_mode": "off",
                                   "push_mode": "turn", "webhook_url": None}
    assert act(nclient, game, seat, {"type": "pass"}).status_code == 200
    deliver(notify_app)
    assert len(mail_server.catcher.to(ANN)) == 1 and len(receiver.delivered()) == 1
