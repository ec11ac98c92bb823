"""Waiting caps that no one party can take (issue 25, finding 9), against a real gunicorn with
small caps: an address holds at most its share of the process's cap, so another address still gets
its stream; a stream its client closes gives its place back at once; a client reconnecting with
the same token takes its own oldest place instead of a 429, and that old stream ends.

The clients connect from several loopback addresses (all of 127.0.0.0/8 is loopback on Linux),
bound as their source address. Keep-alives come once an hour here: nothing is noticed by a
failed write. Under the Procfile's gevent worker on both databases, and a gthread worker."""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager

import pytest
import requests
from requests.adapters import HTTPAdapter

from ..conftest import PG_SKIP, start_gunicorn, stop_gunicorn
from ..hardening.torture import database_url
from ..sse import EventStream
from .test_waiting_live import bearer, move, new_game

CAPS = {"WAIT_PER_TOKEN": "2", "WAIT_PER_PROCESS": "10", "WAIT_ADDRESS_SHARE": "0.3",  # 3 per address
        "STREAM_KEEPALIVE_SECONDS": "3600"}
SERVERS = [("sqlite", "gevent"), ("postgresql", "gevent"), ("sqlite", "gthread")]


@contextmanager
def serving_with_caps(kind: str, worker_class: str, tmp_path, caps: dict):
    """One gunicorn worker with these waiting caps on a scratch database; its log holds no traceback."""
    if kind == "postgresql" and not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip(PG_SKIP)
    with database_url(kind, tmp_path) as url:
        process, base_url = start_gunicorn(url, workers=1, log_path=tmp_path / "server.log", env=caps,
                                           worker_class=worker_class)
        try:
            yield base_url
        finally:
            stop_gunicorn(process)
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture(scope="module", params=SERVERS, ids=["-".join(each) for each in SERVERS])
def base(request, tmp_path_factory):
    kind, worker_class = request.param
    with serving_with_caps(kind, worker_class, tmp_path_factory.mktemp(f"caps-{kind}-{worker_class}"),
                           CAPS) as base_url:
        yield base_url


class FromAddress(HTTPAdapter):
    """Connections from one loopback address."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs, source_address=(self.address, 0))


def client_at(address: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", FromAddress(address))
    return session


class Stream(EventStream):
    """GET /games/{id}/stream from `session`'s address, open once its first event has come."""

    def __init__(self, session, base: str, game: dict, seat: int):
        super().__init__(f"{base}/games/{game['id']}/stream", bearer(game["tokens"][seat]), session=session)
        assert self.response.status_code == 200, self.response.text
        assert self.events.get(timeout=30)["id"] == game["version"]


def refused(session, base: str, game: dict, seat: int) -> requests.Response:
    """A stream expected to be refused; read as a stream, since one accepted would never end."""
    return session.get(f"{base}/games/{game['id']}/stream", headers=bearer(game["tokens"][seat]),
                       stream=True, timeout=10)


def test_one_address_fills_only_its_share_and_another_still_gets_its_stream(base):
    first, other = client_at("127.0.0.2"), client_at("127.0.0.3")
    one, two = new_game(base), new_game(base)
    held = [Stream(first, base, one, 0), Stream(first, base, one, 1), Stream(first, base, two, 0)]
    over = refused(first, base, two, 1)  # a fourth token from the same address: past its share (3 of 10)
    assert over.status_code == 429 and over.json()["code"] == "too-many-waiters"
    assert "this address" in over.json()["detail"] and int(over.headers["Retry-After"]) > 0
    elsewhere = Stream(other, base, two, 1)  # the same token from another address: there is room
    poll = other.get(f"{base}/games/{two['id']}?wait=1&version={two['version']}", headers=bearer(two["tokens"][1]),
                     timeout=10)
    assert poll.status_code == 304
    for stream in [*held, elsewhere]:
        stream.close()


def test_a_stream_closed_by_its_client_gives_its_place_back_at_once(base):
    session = client_at("127.0.0.4")
    one, two = new_game(base), new_game(base)
    kept = [Stream(session, base, one, 0), Stream(session, base, one, 1)]
    leaving = Stream(session, base, two, 0)  # the address's share is full now
    leaving.close()
    assert leaving.events.get(timeout=30) is None
    # Another token from the same address: its place is free, though no keep-alive was written.
    replacing = Stream(session, base, two, 1)

    # The same at the token's cap: the second stream of a token closes, the token's next one is
    # accepted in its place, and the token's other stream is still open (nothing was taken over).
    solo_session, solo = client_at("127.0.0.5"), new_game(base)
    first, second = Stream(solo_session, base, solo, 0), Stream(solo_session, base, solo, 0)
    second.close()
    assert second.events.get(timeout=30) is None
    third = Stream(solo_session, base, solo, 0)

    for game in (one, two, solo):
        move(base, game)
    for stream in [*kept, replacing, first, third]:
        event = stream.events.get(timeout=30)
        assert event is not None and event["event"] == "view", "a stream still open was ended"
        stream.close()


def test_reconnecting_with_the_same_token_replaces_its_oldest_stream_and_is_never_refused(base):
    session, game = client_at("127.0.0.6"), new_game(base)
    streams = []
    for _ in range(2 + 1 + 2):  # past the token's cap of 2, and again
        streams.append(Stream(session, base, game, 1))  # never 429: asserted in Stream
    for old in streams[:-2]:  # the oldest ended, cleanly (the chunked body's end), one per newcomer
        assert old.events.get(timeout=30) is None
    move(base, game)
    for newest in streams[-2:]:
        assert newest.events.get(timeout=30)["id"] == game["version"]
    # A long-poll of the same token takes a place too: the oldest stream gives it up.
    answers = {}

    def long_poll():
        answers["poll"] = client_at("127.0.0.6").get(
            f"{base}/games/{game['id']}?wait=50", timeout=60,
            headers=bearer(game["tokens"][1], **{"If-None-Match": f'"{game["version"]}"'}))
    poller = threading.Thread(target=long_poll)
    poller.start()
    assert streams[-2].events.get(timeout=30) is None
    move(base, game)
    poller.join(60)
    assert answers["poll"].status_code == 200 and answers["poll"].json()["version"] == game["version"]
    for stream in streams:
        stream.close()
