"""GET /me/stream against real servers as the Procfile runs them (gevent workers), on both
databases: two single-worker servers on one database, moves made through one and the stream read
from the other; events in order, each once; resume after a dropped connection with Last-Event-ID;
keep-alives; the waiting caps."""
from __future__ import annotations

import json

import pytest
import requests

from ..api.helpers import choose
from ..api.test_waiting_live import KINDS, bearer, conforms, servers
from ..sse import EventStream


@pytest.fixture(scope="module", params=KINDS)
def pair(request, tmp_path_factory):
    """[two server URLs] on one fresh database of each kind."""
    tmp_path = tmp_path_factory.mktemp(f"player-stream-{request.param}")
    with servers(request.param, tmp_path, env={"STREAM_KEEPALIVE_SECONDS": "1"}) as (_, bases):
        yield bases


class PlayerStream(EventStream):
    """A reader of GET /me/stream, listening once its first comment has come."""

    def __init__(self, base: str, token: str, last_event_id: int | None = None):
        super().__init__(f"{base}/me/stream", bearer(token), last_event_id)
        assert self.response.status_code == 200, self.response.text
        assert self.comments.get(timeout=30) == ": connected"  # it is listening from here on

    def take(self, count: int) -> list[dict]:
        return [self.events.get(timeout=30) for _ in range(count)]

    def until(self, kind: str) -> list[dict]:
        """Events up to and including the next one of `kind`."""
        got = []
        while not got or got[-1]["event"] != kind:
            event = self.events.get(timeout=30)
            assert event is not None, got
            got.append(event)
        return got



def player(base: str, name: str) -> dict:
    answer = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert answer.status_code == 201, answer.text
    return {"name": name, "token": answer.json()["token"]}


def unique(name: str) -> str:
    import uuid
    return f"{name}-{uuid.uuid4().hex[:6]}"


def start_game(base: str, ann: dict, bob: dict) -> dict:
    offer = requests.post(f"{base}/challenges", json={"to": bob["name"]}, headers=bearer(ann["token"]), timeout=10)
    assert offer.status_code == 201, offer.text
    accepted = requests.post(f"{base}/challenges/{offer.json()['challenge_id']}/accept",
                             headers=bearer(bob["token"]), timeout=10)
    assert accepted.status_code == 201, accepted.text
    body = accepted.json()
    return {"id": body["game_id"], "tokens": {body["seat"]: bob["token"], 1 - body["seat"]: ann["token"]}}


def move(base: str, game: dict) -> dict:
    """The seat to move plays; returns the new view of the mover."""
    views = {s: requests.get(f"{base}/games/{game['id']}", headers=bearer(t), timeout=10).json()
             for s, t in game["tokens"].items()}
    seat = views[0]["to_move"]
    answer = requests.post(f"{base}/games/{game['id']}/actions", json=choose(views[seat]),
                           headers=bearer(game["tokens"][seat]), timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_move_on_one_process_reaches_the_stream_on_another_in_order(pair):
    mover_side, reader_side = pair
    ann, bob = player(mover_side, unique("Ann")), player(mover_side, unique("Bob"))
    stream = PlayerStream(reader_side, ann["token"])
    game = start_game(mover_side, ann, bob)
    first = stream.until("game_started")
    assert [e["event"] for e in first] == ["challenge_accepted", "game_started"]
    ann_seat = next(s for s, t in game["tokens"].items() if t == ann["token"])
    seen = list(first)
    for _ in range(12):
        view = move(mover_side, game)
        if view["seat"] != ann_seat:  # Bob moved: Ann hears it, and that it is her turn when it is
            seen += stream.until("opponent_moved")
            if view["to_move"] == ann_seat:
                seen += stream.until("your_turn")
    ids = [e["id"] for e in seen]
    assert ids == list(range(ids[0], ids[0] + len(ids)))  # in order, none missing, none twice
    turns = [e for e in seen if e["event"] == "your_turn"]
    assert turns and all(e["data"]["view"]["seat"] == ann_seat and e["data"]["view"]["to_move"] == ann_seat
                         for e in turns)
    assert all(e["data"]["game_id"] == game["id"] for e in seen[1:])
    stream.close()
    # the whole stream again from its start: the same events, once each
    replay = PlayerStream(mover_side, ann["token"], last_event_id=0)
    again = replay.take(len(seen))
    assert [(e["id"], e["event"]) for e in again] == [(e["id"], e["event"]) for e in seen]
    replay.close()


def test_resume_after_a_dropped_connection_loses_nothing(pair):
    mover_side, reader_side = pair
    ann, bob = player(mover_side, unique("Ann")), player(mover_side, unique("Bob"))
    stream = PlayerStream(reader_side, bob["token"])
    game = start_game(mover_side, ann, bob)
    received = stream.until("game_started")
    stream.close()  # dropped
    bob_seat = next(s for s, t in game["tokens"].items() if t == bob["token"])
    away = [move(mover_side, game) for _ in range(6)]  # moves while Bob is away
    ann_moved = sum(answer["seat"] != bob_seat for answer in away)  # as the deal falls: 3 unless a hand ends
    resumed = PlayerStream(reader_side, bob["token"], last_event_id=received[-1]["id"])
    move(mover_side, game)  # and one after he is back
    # a last event to know when everything before it has come: a challenge from Ann
    requests.post(f"{mover_side}/challenges", json={"to": bob["name"]}, headers=bearer(ann["token"]), timeout=10)
    later = resumed.until("challenge_received")
    resumed.close()
    ids = [e["id"] for e in received + later]
    assert ids == list(range(1, len(ids) + 1)), ids
    assert sum(e["event"] == "opponent_moved" for e in later) >= ann_moved > 0  # her moves while he was away
    full = PlayerStream(mover_side, bob["token"], last_event_id=0)
    assert [(e["id"], e["event"]) for e in full.take(len(ids))] == \
        [(e["id"], e["event"]) for e in received + later]
    full.close()


def test_keep_alives_and_the_waiting_caps(pair):
    base = pair[0]
    ann = player(base, unique("Ann"))
    streams = [PlayerStream(base, ann["token"]) for _ in range(4)]
    assert streams[0].comments.get(timeout=30) == ": keep-alive"
    # A fifth from the same token is not refused: it takes the place of the token's oldest stream,
    # which ends (a client that reconnected before the server saw it leave never locks itself out).
    fifth = PlayerStream(base, ann["token"])
    assert streams[0].events.get(timeout=30) is None
    for each in [*streams, fifth]:
        each.close()


def test_a_rotated_token_ends_the_stream_and_a_bad_one_never_opens(pair):
    base = pair[0]
    ann = player(base, unique("Ann"))
    stream = PlayerStream(base, ann["token"])
    rotated = requests.post(f"{base}/me/token", headers=bearer(ann["token"]), timeout=10)
    assert rotated.status_code == 200
    assert stream.events.get(timeout=30) is None  # the stream ended
    for headers in ({}, bearer(ann["token"]), bearer(ann["token"], **{"Last-Event-ID": "x"})):
        refused = requests.get(f"{base}/me/stream", headers=headers, timeout=10)
        assert refused.status_code in (401, 422)
    bad_id = requests.get(f"{base}/me/stream", headers=bearer(rotated.json()["token"], **{"Last-Event-ID": "-1"}),
                          timeout=10)
    assert bad_id.status_code == 422 and bad_id.json()["code"] == "validation-error"


def test_a_seat_rematch_offered_to_a_players_seat_reaches_the_players_stream(pair):
    """A player's game against an anonymous seat: the anonymous seat offers a seat rematch on one
    process, the player's stream on the other hears `rematch_offered` with what accepting takes
    (never the offering seat's token), and the player token accepts it there."""
    mover_side, reader_side = pair
    ann = player(mover_side, unique("Ann"))
    created = requests.post(f"{mover_side}/me/games", json={}, headers=bearer(ann["token"]), timeout=10).json()
    game_id = created["game_id"]
    bob = requests.post(f"{mover_side}/games/{game_id}/join", json={"invite_code": created["invite_code"], "name": "Bob"},
                        timeout=10).json()
    requests.post(f"{mover_side}/games/{game_id}/actions", json={"type": "resign"}, headers=bearer(bob["token"]),
                  timeout=10).raise_for_status()
    stream = PlayerStream(reader_side, ann["token"])
    offer = requests.post(f"{mover_side}/games/{game_id}/seat-rematch", headers=bearer(bob["token"]), timeout=10)
    assert offer.status_code == 201, offer.text
    event = stream.until("rematch_offered")[-1]
    assert offer.json()["token"] not in json.dumps(event) and bob["token"] not in json.dumps(event)
    data = {k: v for k, v in event["data"].items() if k not in ("seq", "created_at")}
    assert data == {"type": "rematch_offered", "game_id": game_id, "seat": 0, "seat_rematch": {
        "game_id": offer.json()["game_id"], "offered_by": 1, "by": "Bob",
        "accept": f"/games/{game_id}/seat-rematch/accept"}}
    conforms(reader_side, "PlayerStreamEvent", event["data"])
    taken = requests.post(f"{reader_side}{data['seat_rematch']['accept']}", headers=bearer(ann["token"]), timeout=10)
    assert taken.status_code == 201 and taken.json()["game_id"] == offer.json()["game_id"], taken.text
    stream.close()
