"""The waiting caps in one process (issue 25, finding 9): IPv6 addresses share by their /64, a token
at its cap takes the place of its own oldest wait for the same game, and a long-poll whose place is
taken so answers as it would at its timeout. The live
tests (test_waiting_caps_live.py) hold the rest against a real gunicorn."""
from __future__ import annotations

import threading
import time

import pytest

from service.core.errors import Problem
from service.games import waiting_slots

from .helpers import auth, new_game


def test_an_address_holds_a_share_of_the_process_and_ipv6_counts_by_its_64(app, monkeypatch):
    monkeypatch.setitem(app.config, "WAIT_PER_PROCESS", 10)
    monkeypatch.setitem(app.config, "WAIT_ADDRESS_SHARE", 0.2)  # 2 per address
    slots = waiting_slots.Slots()
    with app.app_context():
        slots.take("t1", "2001:db8::1", "game:g")
        slots.take("t2", "2001:db8::2:3", "game:g")  # the same /64
        with pytest.raises(Problem) as refused:
            slots.take("t3", "2001:db8::ffff:1", "game:g")
        assert refused.value.code == "too-many-waiters" and "/64" in refused.value.detail
        slots.take("t3", "2001:db8:0:1::1", "game:g")  # the next /64 has its own share
        slots.take("t4", "192.0.2.1", "game:g")
        slots.take("t5", "::ffff:192.0.2.1", "game:g")  # the same IPv4 address, as an IPv4-mapped one
        with pytest.raises(Problem):
            slots.take("t6", "192.0.2.1", "game:g")
        slots.take("t6", "192.0.2.2", "game:g")  # IPv4 addresses each on their own
        assert slots.total == 6


def test_a_token_at_its_cap_takes_the_place_of_its_oldest_wait_for_the_same_thing_only(app, monkeypatch):
    monkeypatch.setitem(app.config, "WAIT_PER_TOKEN", 2)
    slots = waiting_slots.Slots()
    with app.app_context():
        first, second = slots.take("t", "192.0.2.1", "game:a"), slots.take("t", "192.0.2.1", "game:b")
        # Another game: refused, as five tabs on five games would otherwise end each other's waits in turn.
        with pytest.raises(Problem) as refused:
            slots.take("t", "192.0.2.1", "game:c")
        assert refused.value.code == "too-many-waiters" and refused.value.headers["Retry-After"]
        third = slots.take("t", "192.0.2.9", "game:b")  # the same game, reconnecting (from elsewhere, even)
        assert second.over and not first.over and not third.over
        assert slots.total == 2 and slots.by_token["t"] == [first, third]
        slots.give_back(second)  # its request ends: nothing more to give back
        assert slots.total == 2


def test_a_long_poll_whose_place_its_token_takes_again_answers_as_at_its_timeout(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "WAIT_PER_TOKEN", 1)
    game = new_game(client)
    headers = auth(game["tokens"][0], **{"If-None-Match": f'"{game["view"]["version"]}"'})
    url = f"/games/{game['id']}?wait=50"
    held_before, answers = waiting_slots.slots.total, {}

    def first_wait():
        answers["first"] = app.test_client().get(url, headers=headers)
    waiter = threading.Thread(target=first_wait)
    waiter.start()
    deadline = time.monotonic() + 30
    while waiting_slots.slots.total == held_before and time.monotonic() < deadline:  # until it waits
        time.sleep(0.01)
    assert waiting_slots.slots.total == held_before + 1
    second = app.test_client().get(f"/games/{game['id']}?wait=1", headers=headers)  # not refused
    waiter.join(30)
    assert second.status_code == 304
    first = answers["first"]
    assert first.status_code == 304 and first.headers["ETag"] == f'"{game["view"]["version"]}"'
    assert waiting_slots.slots.total == held_before
