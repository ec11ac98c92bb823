"""The reference bot and the client's display at tables of 3, 4, 6 and 8 seats (issue 14): one
bot process plays every seat of a rotation, a partnership and Tedesco's teams of three and four to the end against a real
gunicorn, and the client draws a table's view: the sides' scores, who is to move on which board,
who sits out, and the caller's own board."""
from __future__ import annotations

import re
import subprocess

import pytest

from gin_client.api import Api
from gin_client.cli.display import Style, render_view, seat_names, seat_view
from gin_client.cli.history import describe_event, score_sheet

from .conftest import REFERENCE_BOT


def new_table(url: str, seats: int, target: int, preset: str = "standard") -> tuple[str, dict[int, str]]:
    created = Api(url).create_game({"name": "A", "seats": seats, "rules": {"preset": preset, "target": target}})
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        joined = Api(url).join_game(created["game_id"], {"invite_code": invite["invite_code"],
                                                         "name": f"P{invite['seat']}"})
        tokens[joined["seat"]] = joined["token"]
    return created["game_id"], tokens


@pytest.mark.parametrize("seats, winners, preset", [(3, 1, "standard"), (4, 2, "standard"),
                                                    (6, 3, "tedesco_gin_teams_of_three"), (8, 4, "tedesco_gin")])
def test_one_bot_process_plays_every_seat_of_a_table_to_its_end(gin_server, seats, winners, preset):
    game_id, tokens = new_table(gin_server, seats, target=30, preset=preset)
    # Six or eight seats polling every 0.1 s from one address would pass its rate limit (600 a
    # minute): those wait on the game's stream, as the bot does by default.
    waiting = ["--wait", "0", "--poll-delay", "0.02", "--max-poll-delay", "0.1"] if seats <= 4 else ["--wait", "5"]
    done = subprocess.run([*REFERENCE_BOT, "--server", gin_server, *waiting,
                           *(f"{game_id}:{tokens[s]}" for s in range(seats))],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    outcomes = sorted(line.split(":")[1].split(",")[0].strip() for line in done.stdout.splitlines())
    assert outcomes == ["lost"] * (seats - winners) + ["won"] * winners
    decisions = [line for line in done.stderr.splitlines() if "action=" in line]
    assert decisions and all("deadwood=" in line for line in decisions)
    view, _ = Api(gin_server, tokens[0]).view(game_id)
    assert view["status"] == "finished" and view["result"]["reason"] == "target"
    assert max(view["result"]["totals"]) >= 30
    text = render_view(view, 0, Style(False), game_id)
    if seats > 4:  # Tedesco's teams: the table's kind, and every board each round had
        assert f"two teams of {seats // 2}" in text
        decided = [row for row in view["scores"]["sheet"] if row["hand"] is not None]
        assert len(decided) % (seats // 2) == 0 and {row["board"] for row in decided} == set(range(seats // 2))
    assert "The match is over" in text and ("You win" in text) == (0 in view["result"]["winner_seats"])
    # The score sheet and the history in table seats: each move named for the table seat that made it.
    sheet = score_sheet(view, 0)
    assert sheet.count("\n") >= len(view["scores"]["sheet"]) and "the match" in sheet.splitlines()[-1]
    names = seat_names(view)
    assert names == {s: ("A" if s == 0 else f"P{s}") for s in range(seats)}
    watcher = seats - 1
    for event in Api(gin_server, tokens[watcher]).events(game_id):
        line = describe_event(event, watcher, names, Style(False))
        if event.get("board") is not None and event["type"] in ("draw", "discard", "pass", "take_upcard"):
            actor = event["seats"][event["seat"]]
            assert line.startswith("you" if actor == watcher else names[actor]), (event, line)


def test_the_client_draws_a_table(gin_server):
    game_id, tokens = new_table(gin_server, 3, target=100)
    views = {s: Api(gin_server, tokens[s]).view(game_id)[0] for s in range(3)}
    style = Style(False)
    out = views[0]["sitting_out"]
    mover = views[0]["to_move"][0]
    sitting = render_view(views[out], out, style, game_id)
    assert "three players" in sitting and "Sitting out: you" in sitting and "Hand:" not in sitting
    assert f"Board 0: P1 v " in sitting or "Board 0: A v P1" in sitting
    playing = render_view(views[mover], mover, style, game_id)
    hand = views[mover]["my_board"]["view"]["hand"]
    assert "you to move" in playing and "Hand:" in playing and "You may:" in playing
    assert all(card in playing for card in hand)
    shown = set(re.findall(r"\b[A2-9TJQK][CDHS]\b", sitting))
    assert not shown & set(hand)  # the seat sitting out sees none of the mover's cards
    # The bot decides on the seat's own board, and its move is one the table lists.
    from gin_client.bots import reference
    assert reference.my_turn(views[mover]) and not reference.my_turn(views[out])
    assert reference.choose_action(seat_view(views[mover])) in views[mover]["legal_actions"]


def test_the_client_draws_a_team_table_with_its_round_and_team_bonus(gin_server):
    """Eight seats: four boards, the caller's own among them, the round, and a team bonus line
    once a round was won by a whole team (a view as the server sends it, with one such line)."""
    game_id, tokens = new_table(gin_server, 8, target=50, preset="tedesco_gin")
    view = Api(gin_server, tokens[5]).view(game_id)[0]
    text = render_view(view, 5, Style(False), game_id)
    assert "two teams of 4, round 1" in text and "Hand:" in text
    assert all(f"Board {i}:" in text for i in range(4))
    assert not any(f"Board {i}:" in text for i in range(4, 8))
    hands = {s: set(Api(gin_server, tokens[s]).view(game_id)[0]["my_board"]["view"]["hand"]) for s in (1, 3, 7)}
    shown = set(re.findall(r"\b[A2-9TJQK][CDHS]\b", text))
    mine = set(view["my_board"]["view"]["hand"]) | {card for b in view["boards"] for card in b["discard_pile"]}
    # Each board has its own deck: a card of another seat may share a name with one of mine or with
    # a public pile's; no other is shown.
    others = (hands[1] | hands[3] | hands[7]) - mine
    assert others and not others & shown
    view["scores"]["sheet"].append({"hand": None, "round": 0, "team_bonus": 50, "side": 1, "games_credited": [0]})
    text = render_view(view, 5, Style(False), game_id)
    assert "Team bonus: P1+P3+P5+P7 +50 (round 1, all won)" in text
    assert "round 1: team bonus to P1+P3+P5 (you)+P7: 50" in score_sheet(view, 5)
