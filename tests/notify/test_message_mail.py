"""Messages by mail (issue 26), through the service's own SMTP listener and a real SMTP catcher: a
reply line `say <text>` writes a message (commas and all) that the other seat's next turn mail tells
as "Ann wrote: ...", once; a message written on the page reaches the next mail too; a reply holding
only a message plays no move and keeps its secret; a bad message is answered and stores nothing."""
from __future__ import annotations

from .conftest import auth, deliver, flat, reply, reply_address, start_game, text
from .test_inbound import ANN, BOB, EMAILS, latest


def mailed_game(client, app):
    game = start_game(client, rules={"preset": "standard"}, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(app)
    return game


def to_move(client, game) -> int:
    return client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["to_move"]


def messages_of(client, game, seat: int) -> list[str]:
    answer = client.get(f"/games/{game['id']}/messages", headers=auth(game["tokens"][seat]))
    return [m["text"] for m in answer.get_json()["messages"]]


def test_a_say_line_in_a_reply_reaches_the_other_seats_next_mail(nclient, notify_app, mail_server, listener):
    game = mailed_game(nclient, notify_app)
    seat = to_move(nclient, game)  # the upcard's offer: pass is always legal
    mail = latest(mail_server.catcher, EMAILS[seat])
    reply(listener, reply_address(mail), "say Good luck, and have fun!\npass", sender=EMAILS[seat],
          subject="Re: " + mail["Subject"], quoted=text(mail))
    deliver(notify_app)
    name = ("Ann", "Bob")[seat]
    assert messages_of(nclient, game, 1 - seat) == ["Good luck, and have fun!"]
    answer = latest(mail_server.catcher, EMAILS[seat])
    assert text(answer).startswith("Played: say Good luck, and have fun!; pass.")  # the move's answer
    told = latest(mail_server.catcher, EMAILS[1 - seat])
    assert f"\n{name} wrote: Good luck, and have fun!\n" in "\n" + text(told)
    assert "wrote:" not in text(answer).split("On Mon")[0]  # one's own message is not told back
    # The other seat writes on the page; its message is in the next mail to this seat, once.
    other = 1 - seat
    assert nclient.post(f"/games/{game['id']}/messages", json={"text": "<b>thanks</b>"},
                        headers=auth(game["tokens"][other])).status_code == 201
    mail = latest(mail_server.catcher, EMAILS[other])
    reply(listener, reply_address(mail), "pass", sender=EMAILS[other], subject="Re: " + mail["Subject"])
    deliver(notify_app)
    told_back = latest(mail_server.catcher, EMAILS[seat])
    assert f"\n{('Ann', 'Bob')[other]} wrote: <b>thanks</b>\n" in "\n" + text(told_back)
    html = told_back.get_body(preferencelist=("html",))  # MAIL_HTML (on): the same words, escaped
    assert "wrote: &lt;b&gt;thanks&lt;/b&gt;" in html.get_content() and "<b>thanks" not in html.get_content()
    assert "Good luck" not in text(told_back)
    mail = latest(mail_server.catcher, EMAILS[seat])  # seat draws now: no message is told again
    reply(listener, reply_address(mail), "draw stock", sender=EMAILS[seat], subject="Re: " + mail["Subject"])
    deliver(notify_app)
    assert "wrote: <b>thanks</b>" not in text(latest(mail_server.catcher, EMAILS[seat]))


def test_a_reply_of_only_a_message_plays_nothing_and_a_bad_one_stores_nothing(nclient, notify_app, mail_server,
                                                                               listener):
    game = mailed_game(nclient, notify_app)
    seat = to_move(nclient, game)
    mail = latest(mail_server.catcher, EMAILS[seat])
    version = nclient.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["version"]
    reply(listener, reply_address(mail), "say just saying hi", sender=EMAILS[seat], subject="Re: " + mail["Subject"])
    deliver(notify_app)
    assert messages_of(nclient, game, 1 - seat) == ["just saying hi"]
    assert nclient.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["version"] == version
    reply(listener, reply_address(mail), "say " + "x" * 501, sender=EMAILS[seat], subject="Re: " + mail["Subject"])
    deliver(notify_app)
    assert messages_of(nclient, game, 1 - seat) == ["just saying hi"]
    assert "at most 500 are taken" in flat(text(latest(mail_server.catcher, EMAILS[seat])))
    # The secret still plays: no move was made since the mail.
    reply(listener, reply_address(mail), "pass", sender=EMAILS[seat], subject="Re: " + mail["Subject"])
    deliver(notify_app)
    assert nclient.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["version"] == version + 1


def test_at_a_table_a_message_reaches_the_other_seats_next_mails(nclient, notify_app, mail_server):
    from .table_mail_helpers import EMAILS as TABLE_EMAILS
    from .table_mail_helpers import NAMES, start_mailed_table
    table = start_mailed_table(nclient, 3)
    deliver(notify_app)
    views = {seat: nclient.get(f"/games/{table['id']}", headers=auth(token)).get_json()
             for seat, token in table["tokens"].items()}
    mover = next(s for s, v in views.items() if v["my_board"] and v["my_board"]["view"]["legal_actions"])
    before = {s: len(mail_server.catcher.to(TABLE_EMAILS[s])) for s in range(3)}
    assert nclient.post(f"/games/{table['id']}/messages", json={"text": "hello table"},
                        headers=auth(table["tokens"][mover])).status_code == 201
    action = next(a for a in views[mover]["my_board"]["view"]["legal_actions"] if a["type"] in ("pass", "draw"))
    assert nclient.post(f"/games/{table['id']}/actions", json=action,
                        headers=auth(table["tokens"][mover])).status_code == 200
    deliver(notify_app)
    mailed = [s for s in range(3) if s != mover and len(mail_server.catcher.to(TABLE_EMAILS[s])) > before[s]]
    assert mailed  # the move mailed the seat to move next
    for seat in mailed:
        assert f"{NAMES[mover]} wrote: hello table" in text(latest(mail_server.catcher, TABLE_EMAILS[seat]))


def test_a_messages_addresses_reach_the_mail_defanged(nclient, notify_app, mail_server, listener):
    """Issue 38, item 10: a phishing line above "Your turn" was a link in the text part of the mail."""
    game = mailed_game(nclient, notify_app)
    seat = to_move(nclient, game)
    other = 1 - seat
    phishing = "Security check: https://gin-login.example/verify?seat=1 or www.gin-help.example now"
    assert nclient.post(f"/games/{game['id']}/messages", json={"text": phishing},
                        headers=auth(game["tokens"][other])).status_code == 201
    mail = latest(mail_server.catcher, EMAILS[seat])
    reply(listener, reply_address(mail), "pass", sender=EMAILS[seat], subject="Re: " + mail["Subject"])
    deliver(notify_app)  # the answer to the reply tells the message
    told = flat(text(latest(mail_server.catcher, EMAILS[seat])))
    assert "hxxps[:]//gin-login[.]example/verify?seat=1" in told and "www[.]gin-help[.]example" in told
    assert "https://gin-login" not in told and "gin-login.example" not in told
    html = latest(mail_server.catcher, EMAILS[seat]).get_body(preferencelist=("html",)).get_content()
    assert "gin-login.example" not in html and "https://gin-login" not in html
    # The page and the API keep the message as written (shown as text there, never as a link).
    assert messages_of(nclient, game, seat) == [phishing]
