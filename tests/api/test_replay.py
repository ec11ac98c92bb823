"""A finished match, move by move (issue 24): GET /games/{id}/replay replays the stored moves through
the engine from the stored decks, for the seats and for watch-link holders, only once the match is
over; every move made is a step, in order, with both hands as they stood, and the sheet grows to the
one the game shows."""
from __future__ import annotations

import pytest

from .helpers import act, auth, mover, new_game
from .helpers import choose as choose_move
from .table_helpers import start_table


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
def test_a_finished_match_replays_move_by_move_for_its_seats_and_watchers(client, preset):
    game = new_game(client, rules={"preset": preset, "target": 40})
    early = client.get(f"/games/{game['id']}/replay", headers=auth(game["tokens"][0]))
    assert early.status_code == 409 and early.get_json()["code"] == "match-not-over"  # nothing shown early
    assert "steps" not in early.get_json()
    made = play_out(client, game)
    final = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()

    body = client.get(f"/games/{game['id']}/replay", headers=auth(game["tokens"][1])).get_json()
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
    assert body["players"] == ["Ann", "Bob"]

    link = client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][0])).get_json()
    watched = client.get(f"/games/{game['id']}/replay", headers=auth(link["key"]))
    assert watched.status_code == 200 and watched.get_json() == body
    wrong = client.get(f"/games/{game['id']}/replay", headers=auth("x" * 43))
    assert wrong.status_code == 401 and wrong.get_json()["code"] == "invalid-token"


def test_a_table_says_its_replay_is_not_offered(client):
    def post(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.get_json()
    table = start_table(post, 3)
    resign = client.post(f"/games/{table['id']}/actions", json={"type": "resign"}, headers=auth(table["tokens"][0]))
    assert resign.status_code == 200, resign.get_json()
    assert resign.get_json()["status"] == "finished", resign.get_json()["status"]
    answer = client.get(f"/games/{table['id']}/replay", headers=auth(table["tokens"][1]))
    assert answer.status_code == 422 and answer.get_json()["code"] == "replay-not-available", answer.get_json()
