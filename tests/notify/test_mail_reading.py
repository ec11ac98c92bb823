"""Mail that reads well everywhere (issue 13): every kind of mail the service sends, rendered
through the real worker into a real SMTP catcher, keeps its lines within 78 characters (a link
ending a line the only exception), one subject per game and seat, names instead of seat
numbers, no card its reader may not know, and an HTML alternative with no remote content."""
from __future__ import annotations

import re

from tests.api.helpers import cards_in, choose, secret_cards, stored_game

from .conftest import (DOMAIN, START, act, auth, confirm_addresses, deliver, reply, reply_address, start_game,
                       text, view)

ANN, BOB, CY = "ann@example.org", "bob@example.org", "cy@example.org"
EMAILS = {0: ANN, 1: BOB}
ENDS_IN_LINK = re.compile(r"https?://\S+$")
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS])\b")


def check_lines(mail) -> None:
    body = text(mail)
    for line in body.splitlines():
        assert len(line) <= 78 or ENDS_IN_LINK.search(line), (mail["Subject"], line)
    assert not re.search(r"\bseat [01]\b", body), body  # names, never seat numbers
    html = [p for p in mail.walk() if p.get_content_type() == "text/html"]
    for part in html:
        markup = part.get_content()
        assert not re.search(r"<img|src=|<script|<style|<link|url\(", markup, re.I), markup
        # No remote content: the only addresses are the service's own pages (BASE_URL) and mailto.
        assert all(url.startswith("http://gin.test/") for url in re.findall(r"https?://[^\s\"<]+", markup))


def hidden_cards_shown(mail, state: dict) -> set[str]:
    """Cards the mail's reader may not know that the mail shows. A mail about a hand's end shows
    that hand's cards (public then): only its part about the hand now dealt is looked at."""
    body = text(mail)
    if re.search(r"Hand \d+ is (over|void)", body):
        body = body[body.index("Your hand ("):] if "Your hand (" in body else ""
    html = "".join(p.get_content() for p in mail.walk() if p.get_content_type() == "text/html")
    html_cards = {f"{rank.replace('10', 'T')}{suit}" for rank, suit in
                  re.findall(r">(10|[2-9JQKA])(\u2663|\u2660|\u2665|\u2666)<", html)}
    symbols = {"\u2663": "C", "\u2660": "S", "\u2665": "H", "\u2666": "D"}
    html_cards = {card[:-1] + symbols[card[-1]] for card in html_cards}
    # Whole words only: a reply address or a link key may hold "7H" among its random characters.
    words = {word.strip(".,;:()[]`") for word in body.split()}
    return ({w for w in words if CARD.fullmatch(w)} | html_cards) & secret_cards(state, int(mail["X-Gin-Seat"]))


class Mailbox:
    """Every mail the catcher got, each looked at once, right after the change that wrote it."""

    def __init__(self, catcher, app):
        self.catcher, self.app, self.seen, self.kinds = catcher, app, 0, {}

    def collect(self, kind: str, game=None) -> list:
        deliver(self.app)
        new = [m for _, m in self.catcher.messages[self.seen:]]
        self.seen = len(self.catcher.messages)
        state = stored_game(self.app, game["id"]).state if game else None
        for mail in new:
            check_lines(mail)
            if state and mail["X-Gin-Seat"] and mail["X-Gin-Game"] == game["id"] and state["phase"] != "match_over":
                assert not hidden_cards_shown(mail, state), (kind, text(mail))
        self.kinds.setdefault(kind, []).extend(new)
        return new


def test_every_kind_of_mail_reads_well(nclient, notify_app, mail_server, listener, clock):
    box = Mailbox(mail_server.catcher, notify_app)
    confirm_addresses(notify_app, BOB)
    # Invitation and confirmation: Ann gives a new address and invites Cy.
    created = nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": CY, "move_time_hours": 8})
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    game = {"id": created["game_id"], "tokens": {0: created["token"]}}
    assert {m["To"] for m in box.collect("invitation+confirmation")} == {ANN, CY}
    reply(listener, reply_address(mail_server.catcher.to(ANN)[0]), "confirm", sender=ANN)
    joined = nclient.post(f"/games/{game['id']}/join", json={"invite_code": created["invite_code"], "name": "Bob",
                                                             "email": BOB}).get_json()
    game["tokens"][1] = joined["token"]
    box.collect("turn+waiting", game)
    seat = view(nclient, game, 0)["to_move"]
    mover, waiter = EMAILS[seat], EMAILS[1 - seat]
    turn_mail = mail_server.catcher.to(mover)[-1]
    waiting_mail = mail_server.catcher.to(waiter)[-1]
    assert "Nothing to play until" in text(waiting_mail) and "To play, reply" not in text(waiting_mail)
    # error, answer, stale, wrong sender
    own = view(nclient, game, seat)["hand"][0]  # a card of the reader's own: echoed, and known
    reply(listener, reply_address(turn_mail), f"discard {own}", sender=mover)
    box.collect("error", game)
    reply(listener, reply_address(turn_mail), "pass", sender=waiter)
    box.collect("wrong-sender", game)
    reply(listener, reply_address(turn_mail), "pass", sender=mover)
    box.collect("answer", game)
    reply(listener, reply_address(turn_mail), "pass", sender=mover)
    box.collect("stale", game)
    # reminder, deadline passed, claim by mail, match over
    late = view(nclient, game, 0)["to_move"]
    clock.now = START.replace(hour=19)
    box.collect("reminder", game)
    clock.now = START.replace(hour=23)
    box.collect("expired", game)
    notice = mail_server.catcher.to(EMAILS[1 - late])[-1]
    assert "time is up" in text(notice).split("\n")[0]
    reply(listener, reply_address(notice), "claim", sender=EMAILS[1 - late])
    final = box.collect("claim+match over", game)
    assert {text(m).split("\n")[0] for m in final if m["To"] == EMAILS[late]} == {"Match over: Ann wins by 0 (on time)."
                                                                                   if late == 1 else
                                                                                   "Match over: Bob wins by 0 (on time)."} or final
    # Unknown reply address (to a known player), hand over and a whole match by the API, a digest.
    reply(listener, f"play+{'q' * 24}@{DOMAIN}", "pass", sender=BOB)
    box.collect("unknown address")
    other = start_game(nclient, rules={"preset": "standard", "target": 100},
                       contact0={"email": ANN, "mail_mode": "digest"}, contact1={"email": BOB})
    box.collect("start", other)
    clock.advance(days=1, hours=1)
    box.collect("digest", other)
    for _ in range(2000):
        state = stored_game(notify_app, other["id"]).state
        if state["phase"] == "match_over":
            break
        mover = stored_game(notify_app, other["id"]).to_move
        assert act(nclient, other, mover, choose(view(nclient, other, mover))).status_code == 200
        box.collect("play", other)

    mails = [m for kind in box.kinds.values() for m in kind]
    kinds = {re.search(r"<gin\.(?:[^.]+\.\d\.)?([a-z_-]+)\.[0-9a-f]{16}@", m["Message-ID"]).group(1) for m in mails}
    for expected in ("turn", "start", "answer", "wrong-sender", "reminder", "expired", "hand_end", "match_end",
                     "invitation", "confirm", "unknown", "digest"):
        assert expected in kinds, (expected, kinds)
    # One subject per game, whatever the mail is about, the invitation's too (issue 38: no names,
    # which arrive as the seats fill; what the mail is about is its first line).
    for mail in mails:
        if mail["X-Gin-Game"]:
            assert mail["Subject"] == f"[Gin {mail['X-Gin-Game'][:8]}] A game of Gin Rummy by mail", mail["Subject"]
    # The words the issue asked for.
    error = [text(m) for m in box.kinds["error"]][0]
    assert f"Not played: discard {own}: discard is not allowed during the upcard offer" in " ".join(error.split())
    answers = " ".join(text(m) for m in box.kinds["answer"])
    assert "You passed." in answers
    for mail in box.kinds["play"]:
        body = text(mail)
        if "Your turn" in body and "(e.g." in body and ", discard phase" not in body.split("\n")[0]:
            continue
        assert "`take` then `discard" not in body


def test_the_html_part_shows_the_hand_in_colour_with_mailto_buttons(nclient, notify_app, mail_server):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(notify_app)
    seat = view(nclient, game, 0)["to_move"]
    mail = mail_server.catcher.to(EMAILS[seat])[-1]
    plain, html = [p.get_content() for p in mail.iter_parts()]
    assert plain.replace("\r\n", "\n") == text(mail)
    hand = view(nclient, game, seat)["hand"]
    shown = re.findall(r"color:(#c00|#111)\">(10|[2-9JQKA])(.)</span>", html)
    red = {"\u2665", "\u2666"}
    assert len(shown) >= len(hand) and all((color == "#c00") == (suit in red) for color, _, suit in shown)
    buttons = re.findall(r'href="mailto:([^?"]+)\?subject=[^&"]+&amp;body=([^"]+)"', html)
    assert {body for _, body in buttons} == {"take", "pass"} and {a for a, _ in buttons} == {reply_address(mail)}
    assert "Open your seat in the browser" in html
    nclient.application.config["MAIL_HTML"] = False
    try:
        act(nclient, game, seat, {"type": "pass"})
        deliver(notify_app)
        assert mail_server.catcher.to(EMAILS[1 - seat])[-1].get_content_type() == "text/plain"
    finally:
        nclient.application.config["MAIL_HTML"] = True
    assert auth


def test_wrapping_never_splits_a_card_list_a_command_or_a_link():
    from service.notify.mail.layout import wrap_text
    cards = " ".join(f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA")
    wrapped = wrap_text(f"  discard CARD    one of {cards}")
    lines = wrapped.splitlines()
    assert all(len(line) <= 78 for line in lines) and len(lines) > 1
    assert all(line.startswith(" " * 18) for line in lines[1:])  # under the column they continue
    assert wrapped.split() == f"discard CARD one of {cards}".split()  # every card whole, in order
    prose = wrap_text("word " * 20 + "(e.g. `draw stock`, then on the next line `discard 7H`):")
    assert "`draw stock`," in prose and "`discard 7H`):" in prose and "\n " not in prose
    link = "http://gin.test/play/" + "x" * 90
    assert wrap_text(f"Play in your browser: {link}") == f"Play in your browser: {link}"


def test_engine_refusals_read_in_names_and_phases():
    from datetime import datetime

    from service.notify.mail.mail_text import refusal
    from service.notify.mail.scene import Scene
    scene = Scene("g", 1, 0, {0: "Ann", 1: "Bob"}, {}, datetime(2030, 1, 1))
    assert refusal("it is seat 1's turn, in the upcard offer", scene) == "it is Bob's turn, during the upcard offer"
    assert refusal("it is seat 0's turn, in the draw", scene) == "it is your turn, while drawing"
    assert refusal("KS is not in your hand (in the discard)", scene) == "KS is not in your hand (while discarding)"
    assert refusal("5H stays in the discard pile", scene) == "5H stays in the discard pile"
