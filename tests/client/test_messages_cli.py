"""The client's messages and blocks (issue 26): `gin say` writes to the other player, whose `gin show`
says "Ann wrote: ..." once; `gin play` takes `say` at its prompt; `gin block` has the blocked
player's challenges declined (as the blocker would decline them) and hides their messages; `gin unblock`, `gin blocks`. Real
gunicorn, the `gin` command, each person with their own token file; bad input changes nothing."""
from __future__ import annotations

import shlex
import subprocess
import time
import uuid

from gin_client.cli.common import EXIT_NOT_FOUND, EXIT_RULES

from .conftest import GIN
from .test_players_cli import person, stored


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


def a_game(ann, bob) -> tuple[str, str, str]:
    names = unique("Ann"), unique("Bob")
    ann.run("register", names[0])
    bob.run("register", names[1])
    offer = ann.json("challenge", names[1])
    bob.run("accept", offer["challenge_id"])
    ann.run("games")  # Ann's token file learns the game
    (game_id, _), = stored(bob)["games"].items()
    return game_id, *names


def test_say_reaches_the_other_players_show_once_and_play_takes_say(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    game_id, ann_name, _ = a_game(ann, bob)
    said = ann.run("say", "<b>Good", "luck</b>, Bob!").stdout
    assert "Sent to the other players" in said and "<b>Good luck</b>, Bob!" in said
    shown = bob.run("show", "--plain").stdout
    assert f"{ann_name} wrote: <b>Good luck</b>, Bob!" in shown
    assert "wrote:" not in bob.run("show", "--plain").stdout  # told once
    assert "wrote:" not in ann.run("show", "--plain").stdout  # one's own is not told back
    # `gin play` reads moves at its prompt while it is one's turn: there `say` writes a message.
    mover, other = (ann, bob) if ann.json("show")["to_move"] == ann.json("show")["seat"] else (bob, ann)
    out = subprocess.run([*GIN, "play", game_id[:8], "--plain"], env=mover.env(),
                         cwd=mover.home, input="say thanks, you too\nquit\n", capture_output=True, text=True,
                         encoding="utf-8", timeout=60, check=False).stdout
    assert "Sent: thanks, you too" in out
    assert "wrote: thanks, you too" in other.run("show", "--plain").stdout
    empty = ann.run("say", "   ", check=EXIT_RULES)
    assert "[message-empty]" in empty.stderr


def test_block_refuses_challenges_and_hides_messages_and_unblock_lifts_it(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    _, ann_name, bob_name = a_game(ann, bob)
    assert f"Blocked {bob_name}" in ann.run("block", bob_name).stdout
    assert bob_name in ann.run("blocks").stdout
    refused = bob.run("challenge", ann_name)  # declined as Ann would decline it: no block told
    assert f"{ann_name} declined the challenge (other)." in refused.stdout and "block" not in refused.stdout
    bob.run("say", "can you read me?")
    assert "wrote:" not in ann.run("show", "--plain").stdout
    assert "[player-not-found]" in ann.run("block", unique("Nobody"), check=EXIT_NOT_FOUND).stderr
    ann.run("unblock", bob_name)
    assert "You block nobody." in ann.run("blocks").stdout
    assert f"{bob_name} wrote: can you read me?" in ann.run("show", "--plain").stdout  # shown again


def test_play_reads_say_and_quit_while_waiting_for_the_other_side(tmp_path, gin_server):
    """Issue 38, item 4: `gin play` hears `say` and `quit` typed while it waits for the opponent."""
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    game_id, _, _ = a_game(ann, bob)
    waiter = bob if ann.json("show")["to_move"] == ann.json("show")["seat"] else ann
    other = ann if waiter is bob else bob
    typing = subprocess.Popen([*GIN, "play", game_id[:8], "--plain"], env=waiter.env(), cwd=waiter.home,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, encoding="utf-8")
    try:
        time.sleep(3)  # waiting for the other side by now
        typing.stdin.write("say are you there?\n")
        typing.stdin.flush()
        time.sleep(2)
        typing.stdin.write("quit\n")
        typing.stdin.flush()
        out, err = typing.communicate(timeout=30)
    finally:
        typing.kill()
    assert typing.returncode == 0, err
    assert "Waiting for" in err and "Sent: are you there?" in out
    assert "wrote: are you there?" in other.run("show", "--plain").stdout


def test_show_into_a_closed_pipe_ends_quietly(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    a_game(ann, bob)
    # `true` reads nothing and is gone before gin writes: gin's output meets a closed pipe.
    shown = subprocess.run(f"{' '.join(map(shlex.quote, GIN))} show --plain | true; echo ${{PIPESTATUS[0]}}",
                           shell=True, executable="/bin/bash", env=ann.env(), cwd=ann.home,
                           capture_output=True, text=True, timeout=60, check=False)
    assert shown.stdout.strip() == "0", shown
    assert "Traceback" not in shown.stderr and "BrokenPipe" not in shown.stderr, shown.stderr
