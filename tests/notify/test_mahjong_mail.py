"""Mahjong gin by email: a whole match played only by replies through the service's own SMTP
listener, with a take of three discards, a meld laid and an add-on to it; the turn mail (text and
HTML) shows the melds on the table; wrong words change nothing and say what would be understood.

The first deal is stacked (the shuffle is random, so the service is handed one deck first) so
that those moves happen at once; the hands after it are shuffled as usual."""
from __future__ import annotations

import re
import types

import pytest

from service.games import deals, seating
from service.rules import full_deck
from tests.api.helpers import secret_cards, stored_game

from .conftest import deliver, flat, reply, reply_address, start_game, text

ANN, BOB = "ann@example.org", "bob@example.org"
EMAILS = {0: ANN, 1: BOB}
# Bob deals (seat 1): Ann, the non-dealer, gets the even places of the first 20, Bob the odd ones.
ANN_HAND = "8C 8D 2H 4S 6S TD QC KH 3H 9S".split()
BOB_HAND = "AC 2C 4C 6C 7D 9D JD JH QS KS".split()
UPCARD, STOCK_TOP = "8H", ["3C", "5D", "8S"]
POINTS = {**{r: 5 for r in "23456789"}, **{r: 10 for r in "TJQK"}, "A": 15}


def stacked_deck() -> list[str]:
    deck = [card for pair in zip(ANN_HAND, BOB_HAND) for card in pair] + [UPCARD] + STOCK_TOP
    return deck + [str(c) for c in full_deck() if str(c) not in deck]


@pytest.fixture
def mahjong_game(nclient, notify_app, monkeypatch):
    real = deals.shuffled_deck
    decks = iter([stacked_deck()])
    monkeypatch.setattr(deals, "shuffled_deck", lambda: next(decks, None) or real())
    monkeypatch.setattr(seating, "secrets", types.SimpleNamespace(randbelow=lambda n: 1))  # Bob deals first
    game = start_game(nclient, rules={"preset": "mahjong_gin", "target": 10},
                      contact0={"email": ANN}, contact1={"email": BOB})
    deliver(notify_app)
    return game


def latest(catcher, seat):
    return catcher.to(EMAILS[seat])[-1]


def html(message) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def play(notify_app, catcher, listener, seat, command) -> str:
    """Reply to the seat's latest mail with `command`; the answer's text."""
    mail = latest(catcher, seat)
    reply(listener, reply_address(mail), command, subject="Re: " + mail["Subject"], sender=EMAILS[seat])
    deliver(notify_app)
    return text(latest(catcher, seat))


def listed(body: str) -> list[str]:
    """The commands the mail offers now, as written in it."""
    if "To play, reply" not in body:
        return []
    return [line.strip() for line in body.split("To play, reply")[1].splitlines()[1:] if line.startswith("  ")]


def command_from(body: str) -> str:
    """A player who reads only the mail: gin, else lay a meld, add on, take the most discards
    offered, else draw from the stock and throw the costliest deadwood card."""
    offers = listed(body)
    for line in offers:
        if line.startswith("gin "):
            return "gin"
    for line in offers:
        if line.startswith(("meld ", "add ")):
            return line
    takes = [int(m.group(1)) for line in offers if (m := re.match(r"take (\d+) ", line))]
    if takes:
        return f"take {max(takes)}"
    for word in ("pass", "draw stock"):
        if any(line.startswith(word) for line in offers):
            return word
    choices = next(line for line in offers if line.startswith("discard CARD")).split("one of ")[1].split()
    dead = re.search(r"^  deadwood  (.*)$", body, re.M).group(1).split()
    return "discard " + max(choices, key=lambda c: (c in dead, POINTS[c[0]]))


def test_a_whole_mahjong_match_by_mail_with_a_take_of_three_a_meld_and_an_add_on(
        nclient, notify_app, mail_server, listener, mahjong_game):
    catcher, game = mail_server.catcher, mahjong_game
    assert "Your turn, Ann" in text(latest(catcher, 0))
    for seat, command in ((0, "pass"), (1, "pass"), (0, "draw stock\ndiscard 3C"), (1, "draw stock\ndiscard 5D")):
        assert play(notify_app, catcher, listener, seat, command).startswith("Played: "), command

    ann = text(latest(catcher, 0))
    assert "take 3          take 8H 3C 5D (8H must go on the table)" in ann, ann
    answer = play(notify_app, catcher, listener, 0, "take 3")
    assert answer.startswith("Played: take 3") and "You took 8H 3C 5D from the discard pile." in answer
    assert "8H, the deepest card you took, must go on the table before you discard." in answer
    assert "meld 8C 8D 8H" in listed(answer) and not any(c.startswith("discard") for c in listed(answer))
    answer = play(notify_app, catcher, listener, 0, "meld 8C 8D 8H\ndiscard KH")
    assert answer.startswith("Played: meld 8C 8D 8H; discard KH"), answer
    assert "Melds on the table:\n  1. 8C 8D 8H  (you)" in answer

    bob = text(latest(catcher, 1))
    assert "You laid" not in bob and "Ann laid 8C 8D 8H on the table (meld 1)." in bob
    assert "Melds on the table:\n  1. 8C 8D 8H  (Ann)" in bob
    answer = play(notify_app, catcher, listener, 1, "draw stock")
    assert "add 8S to 1" in listed(answer)
    assert "add 8S to 1</a>" in html(latest(catcher, 1)) and "Melds on the table:" in html(latest(catcher, 1))
    # Wrong words: each answered with what would be understood, nothing changed.
    before = stored_game(notify_app, game["id"]).version
    for command, why in (("add 8S to 2", "there is no meld 2 on the table (it holds meld 1)"),
                         ("add 8S", "add needs a card and a meld number, like add 6H to 2"),
                         ("meld 8S 9S", "meld needs three or more cards, like meld 3H 4H 5H"),
                         ("add 9D to 1", "9D does not extend 8C 8D 8H")):
        answer = play(notify_app, catcher, listener, 1, command)
        assert answer.startswith("Not played") and why in flat(answer), (command, answer)
    assert stored_game(notify_app, game["id"]).version == before
    answer = play(notify_app, catcher, listener, 1, "add 8S to 1")
    assert answer.startswith("Played: add 8S to 1") and "1. 8C 8D 8H 8S  (Ann: 8C 8D 8H; you: 8S)" in answer
    # The HTML part draws the table's melds with their owners, and never Ann's hand.
    page = html(latest(catcher, 1))
    assert "(Ann: 8C 8D 8H; you: 8S)" in page

    for _ in range(600):
        mails = {seat: text(latest(catcher, seat)) for seat in (0, 1)}
        if all("\nMatch over: " in "\n" + m for m in mails.values()):
            break
        [seat] = [s for s, m in mails.items() if "\nYour turn, " in "\n" + m]
        state = stored_game(notify_app, game["id"]).state
        # No mail shows a card of the other hand or the stock in the hand in play (a finished hand's
        # record, which may come first, is public and may name cards dealt again since).
        in_play = mails[seat].split("Your hand (", 1)[1].split("To play")[0]
        for card in secret_cards(state, seat):
            assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", in_play), card
        command = command_from(mails[seat])
        answer = play(notify_app, catcher, listener, seat, command)
        assert answer.startswith(f"Played: {command}"), answer
    else:
        pytest.fail("the match did not end")
    final = stored_game(notify_app, game["id"]).state
    assert final["result"]["reason"] == "target"
    record = final["last_hand"]
    ended = text(latest(catcher, 0))
    assert record["result"] == "gin" and " for gin = " in ended, ended
    assert re.search(rf"^  you: table {record['table_points'][0]} less hand {record['hand_points'][0]} ", ended, re.M)
    # The sheet's running totals count both players' hand scores (the loser's may be non-zero).
    assert re.search(rf"^   1  \S+: gin +{record['points']} +{record['scores'][0]} +{record['scores'][1]}$", ended, re.M)
