"""Issue 38, item 9: reports capped per reporter and per target; a player's seat reported only from a
player's seat; `flask admin reports` paged and filtered; nothing typed reaches the operator's terminal
as a control sequence (refused in `details`, escaped in every field printed)."""
from __future__ import annotations

import pytest

from ..api.helpers import auth, new_game
from .support import admin, game_between, player


def report(client, token: str, name: str, **fields):
    return client.post("/reports", json={"player": name, "reason": "abuse", **fields}, headers=auth(token))


def test_one_reporter_and_one_target_are_capped(client, app, monkeypatch):
    monkeypatch.setitem(app.config, "REPORTS_PER_REPORTER_DAY", 3)
    monkeypatch.setitem(app.config, "REPORTS_PER_TARGET_DAY", 5)
    ann = player(client, "Ann")
    others = [player(client, f"Fan{n}") for n in range(6)]
    assert [report(client, ann["token"], f"Fan{n}").status_code for n in range(4)] == [201, 201, 201, 429]
    refused = report(client, ann["token"], "Fan5")
    assert refused.get_json()["code"] == "too-many-reports" and refused.headers["Retry-After"]
    # Against one target: five from five reporters, then none more, whoever files it.
    statuses = [report(client, fan["token"], "Ann").status_code for fan in others]
    assert statuses == [201] * 5 + [429]
    assert len(admin(app, "reports", "--limit", "500")["reports"]) == 8


def test_an_anonymous_seat_cannot_report_a_players_seat(client, app):
    ann = player(client, "Ann")
    made = client.post("/me/games", json={"rules": {"target": 25}}, headers=auth(ann["token"])).get_json()
    joined = client.post(f"/games/{made['game_id']}/join", json={"invite_code": made["invite_code"],
                                                                 "name": "Guest"}).get_json()
    refused = client.post(f"/games/{made['game_id']}/reports", json={"seat": 0, "reason": "abuse"},
                          headers=auth(joined["token"]))
    assert refused.status_code == 403 and refused.get_json()["code"] == "report-needs-player"
    # The player's seat may report the anonymous one; two anonymous seats may report each other.
    assert client.post(f"/games/{made['game_id']}/reports", json={"seat": 1, "reason": "abuse"},
                       headers=auth(ann["token"])).status_code == 201
    game = new_game(client, names=("Cy", "Dee"))  # (an anonymous seat may not be called Ann beside the player)
    assert client.post(f"/games/{game['id']}/reports", json={"seat": 1, "reason": "spam"},
                       headers=auth(game["tokens"][0])).status_code == 201
    assert sorted(r["by"]["name"] for r in admin(app, "reports")["reports"]) == ["Ann", "Cy"]


@pytest.mark.parametrize("details", ["\x9b31mred", "\x1b]52;c;ZXZpbA==\x07", "a\u202eb", "line\u2028break",
                                     "zero\u200bwidth", "\x85next"])
def test_details_with_control_or_format_characters_are_refused(client, details):
    ann, _ = player(client, "Ann"), player(client, "Bob")
    refused = report(client, ann["token"], "Bob", details=details)
    assert refused.status_code == 422 and refused.get_json()["code"] == "validation-error", refused.get_json()


def test_the_listing_is_paged_filtered_and_prints_no_terminal_control(client, app):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    game = game_between(client, ann, bob)
    # A message may hold what the page shows as text: the operator's terminal must not run it.
    said = client.post(f"/games/{game['id']}/messages", json={"text": "ok \u00a0fine"},
                       headers=auth(bob["token"])).get_json()
    from service.core.extensions import db
    from service.players.models import Report
    ids = []
    for n, (token, name, reason) in enumerate([(ann["token"], "Bob", "abuse"), (bob["token"], "Cy", "spam"),
                                               (cy["token"], "Ann", "name"), (ann["token"], "Cy", "abuse")]):
        answer = report(client, token, name, reason=reason, details=f"report {n}")
        ids.append(answer.get_json()["report_id"])
    with app.app_context():  # as a row written before the check could hold it
        db.session.get(Report, ids[0]).details = "evil\x9b2J\x1b]52;c;ZXZpbA==\x07\u202eright\u2028x"
        db.session.commit()
    first = admin(app, "reports", "--limit", "2")
    assert [r["id"] for r in first["reports"]] == ids[:2] and first["next_after"] == ids[1]
    rest = admin(app, "reports", "--limit", "2", "--after", str(first["next_after"]))
    assert [r["id"] for r in rest["reports"]] == ids[2:] and rest["next_after"] is None
    assert [r["id"] for r in admin(app, "reports", "--reason", "abuse")["reports"]] == [ids[0], ids[3]]
    assert [r["id"] for r in admin(app, "reports", "--player", "cy")["reports"]] == ids[1:]
    admin(app, "reports", "close", str(ids[1]))
    assert [r["id"] for r in admin(app, "reports", "--status", "closed")["reports"]] == [ids[1]]
    assert len(admin(app, "reports", "--status", "all")["reports"]) == 4
    assert said["text"]
    # The bytes the operator's terminal gets: no C1, ESC, BEL, bidi override or line separator.
    from flask.testing import FlaskCliRunner
    printed = FlaskCliRunner(app).invoke(args=["admin", "reports", "--by", "tests"]).output
    for raw in ("\x9b", "\x1b", "\x07", "\u202e", "\u2028"):
        assert raw not in printed, repr(raw)
    assert "\\u009b2J" in printed and "\\u202eright" in printed  # escaped, still readable
