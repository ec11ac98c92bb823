"""`gin rematch` and `gin accept` at a table of players (a real gunicorn, the `gin` command): one
offers, the others accept in turn; every acceptance but the last says who is still to answer, the
last takes its seat in the new table, and `gin rematch` then names the new game."""
from __future__ import annotations

import requests

from .test_players_cli import person, stored, unique


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_table_rematch_with_the_client(tmp_path, gin_server):
    people = [person(tmp_path, gin_server, who) for who in ("ann", "bob", "cy", "dee")]
    names = [unique(n) for n in ("Ann", "Bob", "Cy", "Dee")]
    for who, name in zip(people, names):
        who.run("register", name)
    tokens = [stored(who)["players"][gin_server]["token"] for who in people]
    made = requests.post(f"{gin_server}/me/games", json={"seats": 4, "rules": {"target": 25}},
                         headers=bearer(tokens[0]), timeout=10).json()
    for invite in made["invites"]:
        joined = requests.post(f"{gin_server}/me/games/{made['game_id']}/join", json={"invite_code": invite["invite_code"]},
                               headers=bearer(tokens[invite["seat"]]), timeout=10)
        assert joined.status_code == 201, joined.text
    game_id = made["game_id"]
    resigned = requests.post(f"{gin_server}/games/{game_id}/actions", json={"type": "resign"},
                             headers=bearer(tokens[3]), timeout=10)
    assert resigned.json()["status"] == "finished"
    listed = people[0].json("games")["games"]
    assert [g["game_id"] for g in listed] == [game_id]

    said = people[0].run("rematch", "-g", game_id).stdout
    assert "Offered a rematch" in said and f"{names[1]} and {names[2]} and {names[3]} accept with: gin accept" in said
    offer = people[0].json("rematch", "-g", game_id)
    assert [s["answer"] for s in offer["seats"]] == ["offered", "pending", "pending", "pending"]
    assert offer["challenge_id"] in people[2].run("challenges").stdout
    first = people[1].run("accept", offer["challenge_id"], "--plain").stdout
    assert f"the rematch starts when {names[2]}, {names[3]} accept too" in first
    assert stored(people[1])["games"] == {}  # no game yet
    assert f"{names[1]} (accepted)" in people[0].run("rematch", "-g", game_id).stdout
    people[2].run("accept", offer["challenge_id"], "--plain")
    last = people[3].run("accept", offer["challenge_id"], "--plain").stdout
    assert "Accepted. Game" in last and "you are seat 3" in last
    again = people[0].json("rematch", "-g", game_id)
    assert again["status"] == "accepted" and again["game_id"] in stored(people[3])["games"]
    assert f"The rematch is game {again['game_id']}" in people[0].run("rematch", "-g", game_id).stdout
    assert again["game_id"][:8] in people[2].run("games").stdout  # a table's row (seat 2 faces no seat 1)
