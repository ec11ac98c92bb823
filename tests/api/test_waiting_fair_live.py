"""A process's waits shared max-min fair between addresses (issue 38, item 14), against a real
gunicorn scaled down so that three addresses, each within its share, fill it: a fourth address's
stream and long-poll both get a place, each the oldest wait of the address holding the most (which
ends cleanly; a long-poll taken over answers as at its timeout: test_waiting_caps.py), and a heavy
address that lost one does not take it back. Clients connect from several loopback addresses, as in
test_waiting_caps_live.py; the Procfile's gevent worker on both databases (not the gthread worker
of the tests: its 8 threads hold 8 waits, fewer than the 11 here)."""
from __future__ import annotations

import threading

import pytest

from .test_waiting_caps_live import Stream, client_at, refused, serving_with_caps
from .test_waiting_live import bearer, move, new_game

CAPS = {"WAIT_PER_TOKEN": "4", "WAIT_PER_PROCESS": "9", "WAIT_ADDRESS_SHARE": "0.34",  # 3 per address
        "STREAM_KEEPALIVE_SECONDS": "3600"}
SERVERS = [("sqlite", "gevent"), ("postgresql", "gevent")]


@pytest.fixture(params=SERVERS, ids=["-".join(each) for each in SERVERS])
def base(request, tmp_path):
    with serving_with_caps(*request.param, tmp_path, CAPS) as base_url:
        yield base_url


def long_poll(session, base: str, game: dict, seat: int, answers: dict, name: str) -> threading.Thread:
    """A long-poll of up to 50 s for the game's next version, in a thread; its answer in answers[name]."""
    def wait():
        answers[name] = session.get(f"{base}/games/{game['id']}?wait=50", timeout=60,
                                    headers=bearer(game["tokens"][seat], **{"If-None-Match": f'"{game["version"]}"'}))
    thread = threading.Thread(target=wait)
    thread.start()
    return thread


def test_three_addresses_fill_the_process_and_a_fourth_still_gets_its_stream_and_long_poll(base):
    heavy = {name: (client_at(address), new_game(base)) for name, address in
             (("first", "127.0.0.21"), ("second", "127.0.0.22"), ("third", "127.0.0.23"))}
    answers = {}
    # Three streams from each address (each opens once its first event has come, so in this order): full.
    first_streams, second_streams, third_streams = (
        [Stream(heavy[name][0], base, heavy[name][1], seat) for seat in (0, 1, 0)]
        for name in ("first", "second", "third"))

    victim_session, victim = client_at("127.0.0.24"), new_game(base)
    stream = Stream(victim_session, base, victim, 0)  # a place: the first address's oldest stream's
    assert first_streams[0].events.get(timeout=30) is None  # which ends cleanly
    poller = long_poll(victim_session, base, victim, 1, answers, "victim")  # the second address's oldest
    assert second_streams[0].events.get(timeout=30) is None
    # A heavy address that gave a place up does not take it back from an address holding as many.
    again = refused(heavy["first"][0], base, new_game(base), 0)  # (a token of its own: not a reconnection)
    assert again.status_code == 429 and again.json()["code"] == "too-many-waiters"
    assert "the server" in again.json()["detail"] and int(again.headers["Retry-After"]) > 0

    move(base, victim)  # the victim's waits were given places: both hear the move
    poller.join(60)
    assert answers["victim"].status_code == 200 and answers["victim"].json()["version"] == victim["version"]
    assert stream.events.get(timeout=30)["id"] == victim["version"]
    for name in ("first", "second", "third"):  # every other wait is open still
        move(base, heavy[name][1])
    kept = [*first_streams[1:], *second_streams[1:], *third_streams]
    for held in kept:
        event = held.events.get(timeout=30)
        assert event is not None and event["event"] == "view", "a wait that kept its place was ended"
    for held in [*kept, stream]:
        held.close()
