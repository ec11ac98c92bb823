"""Two nodes as one: deploy/nginx.conf's upstream of two servers, each the Procfile's web line
(gunicorn, 2 gevent workers, pools capped at 2 + 2) on one PostgreSQL, the distribution's nginx in
front (skipped without it, or without TEST_DATABASE_URL).

Three matches are played through the proxy, each by a thread of its own that retries a POST answered
502, 503 or 504 (or not at all) with the same Idempotency-Key, while every seat follows its game on
a stream through the proxy and reconnects with Last-Event-ID whenever it ends. Mid-way node A is
killed, master and workers at once (SIGKILL to its process group, as a machine's death), and later
started again on its port. Checked: the streams node A held were cut and resumed on node B; no seat
saw a version twice or out of order, and each saw its game's last; every game's version moved once
per move the players made (a retried POST applied once); and a move whose answer was lost with node
A (made on A directly, then sent again through the proxy with its key) is answered by node B with
the first answer, not applied again."""
from __future__ import annotations

import os
import signal
import threading
import time
import uuid

import pytest
import requests

from tests.api.helpers import choose

from ..conftest import PG_SKIP, free_port, start_gunicorn
from ..sse import EventStream
from .test_nginx import NGINX, nginx_config, wait_until_answering
from .torture import database_url

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install -y nginx)"),
    pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason=PG_SKIP),
]
NODE_ENV = {"TRUSTED_PROXIES": "1", "DB_POOL_SIZE": "2", "DB_MAX_OVERFLOW": "2", "STREAM_KEEPALIVE_SECONDS": "2"}
GAMES = 3
RETRIED = (502, 503, 504)


class Node:
    """One node: gunicorn on a fixed port, in a process group of its own."""

    def __init__(self, url: str, port: int, log_path):
        self.url, self.port, self.log_path, self.process = url, port, log_path, None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process, _ = start_gunicorn(self.url, workers=2, log_path=self.log_path, env=NODE_ENV,
                                         port=self.port, own_session=True)

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)  # master and workers: nothing answers, nothing cleans up
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except Exception:  # noqa: BLE001
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.fixture
def cluster(tmp_path):
    """(node A, node B, the proxy's base URL), the proxy telling which node answered (X-Upstream)."""
    with database_url("postgresql", tmp_path) as url:
        nodes = [Node(url, free_port(), tmp_path / f"node-{name}.log") for name in "ab"]
        proxy = None
        try:
            for node in nodes:
                node.start()
            port = free_port()
            (tmp_path / "nginx.conf").write_text(nginx_config(
                tmp_path, [node.port for node in nodes], port,
                http_extra="    add_header X-Upstream $upstream_addr always;"))
            import subprocess
            proxy = subprocess.Popen([NGINX, "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
                                      "-c", str(tmp_path / "nginx.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            base = f"http://127.0.0.1:{port}"
            wait_until_answering(proxy, base)
            yield nodes[0], nodes[1], base
        finally:
            if proxy is not None:
                proxy.terminate()
                proxy.wait(timeout=10)
            for node in nodes:
                node.stop()
        for node in nodes:
            log = node.log_path.read_text(errors="replace")
            assert "Traceback" not in log, log[-3000:]


def bearer(token: str, **headers) -> dict:
    return {"Authorization": f"Bearer {token}", **headers}


def retried(method: str, url: str, **kwargs) -> requests.Response:
    """The request, sent again (same headers: same Idempotency-Key) while no node answers it."""
    give_up = time.monotonic() + 60
    while True:
        try:
            answer = requests.request(method, url, timeout=30, **kwargs)
            if answer.status_code not in RETRIED:
                return answer
        except requests.ConnectionError:
            pass
        if time.monotonic() > give_up:
            raise AssertionError(f"{method} {url}: no node answered for 60 s")
        time.sleep(0.2)


class Follower(threading.Thread):
    """One seat's stream through the proxy, reconnected with Last-Event-ID each time it ends, until
    the match is over: every event's id, and which node served each connection."""

    def __init__(self, base: str, game_id: str, token: str):
        super().__init__(daemon=True)
        self.url, self.token = f"{base}/games/{game_id}/stream", token
        self.ids: list[int] = []
        self.connections: list[tuple[str, list[int]]] = []  # (node's address, ids it sent)
        self.done = threading.Event()
        self.failure: str | None = None
        self.start()

    def run(self):
        last = None
        try:
            while not self.done.is_set():
                try:
                    stream = EventStream(self.url, bearer(self.token), last_event_id=last)
                except requests.RequestException:
                    time.sleep(0.2)
                    continue
                status = stream.response.status_code
                if status == 204:  # the match is over and we have its last version
                    return
                if status in (*RETRIED, 429):  # (429: a cap, while a cut stream's place is given back)
                    stream.close()
                    time.sleep(0.2)
                    continue
                if status != 200:
                    self.failure = f"stream answered {status}"
                    return
                sent: list[int] = []
                self.connections.append((stream.response.headers.get("X-Upstream", "?"), sent))
                while (event := stream.events.get(timeout=120)) is not None:
                    sent.append(event["id"])
                    self.ids.append(event["id"])
                    last = event["id"]
                    if event["event"] == "view" and event["data"]["status"] == "finished":
                        self.done.set()  # (a seat's stream stays open for a rematch offer)
                        break
                stream.close()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.failure = repr(exc)


class Match(threading.Thread):
    """One match through the proxy: each move read, then posted with a fresh key (retried with it).
    Clearing `going` parks it between moves (`parked` set)."""

    def __init__(self, base: str, game: dict):
        super().__init__(daemon=True)
        self.base, self.game = base, game
        self.moves = 0
        self.keys_retried = 0
        self.going, self.parked = threading.Event(), threading.Event()
        self.going.set()
        self.failure: str | None = None

    def run(self):
        game_id, tokens = self.game["id"], self.game["tokens"]
        try:
            while True:
                if not self.going.is_set():
                    self.parked.set()
                    self.going.wait()
                    self.parked.clear()
                view = retried("GET", f"{self.base}/games/{game_id}", headers=bearer(tokens[0])).json()
                if view["status"] == "finished":
                    return
                seat = view["to_move"]
                mine = view if seat == 0 else retried("GET", f"{self.base}/games/{game_id}",
                                                      headers=bearer(tokens[1])).json()
                self.move(game_id, tokens[seat], choose(mine), mine["version"])
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.failure = repr(exc)

    def move(self, game_id: str, token: str, action: dict, version: int) -> None:
        key, tries = uuid.uuid4().hex, 0
        while True:
            tries += 1
            try:
                answer = requests.post(f"{self.base}/games/{game_id}/actions", json=action, timeout=30,
                                       headers=bearer(token, **{"Idempotency-Key": key}))
            except requests.ConnectionError:
                answer = None
            if answer is not None and answer.status_code not in RETRIED:
                break
            time.sleep(0.2)
        self.keys_retried += tries > 1
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == version + 1, (answer.json()["version"], version)
        self.moves += 1


def new_game(base: str) -> dict:
    created = retried("POST", f"{base}/games", json={"name": "Ann", "rules": {"target": 10}}).json()
    joined = retried("POST", f"{base}/games/{created['game_id']}/join",
                     json={"invite_code": created["invite_code"], "name": "Bob"}).json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]},
            "version": joined["game"]["version"]}


def until(condition, seconds: float = 60) -> None:
    give_up = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < give_up, "timed out waiting"
        time.sleep(0.05)


def test_two_nodes_behind_nginx_lose_nothing_when_one_dies(cluster):
    node_a, node_b, base = cluster
    a_address, b_address = f"127.0.0.1:{node_a.port}", f"127.0.0.1:{node_b.port}"
    games = [new_game(base) for _ in range(GAMES)]
    probe = new_game(base)  # played by the test itself around the kill, then to its end
    followers = [Follower(base, game["id"], game["tokens"][seat]) for game in [*games, probe] for seat in (0, 1)]
    until(lambda: all(f.connections for f in followers))
    # nginx takes the streams in turn: one of them is on node A (else more, till one is).
    for n in range(12):
        if any(f.connections[-1][0] == a_address for f in followers):
            break
        game = games[n % GAMES]
        followers.append(Follower(base, game["id"], game["tokens"][n // GAMES % 2]))
        until(lambda: followers[-1].connections)
    on_a = {f: len(f.connections) - 1 for f in followers if f.connections[-1][0] == a_address}
    assert on_a, "no stream landed on node A"

    lost = lost_answer_on(node_a, probe)  # a move made on A whose answer the client never got
    matches = [Match(base, game) for game in games]
    for match in matches:
        match.start()
    until(lambda: sum(m.moves for m in matches) >= 15)
    for match in matches:  # between moves, so that none hangs on the frozen node below
        match.going.clear()
    until(lambda: all(m.parked.is_set() or not m.is_alive() for m in matches))

    # Node A freezes (its connections accepted, nothing answered), then dies: the probe's POST sent
    # to it meanwhile comes back 502 from nginx (it never sends a POST twice), and is sent again.
    os.killpg(node_a.process.pid, signal.SIGSTOP)
    hung = post_until_one_hangs(node_b, base, probe)
    node_a.kill()
    hung["thread"].join(30)
    assert hung["answer"].status_code == 502, hung["answer"].text
    again = retried("POST", f"{base}/games/{probe['id']}/actions", json=hung["action"],
                    headers=bearer(hung["token"], **{"Idempotency-Key": hung["key"]}))
    assert again.status_code == 200 and again.headers["X-Upstream"].endswith(b_address)
    assert again.json()["version"] == hung["version"] + 1
    # The move whose answer was lost, sent again through the proxy with its key: node B answers it
    # with the first answer, and it is not applied again.
    again = retried("POST", f"{base}/games/{probe['id']}/actions", json=lost["action"],
                    headers=bearer(lost["token"], **{"Idempotency-Key": lost["key"]}))
    assert again.status_code == 200 and again.headers["X-Upstream"].endswith(b_address)
    assert again.json() == lost["answer"]

    for match in matches:
        match.going.set()
    until(lambda: sum(m.moves for m in matches) >= 45)
    node_a.start()  # back on its port; nginx sends it traffic again after fail_timeout
    for match in matches:
        match.join(300)
        assert not match.is_alive() and match.failure is None, match.failure
    probe_match = Match(base, probe)
    probe_match.run()  # the probe's match to its end, through both nodes again
    assert probe_match.failure is None, probe_match.failure
    for follower in followers:
        follower.join(60)
        assert not follower.is_alive() and follower.failure is None, follower.failure

    made = {game["id"]: match.moves for game, match in zip(games, matches)}
    # The probe's: the lost answer's move, those node B made before one hung, the one that hung.
    made[probe["id"]] = probe_match.moves + 1 + hung["made"] + 1
    for game in [*games, probe]:
        final = requests.get(f"{base}/games/{game['id']}", headers=bearer(game["tokens"][0]), timeout=10).json()
        assert final["status"] == "finished"
        # Once per move: the lost answer's move counted once, every POST sent again once.
        assert final["version"] == game["version"] + made[game["id"]], (game["id"], final["version"])
        for follower in followers:
            if follower.url.endswith(f"/games/{game['id']}/stream"):
                assert follower.ids == sorted(set(follower.ids)), "a version twice, or out of order"
                assert follower.ids[-1] == final["version"], "the last version not seen"
    # The streams node A held were cut by its death and resumed, on node B, after their last id.
    for follower, cut in on_a.items():
        assert len(follower.connections) > cut + 1, "a stream on node A did not reconnect"
        assert follower.connections[cut + 1][0].endswith(b_address)
        before, after = follower.connections[cut][1], follower.connections[cut + 1][1]
        assert not after or not before or after[0] > before[-1]
    print(f"{sum(made.values())} moves, {sum(m.keys_retried for m in matches)} more posted again with their "
          f"key by the players; {len(on_a)} stream(s) cut on node A resumed on node B; "
          f"{sum(len(f.connections) for f in followers)} stream connections in all")


def post_until_one_hangs(node_b: Node, base: str, game: dict) -> dict:
    """The game's moves posted through the proxy, each read from node B first, until one is not
    answered within a second: nginx sent it to the frozen node (it takes the nodes in turn, so the
    first or the second does). Its thread, action, key, token, the version it was made at, and
    how many moves node B made before it."""
    for made in range(2):
        view = requests.get(f"{node_b.base}/games/{game['id']}", headers=bearer(game["tokens"][0]), timeout=10).json()
        token = game["tokens"][view["to_move"]]
        if view["to_move"] != 0:
            view = requests.get(f"{node_b.base}/games/{game['id']}", headers=bearer(token), timeout=10).json()
        hung = {"action": choose(view), "key": uuid.uuid4().hex, "token": token, "version": view["version"],
                "made": made}
        hung["thread"] = threading.Thread(target=lambda: hung.update(answer=requests.post(
            f"{base}/games/{game['id']}/actions", json=hung["action"], timeout=60,
            headers=bearer(token, **{"Idempotency-Key": hung["key"]}))), daemon=True)
        hung["thread"].start()
        hung["thread"].join(1.0)
        if hung["thread"].is_alive():
            return hung
        assert hung["answer"].status_code == 200 and hung["answer"].headers["X-Upstream"].endswith(node_b.base[7:])
    raise AssertionError("two POSTs in a row were answered by node B while node A was frozen")


def lost_answer_on(node: Node, game: dict) -> dict:
    """A move of `game` posted to `node` directly with a key: applied there, its answer kept aside."""
    token = game["tokens"][0]
    view = requests.get(f"{node.base}/games/{game['id']}", headers=bearer(token), timeout=10).json()
    if view["to_move"] != 0:
        token = game["tokens"][1]
        view = requests.get(f"{node.base}/games/{game['id']}", headers=bearer(token), timeout=10).json()
    action, key = choose(view), uuid.uuid4().hex
    answer = requests.post(f"{node.base}/games/{game['id']}/actions", json=action, timeout=10,
                           headers=bearer(token, **{"Idempotency-Key": key}))
    assert answer.status_code == 200, answer.text
    return {"action": action, "key": key, "token": token, "answer": answer.json()}
