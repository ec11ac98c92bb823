"""Deadline mail at a table (issue 14): every board's mover has its own move clock, so each gets
its reminder when a quarter of its own time is left, and when a seat's deadline passes every seat
of the other side hears it may claim (and may, by reply). Real SMTP server, the service's real
listener; time moved with the app's CLOCK only."""
from __future__ import annotations

from datetime import timedelta

from tests.api.helpers import choose

from .conftest import START, auth, deliver, flat, reply, reply_address, text
from .table_mail_helpers import EMAILS, NAMES, command_for, scan_mail, start_mailed_table

HOURS = 8


def table_view(client, game, seat) -> dict:
    response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def mails(mail_server) -> dict[int, list]:
    return {seat: mail_server.catcher.to(address) for seat, address in EMAILS.items()}


def new_since(before: dict[int, list], mail_server) -> dict[int, list]:
    now = mails(mail_server)
    return {seat: now[seat][len(before[seat]):] for seat in now if len(now[seat]) > len(before[seat])}


def sweep(notify_app) -> int:
    from service.notify.sweeps import sweep_clocks
    with notify_app.app_context():
        written = sweep_clocks()
    deliver(notify_app)
    return written


def test_each_boards_mover_is_reminded_by_its_own_clock_and_the_other_side_may_claim(
        nclient, notify_app, mail_server, clock, listener):
    from tests.api.helpers import stored_game
    game = start_mailed_table(nclient, 4, move_time_hours=HOURS)
    deliver(notify_app)
    late, other = table_view(nclient, game, 0)["to_move"]
    dealt = text(mails(mail_server)[late][-1])
    assert "Deadline for your move: 2030-01-01 20:00 UTC" in dealt  # START 12:00 + 8 h
    # Two hours in, the other board's mover moves by reply; the late one never does.
    clock.advance(hours=2)
    own = table_view(nclient, game, other)["my_board"]["view"]
    reply(listener, reply_address(mails(mail_server)[other][-1]), command_for(choose(own)), sender=EMAILS[other])
    deliver(notify_app)
    view = table_view(nclient, game, 0)
    [mover] = [s for s in view["to_move"] if s != late]
    started = START if mover == other else START + timedelta(hours=2)  # a draw keeps the turn going
    if mover != other:  # its turn mail tells its own deadline
        assert f"Deadline for your move: {(started + timedelta(hours=HOURS)):%Y-%m-%d %H:%M} UTC" in \
            text(mails(mail_server)[mover][-1])

    before = mails(mail_server)
    clock.now = START + timedelta(hours=HOURS * 3 / 4)  # the late seat's reminder time
    assert sweep(notify_app) == (1 if started > START else 2)
    reminded = new_since(before, mail_server)
    assert sorted(reminded) == sorted({late} | ({mover} if started == START else set()))
    body = text(reminded[late][-1])
    assert body.startswith(f"Reminder, {NAMES[late]}: it is your move and 2 h 0 min of your time is left.")
    scan_mail(reminded[late][-1], stored_game(notify_app, game["id"]).state, late)

    before = mails(mail_server)
    clock.now = START + timedelta(hours=HOURS, minutes=1)  # past the late seat's deadline; the mover's reminder
    late_side, other_side = {late, (late + 2) % 4}, {(late + 1) % 4, (late + 3) % 4}
    assert sweep(notify_app) == 2  # the late seat's time-up, and the mover's reminder or time-up
    told = new_since(before, mail_server)
    expected = set(other_side) | ({mover} if started > START else set())
    if started == START:  # the mover's deadline passed too: the late seat's side is told of it
        expected |= {s for s in range(4) if s % 2 != mover % 2}
    assert set(told) == expected
    for seat in other_side:
        notice = [m for m in told[seat] if text(m).startswith(f"{NAMES[late]}'s time is up")]
        assert notice and "claim           win the match on time" in text(notice[0]), text(told[seat][-1])
        scan_mail(notice[0], stored_game(notify_app, game["id"]).state, seat)
    if started > START:
        assert [m for m in told[mover]
                if text(m).startswith(f"Reminder, {NAMES[mover]}: it is your move and 1 h 59 min")]
        assert not told.keys() & (late_side - {mover})  # the late seat's side hears nothing of its time-up

    # Any seat of the other side may claim by reply: here the one not on the late seat's board.
    board_opponent = next(b for b in view["boards"] if late in b["seats"])["seats"]
    claimant = next(s for s in other_side if s not in board_opponent)
    notice = next(m for m in told[claimant] if text(m).startswith(f"{NAMES[late]}'s time is up"))
    reply(listener, reply_address(notice), "claim", sender=EMAILS[claimant])
    result = table_view(nclient, game, 0)["result"]
    assert result["reason"] == "timeout" and set(result["winner_seats"]) == other_side
    deliver(notify_app)
    for seat in range(4):
        last = flat(text(mails(mail_server)[seat][-1]))
        assert "Match over:" in last and "(on time)" in last


def test_a_move_on_the_other_board_leaves_a_seats_deadline_where_it_was(nclient, notify_app, mail_server, clock,
                                                                         listener):
    """Each seat's mail tells its own deadline; a move on the other board changes neither it nor
    the earliest one the view shows (`deadline`, on `on_clock`)."""
    game = start_mailed_table(nclient, 4, move_time_hours=10)
    deliver(notify_app)
    view = table_view(nclient, game, 0)
    a, b = view["to_move"]
    for seat in (a, b):
        assert "Deadline for your move: 2030-01-01 22:00 UTC" in text(mails(mail_server)[seat][-1])
    clock.advance(hours=3)
    own = table_view(nclient, game, b)["my_board"]["view"]
    reply(listener, reply_address(mails(mail_server)[b][-1]), command_for(choose(own)), sender=EMAILS[b])
    after = table_view(nclient, game, a)
    assert after["version"] == view["version"] + 1
    assert (after["on_clock"], after["deadline"], after["my_deadline"]) == (a, view["deadline"], view["deadline"])
