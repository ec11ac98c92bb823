"""Helpers for the operator commands' tests: players in a game together, and `flask admin ...` run."""
from __future__ import annotations

import json

from ..api.helpers import auth


def player(client, name: str, email: str | None = None) -> dict:
    response = client.post("/players", json={"name": name, **({"email": email} if email else {})})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return {"name": name, "token": body["token"], "id": body["player"]["id"]}


def game_between(client, ann: dict, bob: dict, **fields) -> dict:
    """A started two-seat game: Ann made it as her player (seat 0), Bob joined as his.
    {"id", "seat_tokens": {seat: the seat's own token}, "players": {seat: player}}."""
    made = client.post("/me/games", json={"rules": {"preset": "standard", "target": 100}, **fields},
                       headers=auth(ann["token"]))
    assert made.status_code == 201, made.get_json()
    made = made.get_json()
    joined = client.post(f"/me/games/{made['game_id']}/join", json={"invite_code": made["invite_code"]},
                         headers=auth(bob["token"]))
    assert joined.status_code == 201, joined.get_json()
    joined = joined.get_json()
    return {"id": made["game_id"], "seat_tokens": {0: made["token"], 1: joined["token"]},
            "players": {0: ann, 1: bob}}


def admin(app, *args: str, ok: bool = True):
    """Run `flask admin ARGS`; its JSON output when it succeeded (as `ok` expects)."""
    result = app.test_cli_runner().invoke(args=["admin", *args, "--by", "tests"])
    assert (result.exit_code == 0) == ok, result.output
    return json.loads(result.output) if ok else result.output


def text_columns_holding(app, needles: list[str]) -> list[tuple[str, str]]:
    """(table, column) of every text or JSON column, in every table, where one of `needles` occurs
    (case-insensitively)."""
    from sqlalchemy import JSON, String, Text, cast, func, or_, select

    from service.core.extensions import db
    found = []
    with app.app_context():
        for table in db.metadata.sorted_tables:
            for column in table.columns:
                if not isinstance(column.type, (String, Text, JSON)):
                    continue
                text = func.lower(cast(column, Text))
                hit = db.session.execute(select(func.count()).select_from(table).where(
                    or_(*(text.contains(needle.lower()) for needle in needles)))).scalar()
                if hit:
                    found.append((table.name, column.name))
    return found
