"""Play by email at Tedesco's team tables (issue 14): a whole eight-seat match (teams of four, four
boards at once) played by replies alone through the service's real SMTP listener, seats 4 to 7
included, every mail caught by a real SMTP server and scanned for cards its seat may not see (a
teammate's hand in play too); the round and its team bonus told in words."""
from __future__ import annotations

import pytest

from tests.api.helpers import choose, stored_game
from tests.hardening.support import LONG
from tests.api.table_helpers import TEDESCO_TEAMS, losing_move

from .conftest import deliver, flat, outbox_rows, reply, reply_address, text
from .table_mail_helpers import EMAILS, NAMES, command_for, start_mailed_table
from .test_table_mail import check_new_mail, table_view


def test_an_eight_seat_team_match_played_by_email_replies(nclient, notify_app, mail_server, listener, db_config):
    if not LONG and "postgresql" in db_config["SQLALCHEMY_DATABASE_URI"]:
        pytest.skip("the whole eight-seat match by mail runs on SQLite (PostgreSQL too with GIN_LONG_TESTS=1); "
                    "table mail on PostgreSQL is played in test_table_mail.py")
    game = start_mailed_table(nclient, 8, rules=TEDESCO_TEAMS)
    mails: dict[int, list] = {}
    seen = check_new_mail(notify_app, mail_server, game, 0, mails)
    first = table_view(nclient, game, 0)
    assert sorted(mails) == list(range(8)) and len(first["to_move"]) == 4
    opening = flat(text(mails[5][-1]))
    assert ("two teams of 4, you and Bob and Dan and Hal against Ann and Carl and Eve and Gus, on 4 boards "
            "at once") in opening and "Round 1." in opening and "scores 50 more" in opening
    assert "Board 3 (you v Eve, hand 3): you to move" in opening and "Board 4 (Gus v Hal, hand 4)" in opening
    moves, beyond_three, team_bonus_told = 0, 0, False
    for step in range(3000):
        view = table_view(nclient, game, 0)
        if view["status"] == "finished":
            break
        seat = view["to_move"][step % len(view["to_move"])]  # every board in turn
        own = table_view(nclient, game, seat)["my_board"]["view"]
        action = losing_move(own) if seat % 2 else choose(own)  # the even team wins whole rounds
        latest = mail_server.catcher.to(EMAILS[seat])[-1]  # the seat's newest mail still plays
        before = stored_game(notify_app, game["id"]).version
        reply(listener, reply_address(latest), command_for(action), sender=EMAILS[seat],
              subject="Re: " + latest["Subject"])
        assert stored_game(notify_app, game["id"]).version == before + 1, text(mail_server.catcher.messages[-1])
        moves += 1
        beyond_three += seat > 3
        count = len(mail_server.catcher.messages)
        seen = check_new_mail(notify_app, mail_server, game, seen, mails)
        for _, message in mail_server.catcher.messages[count:]:
            team_bonus_told |= "score a team bonus of 50" in flat(text(message))
    final = table_view(nclient, game, 0)
    assert final["status"] == "finished" and final["result"]["winner_seats"] == [0, 2, 4, 6], moves
    assert beyond_three > 10  # seats 4 to 7 played by mail too
    assert any(row["hand"] is None for row in final["scores"]["sheet"]) and team_bonus_told
    for seat in range(8):  # every seat's last mail says how the match ended
        body = flat(text(mails[seat][-1]))
        assert ("Match over: you" if seat % 2 == 0 else "Match over: " + NAMES[0]) in body, body
        assert "team bonus" in body.split("Score sheet:")[1]
    assert all(row.status == "sent" for row in outbox_rows(notify_app))
