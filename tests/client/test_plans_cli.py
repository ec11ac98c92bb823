"""`gin plan` and `gin orders` (issue 39) against real gunicorn: a whole turn in one command whose
answer says what was drawn and decided; orders set, shown and cancelled; a plan that cannot be
played is refused with the engine's code and changes nothing."""
from __future__ import annotations

import subprocess

from gin_client.cli.common import EXIT_RULES

from .conftest import GIN

from .test_messages_cli import a_game
from .test_players_cli import person


def test_a_plan_and_orders_from_the_command_line(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    game_id, _, _ = a_game(ann, bob)
    shown = ann.run("orders", game_id[:8], "always go gin").stdout
    assert "Your standing orders: always go gin; until cancelled" in shown
    assert "always go gin" in ann.run("orders", game_id[:8]).stdout
    assert "no orders" in bob.run("orders", game_id[:8]).stdout  # Bob's are his own
    for _ in range(3):  # both pass the upcard: the first to play draws
        view = ann.json("show")
        mover = ann if view["to_move"] == view["seat"] else bob
        if mover.json("show")["phase"] == "draw":
            break
        mover.run("pass")
    refused = mover.run("plan", game_id[:8], "draw stock, discard drawn unless it melds", check=EXIT_RULES)
    assert "[ambiguous-plan]" in refused.stderr
    told = mover.run("plan", game_id[:8], "draw stock, discard drawn unless it melds, else worst").stdout
    assert told.startswith("You drew ") and "from the stock" in told
    assert mover.json("show")["to_move"] != mover.json("show")["seat"]
    assert "no orders" in ann.run("orders", game_id[:8], "--cancel").stdout
    # `gin play` takes a whole turn typed at its prompt as a plan
    other = bob if mover is ann else ann
    out = subprocess.run([*GIN, "play", game_id[:8], "--plain", "--timeout", "3"], env=other.env(), cwd=other.home,
                         input="draw stock, discard worst\nquit\n", capture_output=True, text=True,
                         encoding="utf-8", timeout=60, check=False).stdout
    assert "You drew " in out and "discard worst: throwing" in out, out
    assert other.json("show")["to_move"] != other.json("show")["seat"]
