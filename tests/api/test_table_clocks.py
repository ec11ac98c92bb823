"""Move deadlines at a table (issue 14): every board's mover is on a clock of its own, running from
when its own turn began and paused only by its own vacations. Once a seat's deadline has passed,
any seat of the other side may claim, and the late seat's side loses the match; before it, and for
the late seat's own side, a claim is refused and changes nothing. Time is moved with the app's
CLOCK (tests/notify/conftest.py's FakeClock), never by sleeping."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.notify.conftest import START, FakeClock

from .helpers import act, auth, choose, stored_game

HOURS = 10
CLAIM = {"type": "claim_timeout"}


@pytest.fixture
def clock(app, monkeypatch):
    clock = FakeClock()
    monkeypatch.setitem(app.config, "CLOCK", clock)
    return clock


def at(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def start_table(client, seats: int = 4) -> dict:
    created = client.post("/games", json={"name": "Ann", "seats": seats, "move_time_hours": HOURS}).get_json()
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        joined = client.post(f"/games/{created['game_id']}/join",
                             json={"invite_code": invite["invite_code"], "name": f"P{invite['seat']}"})
        assert joined.status_code == 201, joined.get_json()
        tokens[invite["seat"]] = joined.get_json()["token"]
    return {"id": created["game_id"], "tokens": tokens, "seats": seats}


def view_of(client, game, seat: int) -> dict:
    response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def board_of(view: dict, seat: int) -> dict:
    return next(b for b in view["boards"] if b is not None and seat in b["seats"])


def move(client, game, seat: int) -> None:
    own = view_of(client, game, seat)["my_board"]["view"]
    response = act(client, game, seat, choose(own))
    assert response.status_code == 200, response.get_json()


def refused(app, client, game, seat: int, code: str, body=CLAIM, path: str | None = None) -> None:
    """The request is refused with `code` and changes nothing."""
    before = stored_game(app, game["id"])
    response = (client.post(path, json=body, headers=auth(game["tokens"][seat])) if path
                else act(client, game, seat, body))
    assert response.status_code == 422 and response.get_json()["code"] == code, response.get_json()
    after = stored_game(app, game["id"])
    assert (after.version, after.state) == (before.version, before.state)


def turn_start(moves: list[tuple[int, datetime]], board_seats: list[int], mover: int) -> datetime:
    """When `mover`'s turn began: the board's last move by its opponent, else the deal (START)."""
    return max((moment for seat, moment in moves if seat in board_seats and seat != mover), default=START)


@pytest.mark.parametrize("claimant", ["board opponent", "opponent's partner"])
def test_a_stalled_board_lets_the_other_side_claim_while_the_other_board_goes_on(app, client, clock, claimant):
    game = start_table(client)
    first = view_of(client, game, 0)
    late = first["to_move"][0]  # both boards dealt at START: its mover never moves
    opponent = next(s for s in board_of(first, late)["seats"] if s != late)
    partner = (late + 2) % 4
    assert at(board_of(first, late)["deadline"]) == START + timedelta(hours=HOURS)

    moves = []  # the other board goes on, a move an hour
    for _ in range(4):
        clock.advance(hours=1)
        others = [s for s in view_of(client, game, 0)["to_move"] if s != late]
        if not others:
            break  # its hand ended: it waits for the round
        move(client, game, others[0])
        moves.append((others[0], clock.now))
    assert moves

    views = {seat: view_of(client, game, seat) for seat in range(4)}
    # The late seat's deadline is still its own turn's, whatever the other board did.
    assert at(views[late]["my_deadline"]) == START + timedelta(hours=HOURS)
    assert at(board_of(views[opponent], late)["deadline"]) == START + timedelta(hours=HOURS)
    assert views[0]["on_clock"] == late and at(views[0]["deadline"]) == START + timedelta(hours=HOURS)
    for other in [s for s in views[0]["to_move"] if s != late]:  # the other board's mover: its own turn
        seats = board_of(views[0], other)["seats"]
        assert at(views[other]["my_deadline"]) == turn_start(moves, seats, other) + timedelta(hours=HOURS)
        assert board_of(views[late], other)["deadline"] == views[other]["my_deadline"]
    for seat in set(range(4)) - set(views[0]["to_move"]):
        assert views[seat]["my_deadline"] is None

    clock.now = START + timedelta(hours=HOURS)  # the deadline itself: not passed yet
    refused(app, client, game, opponent, "deadline-not-passed")
    clock.advance(minutes=1)
    # The late seat's own side cannot claim against it (only against a late seat of the other side).
    other_side_to_move = [s for s in view_of(client, game, 0)["to_move"] if s % 2 != partner % 2]
    refused(app, client, game, partner, "deadline-not-passed" if other_side_to_move else "cannot-claim-own-turn")
    refused(app, client, game, late, "deadline-not-passed" if other_side_to_move else "cannot-claim-own-turn")

    who = opponent if claimant == "board opponent" else (opponent + 2) % 4
    claimed = act(client, game, who, CLAIM)
    assert claimed.status_code == 200, claimed.get_json()
    result = claimed.get_json()["result"]
    assert result["reason"] == "timeout" and sorted(result["winner_seats"]) == sorted([opponent, (opponent + 2) % 4])
    assert result["winner"] == opponent % 2  # sides: seats 0+2 and 1+3
    after = view_of(client, game, late)
    assert after["status"] == "finished" and after["to_move"] == [] and after["deadline"] is None
    assert after["my_deadline"] is None and after["on_clock"] is None
    events = client.get(f"/games/{game['id']}/events?limit=500", headers=auth(game["tokens"][late])).get_json()
    assert [e["seat"] for e in events["events"] if e["type"] == "timeout"] == [late]


def test_each_seats_deadline_runs_from_its_own_turns_start(app, client, clock):
    """When one board's mover moves, the other board's mover keeps the deadline of its own turn
    (from the deal), not one started when the first board moved."""
    game = start_table(client)
    first = view_of(client, game, 0)
    a, b = first["to_move"]
    assert {at(board["deadline"]) for board in first["boards"]} == {START + timedelta(hours=HOURS)}
    clock.advance(hours=3)
    move(client, game, a)
    view = view_of(client, game, b)
    assert at(view["my_deadline"]) == START + timedelta(hours=HOURS)  # b's turn began with the deal
    board_a = board_of(view, a)
    mover = board_a["to_move"]  # a again after a draw, else a's opponent, whose turn began now
    expected = START + timedelta(hours=HOURS) if mover == a else clock.now + timedelta(hours=HOURS)
    assert at(board_a["deadline"]) == expected
    assert at(view_of(client, game, mover)["my_deadline"]) == expected
    earliest = min(at(board["deadline"]) for board in view["boards"])
    assert at(view["deadline"]) == earliest
    assert at(board_of(view, view["on_clock"])["deadline"]) == earliest


def test_a_vacation_at_a_table_pauses_only_that_seat_and_each_seat_has_its_own_allowance(app, client, clock):
    game = start_table(client)
    a, b = view_of(client, game, 0)["to_move"]
    path = f"/games/{game['id']}/vacation"
    clock.advance(hours=2)
    taken = client.post(path, json={"days": 2}, headers=auth(game["tokens"][a]))
    assert taken.status_code == 200, taken.get_json()
    assert taken.get_json()["days_left"] == 5
    assert at(taken.get_json()["deadline"]) == START + timedelta(hours=HOURS, days=2)  # the seat's own
    views = {seat: view_of(client, game, seat) for seat in range(4)}
    assert at(views[a]["my_deadline"]) == START + timedelta(hours=HOURS, days=2)
    assert at(views[b]["my_deadline"]) == START + timedelta(hours=HOURS)  # not paused
    assert views[0]["on_clock"] == b and at(views[0]["deadline"]) == START + timedelta(hours=HOURS)
    assert at(board_of(views[0], a)["deadline"]) == START + timedelta(hours=HOURS, days=2)

    # The allowance is per seat: a has 5 days left, b all 7.
    refused(app, client, game, a, "vacation-exhausted", {"days": 6}, path)
    summary = client.post(path, json={"days": 7}, headers=auth(game["tokens"][b]))
    assert summary.status_code == 200 and summary.get_json()["days_left"] == 0
    assert at(view_of(client, game, b)["my_deadline"]) == START + timedelta(hours=HOURS, days=7)
    assert at(view_of(client, game, a)["my_deadline"]) == START + timedelta(hours=HOURS, days=2)
    refused(app, client, game, b, "vacation-exhausted", {"days": 1}, path)

    # Past a's own deadline no vacation starts for a, and b's opponents may claim only against a.
    clock.now = START + timedelta(hours=HOURS, days=2, minutes=1)
    refused(app, client, game, a, "deadline-passed", {"days": 1}, path)
    claimant = next(s for s in range(4) if s % 2 != a % 2)
    claimed = act(client, game, claimant, CLAIM)
    assert claimed.status_code == 200, claimed.get_json()
    assert a not in claimed.get_json()["result"]["winner_seats"]


def test_a_rotation_has_one_clock_and_the_seat_sitting_out_may_claim(app, client, clock):
    """Three seats: one board, one mover at a time; each other seat is a side of its own, so the
    seat sitting out may claim too."""
    game = start_table(client, seats=3)
    view = view_of(client, game, 0)
    [late] = view["to_move"]
    assert at(view["deadline"]) == START + timedelta(hours=HOURS) and view["on_clock"] == late
    out = view["sitting_out"]
    clock.advance(hours=HOURS, minutes=1)
    refused(app, client, game, late, "cannot-claim-own-turn")
    claimed = act(client, game, out, CLAIM)
    assert claimed.status_code == 200, claimed.get_json()
    assert late not in claimed.get_json()["result"]["winner_seats"]


def test_the_reference_client_shows_each_boards_deadline(app, client, clock):
    """gin show: each board's line with its mover's deadline; the own board (seat_view, as the bot
    and the two-seat display read it) carries its mover's own deadline, not the table's earliest."""
    from gin_client.cli.display import Style, render_table_view, seat_view
    game = start_table(client)
    first = view_of(client, game, 0)
    a, b = first["to_move"]
    clock.advance(hours=3)
    move(client, game, a)
    mine = view_of(client, game, b)
    text = render_table_view(mine, Style(False), game["id"])
    board_lines = [line for line in text.splitlines() if line.startswith("Board ")]
    assert len(board_lines) == 2
    for board in mine["boards"]:
        line = next(line for line in board_lines if line.startswith(f"Board {board['board']}:"))
        assert f"(deadline {at(board['deadline']):%d %b %H:%M} UTC" in line
    viewer = board_of(mine, a)["to_move"]  # a's opponent after a pass, whose turn began at +3 h
    theirs = view_of(client, game, viewer)
    assert seat_view(theirs)["deadline"] == board_of(theirs, viewer)["deadline"] == theirs["my_deadline"]
    if viewer != a:
        assert seat_view(theirs)["deadline"] != theirs["deadline"]  # not the table's earliest (b's)
