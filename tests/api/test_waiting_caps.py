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


def test_a_full_process_is_shared_max_min_fair_between_addresses(app, monkeypatch):
    """Issue 38, item 14: three addresses, each within its share, fill the process; a fourth
    address's waits still get places, each the oldest wait of the address holding the most, until
    no address holds more than the newcomer's would after."""
    monkeypatch.setitem(app.config, "WAIT_PER_PROCESS", 9)
    monkeypatch.setitem(app.config, "WAIT_ADDRESS_SHARE", 0.34)  # 3 per address: three fill the process
    monkeypatch.setitem(app.config, "WAIT_PER_TOKEN", 10)
    slots = waiting_slots.Slots()
    with app.app_context():
        held = {address: [slots.take(f"t-{address}", address, f"game:{n}") for n in range(3)]
                for address in ("192.0.2.1", "192.0.2.2", "192.0.2.3")}
        assert slots.total == 9
        victim = "198.51.100.7"
        stream = slots.take("v", victim, "player:v")  # not refused: 192.0.2.1's oldest ends for it
        assert held["192.0.2.1"][0].over and not any(s.over for s in held["192.0.2.1"][1:])
        poll = slots.take("v", victim, "game:1")  # and 192.0.2.2's oldest (it holds the most now)
        assert held["192.0.2.2"][0].over and not stream.over and slots.total == 9
        # The victim holding 2, a third would leave it holding as many as the heaviest (3): refused.
        with pytest.raises(Problem) as refused:
            slots.take("v", victim, "game:2")
        assert refused.value.code == "too-many-waiters" and "the server" in refused.value.detail
        # Nor does an address that gave a place up take it back: 192.0.2.1 holds 2, the most 3.
        with pytest.raises(Problem):
            slots.take("t-192.0.2.1", "192.0.2.1", "game:9")
        # Another newcomer: the one address still holding 3 gives up its oldest.
        slots.take("w", "203.0.113.5", "game:1")
        assert held["192.0.2.3"][0].over and not any(s.over for s in held["192.0.2.3"][1:])
        counts = {group: len(waits) for group, waits in slots.by_group.items()}
        assert counts == {"192.0.2.1": 2, "192.0.2.2": 2, "192.0.2.3": 2, victim: 2, "203.0.113.5": 1}
        assert slots.heaviest == 2 and slots.total == 9
        # Places given back keep the count by group true.
        for slot in [*held["192.0.2.2"][1:], stream]:
            slots.give_back(slot)
        assert slots.heaviest == 2 and slots.groups_by_count[2] == {"192.0.2.1": None, "192.0.2.3": None}
        assert slots.groups_by_count[1] == {victim: None, "203.0.113.5": None} and slots.total == 6
