"""The source texts' options of issue 25 through the HTTP API: offered in the contract's rules
(RulesChoice, which POST /games takes), accepted when a game is created, and played to the end."""
from __future__ import annotations

from .helpers import auth, new_game
from .test_replay import play_out


def rules_choice(client) -> dict:
    return client.get("/openapi.json").get_json()["components"]["schemas"]["RulesChoice"]["properties"]


def test_001s_box_and_shutout_are_offered_and_played_to_the_end(client):
    offered = rules_choice(client)
    assert "pagat_variations" in offered["preset"]["enum"]
    assert offered["box_per"]["enum"] == ["hand", "game"]
    assert "double_total" in offered["shutout"]["enum"]

    game = new_game(client, rules={"preset": "pagat_variations", "target": 30})
    rules = game["view"]["rules"]
    assert (rules["box_per"], rules["shutout"], rules["game_bonus"]) == ("game", "double_total", 0)
    play_out(client, game)
    final = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()
    [scored] = final["result"]["games"]
    closing = scored["final"]
    winner, loser = closing["winner"], 1 - closing["winner"]
    points = closing["hand_points"]
    # 001: the box is a bonus for each game won; the loser who scored nothing doubles the winner's
    # entire score.
    assert closing["box_bonus"][winner] == 25 and closing["box_bonus"][loser] == 0
    entire = points[winner] + 25
    assert closing["totals"][winner] == (2 * entire if points[loser] == 0 else entire)
    assert closing["totals"][loser] == points[loser]


def test_an_unknown_box_or_shutout_is_refused_naming_the_option(client):
    for rules, option in (({"box_per": "round"}, "box_per"), ({"shutout": "triple"}, "shutout")):
        response = client.post("/games", json={"name": "Ann", "rules": rules})
        assert response.status_code == 422
        assert response.get_json()["code"] == "invalid-option" and response.get_json()["option"] == option
