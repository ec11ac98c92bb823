"""Every bad input to tournaments: a clear problem with a stable code, and nothing changed (the
tournament reads the same after, and no tournament is made)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ..api.helpers import auth
from ..players.support import new_player
from .support import make, post, read


def refused(client, method: str, path: str, player: dict | None, code: str, status: int, **json) -> dict:
    headers = auth(player["token"]) if player else {}
    response = getattr(client, method)(path, headers=headers, **({"json": json} if json else {}))
    body = response.get_json()
    assert (response.status_code, body.get("code")) == (status, code), body
    assert response.headers["Content-Type"].startswith("application/problem+json")
    return body


def count(client) -> int:
    return len(client.get("/tournaments?limit=200").get_json()["tournaments"])


@pytest.mark.parametrize("fields, code, field", [
    ({"format": "ladder"}, "unknown-format", "format"),
    ({"format": "swiss", "rounds": 4, "min_entrants": 4}, "too-many-rounds", "rounds"),
    ({"format": "swiss"}, "invalid-tournament", "rounds"),
    ({"format": "knockout", "rounds": 3}, "invalid-tournament", "rounds"),
    ({"format": "swiss", "rounds": 2, "min_entrants": 9, "max_entrants": 8}, "invalid-tournament", "min_entrants"),
    ({"format": "knockout", "cycles": 2}, "invalid-tournament", "cycles"),
    ({"format": "swiss", "rounds": 2, "best_of": 3}, "invalid-tournament", "best_of"),
    ({"format": "knockout", "pace": "all_at_once"}, "invalid-tournament", "pace"),
    ({"format": "round_robin", "tie_breaks": ["buchholz"]}, "invalid-tie-breaks", "tie_breaks"),
    ({"format": "swiss", "rounds": 2, "tie_breaks": ["wins", "wins"]}, "invalid-tie-breaks", "tie_breaks"),
    ({"format": "swiss", "rounds": 2, "move_time_hours": 72, "round_hours": 24}, "invalid-tournament", "round_hours"),
    ({"format": "swiss", "rounds": 2, "invite": ["Bob"]}, "invalid-tournament", "invite"),
    ({"format": "swiss", "rounds": 2, "entry": "invitation", "invite": ["Nobody"]}, "unknown-player", "invite"),
])
def test_a_tournament_that_does_not_hold_together_is_refused_and_none_is_made(client, fields, code, field):
    ann = new_player(client, "Ann")
    new_player(client, "Bob")
    body = refused(client, "post", "/tournaments", ann, code, 422, **{"name": "Cup", **fields})
    assert body.get("field") == field
    assert count(client) == 0


def test_schema_errors_and_a_missing_token(client):
    ann = new_player(client, "Ann")
    refused(client, "post", "/tournaments", ann, "validation-error", 422, name="Cup", format="swiss", rounds=0)
    refused(client, "post", "/tournaments", ann, "validation-error", 422, name="", format="swiss", rounds=2)
    refused(client, "post", "/tournaments", ann, "validation-error", 422, name="Cup", format="swiss", rounds=2,
            extra=True)
    refused(client, "post", "/tournaments", None, "invalid-token", 401, name="Cup", format="swiss", rounds=2)
    refused(client, "get", "/tournaments?status=playing", None, "validation-error", 422)
    refused(client, "get", "/tournaments/nope", None, "tournament-not-found", 404)
    refused(client, "get", "/players/Nobody/tournaments", None, "player-not-found", 404)
    assert count(client) == 0


def test_entry_refusals_change_nothing(app, client):
    ann, bob, cid, dee, eve = (new_player(client, n) for n in ("Ann", "Bob", "Cid", "Dee", "Eve"))
    robo = new_player(client, "Robo", bot=True)
    t = make(client, ann, format="swiss", rounds=2, min_entrants=3, max_entrants=3)
    tid = t["tournament_id"]
    path = f"/tournaments/{tid}"
    post(client, tid, "join", bob)
    before = read(client, tid)
    refused(client, "post", f"{path}/join", bob, "already-entered", 409)
    refused(client, "post", f"{path}/leave", cid, "not-entered", 409)
    refused(client, "post", f"{path}/start", bob, "not-organizer", 403)
    refused(client, "post", f"{path}/start", ann, "not-enough-entrants", 409)
    refused(client, "post", f"{path}/withdraw", bob, "tournament-not-running", 409)
    refused(client, "post", f"{path}/house-bot", ann, "house-bot-not-allowed", 409, level=3)
    refused(client, "post", f"{path}/house-bot", ann, "validation-error", 422, level=9)
    # Blocks: the organizer's of a player, and between a player and an entrant, either way.
    client.put("/me/blocks/Cid", headers=auth(ann["token"]))
    client.put("/me/blocks/Bob", headers=auth(dee["token"]))
    refused(client, "post", f"{path}/join", cid, "entry-refused", 403)
    refused(client, "post", f"{path}/join", dee, "entry-refused", 403)
    assert read(client, tid) == before
    post(client, tid, "join", robo)
    post(client, tid, "join", ann)  # the organizer enters like anyone
    full = read(client, tid)
    assert full["entrants_count"] == 3
    refused(client, "post", f"{path}/join", eve, "tournament-full", 409)
    assert read(client, tid) == full
    # Who may enter.
    people = make(client, ann, format="knockout", entry="people")
    bots = make(client, ann, format="knockout", entry="bots")
    invited = make(client, ann, format="knockout", entry="invitation", invite=["Eve"])
    refused(client, "post", f"/tournaments/{people['tournament_id']}/join", robo, "not-admitted", 403)
    refused(client, "post", f"/tournaments/{bots['tournament_id']}/join", eve, "not-admitted", 403)
    refused(client, "post", f"/tournaments/{invited['tournament_id']}/join", bob, "not-admitted", 403)
    assert post(client, invited["tournament_id"], "join", eve)["invited"] == ["Eve"]
    # Started, then cancelled ones.
    post(client, tid, "start", ann)
    started = read(client, tid)
    refused(client, "post", f"{path}/join", eve, "tournament-started", 409)
    refused(client, "post", f"{path}/leave", bob, "tournament-started", 409)
    refused(client, "post", f"{path}/cancel", ann, "tournament-started", 409)
    refused(client, "post", f"{path}/start", ann, "tournament-started", 409)
    refused(client, "post", f"{path}/withdraw", eve, "not-entered", 409)
    assert read(client, tid) == started
    post(client, people["tournament_id"], "cancel", ann)
    refused(client, "post", f"/tournaments/{people['tournament_id']}/join", eve, "tournament-cancelled", 409)
    refused(client, "post", f"/tournaments/{people['tournament_id']}/cancel", ann, "tournament-cancelled", 409)
    # An entry window that closed, before the sweep has started the tournament.
    app.config["CLOCK"] = lambda: datetime.now(timezone.utc) + timedelta(hours=100)
    try:
        refused(client, "post", f"/tournaments/{bots['tournament_id']}/join", robo, "entry-closed", 409)
    finally:
        app.config.pop("CLOCK")


def test_the_caps_on_tournaments_made_and_entered(app, client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    app.config.update(TOURNAMENTS_CREATED_PER_DAY=2, TOURNAMENTS_ENTERED_MAX=1)
    try:
        first = make(client, ann, format="knockout")
        make(client, ann, format="knockout")
        refused(client, "post", "/tournaments", ann, "too-many-tournaments-created", 429, name="Cup",
                format="knockout")
        assert count(client) == 2
        post(client, first["tournament_id"], "join", bob)
        second = make(client, bob, format="knockout")
        refused(client, "post", f"/tournaments/{second['tournament_id']}/join", bob, "too-many-tournament-entries", 409)
        assert read(client, second["tournament_id"])["entrants"] == []
        post(client, first["tournament_id"], "leave", bob)
        post(client, second["tournament_id"], "join", bob)
    finally:
        app.config.pop("TOURNAMENTS_CREATED_PER_DAY")
        app.config.pop("TOURNAMENTS_ENTERED_MAX")


def test_the_listing_filters_by_status_format_and_entry(client):
    ann = new_player(client, "Ann")
    swiss = make(client, ann, format="swiss", rounds=2, entry="bots")
    knockout = make(client, ann, format="knockout")
    post(client, knockout["tournament_id"], "cancel", ann)
    ids = lambda query: [t["tournament_id"] for t in client.get(f"/tournaments?{query}").get_json()["tournaments"]]  # noqa: E731
    assert ids("") == [knockout["tournament_id"], swiss["tournament_id"]]
    assert ids("status=open") == [swiss["tournament_id"]] == ids("format=swiss") == ids("entry=bots")
    assert ids("status=cancelled&format=knockout") == [knockout["tournament_id"]]
    page = client.get("/tournaments?limit=1").get_json()
    assert len(page["tournaments"]) == 1 and page["next_offset"] == 1


def test_a_persons_data_export_lists_the_tournaments_organized_and_entered(app, client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    made = make(client, ann, format="knockout")
    post(client, made["tournament_id"], "join", bob)
    from service.admin.export import export_player
    from service.players import accounts
    with app.app_context():
        mine = {name: export_player(accounts.by_name(name))["tournaments"] for name in ("Ann", "Bob")}
    assert [(t["tournament_id"], t["organized_by_you"], t["entered"]) for t in mine["Ann"]] == [
        (made["tournament_id"], True, False)]
    assert [(t["name"], t["organized_by_you"], t["entered"], t["place"]) for t in mine["Bob"]] == [
        ("Test Cup", False, True, None)]
