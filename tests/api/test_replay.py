"""A finished match, move by move (issue 24): GET /games/{id}/replay replays the stored moves through
the engine from the stored decks, for the seats and for watch-link holders, only once the match is
over; every move made is a step, in order, with both hands as they stood, and the sheet grows to the
one the game shows."""
from __future__ import annotations

import pytest
import yaml

from .helpers import act, auth, mover, new_game
from .helpers import choose as choose_move
from .table_helpers import TEDESCO_TEAMS, mover_and_action, start_table
from .test_openapi import generated, spec_app, validator_for  # noqa: F401 (fixtures)


def play_out(client, game: dict) -> list[tuple[int, dict]]:
    """Moves by the tests' policy to the match's end; returns each (seat, action) made."""
    made = []
    for _ in range(5000):
        seat, mine = mover(client, game)
        if mine["status"] == "finished":
            return made
        action = choose_move(mine)
        response = act(client, game, seat, action)
        assert response.status_code == 200, response.get_json()
        made.append((seat, action))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
def test_a_finished_match_replays_move_by_move_for_its_seats_and_watchers(client, generated, preset):  # noqa: F811
    game = new_game(client, rules={"preset": preset, "target": 40})
    early = client.get(f"/games/{game['id']}/replay", headers=auth(game["tokens"][0]))
    assert early.status_code == 409 and early.get_json()["code"] == "match-not-over"  # nothing shown early
    assert "steps" not in early.get_json()
    made = play_out(client, game)
    final = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()

    body = client.get(f"/games/{game['id']}/replay", headers=auth(game["tokens"][1])).get_json()
    validator_for(yaml.safe_load(generated), "GameReplay").validate(body)
    assert body["kind"] == "game"
    steps = body["steps"]
    assert [(s["seat"], s["action"]) for s in steps if s["action"] is not None] == made
    deals = [s for s in steps if s["action"] is None]
    assert [s["hand"] for s in deals] == list(range(1, final["hand_number"] + 1))
    for deal in deals:  # each hand as dealt from its revealed deck: ten cards each
        [revealed] = [d for d in final["revealed_deals"] if d["hand"] == deal["hand"]]
        assert sorted(deal["hands"]["0"] + deal["hands"]["1"]) == sorted(revealed["deck"][:20])
    for step in steps:  # 52 cards in every position, none twice
        held = step["hands"]["0"] + step["hands"]["1"] + step["discard_pile"]
        assert len(held) == len(set(held)) and len(held) + step["stock_count"] <= 52
    assert steps[-1]["sheet"] == final["scores"]["sheet"] and body["result"] == final["result"]
    assert body["players"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}] == final["players"]

    link = client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][0])).get_json()
    watched = client.get(f"/games/{game['id']}/replay", headers=auth(link["key"]))
    assert watched.status_code == 200 and watched.get_json() == body
    wrong = client.get(f"/games/{game['id']}/replay", headers=auth("x" * 43))
    assert wrong.status_code == 401 and wrong.get_json()["code"] == "invalid-token"


def play_table_out(client, table: dict) -> list[tuple[int, dict]]:
    """Moves by the tests' policy to the table's end; returns each (seat, action) made."""
    made = []
    for _ in range(6000):
        views = {seat: client.get(f"/games/{table['id']}", headers=auth(token)).get_json()
                 for seat, token in table["tokens"].items()}
        if views[0]["status"] == "finished":
            return made
        seat, action = mover_and_action(views)
        response = client.post(f"/games/{table['id']}/actions", json=action, headers=auth(table["tokens"][seat]))
        assert response.status_code == 200, response.get_json()
        made.append((seat, action))
    raise AssertionError("the table's match did not end")


@pytest.mark.parametrize("seats, fmt, rules", [(3, "rotation", {"target": 40}), (4, "partnership", {"target": 40}),
                                               (6, "partnership", TEDESCO_TEAMS)])
def test_a_finished_table_replays_move_by_move_with_every_board(client, generated, seats, fmt, rules):  # noqa: F811
    def post(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.get_json()
    table = start_table(post, seats, rules)
    early = client.get(f"/games/{table['id']}/replay", headers=auth(table["tokens"][1]))
    assert early.status_code == 409 and early.get_json()["code"] == "match-not-over"
    made = play_table_out(client, table)
    final = client.get(f"/games/{table['id']}", headers=auth(table["tokens"][0])).get_json()

    body = client.get(f"/games/{table['id']}/replay", headers=auth(table["tokens"][seats - 1])).get_json()
    validator_for(yaml.safe_load(generated), "TableReplay").validate(body)
    assert body["kind"] == "table" and body["format"] == fmt and body["seats"] == seats
    assert [p["name"] for p in body["players"]] == ["Ann"] + [f"P{seat}" for seat in range(1, seats)]
    assert body["players"] == final["players"] and body["sides"] == final["sides"]
    steps = body["steps"]
    assert [(s["seat"], s["action"]) for s in steps if s["action"] is not None] == made  # every move, in order
    deals = [s for s in steps if s["action"] is None]
    revealed = {d["hand"]: d["deck"] for d in final["revealed_deals"]}
    assert [s["deal"] for s in deals] == list(range(1, len(revealed) + 1))  # every deal, numbered as the game's
    for deal in deals:  # the board dealt holds its deck's first twenty cards, ten to each of its seats
        [board] = [b for b in deal["boards"] if b is not None and b["deal"] == deal["deal"]]
        hands = list(board["hands"].values())
        assert sorted(board["hands"]) == sorted(str(s) for s in board["seats"]) and all(len(h) == 10 for h in hands)
        assert sorted(hands[0] + hands[1]) == sorted(revealed[deal["deal"]][:20])
    boards_at_once = max(sum(b is not None for b in s["boards"]) for s in steps)
    assert boards_at_once == (seats // 2 if fmt == "partnership" else 1)
    for step in steps:  # every board whole: no card twice, none lost beyond its stock
        for board in filter(None, step["boards"]):
            held = [c for h in board["hands"].values() for c in h] + board["discard_pile"]
            assert len(held) == len(set(held)) and len(held) + board["stock_count"] <= 52
    if fmt == "rotation":  # the seat sitting out is on no board, and the seats take turns at it
        assert all(s["sitting_out"] not in (s["boards"][0] or {"seats": []})["seats"] for s in steps)
        assert len({s["sitting_out"] for s in steps}) >= 2
    else:
        assert all(s["sitting_out"] is None for s in steps)
    assert steps[-1]["scores"] == final["scores"] and body["result"] == final["result"]

    link = client.post(f"/games/{table['id']}/watch-links", headers=auth(table["tokens"][0])).get_json()
    watched = client.get(f"/games/{table['id']}/replay", headers=auth(link["key"]))
    assert watched.status_code == 200 and watched.get_json() == body


def test_a_resigned_table_replays_to_its_end(client):
    def post(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.get_json()
    table = start_table(post, 3)
    resign = client.post(f"/games/{table['id']}/actions", json={"type": "resign"}, headers=auth(table["tokens"][2]))
    assert resign.status_code == 200 and resign.get_json()["status"] == "finished", resign.get_json()
    body = client.get(f"/games/{table['id']}/replay", headers=auth(table["tokens"][1])).get_json()
    assert [(s["seat"], s["action"]) for s in body["steps"]] == [(None, None), (2, {"type": "resign"})]
    assert body["result"]["reason"] == "resign" and 2 not in body["result"]["winner_seats"]
