"""Reading replies: the player's own words, commands, and what they mean at the moment."""
from __future__ import annotations

import re

import pytest

from service.notify.inbound.commands import CommandError, parse_commands, resolve, strip_reply, subject_text
from service.notify.inbound.replies import parse, text_of
from service.notify.webhooks.signatures import sign, verify


def test_quoted_text_and_signatures_are_dropped():
    body = ("draw stock\r\ndiscard 7h\n\n-- \nAnn, sent with love\n"
            "On Mon, 1 Jan 2030 at 12:00, Gin Rummy <gin@play.test> wrote:\n> discard KD\n")
    assert strip_reply(body) == "draw stock\ndiscard 7h"
    assert strip_reply("take\n> pass\n>> resign\n") == "take"
    assert strip_reply("pass\n\nSent from my phone\nresign") == "pass"
    assert strip_reply("knock 9c\n-----Original Message-----\nFrom: Gin <gin@play.test>\nresign") == "knock 9c"
    assert strip_reply("> only quoted\n") == ""


QUOTED_TURN = "Your turn, Ann\n  pass            pass the upcard\nresign"


@pytest.mark.parametrize("header", [
    # Gmail and Apple Mail wrap a long attribution line; the wrap may fall inside the address.
    "On Mon, Jan 1, 2030 at 12:00 PM Gin Rummy <gin@play.test>\nwrote:",
    "On Mon, Jan 1, 2030 at 12:00 PM Gin Rummy <\ngin@play.test> wrote:",
    "On Mon, Jan 1, 2030 at 12:00 PM\nGin Rummy <gin@play.test>\nwrote:",
    "Le lun. 1 janv. 2030 à 12:00, Gin Rummy <gin@play.test> a\nécrit :",
    # Outlook: no '>' quoting, and its From line may carry only the name.
    "-----Original Message-----\nFrom: Gin Rummy\nSent: Monday, January 1, 2030 12:00 PM",
    "From: Gin Rummy\nSent: Monday, January 1, 2030 12:00 PM\nTo: Ann\nSubject: [Gin] Your turn",
    "________________________________\nFrom: Gin Rummy <gin@play.test>\nSent: Monday",
    "From: Gin Rummy <gin@play.test>\nDate: Monday, January 1, 2030",
])
def test_a_quote_header_wrapped_over_lines_ends_the_reply(header):
    body = f"take\ndiscard 7H\n\n{header}\n\n{QUOTED_TURN}\n"
    assert strip_reply(body) == "take\ndiscard 7H"
    assert [c.verb for c in parse_commands(strip_reply(body))] == ["take", "discard"]


def test_a_header_is_not_joined_across_a_blank_or_quoted_line():
    # "On ..." that is not followed by its "wrote:" is the player's own (unreadable) text.
    assert strip_reply("pass\nOn second thought\n\nwrote: me") == "pass\nOn second thought\n\nwrote: me"
    assert strip_reply("On my side\n> quoted\nwrote:") == "On my side\nwrote:"


def test_commands_in_order_with_separators_and_card_spellings():
    commands = parse_commands("Draw Stock\ndiscard 10d, knock TD; gin\nbig gin\ntake 7H\nclaim")
    assert [c.verb for c in commands] == ["draw_stock", "discard", "knock", "gin", "big_gin", "take", "claim"]
    assert str(commands[1].card) == "TD" and str(commands[2].card) == "TD" and str(commands[5].card) == "7H"


@pytest.mark.parametrize("text", ["hello there", "discard", "discard 1X", "knock 7H 8H", "draw twice",
                                  "take 7H 8H", "\n".join(["pass"] * 11)])
def test_garbage_is_refused_whole(text):
    with pytest.raises(CommandError):
        parse_commands(text)


def test_subject_without_reply_prefixes_and_tags():
    assert subject_text("Re: RE: Fwd: [Gin abc] draw stock") == "draw stock"


VIEW_UPCARD = {"phase": "upcard_offer", "discard_pile": ["9D"], "legal_actions": [{"type": "take_upcard"},
                                                                                 {"type": "pass"}]}
VIEW_DRAW = {"phase": "draw", "discard_pile": ["3C", "9D"], "legal_actions": []}
VIEW_GIN = {"phase": "discard", "discard_pile": ["9D"], "legal_actions": [],
            "arrangement": {"best_discard": "KD", "deadwood_after_discard": 0}}
VIEW_NO_GIN = {**VIEW_GIN, "arrangement": {"best_discard": "KD", "deadwood_after_discard": 4}}


def test_take_means_the_upcard_or_the_discard_pile_top():
    [take] = parse_commands("take")
    assert resolve(take, VIEW_UPCARD) == {"type": "take_upcard"}
    assert resolve(take, VIEW_DRAW) == {"type": "draw", "from": "discard"}
    [named] = parse_commands("take 3C")
    with pytest.raises(CommandError, match="top of the discard pile is 9D"):
        resolve(named, VIEW_DRAW)


def test_gin_picks_big_gin_or_the_discard_that_leaves_nothing():
    [gin] = parse_commands("gin")
    assert resolve(gin, VIEW_GIN) == {"type": "knock", "discard": "KD"}
    assert resolve(gin, {**VIEW_GIN, "legal_actions": [{"type": "big_gin"}]}) == {"type": "big_gin"}
    with pytest.raises(CommandError, match="leaves 4"):
        resolve(gin, VIEW_NO_GIN)
    [claim] = parse_commands("claim")
    assert resolve(claim, VIEW_DRAW) == {"type": "claim_timeout"}


def test_webhook_signature_matches_the_standard_webhooks_vector():
    # The example from the Standard Webhooks specification's reference libraries.
    secret, msg_id, stamp, body = ("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                   1614265330, '{"test": 2432232314}')
    signature = sign(secret, msg_id, stamp, body)
    assert signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    headers = {"webhook-id": msg_id, "webhook-timestamp": str(stamp), "webhook-signature": signature}
    assert verify(secret, headers, body, now=stamp + 10)
    assert not verify(secret, headers, body + " ", now=stamp + 10)  # body changed
    assert not verify(secret, headers, body, now=stamp + 3600)  # too old: a replay
    assert not verify("whsec_" + "A" * 32, headers, body, now=stamp)  # another secret


def test_html_only_and_multipart_replies_are_read_as_text():
    html = (b"From: ann@example.org\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
            b"<div>take<br>discard 7H</div><blockquote>Your turn, Ann<br>pass</blockquote>")
    assert parse_commands(strip_reply(text_of(parse(html))))[1].verb == "discard"
    assert "pass" not in strip_reply(text_of(parse(html)))
    multipart = (b"From: ann@example.org\r\nMIME-Version: 1.0\r\n"
                 b"Content-Type: multipart/alternative; boundary=b\r\n\r\n"
                 b"--b\r\nContent-Type: text/plain\r\n\r\nknock 9C\r\n"
                 b"--b\r\nContent-Type: text/html\r\n\r\n<p>resign</p>\r\n--b--\r\n")
    assert strip_reply(text_of(parse(multipart))) == "knock 9C"


# -- Mahjong gin's words: take several, lay a meld, add on ---------------------------------------

VIEW_MAHJONG_DRAW = {"phase": "draw", "discard_pile": ["8H", "3C", "5D"], "table": [], "legal_actions": []}
VIEW_MAHJONG_TABLE = {"phase": "discard", "discard_pile": ["KH"], "legal_actions": [],
                      "table": [{"cards": ["8C", "8D", "8H"], "owners": [0, 0, 0]},
                                {"cards": ["3H", "4H", "5H"], "owners": [1, 1, 1]}]}


def test_mahjong_words_parse_and_resolve():
    take, meld, add, add_meld, add_short = parse_commands(
        "take 3\nmeld 8c 8d 10h; add 6H to 2, add 6h to meld 2\nadd 6H 2")
    assert (take.verb, take.count) == ("take", 3)
    assert resolve(take, VIEW_MAHJONG_DRAW) == {"type": "draw", "from": "discard", "count": 3}
    assert resolve(meld, VIEW_MAHJONG_TABLE) == {"type": "meld", "cards": ["8C", "8D", "TH"]}
    for command in (add, add_meld, add_short):
        assert resolve(command, VIEW_MAHJONG_TABLE) == {"type": "add_on", "card": "6H", "meld": 1}
    # take 1 is the plain take of the top card; "take 2 cards" reads too.
    [one, two] = parse_commands("take 1\ntake 2 cards")
    assert resolve(one, VIEW_MAHJONG_DRAW) == {"type": "draw", "from": "discard"}
    assert resolve(two, VIEW_MAHJONG_DRAW)["count"] == 2


@pytest.mark.parametrize("text, says", [
    ("meld 8C 8D", "meld needs three or more cards, like meld 3H 4H 5H"),
    ("meld 8C 8C 8D", "meld needs three or more cards"),
    ("meld 8C 8D 8X", "meld needs three or more cards"),
    ("add 6H", "add needs a card and a meld number, like add 6H to 2"),
    ("add 6H to 0", "add needs a card and a meld number"),
    ("add 6H to two", "add needs a card and a meld number"),
    ("add 6X to 2", "add needs a card and a meld number"),
    ("take 3 please", "take a number of cards from the top of the pile, like take 3"),
    ("take 0", "take a number of cards"),
])
def test_mahjong_words_that_cannot_be_read_say_what_would_be(text, says):
    with pytest.raises(CommandError, match=re.escape(says)):
        parse_commands(text)


def test_mahjong_words_that_do_not_fit_the_moment():
    [add] = parse_commands("add 6H to 3")
    with pytest.raises(CommandError, match=re.escape("there is no meld 3 on the table (it holds melds 1 to 2)")):
        resolve(add, VIEW_MAHJONG_TABLE)
    with pytest.raises(CommandError, match="it holds no meld"):
        resolve(add, VIEW_MAHJONG_DRAW)
    [take] = parse_commands("take 4")
    with pytest.raises(CommandError, match="the discard pile holds 3 cards"):
        resolve(take, VIEW_MAHJONG_DRAW)
    with pytest.raises(CommandError, match="only Mahjong gin takes several discards"):
        resolve(take, VIEW_DRAW)


def test_gin_in_straight_gin_without_an_arrangement_hint_is_a_legal_knock():
    view = {**VIEW_MAHJONG_TABLE, "knock_limit": 0, "arrangement": {"melds": [], "deadwood": []},
            "legal_actions": [{"type": "discard", "card": "KH"}, {"type": "knock", "discard": "KH"}]}
    [gin] = parse_commands("gin")
    assert resolve(gin, view) == {"type": "knock", "discard": "KH"}


def test_the_mahjong_turn_mail_lists_its_moves_and_gin():
    from service.notify.mail.mail_pieces import legal_commands
    view = {**VIEW_MAHJONG_TABLE, "knock_limit": 0, "arrangement": {"melds": [], "deadwood": []},
            "legal_actions": [{"type": "knock", "discard": "KH"}, {"type": "meld", "cards": ["7C", "8C", "9C"]},
                              {"type": "add_on", "card": "6H", "meld": 1}]}
    lines = legal_commands(view)
    assert "meld 7C 8C 9C" in lines and "add 6H to 2" in lines
    assert "gin             (discard KH; every other card goes on the table)" in lines
    draw = {**VIEW_MAHJONG_DRAW, "legal_actions": [{"type": "draw", "from": "discard", "count": 3}]}
    assert legal_commands(draw) == ["take 3          take 8H 3C 5D (8H must go on the table)"]


def test_the_choice_of_002s_cut_by_mail():
    # Issue 25: after 002's cut the higher card's seat chooses who deals first; a reply may say so.
    from service.notify.mail.mail_pieces import legal_commands
    view = {"phase": "dealer_choice", "hand": [], "discard_pile": [],
            "legal_actions": [{"type": "choose_dealer", "deal": True}, {"type": "choose_dealer", "deal": False}]}
    listed = legal_commands(view)
    assert any(line.startswith("deal ") for line in listed) and any(line.startswith("you deal") for line in listed)
    for text, deal in (("deal", True), ("Deal first", True), ("you deal", False), ("no deal", False)):
        [command] = parse_commands(text)
        assert resolve(command, view) == {"type": "choose_dealer", "deal": deal}
