"""Play by email at tables of three and four seats (issue 14): whole matches played by replies
alone, through the service's real SMTP listener, every mail caught by a real SMTP server and
scanned for cards its seat may not see; replies from another seat's address, stale replies and a
sitting-out seat's reply refused (deadline mail: test_table_clock_mail.py)."""
from __future__ import annotations

import pytest

from tests.api.helpers import choose, stored_game

from .conftest import DOMAIN, auth, deliver, flat, outbox_rows, reply, reply_address, text
from .table_mail_helpers import EMAILS, NAMES, command_for, expected_heading, expected_subject, scan_mail, start_mailed_table


def table_view(client, game, seat) -> dict:
    response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def new_mail(mail_server, seen: int) -> list:
    return mail_server.catcher.messages[seen:]


def seat_of(recipients) -> int:
    [seat] = [s for s, address in EMAILS.items() if address in recipients]
    return seat


def unrevealed_decks(app, game_id: str) -> list[tuple[str, list[str]]]:
    from service.core.extensions import db
    from service.games.models import Deal
    with app.app_context():
        return [(d.salt, list(d.deck)) for d in db.session.query(Deal).filter_by(game_id=game_id, revealed=False)]


def check_new_mail(notify_app, mail_server, game, seen: int, mails: dict) -> int:
    """Deliver, then check every new mail against the game as it is now (each was composed at
    this version, by the change that made it)."""
    deliver(notify_app)
    stored = stored_game(notify_app, game["id"])
    hidden = unrevealed_decks(notify_app, game["id"])
    for recipients, message in new_mail(mail_server, seen):
        seat = seat_of(recipients)
        whole = message.as_string()
        assert not [t for t in game["tokens"].values() if t in whole], "a bearer token in a mail"
        for salt, deck in hidden:  # a deal in play: neither its salt nor its order
            assert salt not in whole and " ".join(deck[10:20]) not in whole
        assert message["X-Gin-Seat"] == str(seat) and message["X-Gin-Version"] == str(stored.version)
        assert message["Subject"] == expected_subject(game["id"])
        # One thread per seat (an answer refers to the reply it answers as well).
        assert message["References"].split()[0] == f"<gin.{game['id']}.{seat}@{DOMAIN}>"
        scan_mail(message, stored.state, seat)
        mails.setdefault(seat, []).append(message)
    return len(mail_server.catcher.messages)


@pytest.mark.parametrize("seats", [3, 4])
def test_a_whole_table_match_played_by_email_replies(nclient, notify_app, mail_server, listener, seats):
    game = start_mailed_table(nclient, seats, rules={"target": 50})
    mails: dict[int, list] = {}
    seen = check_new_mail(notify_app, mail_server, game, 0, mails)
    # The deal: every seat hears, the seat(s) to move with their commands, the others without.
    first = table_view(nclient, game, 0)
    assert sorted(mails) == list(range(seats))
    for seat in range(seats):
        body = text(mails[seat][-1])
        if seat in first["to_move"]:
            assert body.startswith(f"Your turn, {NAMES[seat]}: you play ") and "To play, reply" in body
        else:
            assert body.startswith("The game has begun.") and "To play, reply" not in body
    if seats == 3:
        out = first["sitting_out"]
        assert "You sit out this hand" in text(mails[out][-1]) and "Your hand (" not in text(mails[out][-1])
        assert "Standings (first to 50): Ann 0, Bob 0, Carl 0." in flat(text(mails[0][-1]))
    else:
        assert "two partnerships, you and Carl against Bob and Dan" in flat(text(mails[0][-1]))
        assert "Board 2 (Carl v Dan, hand 2): Dan to move; discard pile top" in flat(text(mails[0][-1]))

    moves, sat_out_mails, hand_ends = 0, set(), 0
    for step in range(3000):
        view = table_view(nclient, game, 0)
        if view["status"] == "finished":
            break
        seat = view["to_move"][step % len(view["to_move"])]  # both boards of a partnership in turn
        own = table_view(nclient, game, seat)["my_board"]["view"]
        latest = mail_server.catcher.to(EMAILS[seat])[-1]  # the seat's newest mail still plays
        before = stored_game(notify_app, game["id"]).version
        reply(listener, reply_address(latest), command_for(choose(own)), sender=EMAILS[seat],
              subject="Re: " + latest["Subject"])
        assert stored_game(notify_app, game["id"]).version == before + 1, text(mail_server.catcher.messages[-1])
        moves += 1
        count = len(mail_server.catcher.messages)
        seen = check_new_mail(notify_app, mail_server, game, seen, mails)
        for recipients, message in mail_server.catcher.messages[count:]:
            body = text(message)
            # Only the mover gets its answer; others only when their turn began or a hand ended.
            assert seat_of(recipients) == seat or not body.startswith("Played:"), body
            if "You sit out this hand" in body:
                sat_out_mails.add(seat_of(recipients))
                assert "Your hand (" not in body and "To play, reply" not in body
            hand_ends += body.startswith("Hand over")
    final = table_view(nclient, game, 0)
    assert final["status"] == "finished" and final["result"]["reason"] == "target", moves
    # Every hand before the last ended with "Hand over" mails: in a rotation to all three seats
    # but the one whose reply ended it (it gets its answer), in a partnership to that board's
    # other player.
    decided = len(final["scores"]["sheet"])
    assert decided >= 1 and hand_ends >= (2 if seats == 3 else 1) * (decided - 1), (decided, hand_ends)
    for seat in range(seats):  # every seat's last mail says how the match ended, in the seat's words
        body = flat(text(mails[seat][-1]))
        winners = final["result"]["winner_seats"]
        assert body.startswith(("Played: ", "Match over: "))  # the last mover's is its answer
        assert ("Match over: you" if seat in winners else "Match over: " + NAMES[winners[0]]) in body, body
        assert "Score sheet:" in body and "Final totals:" in body and "Reply" not in body.split("Score sheet:")[1]
    if seats == 3 and decided > 1:
        assert sat_out_mails, "the loser of a hand sits out the next and is told so"
    assert all(row.status == "sent" for row in outbox_rows(notify_app))


def test_a_reply_from_another_seats_address_plays_nothing(nclient, notify_app, mail_server, listener):
    game = start_mailed_table(nclient, 4)
    deliver(notify_app)
    mover = table_view(nclient, game, 0)["to_move"][0]
    own = table_view(nclient, game, mover)["my_board"]["view"]
    latest = mail_server.catcher.to(EMAILS[mover])[-1]
    before = stored_game(notify_app, game["id"])
    partner = (mover + 2) % 4
    for sender in (EMAILS[partner], EMAILS[(mover + 1) % 4]):  # the partner, an opponent
        reply(listener, reply_address(latest), command_for(choose(own)), sender=sender)
    after = stored_game(notify_app, game["id"])
    assert (after.version, after.state) == (before.version, before.state)
    deliver(notify_app)
    notices = [m for m in mail_server.catcher.to(EMAILS[mover]) if "tried to play for you" in text(m)]
    # One notice an hour at most (WRONG_SENDER_NOTICES_PER_HOUR), to the seat's own address.
    assert len(notices) == 1 and notices[0]["Subject"] == expected_subject(game["id"])
    others = " and ".join(NAMES[s] for s in range(4) if s != mover)
    assert f"in your game with {others}; nothing changed." in flat(text(notices[0]))
    assert not mail_server.catcher.to(EMAILS[partner])[1:]  # the partner got only its deal mail
    # The seat's own address still plays with the same reply address.
    reply(listener, reply_address(latest), command_for(choose(own)), sender=EMAILS[mover])
    assert stored_game(notify_app, game["id"]).version == before.version + 1


def test_stale_replies_and_a_sitting_out_seat_are_refused(nclient, notify_app, mail_server, listener):
    game = start_mailed_table(nclient, 3)
    deliver(notify_app)
    view = table_view(nclient, game, 0)
    mover, out = view["to_move"][0], view["sitting_out"]
    # The seat sitting out has nothing to play: its reply changes nothing and says why.
    before = stored_game(notify_app, game["id"])
    reply(listener, reply_address(mail_server.catcher.to(EMAILS[out])[-1]), "draw stock", sender=EMAILS[out])
    assert stored_game(notify_app, game["id"]).version == before.version
    deliver(notify_app)
    answer = text(mail_server.catcher.to(EMAILS[out])[-1])
    assert answer.startswith("Not played: draw stock: you play on no board now (sitting out this hand)")
    assert "Your hand (" not in answer
    # A reply to a mail older than a move on the seat's own board is stale.
    old = mail_server.catcher.to(EMAILS[mover])[-1]
    own = table_view(nclient, game, mover)["my_board"]["view"]
    reply(listener, reply_address(old), command_for(choose(own)), sender=EMAILS[mover])
    moved = stored_game(notify_app, game["id"])
    assert moved.version == before.version + 1
    deliver(notify_app)
    mover_now = table_view(nclient, game, 0)["to_move"][0]
    if mover_now == mover:  # a draw: the seat moves on; its first mail is stale now
        reply(listener, reply_address(old), "pass", sender=EMAILS[mover])
        deliver(notify_app)
        assert text(mail_server.catcher.to(EMAILS[mover])[-1]).startswith("Not played: a move was made since the mail this reply answers")
    else:
        reply(listener, reply_address(old), command_for(choose(own)), sender=EMAILS[mover])
        deliver(notify_app)
        assert text(mail_server.catcher.to(EMAILS[mover])[-1]).startswith("Not played: a move was made since the mail this reply answers")
    assert stored_game(notify_app, game["id"]).version == moved.version


def test_a_move_on_the_other_board_leaves_a_reply_good(nclient, notify_app, mail_server, listener):
    """A partnership plays two boards at once: a seat's mail keeps playing while the other board
    moves (only a move on its own board, or a new round, makes it stale)."""
    game = start_mailed_table(nclient, 4)
    deliver(notify_app)
    first, second = table_view(nclient, game, 0)["to_move"]
    waiting = mail_server.catcher.to(EMAILS[second])[-1]
    for seat in (first, second):
        own = table_view(nclient, game, seat)["my_board"]["view"]
        address = reply_address(waiting if seat == second else mail_server.catcher.to(EMAILS[seat])[-1])
        before = stored_game(notify_app, game["id"]).version
        reply(listener, address, command_for(choose(own)), sender=EMAILS[seat])
        assert stored_game(notify_app, game["id"]).version == before + 1, seat


def test_webhooks_and_digests_at_a_table(nclient, notify_app, mail_server, clock, receiver):
    """A webhook of a table seat gets turn.started with its own table view when its turn begins;
    a digest reader gets the table's mail text in its daily digest, and no per-turn mail."""
    import json

    from .conftest import confirm_addresses
    confirm_addresses(notify_app, *EMAILS.values())
    created = nclient.post("/games", json={"name": "Ann", "seats": 3, "email": EMAILS[0],
                                           "rules": {"target": 50}}).get_json()
    tokens = {0: created["token"]}
    extra = {1: {"webhook_url": receiver.url}, 2: {"email": EMAILS[2], "mail_mode": "digest"}}
    for invite in created["invites"]:
        seat = invite["seat"]
        joined = nclient.post(f"/games/{created['game_id']}/join", json={
            "invite_code": invite["invite_code"], "name": NAMES[seat], **extra[seat]})
        assert joined.status_code == 201, joined.get_json()
        tokens[seat] = joined.get_json()["token"]
    game = {"id": created["game_id"], "tokens": tokens, "seats": 3}
    deliver(notify_app)
    hooks = [json.loads(r["body"]) for r in receiver.delivered()]
    assert hooks and hooks[-1]["data"]["seat"] == 1 and hooks[-1]["data"]["view"]["format"] == "rotation"
    view = table_view(nclient, game, 1)
    assert hooks[-1]["type"] == ("turn.started" if 1 in view["to_move"] else "game.started")
    assert hooks[-1]["data"]["your_turn"] == (1 in view["to_move"])
    assert hooks[-1]["data"]["to_move"] == hooks[-1]["data"]["view"]["to_move"] == view["to_move"]  # every board's
    seen = hooks[-1]["data"]["view"]
    if seen["my_board"] is not None:  # its own hand, as its view over HTTP shows it
        assert seen["my_board"]["view"]["hand"] == view["my_board"]["view"]["hand"]
    assert mail_server.catcher.to(EMAILS[2]) == []  # a digest reader: no per-turn mail
    clock.advance(hours=24, minutes=1)
    deliver(notify_app)
    [digest] = mail_server.catcher.to(EMAILS[2])
    body = text(digest)
    assert expected_heading(game["id"], 3, 2) in body and "three players, one sitting out" in flat(body)
    scan_mail(digest, stored_game(notify_app, game["id"]).state, 2)


def test_a_table_invitation_says_how_many_play_and_is_joined_by_reply(nclient, notify_app, mail_server, listener):
    from .conftest import confirm_addresses
    confirm_addresses(notify_app, EMAILS[0])
    created = nclient.post("/games", json={"name": "Ann", "seats": 3, "email": EMAILS[0],
                                           "invite_email": EMAILS[1]}).get_json()
    deliver(notify_app)
    [invitation] = mail_server.catcher.to(EMAILS[1])
    assert "a game of Gin Rummy for three players (one sits out each hand;" in flat(text(invitation))
    reply(listener, reply_address(invitation), "join Bob", sender=EMAILS[1])
    ann = {"id": created["game_id"], "tokens": {0: created["token"]}}
    assert [p["name"] for p in table_view(nclient, ann, 0)["players"]] == ["Ann", "Bob", None]  # seat 1
    carl = created["invites"][1]
    assert carl["seat"] == 2
    joined = nclient.post(f"/games/{created['game_id']}/join", json={"invite_code": carl["invite_code"],
                                                                       "name": "Carl"})
    assert joined.status_code == 201 and joined.get_json()["game"]["status"] == "active"
    deliver(notify_app)
    bob = mail_server.catcher.to(EMAILS[1])[-1]  # Bob plays by mail from here on
    assert bob["Subject"] == expected_subject(created["game_id"]) and reply_address(bob).startswith("play+")
    scan_mail(bob, stored_game(notify_app, created["game_id"]).state, 1)


def test_a_resignation_by_reply_ends_the_match_for_the_whole_partnership(nclient, notify_app, mail_server,
                                                                         listener):
    game = start_mailed_table(nclient, 4)
    deliver(notify_app)
    seen = {seat: len(mail_server.catcher.to(EMAILS[seat])) for seat in range(4)}
    reply(listener, reply_address(mail_server.catcher.to(EMAILS[2])[-1]), "resign", sender=EMAILS[2])
    result = table_view(nclient, game, 0)["result"]
    assert result["reason"] == "resign" and sorted(result["winner_seats"]) == [1, 3]
    deliver(notify_app)
    state = stored_game(notify_app, game["id"]).state
    for seat in range(4):
        [last] = mail_server.catcher.to(EMAILS[seat])[seen[seat]:]  # one mail each: the end
        scan_mail(last, state, seat)
        body = flat(text(last))
        winners = "Match over: you and Dan win" if seat == 1 else "Match over: you and Bob win" if seat == 3 \
            else "Match over: Bob and Dan win"
        assert f"{winners} (by resignation)." in body, body
        assert ("You resigned." if seat == 2 else "Carl resigned.") in body
        assert "Reply" not in body and "Your hand (" not in body


def test_a_mahjong_gin_game_of_two_is_still_mailed_as_a_game_of_two(nclient, notify_app, mail_server):
    """Mahjong gin's Match keeps the melds laid down in a `table` of its own: not a table of seats."""
    from .conftest import start_game
    game = start_game(nclient, rules={"preset": "mahjong_gin"}, contact0={"email": EMAILS[0]},
                      contact1={"email": EMAILS[1]})
    deliver(notify_app)
    assert all(row.status == "sent" for row in outbox_rows(notify_app))
    for seat in (0, 1):
        [mail] = mail_server.catcher.to(EMAILS[seat])
        assert mail["Subject"] == f"[Gin {game['id'][:8]}] A game of Gin Rummy by mail"
        assert text(mail).startswith(("Your turn", "The game has begun"))
