"""Move deadlines with an injected clock: reminders, claiming on time, vacations."""
from __future__ import annotations

from datetime import datetime, timedelta

from service.games.deadlines import clock_end
from tests.api.helpers import stored_game

from .conftest import START, act, auth, deliver, flat, outbox_rows, reply_address, start_game, text, view

ANN, BOB = "ann@example.org", "bob@example.org"
EMAILS = {0: ANN, 1: BOB}


def at(hours: float) -> datetime:
    return START + timedelta(hours=hours)


def test_a_paused_clock_runs_on_after_the_pause():
    day = timedelta(days=1)
    assert clock_end(START, day, []) == START + day
    assert clock_end(START, day, [(START - 3 * day, START - day)]) == START + day  # over before
    assert clock_end(START, day, [(START + 2 * day, START + 3 * day)]) == START + day  # after the deadline
    assert clock_end(START, day, [(START + day / 2, START + day)]) == START + 1.5 * day  # inside
    assert clock_end(START, day, [(START - day, START + day)]) == START + 2 * day  # began before the turn
    assert clock_end(START, day, [(START, START + day), (START + day, START + 2 * day)]) == START + 3 * day


def mailed(client, hours=8, **contacts):
    return start_game(client, move_time_hours=hours, contact0={"email": ANN, **contacts},
                      contact1={"email": BOB, **contacts})


def sweep(app, workers=1):
    deliver(app, workers)  # a worker run sweeps the clocks and digests, then delivers


def test_reminder_when_a_quarter_of_the_time_is_left_once(nclient, notify_app, mail_server, clock, receiver):
    game = mailed(nclient, webhook_url=receiver.url)
    seat = view(nclient, game, 0)["to_move"]
    assert view(nclient, game, seat)["deadline"] == at(8).isoformat()
    sweep(notify_app)
    before = len(mail_server.catcher.to(EMAILS[seat]))
    clock.now = at(5.9)
    sweep(notify_app)
    assert len(mail_server.catcher.to(EMAILS[seat])) == before  # more than a quarter left
    clock.now = at(6)
    sweep(notify_app, workers=2)
    sweep(notify_app)
    reminders = [m for m in mail_server.catcher.to(EMAILS[seat]) if text(m).startswith("Reminder")]
    assert len(reminders) == 1, "one reminder, even with two workers sweeping"
    assert "Reminder, " in text(reminders[0]) and "2 h 0 min of your time is left" in flat(text(reminders[0]))
    assert reminders[0]["Subject"] == mail_server.catcher.to(EMAILS[seat])[0]["Subject"]  # one subject
    assert "Deadline for your move: 2030-01-01 20:00 UTC (in 2 h 0 min)." in text(reminders[0])
    assert [m for m in mail_server.catcher.to(EMAILS[1 - seat]) if text(m).startswith("Reminder")] == []
    hooks = [r for r in receiver.delivered() if '"type":"deadline.reminder"' in r["body"]]
    assert len(hooks) == 1


def test_claim_on_time_only_after_the_deadline_and_only_by_the_waiting_seat(nclient, notify_app, clock):
    game = mailed(nclient)
    late = view(nclient, game, 0)["to_move"]
    waiting = 1 - late
    version = view(nclient, game, 0)["version"]
    clock.now = at(7.99)
    early = act(nclient, game, waiting, {"type": "claim_timeout"})
    assert early.status_code == 422 and early.get_json()["code"] == "deadline-not-passed"
    clock.now = at(9)
    own = act(nclient, game, late, {"type": "claim_timeout"})
    assert own.status_code == 422 and own.get_json()["code"] == "cannot-claim-own-turn"
    odd = act(nclient, game, waiting, {"type": "claim_timeout", "seat": 1})
    assert odd.status_code == 400 and odd.get_json()["code"] == "invalid-action"
    assert view(nclient, game, 0)["version"] == version  # refusals change nothing
    # No worker has swept: the API checks the clock itself.
    claimed = act(nclient, game, waiting, {"type": "claim_timeout"})
    assert claimed.status_code == 200, claimed.get_json()
    result = claimed.get_json()["result"]
    assert result["winner"] == waiting and result["reason"] == "timeout"
    assert claimed.get_json()["deadline"] is None
    again = act(nclient, game, waiting, {"type": "claim_timeout"})
    assert again.status_code == 409 and again.get_json()["code"] == "game-over"


def test_time_up_notice_then_claim_by_email_or_the_game_goes_on(nclient, notify_app, mail_server, clock):
    game = mailed(nclient)
    late = view(nclient, game, 0)["to_move"]
    waiting = 1 - late
    clock.now = at(8.5)
    sweep(notify_app)
    [notice] = [m for m in mail_server.catcher.to(EMAILS[waiting]) if "time is up" in text(m).split("\n")[0]]
    assert "Reply `claim` to win the match on time" in flat(text(notice))
    assert "\n  claim           win the match on time" in text(notice)
    # The late seat may still move (nobody claimed yet): its opponent's clock starts afresh.
    assert act(nclient, game, late, {"type": "pass"}).status_code == 200
    assert view(nclient, game, 0)["deadline"] == at(16.5).isoformat()
    claim = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=(
        f"From: {EMAILS[waiting]}\r\nTo: {reply_address(notice)}\r\nSubject: Re: time\r\n"
        "Message-ID: <claim@example.org>\r\n\r\nclaim\r\n").encode())
    assert claim.output.startswith("stale"), claim.output  # that notice was about an older version
    assert stored_game(notify_app, game["id"]).status == "active"
    # Now the other seat lets its time run out, and is claimed against by mail.
    clock.now = at(17)
    deliver(notify_app)
    turn = [m for m in mail_server.catcher.to(EMAILS[late]) if "time is up" in text(m).split("\n")[0]][-1]
    claim = notify_app.test_cli_runner().invoke(args=["notify", "inbound"], input=(
        f"From: {EMAILS[late]}\r\nTo: {reply_address(turn)}\r\nSubject: Re: time\r\n"
        "Message-ID: <claim2@example.org>\r\n\r\nclaim\r\n").encode())
    assert claim.output.startswith("played: claim"), claim.output
    result = view(nclient, game, 0)["result"]
    assert result["winner"] == late and result["reason"] == "timeout"
    deliver(notify_app)
    final = [m for m in mail_server.catcher.to(EMAILS[waiting]) if text(m).startswith("Match over")]
    assert final and "(on time)" in text(final[0])


def test_vacation_pauses_the_own_clock_up_to_the_cap(nclient, notify_app, clock):
    game = mailed(nclient, hours=24)
    mover = view(nclient, game, 0)["to_move"]
    other = 1 - mover
    url = f"/games/{game['id']}/vacation"
    etag = nclient.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).headers["ETag"]
    clock.now = at(2)
    response = nclient.post(url, json={"days": 2}, headers=auth(game["tokens"][mover]))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body == {"days_left": 5, "on_vacation_until": at(50).isoformat(), "deadline": at(72).isoformat()}
    assert response.headers["ETag"] != etag  # the view changed: its deadline moved
    assert view(nclient, game, other)["deadline"] == at(72).isoformat()

    for bad, code in (({"days": 6}, "vacation-exhausted"), ({"days": 0}, "validation-error"),
                      ({"days": "2"}, "validation-error"), ({}, "validation-error")):
        refused = nclient.post(url, json=bad, headers=auth(game["tokens"][mover]))
        assert refused.status_code == 422 and refused.get_json()["code"] == code, bad
    assert nclient.post(url, data="days=2", headers=auth(game["tokens"][mover])).status_code == 415
    assert view(nclient, game, 0)["deadline"] == at(72).isoformat()

    # The waiting seat goes away for 3 days; its turn, starting meanwhile, waits for its return.
    assert nclient.post(url, json={"days": 3}, headers=auth(game["tokens"][other])).status_code == 200
    clock.now = at(10)
    assert act(nclient, game, mover, {"type": "pass"}).status_code == 200
    assert view(nclient, game, 0)["deadline"] == at(2 + 72 + 24).isoformat()
    # After its deadline a seat can no longer go on vacation (its opponent could claim).
    clock.now = at(2 + 72 + 24 + 1)
    late = nclient.post(url, json={"days": 1}, headers=auth(game["tokens"][other]))
    assert late.status_code == 422 and late.get_json()["code"] == "deadline-passed"


def test_a_game_without_move_time_has_no_deadline(nclient, notify_app, clock):
    game = start_game(nclient, move_time_hours=None)
    seat = view(nclient, game, 0)["to_move"]
    assert view(nclient, game, seat)["deadline"] is None
    clock.now = at(24 * 365)
    deliver(notify_app)
    assert outbox_rows(notify_app) == []
    claim = act(nclient, game, 1 - seat, {"type": "claim_timeout"})
    assert claim.status_code == 422 and claim.get_json()["code"] == "no-deadline"
    vacation = nclient.post(f"/games/{game['id']}/vacation", json={"days": 1}, headers=auth(game["tokens"][seat]))
    assert vacation.status_code == 422 and vacation.get_json()["code"] == "no-deadline"
    bad = nclient.post("/games", json={"name": "Ann", "move_time_hours": 0})
    assert bad.status_code == 422 and bad.get_json()["code"] == "validation-error"
