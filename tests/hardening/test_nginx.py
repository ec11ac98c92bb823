"""deploy/nginx.conf in front of a real server (gunicorn as the Procfile runs it), on both databases:
a move is played through it, a game's stream and a long-poll follow the game through it (the event
and the long-poll's answer arrive within 100 ms of the move's answer: nothing buffers them), the
service sees the client's own address (the rate limiter counts 127.0.0.2 apart from 127.0.0.1, and
its log line names 127.0.0.2 under the request id nginx made and logged), /metrics is refused by
the proxy, and an oversized body is refused before it reaches the service. The nginx is the distribution's (`apt-get install nginx`,
as .ci/run does); without one these tests skip, saying so."""
from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time

import pytest
import requests
from requests.adapters import HTTPAdapter

from ..conftest import PG_SKIP, ROOT, free_port, start_gunicorn, stop_gunicorn
from ..sse import EventStream
from .torture import database_url

NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install -y nginx): "
                                                      "the reverse proxy tests are skipped")
FAILED_AUTH_LIMIT = 3  # refused tokens per client address per minute, on the server behind the proxy
UNBUFFERED = 0.1  # seconds: the bound on an event's delay through the proxy
LOGS: dict[str, dict] = {}  # proxy base URL -> {"service": gunicorn's log, "proxy": nginx's access log}


def deploy_site(name: str = "nginx.conf") -> str:
    """deploy/<name> with what it includes from /etc/nginx/gin/ (deploy/nginx/) written in."""
    return re.sub(r"^( *)include /etc/nginx/gin/([\w.-]+);.*$",
                  lambda found: "\n".join(found.group(1) + line for line in
                                          (ROOT / "deploy" / "nginx" / found.group(2)).read_text().splitlines()),
                  (ROOT / "deploy" / name).read_text(), flags=re.MULTILINE)


def main_config(tmp_path, site: str, http_extra: str = "") -> str:
    """`site` (http-level configuration) inside a main configuration of its own: the pid, logs and
    temporary files under tmp_path, in the foreground; `http_extra` goes into the http block."""
    temp = {name: tmp_path / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""  # its workers must reach tmp_path
    return f"""{user}worker_processes 1;
daemon off;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log info;
events {{ worker_connections 512; }}
http {{
    log_format with_id '$request_id $remote_addr "$request" $status';
    access_log {tmp_path}/access.log with_id;
    client_body_temp_path {temp['body']};
    proxy_temp_path {temp['proxy']};
    fastcgi_temp_path {temp['fastcgi']};
    uwsgi_temp_path {temp['uwsgi']};
    scgi_temp_path {temp['scgi']};
{http_extra}
{site}
}}
"""


def nginx_config(tmp_path, upstream_port: int | list[int], listen_port: int, http_extra: str = "") -> str:
    """deploy/nginx.conf (its includes written in) inside a main configuration of its own: the
    upstream's two servers (one port: that server alone) and the listen port substituted."""
    site = deploy_site("nginx.conf")
    ports = upstream_port if isinstance(upstream_port, list) else [upstream_port]
    upstreams = 0
    for node, port in enumerate(ports):
        site, found = re.subn(rf"server 127\.0\.0\.1:800{node}( [^;]*)?;", rf"server 127.0.0.1:{port}\1;", site)
        upstreams += found
    if len(ports) == 1:  # one server: the second line goes
        site, found = re.subn(r"\n *server 127\.0\.0\.1:8001[^;]*;[^\n]*", "", site)
        upstreams += found
    site, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{listen_port};", site)
    assert upstreams == 2 and listens == 1, "deploy/nginx.conf no longer has the lines this test replaces"
    return main_config(tmp_path, site, http_extra)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def proxied(request, tmp_path_factory):
    """The proxy's base URL, in front of one gunicorn (one worker: the rate limiter counts in memory)
    run with TRUSTED_PROXIES=1 and a small limit on refused tokens."""
    if request.param == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    tmp_path = tmp_path_factory.mktemp(f"nginx-{request.param}")
    env = {"TRUSTED_PROXIES": "1", "RATELIMIT_ENABLED": "true",
           "RATELIMIT_FAILED_AUTH": f"{FAILED_AUTH_LIMIT} per minute", "STREAM_KEEPALIVE_SECONDS": "1"}
    with database_url(request.param, tmp_path) as url:
        server, upstream = start_gunicorn(url, workers=1, log_path=tmp_path / "gunicorn.log", env=env)
        port = free_port()
        (tmp_path / "nginx.conf").write_text(nginx_config(tmp_path, int(upstream.rsplit(":", 1)[1]), port))
        proxy = subprocess.Popen([NGINX, "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
                                  "-c", str(tmp_path / "nginx.conf")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        LOGS[base] = {"service": tmp_path / "gunicorn.log", "proxy": tmp_path / "access.log"}
        try:
            wait_until_answering(proxy, base)
            yield base
        finally:
            proxy.terminate()
            proxy.wait(timeout=10)
            stop_gunicorn(server)
        log = (tmp_path / "gunicorn.log").read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]


def wait_until_answering(proxy, base: str) -> None:
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up:
        if proxy.poll() is not None:
            raise RuntimeError(f"nginx exited: {proxy.stderr.read().decode(errors='replace')}")
        try:
            if requests.get(base + "/health", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.05)
    raise RuntimeError("nginx did not answer within 30 s")


class FromAddress(HTTPAdapter):
    """Connections made from a chosen local address (127.0.0.2: another client on loopback)."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def client_from(address: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", FromAddress(address))
    return session


def bearer(token: str, **headers) -> dict:
    return {"Authorization": f"Bearer {token}", **headers}


def new_game(base: str) -> dict:
    created = requests.post(f"{base}/games", json={"name": "Ann"}, timeout=10)
    assert created.status_code == 201, created.text
    created = created.json()
    joined = requests.post(f"{base}/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": "Bob"}, timeout=10).json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]},
            "to_move": joined["game"]["to_move"], "version": joined["game"]["version"]}


def move(base: str, game: dict) -> dict:
    """The seat to move passes the upcard or draws: a move that is always legal early on."""
    seat = game["to_move"]
    view = requests.get(f"{base}/games/{game['id']}", headers=bearer(game["tokens"][seat]), timeout=10).json()
    action = next(a for a in view["legal_actions"] if a["type"] in ("pass", "draw"))
    answer = requests.post(f"{base}/games/{game['id']}/actions", json=action,
                           headers=bearer(game["tokens"][seat]), timeout=10)
    assert answer.status_code == 200, answer.text
    game["version"], game["to_move"] = answer.json()["version"], answer.json()["to_move"]
    return answer.json()


def next_event(stream: EventStream, timeout: float = 30) -> dict | None:
    """The stream's next event (None when it ended); the timeout only keeps a broken proxy from
    hanging the test, it asserts nothing about time."""
    try:
        return stream.events.get(timeout=timeout)
    except queue.Empty:
        return None


def test_a_move_and_a_stream_and_a_long_poll_go_through_the_proxy(proxied):
    game = new_game(proxied)
    watcher = 1 - game["to_move"]
    stream = EventStream(f"{proxied}/games/{game['id']}/stream", bearer(game["tokens"][watcher]))
    try:
        first = next_event(stream)
        assert first is not None and first["id"] == game["version"]  # the view now, through the proxy
        played = move(proxied, game)
        answered = time.monotonic()
        event = next_event(stream)  # the proxy passes it on while the stream stays open
        late = time.monotonic() - answered  # ~0 when the event came before the move's own answer
        print(f"stream event through nginx {1000 * late:.1f} ms after the move's answer")
        assert event is not None and event["id"] == played["version"] and event["data"]["version"] == played["version"]
        assert late < UNBUFFERED, f"the stream's event came {late:.3f} s after the move's answer: buffered?"
    finally:
        stream.close()

    answers = queue.Queue()
    waiting_seat = 1 - game["to_move"]

    def long_poll():
        answer = requests.get(f"{proxied}/games/{game['id']}?wait=30", timeout=90,
                              headers=bearer(game["tokens"][waiting_seat], **{"If-None-Match": f'"{game["version"]}"'}))
        answers.put((answer, time.monotonic()))
    poll = threading.Thread(target=long_poll)
    poll.start()
    try:
        # The long-poll is waiting once the server counts it; a move made before would answer it too.
        played = move(proxied, game)
        answered = time.monotonic()
    finally:
        poll.join(90)
    answer, arrived = answers.get_nowait()
    assert answer.status_code == 200 and answer.json()["version"] == played["version"]
    print(f"long-poll answer through nginx {1000 * (arrived - answered):.1f} ms after the move's answer")
    assert arrived - answered < UNBUFFERED


def test_the_proxy_waits_longer_than_the_service_stays_silent():
    """A long-poll may wait MAX_WAIT seconds and a quiet stream sends a keep-alive every
    STREAM_KEEPALIVE_SECONDS: the proxy's read timeout is above both, or it would cut them."""
    from service.games import waiting, waiting_slots
    site = deploy_site("nginx.conf")
    (read_timeout,) = re.findall(r"^\s*proxy_read_timeout (\d+)s;", site, re.MULTILINE)
    assert int(read_timeout) > waiting.MAX_WAIT
    assert int(read_timeout) > waiting_slots.DEFAULTS["STREAM_KEEPALIVE_SECONDS"]


def lines_of(log, request_id: str, wait: float = 5.0) -> list[str]:
    """The access log's lines for a request. nginx writes a request's line after it has sent the
    response, so the client may look before it is there: look again for a few seconds."""
    deadline = time.monotonic() + wait
    while True:
        lines = [line for line in log.read_text().splitlines() if line.startswith(request_id)]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def test_the_service_sees_each_clients_own_address(proxied):
    """Refused tokens are counted per client address: 127.0.0.2 runs out, 127.0.0.1 is not
    touched. Were the proxy's address taken for the client's, both would share one count."""
    other, own = client_from("127.0.0.2"), client_from("127.0.0.1")
    statuses = [other.get(f"{proxied}/games/nosuchgame", headers=bearer("wrong"), timeout=10).status_code
                for _ in range(FAILED_AUTH_LIMIT + 1)]
    assert statuses[:FAILED_AUTH_LIMIT] == [401] * FAILED_AUTH_LIMIT and statuses[-1] == 429
    assert own.get(f"{proxied}/games/nosuchgame", headers=bearer("wrong"), timeout=10).status_code == 401
    # A client cannot choose its address by sending X-Forwarded-For itself: the proxy appends the
    # address it saw, and the service reads only that.
    forged = other.get(f"{proxied}/games/nosuchgame", timeout=10,
                       headers=bearer("wrong", **{"X-Forwarded-For": "203.0.113.9"}))
    assert forged.status_code == 429
    # The service's log line of that request names the client, under the request id nginx made
    # and wrote in its own access log: one request traced through both logs.
    request_id = forged.headers["X-Request-Id"]
    proxy_lines = lines_of(LOGS[proxied]["proxy"], request_id)
    assert len(proxy_lines) == 1 and " 127.0.0.2 " in proxy_lines[0] and proxy_lines[0].endswith(" 429")
    service_lines = [json.loads(line) for line in LOGS[proxied]["service"].read_text(errors="replace").splitlines()
                     if request_id in line]
    assert [(line["event"], line["client"], line["status"]) for line in service_lines] == \
        [("request", "127.0.0.2", 429)]
    assert "203.0.113.9" not in LOGS[proxied]["service"].read_text(errors="replace")


def test_metrics_are_not_proxied_and_big_bodies_stop_at_the_proxy(proxied):
    metrics = requests.get(f"{proxied}/metrics", timeout=10)
    assert metrics.status_code == 404
    assert metrics.headers.get("Content-Type", "").startswith("text/html")  # nginx's page, not the service's
    big = requests.post(f"{proxied}/games", data=b"{" + b" " * (128 * 1024) + b"}", timeout=10,
                        headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and big.headers.get("Content-Type", "").startswith("text/html")
