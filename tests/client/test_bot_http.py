"""The bot (and the client's retry) against a real gunicorn server: whole matches, a server restart
in the middle of one, and a lost response retried without being applied twice."""
from __future__ import annotations

import logging
import socket
import subprocess
import threading
import time
import uuid

import pytest
import requests

from gin_client import demo
from gin_client.api import Api, NetworkError, wait_for_change
from gin_client.bots import reference
from gin_client.cli.history import score_sheet
from tests.client.conftest import REFERENCE_BOT, DroppingProxy


def new_game(url: str, rules: dict | None = None) -> tuple[str, str, str]:
    created = Api(url).create_game({"name": "A", "rules": rules or {"preset": "standard"}})
    joined = Api(url).join_game(created["game_id"], {"invite_code": created["invite_code"], "name": "B"})
    return created["game_id"], created["token"], joined["token"]


def check_finished(view: dict, target: int) -> None:
    result = view["result"]
    assert view["status"] == "finished" and result["winner"] in (0, 1)
    sheet = view["scores"]["sheet"]
    won = [sum(row["points"] for row in sheet if row["winner"] == s) for s in (0, 1)]
    assert won[result["winner"]] >= target  # the winner reached the target by hand points
    assert len(sheet) == view["hand_number"]


def test_two_bot_processes_play_a_match_to_its_result(gin_server):
    game_id, token_a, token_b = new_game(gin_server, {"preset": "standard", "target": 30})
    done = subprocess.run([*REFERENCE_BOT, "--server", gin_server,
                           "--wait", "0", "--poll-delay", "0.02", "--max-poll-delay", "0.1", f"{game_id}:{token_a}", f"{game_id}:{token_b}"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(line.split(":")[1].split(",")[0].strip() for line in done.stdout.splitlines()) == ["lost", "won"]
    decisions = [line for line in done.stderr.splitlines() if "action=" in line]
    assert decisions and all(f"game={game_id[:8]}" in line and "deadwood=" in line for line in decisions)
    view, _ = Api(gin_server, token_a).view(game_id)
    check_finished(view, 30)


def test_the_demo_match_and_its_score_sheet(gin_server):
    view = demo.play_demo(gin_server, {"preset": "standard", "target": 30}, poll_delay=0.02)
    check_finished(view, 30)
    sheet = score_sheet(view)
    assert sheet.count("\n") >= view["hand_number"] + 2
    assert f"wins the match by {view['result']['margin']}" in sheet


def test_bot_survives_a_server_restart(restartable_server, caplog):
    url = restartable_server.url
    # Long enough that the match cannot end while the server drains (a gevent worker serves its
    # open connections for up to a second after SIGTERM, each closed after its next answer).
    game_id, token_a, token_b = new_game(url, {"preset": "standard", "target": 150})
    caplog.set_level(logging.INFO, logger="gin.bot")
    results: dict = {}
    player = threading.Thread(target=lambda: results.update(
        reference.play_all(url, [(game_id, token_a), (game_id, token_b)], knock_at=10, wait=0,
                           poll_delay=0.02, max_delay=0.5)), daemon=True)
    player.start()
    watcher = Api(url, token_a)
    while (watcher.view(game_id)[0] or {}).get("version", 0) < 8:
        time.sleep(0.05)
    restartable_server.stop()  # mid-match
    time.sleep(3)  # longer than the client's own retries (0.5 + 1 s): the bot itself must wait it out
    restartable_server.start()
    player.join(timeout=120)
    assert not player.is_alive(), "the bots did not finish after the restart"
    assert any("retrying" in record.getMessage() for record in caplog.records)
    assert len(results) == 2 and all(v["status"] == "finished" for v in results.values())


def test_a_lost_response_is_retried_with_the_same_key_and_applied_once(gin_server):
    game_id, token_a, token_b = new_game(gin_server)
    direct_a = Api(gin_server, token_a)
    view, _ = direct_a.view(game_id)
    token = token_a if view["to_move"] == 0 else token_b
    view, _ = Api(gin_server, token).view(game_id)
    proxy = DroppingProxy(int(gin_server.rsplit(":", 1)[1]))
    try:
        through_proxy = Api(f"http://127.0.0.1:{proxy.port}", token, backoff=0.05)
        proxy.drop_next.set()
        action = reference.choose_action(view)
        after = through_proxy.act(game_id, action, version=view["version"], key=uuid.uuid4().hex)
    finally:
        proxy.close()
    assert proxy.dropped == 1  # the first answer really was lost
    assert after["version"] == view["version"] + 1
    assert direct_a.view(game_id)[0]["version"] == view["version"] + 1  # applied once, not twice
    events = direct_a.events(game_id)
    assert sum(e["type"] == action["type"] for e in events) == 1


def test_a_lost_join_answer_is_not_sent_again(gin_server):
    # The seat's token exists only in that answer: a resent join would find the seat taken
    # (game-full) and hide what happened. The client says the answer was lost instead.
    created = Api(gin_server).create_game({"name": "A"})
    proxy = DroppingProxy(int(gin_server.rsplit(":", 1)[1]))
    try:
        through_proxy = Api(f"http://127.0.0.1:{proxy.port}", backoff=0.05)
        proxy.drop_next.set()
        with pytest.raises(NetworkError, match="cannot be safely repeated"):
            through_proxy.join_game(created["game_id"], {"invite_code": created["invite_code"], "name": "B"})
    finally:
        proxy.close()
    assert proxy.dropped == 1
    view, _ = Api(gin_server, created["token"]).view(created["game_id"])
    assert view["status"] == "active"  # the join itself went through, once


def test_a_create_that_never_connected_is_retried():
    with socket.create_server(("127.0.0.1", 0)) as probe:
        closed_port = probe.getsockname()[1]  # nothing listens here once the probe is closed
    slept = []
    api = Api(f"http://127.0.0.1:{closed_port}", retries=2, sleep=slept.append)
    with pytest.raises(NetworkError, match="cannot reach"):
        api.create_game({"name": "A"})
    assert len(slept) == 2  # refused connections carried nothing: safe to try again


def test_health_is_reachable(gin_server):
    assert requests.get(gin_server + "/health", timeout=5).status_code == 200


def test_waiting_uses_the_servers_long_poll(gin_server):
    game_id, token_a, token_b = new_game(gin_server)
    view, etag = Api(gin_server, token_a).view(game_id)
    mover_token, waiter_token = (token_a, token_b) if view["to_move"] == 0 else (token_b, token_a)
    waiter = Api(gin_server, waiter_token)
    _, etag = waiter.view(game_id)
    pauses, answer = [], {}
    thread = threading.Thread(target=lambda: answer.update(
        zip(("view", "etag"), wait_for_change(waiter, game_id, etag, wait=30, sleep=pauses.append))))
    thread.start()
    time.sleep(1.0)  # the waiter is now parked in a long-poll (no assertion rests on this timing)
    moving = Api(gin_server, mover_token)
    current, _ = moving.view(game_id)
    moving.act(game_id, reference.choose_action(current), version=current["version"])
    thread.join(timeout=60)
    assert answer["view"]["version"] == current["version"] + 1
    assert pauses == []  # the server held the request: no client-side polling was needed
