"""Helpers for the tournaments' tests: making one, playing its games by the players' tokens, and the
standings recomputed here from the games themselves (their final views), not from the service's."""
from __future__ import annotations

from ..api.helpers import auth
from ..players.support import play_to_the_end

QUICK = {"preset": "wikipedia", "target": 40}  # short matches: the tournament is what is tested


def make(client, organizer: dict, expect: int = 201, **fields) -> dict:
    body = {"name": "Test Cup", "rules": QUICK, **fields}
    response = client.post("/tournaments", json=body, headers=auth(organizer["token"]))
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def post(client, tournament_id: str, verb: str, player: dict, expect: int = 200, **json) -> dict:
    response = client.post(f"/tournaments/{tournament_id}/{verb}", headers=auth(player["token"]),
                           **({"json": json} if json else {}))
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def read(client, tournament_id: str) -> dict:
    response = client.get(f"/tournaments/{tournament_id}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def game_of(client, game_id: str, tokens: dict[str, str]) -> dict:
    """{"id", "tokens": {seat: token}} of a tournament game, its seats read from its view (a token of
    one of its players opens it)."""
    names = None
    for token in tokens.values():
        response = client.get(f"/games/{game_id}", headers=auth(token))
        if response.status_code == 200:
            names = {p["seat"]: p["name"] for p in response.get_json()["players"]}
            break
    return {"id": game_id, "tokens": {seat: tokens[name] for seat, name in names.items()}}


def current_games(t: dict) -> list[str]:
    """The games being played in the tournament's current round(s)."""
    return [g["game_id"] for r in t["rounds_played"] for p in r["pairings"] for g in p["games"]
            if g["status"] != "finished"]


def play_round(client, t: dict, tokens: dict[str, str], skip=()) -> None:
    for game_id in current_games(t):
        if game_id not in skip:
            play_to_the_end(client, game_of(client, game_id, tokens))


def play_out(client, tournament_id: str, tokens: dict[str, str], limit: int = 200) -> dict:
    for _ in range(limit):
        t = read(client, tournament_id)
        if t["status"] != "running":
            return t
        play_round(client, t, tokens)
    raise AssertionError("the tournament did not end")


def final_view(client, game_id: str, tokens: dict[str, str]) -> dict:
    game = game_of(client, game_id, tokens)
    return client.get(f"/games/{game_id}", headers=auth(game["tokens"][0])).get_json()


def recompute(client, t: dict, tokens: dict[str, str]) -> dict[str, dict]:
    """Each player's match points, gin points and opponents, from the games' own final views and the
    pairings (a bye 1 in a Swiss or a knockout); a pairing without games counts as the API says only
    for its scores (a forfeit), which the test checks otherwise."""
    table = {e["name"]: {"score": 0.0, "gin": 0, "opponents": []} for e in t["entrants"]}
    for r in t["rounds_played"]:
        for p in r["pairings"]:
            if p["second"] is None:
                table[p["first"]]["score"] += 1.0 if t["format"] != "round_robin" else 0.0
                continue
            table[p["first"]]["opponents"].append(p["second"])
            table[p["second"]]["opponents"].append(p["first"])
            if not p["games"]:
                table[p["first"]]["score"] += p["result"]["first"]
                table[p["second"]]["score"] += p["result"]["second"]
                continue
            won = {p["first"]: 0, p["second"]: 0}
            gin = {p["first"]: 0, p["second"]: 0}
            for g in p["games"]:
                view = final_view(client, g["game_id"], tokens)
                names = {x["seat"]: x["name"] for x in view["players"]}
                result = view["result"]
                if result["winner"] is not None:
                    won[names[result["winner"]]] += 1
                for seat, name in names.items():
                    gin[name] += result["totals"][seat] - result["totals"][1 - seat]
            a, b = p["first"], p["second"]
            share = (1.0, 0.0) if won[a] > won[b] else (0.0, 1.0) if won[b] > won[a] else (0.5, 0.5)
            table[a]["score"] += share[0]
            table[b]["score"] += share[1]
            if p["result"]["played"]:
                table[a]["gin"] += gin[a]
                table[b]["gin"] += gin[b]
    return table


def buchholz(table: dict[str, dict]) -> dict[str, float]:
    """Buchholz of a tournament without unplayed rounds: the sum of the opponents' scores."""
    return {name: sum(table[o]["score"] for o in row["opponents"]) for name, row in table.items()}
