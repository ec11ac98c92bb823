"""`gin tournaments` and `gin tournament ACTION ID` against a real server, with the installed `gin`:
the listing, joining, the standings and one's game this round (kept, so `gin show` opens it), and
bad input refused with nothing written."""
from __future__ import annotations

import json
import uuid

import requests

from gin_client.cli.common import EXIT_NOT_FOUND, EXIT_RULES, EXIT_USAGE

from .conftest import Player


def test_gin_lists_joins_and_shows_a_tournament_and_the_players_game(tmp_path, gin_server):
    people = {who: Player(tmp_path / who, gin_server) for who in ("ann", "bob", "cid")}
    names = {who: f"{who.title()}{uuid.uuid4().hex[:6]}" for who in people}
    for who, person in people.items():
        person.run("register", names[who])
    token = json.loads(people["ann"].config.read_text())["players"][gin_server]["token"]
    made = requests.post(f"{gin_server}/tournaments", json={
        "name": "CLI Cup", "format": "round_robin", "min_entrants": 3, "max_entrants": 3,
        "rules": {"preset": "standard", "target": 10}}, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert made.status_code == 201, made.text
    tid = made.json()["tournament_id"]
    listed = people["bob"].run("tournaments", "--status", "open").stdout
    assert tid in listed and "CLI Cup" in listed and "round robin" in listed and "[open]" in listed
    assert tid not in people["bob"].run("tournaments", "--format", "swiss").stdout
    for who in people:
        joined = people[who].run("tournament", "join", tid).stdout
        assert "CLI Cup" in joined and "[open]" not in joined
    started = requests.post(f"{gin_server}/tournaments/{tid}/start", headers={"Authorization": f"Bearer {token}"},
                            timeout=10)
    assert started.status_code == 200, started.text
    playing = [who for who in people if any(names[who] in (p["first"], p["second"])
                                            for p in started.json()["rounds_played"][0]["pairings"])]
    shown = people[playing[0]].run("tournament", "show", tid).stdout
    assert "round 1 of 3" in shown and "Your game in round 1: against " in shown
    game_id = shown.split("gin show -g ")[1].split()[0]
    assert game_id in json.loads(people[playing[0]].config.read_text())["games"], "kept: gin show opens it"
    assert people[playing[0]].run("show", "-g", game_id).returncode == 0
    as_json = people[playing[0]].json("tournament", "show", tid)
    assert as_json["tournament_id"] == tid and as_json["status"] == "running"

    # Bad input: refused, nothing written.
    before = people["ann"].config.read_text()
    assert "not a tournament id" in people["ann"].run("tournament", "show", "not an id!", check=EXIT_USAGE).stderr
    assert "[tournament-not-found]" in people["ann"].run("tournament", "join", "x" * 22,
                                                         check=EXIT_NOT_FOUND).stderr
    assert "[tournament-started]" in people["ann"].run("tournament", "leave", tid, check=EXIT_RULES).stderr
    assert people["ann"].config.read_text() == before
