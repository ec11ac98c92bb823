"""`gin series ID`: a series' standings and games, read with the player's token, against a real
server; a game resigned moves the standings and the next game appears; bad ids change nothing."""
from __future__ import annotations

import json
import uuid

import requests

from gin_client.cli.common import EXIT_NOT_FOUND, EXIT_USAGE

from .conftest import Player


def test_gin_series_shows_the_standings_and_the_games(tmp_path, gin_server):
    ann, bob = (Player(tmp_path / who, gin_server) for who in ("ann", "bob"))
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("Ann", "Bob")]
    ann.run("register", names[0])
    bob.run("register", names[1])
    tokens = [json.loads(p.config.read_text())["players"][gin_server]["token"] for p in (ann, bob)]
    offered = requests.post(f"{gin_server}/series", json={"to": names[1], "matches": 3},
                            headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10)
    assert offered.status_code == 201, offered.text
    series_id = offered.json()["series_id"]
    shown = bob.run("series", series_id).stdout
    assert f"{names[0]} v {names[1]}, best of 3, each game to 250 [offered]" in shown

    accepted = requests.post(f"{gin_server}/series/{series_id}/accept", headers={"Authorization": f"Bearer {tokens[1]}"},
                             timeout=10)
    assert accepted.status_code == 201, accepted.text
    first = accepted.json()["current_game"]
    resigned = requests.post(f"{gin_server}/games/{first}/actions", json={"type": "resign"},
                             headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10)
    assert resigned.status_code == 200, resigned.text
    shown = ann.run("series", series_id).stdout
    assert f"{names[1]} leads." in shown and "[playing]" in shown
    assert f"1. {names[0]} v {names[1]}  {names[1]} won" in shown and "(resign)" in shown
    assert f"2. {names[1]} v {names[0]}  in play: gin show -g " in shown
    rows = [line for line in shown.splitlines() if line.startswith("  ") and "won " in line and "points" in line]
    assert rows[0].split()[0] == names[1] and "won 1" in rows[0] and "won 0" in rows[1]
    as_json = ann.json("series", series_id)
    assert as_json["standings"]["leader"] == names[1] and len(as_json["games"]) == 2

    # Bad ids: refused, nothing written.
    before = ann.config.read_text()
    bad = ann.run("series", "not an id!", check=EXIT_USAGE)
    assert "not a series id" in bad.stderr
    unknown = ann.run("series", "x" * 22, check=EXIT_NOT_FOUND)
    assert "[series-not-found]" in unknown.stderr
    stranger = Player(tmp_path / "eve", gin_server)
    stranger.run("register", f"Eve{uuid.uuid4().hex[:6]}")
    assert "[series-not-found]" in stranger.run("series", series_id, check=EXIT_NOT_FOUND).stderr
    assert ann.config.read_text() == before
