"""The reference client as people meet it: the installed `gin` command, what it says happened,
options anywhere, "did you mean", the hints, `gin play`, and the stream that outlives a restart."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gin_client import api as http
from gin_client.api import Api
from gin_client.bots import reference
from gin_client.cli.common import EXIT_ERROR, EXIT_RULES, EXIT_USAGE

from .conftest import Player
from .test_cli import command_for, mover, start_game

GIN_COMMAND = Path(sys.executable).parent / "gin"  # what `pip install` of the project puts on the PATH


def test_pip_install_puts_gin_on_the_path_and_its_printed_commands_work_pasted(tmp_path, gin_server):
    assert GIN_COMMAND.exists(), "no `gin` script: [project.scripts] in pyproject.toml, then pip install -e ."
    ann, bob = (Player(tmp_path / who, gin_server) for who in ("ann", "bob"))
    printed = ann.run("new", "--name", "Ann").stdout
    line = re.search(r"^\s*(gin join .*)$", printed, re.M).group(1)
    env = {**bob.env(), "PATH": f"{GIN_COMMAND.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    pasted = subprocess.run(["bash", "-c", line + " --name Bob"], env=env, cwd=bob.home, capture_output=True,
                            text=True, timeout=60)
    assert pasted.returncode == 0, pasted.stderr
    assert "Joined game" in pasted.stdout and len(bob.games()) == 1


def test_options_go_before_or_after_the_command(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    for args in (("-g", game_id[:6], "show", "--json"), ("--json", "show", "-g", game_id[:6]),
                 ("--plain", "-g", game_id, "--json", "show")):
        assert ann.json(*args[:-1] if args[-1] == "--json" else args)["game_id"] == game_id, args
    player, _ = mover(ann, bob, game_id)
    assert "Your turn" in player.run("-g", game_id, "--plain", "watch", "--timeout", "30").stdout
    other = bob if player is ann else ann
    gave_up = other.run("--plain", "watch", "-g", game_id[:5], "--timeout", "1", check=EXIT_ERROR)
    assert "[watch-timeout]" in gave_up.stderr  # the stream is given up at the deadline


def test_a_mistyped_command_gets_did_you_mean(players):
    ann, _ = players
    done = ann.run("shwo", check=EXIT_USAGE)
    assert "did you mean `gin show`?" in done.stderr and done.stderr.count("\n") == 1


def test_a_game_waiting_for_its_opponent_says_so(players):
    ann, _ = players
    created = ann.json("new", "--name", "Ann")
    shown = ann.run("show", "--plain").stdout
    assert f"gin join {created['game_id']} {created['invite_code']}" in shown
    refused = ann.run("draw", "stock", check=EXIT_RULES)
    assert "[game-not-started]" in refused.stderr and "has not joined yet" in refused.stderr


def test_moves_say_what_happened_and_show_says_what_the_opponent_did(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    player, view = mover(ann, bob, game_id)
    other = bob if player is ann else ann
    while view["phase"] == "upcard_offer":  # both pass the upcard: then the first draw
        player.run("pass")
        player, view = mover(ann, bob, game_id)
    drawn = player.run("draw", "stock", "--plain").stdout
    card = re.search(r"You drew from the stock: (\w\w)\.", drawn).group(1)
    view, _ = Api(player.server, player.games()[game_id]["token"]).view(game_id)
    assert card in view["hand"]
    name = "Ann" if player is ann else "Bob"
    player.run(*command_for(view))
    told = other.run("show", "--plain").stdout
    assert "Since you looked:" in told and f"{name} drew from the stock." in told
    assert f"{name} discarded" in told or f"{name} knocked" in told  # (a knock's discard is face down)
    assert "Since you looked:" not in other.run("show", "--plain").stdout  # told once


def test_the_end_of_a_hand_shows_both_hands_laid_out(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    apis = {p: Api(p.server, p.games()[game_id]["token"]) for p in (ann, bob)}
    ann.run("show")  # Ann has looked at the deal
    while True:
        player, view = mover(ann, bob, game_id)
        if view["hand_number"] > 1 or view["status"] == "finished":
            break
        apis[player].act(game_id, reference.choose_action(view, knock_at=10), version=view["version"])
    told = ann.run("show", "--plain").stdout
    assert re.search(r"Hand 1 (over|void)", told), told
    assert re.search(r"^\s+you: .*(deadwood|[2-9TJQKA][CDHS])", told, re.M), told
    assert re.search(r"^\s+Bob: ", told, re.M), told


# `gin play` run with Ctrl-C (SIGINT) working even where the tests were started with it ignored, as a
# background job of a script is: Python keeps an inherited "ignore", and the Ctrl-C below would be lost.
WITH_CTRL_C = ("import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
               "runpy.run_module('gin_client.cli', run_name='__main__', alter_sys=True)")


def test_gin_play_waits_for_the_opponent_then_takes_typed_moves(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    player, view = mover(ann, bob, game_id)
    other = bob if player is ann else ann
    sitting = subprocess.Popen([sys.executable, "-c", WITH_CTRL_C, "play", "--plain"],
                               env={**other.env(), "PYTHONUNBUFFERED": "1"}, cwd=other.home, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while view["to_move"] == view["seat"]:  # the opponent's whole turn, while `gin play` waits
        view = json.loads(player.run(*command_for(view), "--json").stdout)
    api = Api(other.server, other.games()[game_id]["token"])
    mine, _ = api.view(game_id)
    assert mine["to_move"] == mine["seat"]
    typed = " ".join(command_for(mine)).replace("10", "T")
    printed = []  # what `gin play` prints, as it prints it
    reader = threading.Thread(target=lambda: printed.extend(iter(lambda: sitting.stdout.read(1), "")), daemon=True)
    reader.start()
    sitting.stdin.write(f"flyy\n{typed}\nquit\n")
    sitting.stdin.close()
    while api.view(game_id)[0]["version"] == mine["version"]:  # the typed move is made...
        assert sitting.poll() is None, sitting.stderr.read()
        time.sleep(0.1)
    # ...and its result told (after the second prompt, the one that read it)
    give_up = time.monotonic() + 30
    while "You " not in "gin> ".join("".join(printed).split("gin> ")[2:]) and time.monotonic() < give_up:
        time.sleep(0.05)
    if sitting.poll() is None:  # if it ended the turn, `gin play` waits again: Ctrl-C
        sitting.send_signal(signal.SIGINT)
    sitting.wait(timeout=60)
    reader.join(timeout=10)
    out, err = "".join(printed), sitting.stderr.read()
    assert "Playing game" in out and "gin>" in out and "Your turn" in out, out + err
    assert "unknown move 'flyy'" in out
    after_move = "gin> ".join(out.split("gin> ")[2:])  # what followed the typed move: its result, not news
    assert "You " in after_move and "Since you looked:" not in after_move, out


def test_the_stream_iterator_outlives_a_server_restart_and_sees_the_move_after_it(restartable_server, monkeypatch):
    url = restartable_server.url
    created = Api(url).create_game({"name": "A"})
    joined = Api(url).join_game(created["game_id"], {"invite_code": created["invite_code"], "name": "B"})
    tokens = {0: created["token"], 1: joined["token"]}
    game_id = created["game_id"]
    start, _ = Api(url, tokens[0]).view(game_id)
    waiter = 1 - start["to_move"]
    streams = []
    real_stream = http.stream
    monkeypatch.setattr(http, "stream", lambda *a, **k: streams.append(a[2] if len(a) > 2 else k.get("last_event_id"))
                        or real_stream(*a, **k))
    seen, retries = [], []

    def watch():
        for view in http.views(Api(url, tokens[waiter], retries=0), game_id, start["version"],
                               on_retry=lambda exc, pause: retries.append(exc), sleep=lambda s: time.sleep(min(s, 0.5))):
            seen.append(view)
            return

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    while not streams:  # the watcher has asked for the stream: now the server goes away
        time.sleep(0.01)
    restartable_server.stop()
    restartable_server.start()
    mover_api = Api(url, tokens[start["to_move"]])
    view, _ = mover_api.view(game_id)
    mover_api.act(game_id, reference.choose_action(view), version=view["version"])
    thread.join(timeout=60)
    assert not thread.is_alive() and seen, "the watcher did not see the move made after the restart"
    assert seen[0]["version"] > start["version"]
    assert len(streams) >= 2, streams  # the first stream broke off with the restart: a second one resumed it
    assert all(last == start["version"] for last in streams)  # with Last-Event-ID


class ServerWithoutStream:
    """A real server as one from before the stream: every request is passed to the service, but
    /stream answers 404 (what a server without the route says)."""

    def __init__(self, upstream: str):
        import http.server
        import requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _pass(self):
                if self.path.split("?")[0].endswith("/stream"):
                    body = b'{"code": "not-found", "status": 404, "title": "Not Found", "detail": "no such path"}'
                    self.send_response(404)
                    self.send_header("Content-Type", "application/problem+json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                length = int(self.headers.get("Content-Length") or 0)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                answer = requests.request(self.command, upstream + self.path, headers=headers,
                                          data=self.rfile.read(length) if length else None, timeout=90)
                self.send_response(answer.status_code)
                for name, value in answer.headers.items():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length", "content-encoding"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = _pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def test_without_a_stream_views_fall_back_to_the_long_poll(gin_server, monkeypatch):
    older = ServerWithoutStream(gin_server)
    try:
        created = Api(older.url).create_game({"name": "A"})
        joined = Api(older.url).join_game(created["game_id"], {"invite_code": created["invite_code"], "name": "B"})
        tokens = {0: created["token"], 1: joined["token"]}
        game_id = created["game_id"]
        start, _ = Api(older.url, tokens[0]).view(game_id)
        polls = []
        real_view = Api.view
        monkeypatch.setattr(Api, "view", lambda self, *a, **k: polls.append(k.get("wait")) or real_view(self, *a, **k))
        seen = []
        waiter = threading.Thread(target=lambda: seen.append(next(http.views(
            Api(older.url, tokens[1 - start["to_move"]]), game_id, start["version"], wait=20))), daemon=True)
        waiter.start()
        while not polls:  # it has given up the stream and waits by long-poll
            time.sleep(0.01)
        mover_api = Api(gin_server, tokens[start["to_move"]])
        mover_api.act(game_id, reference.choose_action(start if start["seat"] == start["to_move"] else
                                                       mover_api.view(game_id)[0]))
        waiter.join(timeout=60)
        assert seen and seen[0]["version"] > start["version"]
        assert polls[0] == 20  # ?wait=20: the server holds the request until the move
    finally:
        older.close()
