"""A whole turn in one reply (issue 39), through the service's own SMTP listener: Ann answers
every turn of a match with one reply holding a whole plan, Bob with the commands of old (a draw
from the stock costs him two replies). Ann's answers say what she drew and what each rule
decided; Bob's mails show her moves and nothing of her plan; Ann's standing orders show in her
mails only."""
from __future__ import annotations

import random
import types

import pytest

from service.games import deals, seating

from .conftest import auth, deliver, flat, reply, reply_address, text
from .test_inbound import ANN, BOB, EMAILS, command_from, latest, mailed_game

PLAN = "draw stock, gin if possible, else knock if deadwood at most 10, else discard drawn unless it melds, else worst"
SECRET_WORDS = ("so you threw", "so you kept", "discard worst:", "gin if possible", "unless it melds",
                "standing orders")


def listed(body: str) -> set[str]:
    return {raw.strip().split()[0] for raw in body.split("To play, reply")[1].splitlines()[1:]
            if raw.startswith("  ") and raw.strip()}


def ann_reply(body: str) -> str:
    """One reply a turn: the plan from the stock; in the upcard offer (or the last-discard offer),
    a pass; anything else (a turn begun by the pile), the mail reader's commands."""
    options = listed(body)
    if "draw" in options:
        return PLAN
    if "pass" in options:
        return "pass"
    return command_from(body)


def test_a_match_by_mail_with_a_whole_turn_in_each_reply(nclient, notify_app, mail_server, listener, monkeypatch):
    # A seeded shuffle and first dealer: a match to 10 is sometimes one short hand, which would
    # leave Ann a single plan to send; these decks give her several (CI once met the short match).
    monkeypatch.setattr(deals, "_rng", random.Random(39))
    monkeypatch.setattr(seating, "secrets", types.SimpleNamespace(randbelow=lambda n: 0))
    game = mailed_game(nclient, notify_app, target=10)
    response = nclient.put(f"/games/{game['id']}/orders", json={"orders": "always go gin"},
                           headers=auth(game["tokens"][0]))
    assert response.status_code == 200, response.get_json()
    replies = {0: 0, 1: 0}
    turns = {0: 0, 1: 0}
    plans_played = 0
    for _ in range(600):
        mails = {seat: latest(mail_server.catcher, EMAILS[seat]) for seat in (0, 1)}
        if all("\nMatch over: " in "\n" + text(m) for m in mails.values()):
            break
        [seat] = [s for s, m in mails.items() if "\nYour turn, " in "\n" + text(m)]
        mail = mails[seat]
        body = text(mail)
        command = ann_reply(body) if seat == 0 else command_from(body)
        if seat == 0:
            assert "draw" in listed(body) or "pass" in listed(body) or "knock" in listed(body) \
                or "gin" in listed(body), body  # never asked for the discard after her own draw
        else:
            assert not any(words in body for words in SECRET_WORDS), body  # Bob sees her moves only
        reply(listener, reply_address(mail), command, subject="Re: " + mail["Subject"], sender=EMAILS[seat],
              quoted=body)
        replies[seat] += 1
        turns[seat] += "draw" in listed(body) or "pass" in listed(body)
        deliver(notify_app)
        answer = text(latest(mail_server.catcher, EMAILS[seat]))
        if command == PLAN:
            plans_played += 1
            assert answer.startswith("Played: draw stock, gin if possible"), answer
            assert "You drew " in answer and " from the stock" in answer, answer
            assert "Your standing orders: always go gin; until cancelled." in answer
    else:
        pytest.fail("the match did not end")
    assert plans_played >= 3, plans_played
    assert view_result(nclient, game)["reason"] == "target"
    # The plans' and the orders' moves are stored as moves: the match replays to its end
    replayed = nclient.get(f"/games/{game['id']}/replay", headers=auth(game["tokens"][1]))
    assert replayed.status_code == 200, replayed.get_json()
    # One reply a turn for Ann; Bob, drawing from the stock, needs more than one
    assert replies[0] <= turns[0] + 2, (replies, turns)  # (+ a knock or two begun from the pile)
    assert replies[1] > turns[1], (replies, turns)
    assert not any("standing orders" in text(m) for m in mail_server.catcher.to(BOB))
    assert any("standing orders" in text(m) for m in mail_server.catcher.to(ANN))


def view_result(client, game) -> dict:
    response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0]))
    return response.get_json()["result"]


def test_a_plan_by_mail_that_cannot_be_played_is_refused_whole(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    for _ in range(4):  # to the first draw from the stock
        mails = {seat: latest(mail_server.catcher, EMAILS[seat]) for seat in (0, 1)}
        [seat] = [s for s, m in mails.items() if "\nYour turn, " in "\n" + text(m)]
        if "draw" in listed(text(mails[seat])):
            break
        reply(listener, reply_address(mails[seat]), "pass", sender=EMAILS[seat])
        deliver(notify_app)
    mail = mails[seat]
    version = view_version(nclient, game, seat)
    reply(listener, reply_address(mail), "draw stock, discard drawn unless it melds", sender=EMAILS[seat])
    deliver(notify_app)
    answer = text(latest(mail_server.catcher, EMAILS[seat]))
    assert "else" in answer and "Played" not in answer.split("\n")[0], answer
    assert view_version(nclient, game, seat) == version  # nothing was played


def view_version(client, game, seat) -> int:
    return client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat])).get_json()["version"]


def test_orders_that_draw_for_a_seat_tell_it_why_in_its_own_mail(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    for _ in range(4):  # both pass the upcard, by mail: the first to play is to draw
        mails = {seat: latest(mail_server.catcher, EMAILS[seat]) for seat in (0, 1)}
        [seat] = [s for s, m in mails.items() if "\nYour turn, " in "\n" + text(m)]
        if "draw" in listed(text(mails[seat])):
            break
        reply(listener, reply_address(mails[seat]), "pass", sender=EMAILS[seat])
        deliver(notify_app)
    other_mails = len(mail_server.catcher.to(EMAILS[1 - seat]))
    response = nclient.put(f"/games/{game['id']}/orders", json={
        "orders": "take the pile's top if it melds, else draw stock"}, headers=auth(game["tokens"][seat]))
    assert response.status_code == 200 and len(response.get_json()["played"]) == 1, response.get_json()
    deliver(notify_app)
    body = flat(text(latest(mail_server.catcher, EMAILS[seat])))
    assert body.startswith("Your standing orders played: take the pile's top if it melds, else draw stock: "), body
    assert "Your turn, " in body and "discard CARD" in body  # asked for what the orders leave: the discard
    assert "Your standing orders: take the pile's top if it melds, else draw stock; until cancelled." in body
    assert len(mail_server.catcher.to(EMAILS[1 - seat])) == other_mails  # a draw tells the other seat nothing
    assert not any("standing orders" in text(m) for m in mail_server.catcher.to(EMAILS[1 - seat]))


def test_orders_set_by_a_reply(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    mail = latest(mail_server.catcher, ANN)
    before = len(mail_server.catcher.to(ANN))
    reply(listener, reply_address(mail), "orders: always go gin; knock if deadwood at most 3", sender=ANN)
    deliver(notify_app)
    assert len(mail_server.catcher.to(ANN)) > before
    answers = [flat(text(m)) for m in mail_server.catcher.to(ANN)[before:]]
    assert any(a.startswith("Played: orders: always go gin; knock if deadwood at most 3; until cancelled.")
               for a in answers), answers
    shown = nclient.get(f"/games/{game['id']}/orders", headers=auth(game["tokens"][0])).get_json()
    assert shown["orders"]["gin"] == "always" and shown["orders"]["knock"] == {"if_deadwood_at_most": 3}
    reply(listener, reply_address(latest(mail_server.catcher, ANN)), "orders: knock whenever", sender=ANN)
    deliver(notify_app)
    assert "could not read" in flat(text(latest(mail_server.catcher, ANN)))
