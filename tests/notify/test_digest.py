"""The daily digest: one mail a day per address over all its digest games, with List-Unsubscribe."""
from __future__ import annotations

import re

from .conftest import DOMAIN, act, deliver, flat, one_click, start_game, text, view

ANN, BOB = "ann@example.org", "bob@example.org"


def test_one_digest_a_day_over_all_games_then_unsubscribe(nclient, notify_app, mail_server, clock):
    games = [start_game(nclient, contact0={"email": ANN, "mail_mode": "digest"}, contact1={"email": BOB})
             for _ in range(2)]
    for game in games:  # Bob moves if it is his turn, so each game has some history
        if view(nclient, game, 1)["to_move"] == 1:
            assert act(nclient, game, 1, {"type": "pass"}).status_code == 200
    deliver(notify_app)
    assert mail_server.catcher.to(ANN) == []  # no per-turn mail in digest mode
    clock.advance(hours=23)
    deliver(notify_app)
    assert mail_server.catcher.to(ANN) == []
    clock.advance(hours=1, minutes=1)
    deliver(notify_app, workers=2)
    [digest] = mail_server.catcher.to(ANN)
    body = text(digest)
    assert digest["Subject"].startswith("[Gin] Your daily digest: 2 of 2 game(s) wait for you")
    _, unsubscribe = one_click(digest)
    for game in games:
        seen = view(nclient, game, 0)
        assert f"[Gin {game['id'][:8]}] Ann v Bob" in body
        assert f"Play in your browser: http://gin.test/play/{game['id']}#link=" in flat(body)
    addresses = re.findall(rf"Replies go to (play\+\S+@{DOMAIN});", body)
    assert len(set(addresses)) == 2  # one reply address per game
    assert f"send a mail to {unsubscribe}" in flat(body)

    # A reply to one game's address in the digest plays in that game.
    clock.advance(hours=1)
    raw = (f"From: {ANN}\r\nTo: {addresses[0]}\r\nSubject: Re: digest\r\nMessage-ID: <d1@example.org>\r\n"
           "\r\npass\r\n").encode()
    result = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=raw)
    assert result.output.startswith("played: pass"), result.output

    deliver(notify_app)  # the answer to that reply, but no second digest the same day
    assert [m["Subject"] for m in mail_server.catcher.to(ANN)][1:] and \
        all("digest" not in m["Subject"] for m in mail_server.catcher.to(ANN)[1:])

    # Unsubscribing by mail (the List-Unsubscribe address) stops the digest.
    raw = (f"From: {ANN}\r\nTo: {unsubscribe}\r\nSubject: unsubscribe\r\nMessage-ID: <u1@example.org>\r\n"
           "\r\n\r\n").encode()
    result = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=raw)
    assert result.output.startswith("unsubscribed"), result.output
    count = len(mail_server.catcher.to(ANN))
    clock.advance(days=2)
    deliver(notify_app)
    assert len(mail_server.catcher.to(ANN)) == count
    shown = nclient.get(f"/games/{games[0]['id']}/contact",
                        headers={"Authorization": f"Bearer {games[0]['tokens'][0]}"}).get_json()
    assert shown["mail_mode"] == "off"
