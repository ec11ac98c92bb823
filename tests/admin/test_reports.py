"""Reports for the operator (issue 26): `flask admin reports` lists the open ones with what was
reported, `flask admin reports close ID --note` closes one, both written to the audit table; a bad id
changes nothing. Erasing a player takes its messages and its name in reports with it."""
from __future__ import annotations

from ..api.helpers import auth
from ..players.test_players import count
from .support import admin, game_between, player, text_columns_holding


def report_message(client, game: dict, by: dict, message: dict, reason: str = "abuse") -> dict:
    response = client.post(f"/games/{game['id']}/reports", json={
        "seat": message["seat"], "message_id": message["id"], "reason": reason, "details": "rude"},
        headers=auth(by["token"]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_reports_are_listed_and_closed_by_the_operator_and_audited(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = game_between(client, ann, bob)
    said = client.post(f"/games/{game['id']}/messages", json={"text": "you <i>fool</i>"},
                       headers=auth(bob["token"])).get_json()
    first = report_message(client, game, ann, said)
    second = client.post("/reports", json={"player": "Ann", "reason": "name"}, headers=auth(bob["token"])).get_json()
    listed = admin(app, "reports")["reports"]
    assert [r["id"] for r in listed] == [first["report_id"], second["report_id"]]
    assert listed[0]["reported"] == {"name": "Bob", "player_id": bob["id"], "seat": 1, "message_id": said["id"],
                                     "message": "you <i>fool</i>"}
    assert (listed[0]["by"]["name"], listed[0]["reason"], listed[0]["details"]) == ("Ann", "abuse", "rude")
    assert listed[1]["reported"]["name"] == "Ann" and listed[1]["by"]["name"] == "Bob"
    closed = admin(app, "reports", "close", str(first["report_id"]), "--note", "warned Bob")
    assert closed["note"] == "warned Bob" and closed["closed_at"]
    assert [r["id"] for r in admin(app, "reports")["reports"]] == [second["report_id"]]
    # Closing it again, or an id no report has, is refused and changes nothing.
    assert "no open report" in admin(app, "reports", "close", str(first["report_id"]), ok=False)
    assert "no open report" in admin(app, "reports", "close", "999999", ok=False)
    from sqlalchemy import select

    from service.admin.models import AdminAction
    from service.core.extensions import db
    with app.app_context():
        actions = [(a.action, a.operator, a.reason) for a in db.session.scalars(select(AdminAction).order_by(AdminAction.id))]
    assert actions == [("list-reports", "tests", None), ("close-report", "tests", f"report {first['report_id']}: warned Bob"),
                       ("list-reports", "tests", None)]


def test_erasing_a_player_takes_its_messages_and_its_name_in_reports(client, app):
    ann, bob = player(client, "Annabel"), player(client, "Bob")
    game = game_between(client, ann, bob)
    said = client.post(f"/games/{game['id']}/messages", json={"text": "Annabel's own words"},
                       headers=auth(ann["token"])).get_json()
    report_message(client, game, bob, said)
    assert admin(app, "export", "Annabel")["games"][0]["messages_written"][0]["text"] == "Annabel's own words"
    admin(app, "erase", "Annabel", "--yes")
    assert text_columns_holding(app, ["Annabel"]) == []
    assert count(app, "game_messages") == 0 and count(app, "reports") == 1
    seen = client.get(f"/games/{game['id']}/messages", headers=auth(bob["token"])).get_json()
    assert seen["messages"] == []


def test_export_holds_the_reports_filed_and_about_and_the_blocks_made(client, app):
    """A person's export holds the reports they filed (their words too), those about them without
    who filed them or the reporter's words, and the players they blocked; an erasure forgets those."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = game_between(client, ann, bob)
    said = client.post(f"/games/{game['id']}/messages", json={"text": "Bob's rude words"},
                       headers=auth(bob["token"])).get_json()
    filed = report_message(client, game, ann, said, reason="abuse")
    assert client.put("/me/blocks/Bob", headers=auth(ann["token"])).status_code == 200
    by_ann = admin(app, "export", "Ann")
    assert [(r["report_id"], r["reported_name"], r["message_text"], r["details"], r["reason"])
            for r in by_ann["reports"]["filed"]] == [(filed["report_id"], "Bob", "Bob's rude words", "rude", "abuse")]
    assert by_ann["reports"]["about"] == [] and [b["blocked"] for b in by_ann["blocks"]] == ["Bob"]
    about_bob = admin(app, "export", "Bob")
    assert [(r["report_id"], r["message_text"], r["reason"]) for r in about_bob["reports"]["about"]] == \
        [(filed["report_id"], "Bob's rude words", "abuse")]
    assert about_bob["reports"]["filed"] == [] and about_bob["blocks"] == []
    assert "Ann" not in repr(about_bob["reports"]) and "rude\"" not in repr(about_bob["reports"])
    assert "details" not in about_bob["reports"]["about"][0]
    # The seat's own export says the same of the seat.
    assert [r["report_id"] for r in admin(app, "export-seat", game["id"], "0")["reports"]["filed"]] == \
        [filed["report_id"]]
    admin(app, "erase", "Ann", "--yes")
    assert count(app, "blocks") == 0
