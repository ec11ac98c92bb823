"""Messages against real servers (gevent workers, two single-worker servers on one database), on
both databases: a message written through one server reaches the other seat's game stream, its
long-poll of GET /games/{id}/messages and its player's /me/stream on the other server, each frame
as openapi.yaml describes it; a blocked player's message reaches none of the blocker's."""
from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest
import requests
import yaml

from ..api.test_openapi import validator_for
from ..api.test_waiting_live import KINDS, bearer, servers
from .test_stream_live import PlayerStream

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())


@pytest.fixture(scope="module", params=KINDS)
def pair(request, tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp(f"messages-{request.param}")
    with servers(request.param, tmp_path, env={"STREAM_KEEPALIVE_SECONDS": "1"}) as (_, bases):
        yield bases


def players_game(base: str, ann: str, bob: str) -> dict:
    tokens = {}
    for name in (ann, bob):
        answer = requests.post(f"{base}/players", json={"name": name}, timeout=10)
        assert answer.status_code == 201, answer.text
        tokens[name] = answer.json()["token"]
    offer = requests.post(f"{base}/challenges", json={"to": bob}, headers=bearer(tokens[ann]), timeout=10).json()
    accepted = requests.post(f"{base}/challenges/{offer['challenge_id']}/accept", headers=bearer(tokens[bob]),
                             timeout=10).json()
    return {"id": accepted["game_id"], **tokens}


def say(base: str, game: dict, token: str, text: str) -> dict:
    answer = requests.post(f"{base}/games/{game['id']}/messages", json={"text": text}, headers=bearer(token),
                           timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


class GameStream:
    """A reader of GET /games/{id}/stream that keeps only `message` events."""

    def __init__(self, base: str, game_id: str, token: str):
        from ..sse import EventStream
        self.stream = EventStream(f"{base}/games/{game_id}/stream", bearer(token))
        assert self.stream.events.get(timeout=30)["event"] == "view"  # the view now: it is listening

    def next_message(self, timeout: float = 30) -> dict:
        while True:
            event = self.stream.events.get(timeout=timeout)
            assert event is not None, "the stream ended"
            if event["event"] == "message":
                return event


def test_a_message_reaches_the_other_seat_by_stream_long_poll_and_player_stream(pair):
    writer_side, reader_side = pair
    game = players_game(writer_side, "Ann", "Bob")
    game_stream = GameStream(reader_side, game["id"], game["Bob"])
    player_stream = PlayerStream(reader_side, game["Bob"])
    before = requests.get(f"{reader_side}/games/{game['id']}/messages", headers=bearer(game["Bob"]), timeout=10)
    polled = queue.Queue()
    threading.Thread(target=lambda: polled.put(requests.get(
        f"{reader_side}/games/{game['id']}/messages", params={"wait": 30}, headers=bearer(game["Bob"]),
        timeout=60))).start()
    written = say(writer_side, game, game["Ann"], "<b>hi</b> Bob")
    frame = game_stream.next_message()
    assert frame["data"] == {"event": "message", **written}
    validator_for(SPEC, "GameStreamEvent").validate(frame["data"])
    answer = polled.get(timeout=45)
    assert before.json() == {"messages": [], "next_after": None}
    assert answer.status_code == 200 and answer.json()["messages"] == [written]
    told = player_stream.until("message")[-1]
    assert told["data"]["message"] == written and told["data"]["game_id"] == game["id"]
    validator_for(SPEC, "PlayerStreamEvent").validate(told["data"])
    game_stream.stream.close()
    player_stream.close()


def test_the_blockers_streams_never_carry_the_blocked_players_message(pair):
    writer_side, reader_side = pair
    game = players_game(writer_side, "Cid", "Dee")
    assert requests.put(f"{writer_side}/me/blocks/Dee", headers=bearer(game["Cid"]), timeout=10).status_code == 200
    game_stream = GameStream(reader_side, game["id"], game["Cid"])
    player_stream = PlayerStream(reader_side, game["Cid"])
    say(writer_side, game, game["Dee"], "hidden from Cid")
    shown = say(writer_side, game, game["Cid"], "only mine")  # comes after Dee's: Dee's would be first
    assert game_stream.next_message()["data"]["text"] == shown["text"]
    assert player_stream.until("message")[-1]["data"]["message"]["text"] == shown["text"]
    game_stream.stream.close()
    player_stream.close()
