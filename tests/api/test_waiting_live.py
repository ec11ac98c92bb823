"""Waiting for a move against real servers, as the Procfile runs them (gevent workers), on both
databases: a move made through one server process wakes long-polls and streams held by another,
streams resume with Last-Event-ID, hundreds of waiting clients do not hold up moves, the waiting
caps answer 429, and the outbox worker is woken by a commit rather than its poll interval."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from ..conftest import PG_SKIP, ROOT, start_gunicorn, stop_gunicorn
from ..hardening.torture import database_url
from ..sse import EventStream

KINDS = ["sqlite", "postgresql"]
REDIS_URL = "redis://127.0.0.1:6379"


def bearer(token: str, **headers) -> dict:
    return {"Authorization": f"Bearer {token}", **headers}


@contextmanager
def servers(kind: str, tmp_path, count: int = 2, env: dict | None = None):
    """`count` separate gunicorn servers (one worker process each) on one fresh database."""
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    with database_url(kind, tmp_path) as url:
        started = []
        try:
            for number in range(count):
                started.append(start_gunicorn(url, workers=1, log_path=tmp_path / f"server{number}.log", env=env))
            yield url, [base for _, base in started]
        finally:
            for process, _ in started:
                stop_gunicorn(process)
        for number in range(count):
            log = (tmp_path / f"server{number}.log").read_text(errors="replace")
            assert "Traceback" not in log, log[-3000:]


@pytest.fixture(scope="module", params=KINDS)
def pair(request, tmp_path_factory):
    """(database URL, [two server URLs]), shared by this module's tests on each database."""
    tmp_path = tmp_path_factory.mktemp(f"waiting-{request.param}")
    with servers(request.param, tmp_path, env={"STREAM_KEEPALIVE_SECONDS": "1", "WEBHOOK_ALLOW_PRIVATE": "true"}) as found:
        yield request.param, *found


def new_game(base: str) -> dict:
    created = requests.post(f"{base}/games", json={"name": "Ann"}, timeout=10).json()
    joined = requests.post(f"{base}/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": "Bob"}, timeout=10).json()
    view = joined["game"]
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]},
            "to_move": view["to_move"], "version": view["version"]}


def move(base: str, game: dict) -> requests.Response:
    """The seat to move passes the upcard or draws from the stock: a move that is always legal early on."""
    seat = game["to_move"]
    view = requests.get(f"{base}/games/{game['id']}", headers=bearer(game["tokens"][seat]), timeout=10).json()
    action = next(a for a in view["legal_actions"] if a["type"] in ("pass", "draw"))
    answer = requests.post(f"{base}/games/{game['id']}/actions", json=action,
                           headers=bearer(game["tokens"][seat]), timeout=10)
    assert answer.status_code == 200, answer.text
    game["version"], game["to_move"] = answer.json()["version"], answer.json()["to_move"]
    return answer


class Stream(EventStream):
    """A reader of GET /games/{id}/stream."""

    def __init__(self, base: str, game: dict, seat: int, last_event_id: int | None = None):
        super().__init__(f"{base}/games/{game['id']}/stream", bearer(game["tokens"][seat]), last_event_id)

    def next_event(self, timeout: float = 30) -> dict | None:
        return self.events.get(timeout=timeout)


def test_a_move_on_one_process_wakes_waiters_on_another(pair):
    kind, _, (mover_side, waiter_side) = pair
    game = new_game(mover_side)
    waiting_seat = 1 - game["to_move"]
    stream = Stream(waiter_side, game, waiting_seat)
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    first = stream.next_event()
    assert first["id"] == game["version"] and first["data"]["version"] == game["version"]
    answers = {}

    def long_poll():
        answers["poll"] = requests.get(
            f"{waiter_side}/games/{game['id']}?wait=45", timeout=60,
            headers=bearer(game["tokens"][waiting_seat], **{"If-None-Match": f'"{game["version"]}"'}))
    poller = threading.Thread(target=long_poll)
    poller.start()
    time.sleep(0.5)  # let the long-poll begin waiting on the other server
    assert "poll" not in answers
    started = time.monotonic()
    move(mover_side, game)
    woken = stream.next_event()
    poller.join(60)
    elapsed = time.monotonic() - started
    print(f"{kind}: move on one server -> stream and long-poll on the other answered in {elapsed * 1000:.0f} ms")
    assert woken["id"] == game["version"] and woken["data"]["to_move"] == waiting_seat
    assert "hand" in woken["data"] and woken["data"]["version"] == game["version"]
    assert answers["poll"].status_code == 200 and answers["poll"].json()["version"] == game["version"]
    stream.close()


@pytest.mark.parametrize("kind", KINDS)
def test_with_redis_as_the_channel_a_move_wakes_a_stream_on_another_process(kind, tmp_path):
    import redis
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis at {REDIS_URL} does not answer ({exc})")
    env = {"WAKEUP_REDIS_URL": REDIS_URL, "WAKEUP_FALLBACK_SECONDS": "600"}  # only Redis can wake it
    with servers(kind, tmp_path, env=env) as (_, (mover_side, waiter_side)):
        game = new_game(mover_side)
        stream = Stream(waiter_side, game, 1 - game["to_move"])
        assert stream.next_event()["id"] == game["version"]
        move(mover_side, game)
        assert stream.next_event(timeout=30)["id"] == game["version"]
        stream.close()


def test_a_stream_resumes_after_its_last_event_id_with_nothing_lost_or_doubled(pair):
    _, _, (one, other) = pair
    game = new_game(one)
    seat = 0
    stream = Stream(one, game, seat)
    seen = stream.next_event()["id"]
    stream.close()  # the connection drops ...
    move(other, game)
    move(other, game)  # ... and two moves happen meanwhile
    resumed = Stream(other, game, seat, last_event_id=seen)
    first = resumed.next_event()
    assert first["id"] == game["version"] == seen + 2  # the newest view, the one missed in between folded in
    assert first["data"]["version"] == game["version"]
    resumed.close()

    # Resuming at the current version sends nothing until something changes (keep-alives only).
    current = Stream(one, game, seat, last_event_id=game["version"])
    assert current.comments.get(timeout=10) == ": keep-alive"
    assert current.events.empty()
    move(other, game)
    assert current.next_event()["id"] == game["version"]
    current.close()

    bad = requests.get(f"{one}/games/{game['id']}/stream", timeout=10,
                       headers=bearer(game["tokens"][seat], **{"Last-Event-ID": "seven"}))
    assert bad.status_code == 422 and bad.json()["code"] == "validation-error"
    denied = requests.get(f"{one}/games/{game['id']}/stream", headers=bearer("nope"), timeout=10)
    assert denied.status_code == 401 and denied.json()["code"] == "invalid-token"


def test_a_finished_match_stream_ends_with_a_204_that_has_no_body_and_no_content_type(pair):
    """The end of a match's stream is no page: werkzeug's default text/html made clients (and
    validators) take the 204 for HTML. The long-poll's 304 has no body either. Between players
    (here) no seat rematch can come, so the stream ends with the match."""
    _, _, (one, _) = pair
    game = players_game(one)
    finished = requests.post(f"{one}/games/{game['id']}/actions", json={"type": "resign"},
                             headers=bearer(game["tokens"][0]), timeout=10).json()
    last = Stream(one, game, 0)
    frame = last.next_event()
    assert frame["id"] == finished["version"] and frame["data"]["event"] == "view"  # the name it is told apart by
    assert frame["data"]["status"] == "finished" and last.next_event() is None  # the stream ends with the match
    ended = requests.get(f"{one}/games/{game['id']}/stream", timeout=10,
                         headers=bearer(game["tokens"][0], **{"Last-Event-ID": str(finished["version"])}))
    assert ended.status_code == 204 and ended.content == b""
    assert "Content-Type" not in ended.headers, ended.headers
    same = requests.get(f"{one}/games/{game['id']}", timeout=10,
                        headers=bearer(game["tokens"][0], **{"If-None-Match": f'"{finished["version"]}"'}))
    assert same.status_code == 304 and "Content-Type" not in same.headers, same.headers


def conforms(base: str, component: str, data: dict) -> None:
    """`data` is valid against the server's own contract's `component`."""
    from .test_openapi import validator_for
    spec = requests.get(f"{base}/openapi.json", timeout=10).json()
    errors = [error.message for error in validator_for(spec, component).iter_errors(data)]
    assert not errors, errors


def players_game(base: str) -> dict:
    """A game between two players (a challenge accepted), with each side's player token."""
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("Ann", "Bob")]
    tokens = [requests.post(f"{base}/players", json={"name": name}, timeout=10).json() for name in names]
    offer = requests.post(f"{base}/challenges", json={"to": names[1]},
                          headers=bearer(tokens[0]["token"]), timeout=10).json()
    game_id = requests.post(f"{base}/challenges/{offer['challenge_id']}/accept",
                            headers=bearer(tokens[1]["token"]), timeout=10).json()["game_id"]
    return {"id": game_id, "tokens": {0: tokens[0]["token"], 1: tokens[1]["token"]}}


def test_a_finished_match_stream_stays_open_for_a_seat_rematch_and_tells_the_other_seat(pair):
    """Seats that are not both players': the finished game's stream stays open (keep-alives, and a
    reconnection with the last id waits rather than 204) until a seat rematch is offered on the
    other process; then the other seat hears `rematch_offered` (what accepting takes, never a
    token) and its stream ends, the offering seat the new view, its stream open for the answer; the
    accept it names works, and ends the offering seat's stream with the view it made."""
    _, _, (one, two) = pair
    game = new_game(one)
    finished = requests.post(f"{one}/games/{game['id']}/actions", json={"type": "resign"},
                             headers=bearer(game["tokens"][0]), timeout=10).json()
    ann, offering = Stream(one, game, 0), Stream(one, game, 1, last_event_id=finished["version"])
    assert ann.next_event()["data"]["status"] == "finished"
    assert ann.comments.get(timeout=30) == ": keep-alive"  # still open after the match's end
    resumed = Stream(one, game, 0, last_event_id=finished["version"])
    assert resumed.response.status_code == 200 and resumed.comments.get(timeout=30) == ": keep-alive"
    offer = requests.post(f"{two}/games/{game['id']}/seat-rematch", headers=bearer(game["tokens"][1]), timeout=10)
    assert offer.status_code == 201, offer.text
    for stream in (ann, resumed):
        view, offered = stream.next_event(), stream.next_event()
        assert view["event"] == "view" and view["id"] == finished["version"] + 1 == view["data"]["version"]
        assert offered["event"] == "rematch_offered" and offered["id"] == view["id"], offered
        assert offered["data"] == {"event": "rematch_offered", "game_id": game["id"], "seat": 0, "seat_rematch": {
            "game_id": offer.json()["game_id"], "offered_by": 1, "by": "Bob",
            "accept": f"/games/{game['id']}/seat-rematch/accept"}}
        assert stream.next_event() is None  # nothing more will come: the stream ends
    conforms(one, "GameStreamEvent", offered["data"])
    mine = offering.next_event()  # the offering seat (Bob's): the new view, and its stream waits for the answer
    assert mine["event"] == "view" and mine["id"] == finished["version"] + 1
    assert offering.comments.get(timeout=30) == ": keep-alive"
    ended = requests.get(f"{one}/games/{game['id']}/stream", timeout=10,
                         headers=bearer(game["tokens"][0], **{"Last-Event-ID": str(mine["id"])}))
    assert ended.status_code == 204 and ended.content == b"" and "Content-Type" not in ended.headers
    taken = requests.post(f"{one}{offered['data']['seat_rematch']['accept']}", headers=bearer(game["tokens"][0]),
                          timeout=10)
    assert taken.status_code == 201 and taken.json()["game_id"] == offer.json()["game_id"], taken.text
    answered = offering.next_event()  # accepted: the view it made, and the offering seat's stream ends
    assert answered["event"] == "view" and answered["id"] == mine["id"] + 1 and offering.next_event() is None


def test_the_offering_seat_hears_its_seat_rematch_declined_on_its_stream(pair):
    """Issue 38: the seat that offered a seat rematch keeps the finished game's stream open for the
    answer; the other seat declines on the other process, and the offering seat hears
    `rematch_declined` (who, the reason code) after the view the decline made, and its stream ends."""
    _, _, (one, two) = pair
    game = new_game(one)
    requests.post(f"{one}/games/{game['id']}/actions", json={"type": "resign"}, headers=bearer(game["tokens"][0]),
                  timeout=10)
    offer = requests.post(f"{one}/games/{game['id']}/seat-rematch", headers=bearer(game["tokens"][1]), timeout=10)
    assert offer.status_code == 201, offer.text
    offering = Stream(one, game, 1)
    assert offering.next_event()["event"] == "view" and offering.comments.get(timeout=30) == ": keep-alive"
    declined = requests.post(f"{two}/games/{game['id']}/seat-rematch/decline", json={"reason": "move-time"},
                             headers=bearer(game["tokens"][0]), timeout=10)
    assert declined.status_code == 200 and declined.json()["declined"] is True, declined.text
    view, told = offering.next_event(), offering.next_event()
    assert view["event"] == "view" and told["event"] == "rematch_declined" and told["id"] == view["id"], told
    assert told["data"] == {"event": "rematch_declined", "game_id": game["id"], "seat": 1, "by": "Ann",
                            "reason": "move-time"}
    conforms(one, "GameStreamEvent", told["data"])
    assert offering.next_event() is None  # answered: nothing more will come
    ended = requests.get(f"{one}/games/{game['id']}/stream", timeout=10,
                         headers=bearer(game["tokens"][1], **{"Last-Event-ID": str(told["id"])}))
    assert ended.status_code == 204


def test_two_hundred_waiting_clients_are_answered_and_moves_go_through_meanwhile(pair):
    _, _, bases = pair
    games = [new_game(bases[n % 2]) for n in range(50)]
    versions = {game["id"]: game["version"] for game in games}
    waits = [(bases[(n + k) % 2], game, seat) for n, game in enumerate(games) for seat in (0, 1) for k in (0, 1)]
    assert len(waits) == 200

    def wait(base, game, seat):
        return requests.get(f"{base}/games/{game['id']}?wait=50", timeout=90,
                            headers=bearer(game["tokens"][seat], **{"If-None-Match": f'"{versions[game["id"]]}"'}))
    with ThreadPoolExecutor(max_workers=200) as pool:
        futures = [pool.submit(wait, *args) for args in waits]
        time.sleep(2)  # all 200 are waiting now (on two processes)
        assert not any(future.done() for future in futures)
        moves = [move(bases[n % 2], game) for n, game in enumerate(games)]  # one move per game
        answers = [future.result() for future in futures]
    assert all(m.status_code == 200 for m in moves)
    assert [a.status_code for a in answers] == [200] * 200
    assert all(a.json()["version"] == versions[game["id"]] + 1 for a, (_, game, _) in zip(answers, waits))


def test_the_waiting_caps_answer_429_with_retry_after(tmp_path):
    # The caps count per server process; the database plays no part, so SQLite only.
    # WAIT_PER_PROCESS x WAIT_ADDRESS_SHARE: 3 waiting requests per address.
    env = {"WAIT_PER_TOKEN": "2", "WAIT_PER_PROCESS": "30", "WAIT_ADDRESS_SHARE": "0.1", "STREAM_KEEPALIVE_SECONDS": "1"}
    with servers("sqlite", tmp_path, count=1, env=env) as (_, (base,)):
        game, other = new_game(base), new_game(base)
        held = [Stream(base, game, 0), Stream(base, game, 1), Stream(base, other, 1)]
        for stream in held:
            stream.next_event()  # three waiting requests from this address, three tokens
        fourth = requests.get(f"{base}/games/{other['id']}/stream", headers=bearer(other["tokens"][0]), timeout=10)
        assert fourth.status_code == 429 and fourth.json()["code"] == "too-many-waiters"
        assert int(fourth.headers["Retry-After"]) > 0
        fifth = requests.get(f"{base}/games/{other['id']}?wait=5&version={other['version']}",
                             headers=bearer(other["tokens"][0]), timeout=10)
        assert fifth.status_code == 429 and fifth.json()["code"] == "too-many-waiters"
        assert requests.get(f"{base}/games/{other['id']}", headers=bearer(other["tokens"][0]),
                            timeout=10).status_code == 200  # only waiting is capped
        for stream in held:
            stream.close()
        # Closed streams give their places back at once (test_waiting_caps_live.py holds the rest).
        again = requests.get(f"{base}/games/{game['id']}?wait=1&version={game['version']}",
                             headers=bearer(game["tokens"][0]), timeout=10)
        assert again.status_code == 304


class Receiver(BaseHTTPRequestHandler):
    received: queue.Queue

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.put(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_the_outbox_worker_is_woken_by_the_commit_not_its_interval(pair, tmp_path):
    kind, url, (base, _) = pair
    received = queue.Queue()
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), type("Handler", (Receiver,), {"received": received}))
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    env = {"WEBHOOK_ALLOW_PRIVATE": "true"}
    log = open(tmp_path / "worker.log", "wb")
    worker = subprocess.Popen([sys.executable, "-m", "flask", "--app", "service", "notify", "worker",
                               "--interval", "600"], cwd=ROOT, stdout=log, stderr=log,
                              env={**os.environ, **env, "DATABASE_URL": url})
    try:
        game = new_game(base)
        hook = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
        for seat in (0, 1):
            answer = requests.patch(f"{base}/games/{game['id']}/contact", json={"webhook_url": hook},
                                    headers=bearer(game["tokens"][seat]), timeout=10)
            assert answer.status_code == 200, answer.text
        greetings = [received.get(timeout=30) for _ in (0, 1)]  # the worker's first round, or a wake-up
        assert {g["data"]["seat"] for g in greetings} == {0, 1}
        time.sleep(1)  # the worker is idle now, with 600 s to sleep
        started = time.monotonic()
        move(base, game)
        call = received.get(timeout=30)  # long before the interval: woken by the commit
        print(f"{kind}: move committed -> webhook received in {(time.monotonic() - started) * 1000:.0f} ms")
        assert call["data"]["version"] == game["version"]
    finally:
        worker.terminate()
        worker.wait(10)
        receiver.shutdown()
