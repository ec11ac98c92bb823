"""Webhook addresses that would reach the operator's own network are refused: IPv6 forms that
carry an internal IPv4 address (checked at each delivery, for every address a host resolves to,
and at set time when the URL holds the address itself), multicast, and URLs with a port that is
no port. DNS answers are the one fault faked here (getaddrinfo), as in test_webhook_delivery.py."""
from __future__ import annotations

import socket

import pytest

from service.notify.webhooks import calls

from .conftest import auth, start_game

# Each form with the internal IPv4 address it carries (or why it is refused outright).
INTERNAL_FORMS = {
    "::7f00:1": "IPv4-compatible ::127.0.0.1",
    "::a00:5": "IPv4-compatible ::10.0.0.5",
    "::ffff:127.0.0.1": "IPv4-mapped",
    "::ffff:a9fe:a9fe": "IPv4-mapped 169.254.169.254 (cloud metadata)",
    "::ffff:0:a00:5": "SIIT ::ffff:0:10.0.0.5",
    "64:ff9b::a00:5": "NAT64 well-known prefix, 10.0.0.5",
    "64:ff9b::7f00:1": "NAT64 well-known prefix, 127.0.0.1",
    "64:ff9b:1::a00:5": "local-use NAT64 (refused outright)",
    "64:ff9b:1:5db8:d822::": "local-use NAT64 with a public-looking IPv4 (refused outright)",
    "2002:a00:5::1": "6to4 of 10.0.0.5",
    "2002:c0a8:101::1": "6to4 of 192.168.1.1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2": "Teredo (refused outright)",
    "ff02::1": "IPv6 multicast, link scope",
    "ff0e::1": "IPv6 multicast, global scope (Python's is_global says yes)",
    "224.0.0.251": "IPv4 multicast (Python's is_global says yes)",
    "fec0::1": "site-local",
}
# The same translated forms around a public IPv4 address: judged by that address, so a service
# on an IPv6-only network (DNS64 answers 64:ff9b::a.b.c.d for IPv4-only receivers) still works.
PUBLIC_FORMS = ["64:ff9b::5db8:d822", "::ffff:93.184.216.34", "::ffff:0:5db8:d822", "2002:5db8:d822::1",
                "93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]


def resolving_to(*addresses: str):
    """getaddrinfo answering every address given, all at once (a host with several records)."""
    def getaddrinfo(host, port, *args, **kwargs):
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP,
                 "", (a, 0)) for a in addresses]
    return getaddrinfo


@pytest.mark.parametrize("address", sorted(INTERNAL_FORMS), ids=lambda a: INTERNAL_FORMS[a])
def test_each_internal_form_is_refused_at_delivery_for_good(monkeypatch, address):
    monkeypatch.setattr(calls.socket, "getaddrinfo", resolving_to(address))
    with pytest.raises(calls.WebhookError) as refused:
        calls.delivery_address("https://hooks.example.org/x", allow_private=False)
    # Refused for good, without saying what the host resolves to (the seat reads it; issue 38, item 12).
    assert refused.value.permanent and address not in str(refused.value)


@pytest.mark.parametrize("address", PUBLIC_FORMS)
def test_forms_carrying_a_public_ipv4_are_delivered(monkeypatch, address):
    monkeypatch.setattr(calls.socket, "getaddrinfo", resolving_to(address))
    assert calls.delivery_address("https://hooks.example.org/x", allow_private=False) == address


@pytest.mark.parametrize("internal", ["::ffff:10.0.0.5", "64:ff9b::7f00:1", "2002:a00:5::1"])
def test_every_resolved_address_is_checked_not_only_the_first(monkeypatch, internal):
    monkeypatch.setattr(calls.socket, "getaddrinfo", resolving_to("93.184.216.34", internal))
    with pytest.raises(calls.WebhookError) as refused:
        calls.delivery_address("https://hooks.example.org/x", allow_private=False)
    assert refused.value.permanent and internal not in str(refused.value)  # not said to the seat (issue 38)


def patch_webhook(client, game, url):
    return client.patch(f"/games/{game['id']}/contact", json={"webhook_url": url},
                        headers=auth(game["tokens"][0]))


@pytest.mark.parametrize("url", ["http://hooks.example.org:99999/x", "http://hooks.example.org:0/x",
                                 "http://hooks.example.org:abc/x", "https://hooks.example.org:+443/x",
                                 "http://hooks.example.org/x\x00y", "http://hooks.example.org/a b",
                                 "http://hooks.exämple.org/x"])
def test_a_url_with_no_real_port_or_stray_characters_is_refused_when_set(nclient, url):
    game = start_game(nclient, move_time_hours=None)
    answer = patch_webhook(nclient, game, url)
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["code"] == "validation-error"
    assert nclient.get(f"/games/{game['id']}/contact", headers=auth(game["tokens"][0])).get_json()["webhook_url"] is None


@pytest.mark.parametrize("host", ["[::ffff:127.0.0.1]", "[64:ff9b::a00:5]", "[2002:a00:5::1]", "[::7f00:1]",
                                  "[ff0e::1]", "224.0.0.251", "127.0.0.1", "[fd00::1]"])
def test_an_internal_address_written_in_the_url_is_refused_when_set(nclient, configure, host):
    configure(WEBHOOK_ALLOW_PRIVATE=False)
    game = start_game(nclient, move_time_hours=None)
    answer = patch_webhook(nclient, game, f"http://{host}:8080/hook")
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["code"] == "validation-error"


@pytest.mark.parametrize("url", ["https://hooks.example.org:8443/x?seat=1", "http://[2606:2800:220:1::1]/x",
                                 "https://93.184.216.34/x"])
def test_good_urls_are_still_taken(nclient, configure, url):
    configure(WEBHOOK_ALLOW_PRIVATE=False)
    game = start_game(nclient, move_time_hours=None)
    answer = patch_webhook(nclient, game, url)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["webhook_url"] == url


# Issue 25, finding 11: hosts the resolver turns into an internal address were taken when set and
# only refused at each call. Set and delivery now share one check (public_ip.public_addresses).
INTERNAL_HOSTS = ["localhost", "LOCALHOST", "2130706433", "0x7f000001", "127.1", "0177.0.0.1", "[fd12:3456::1]"]


def assert_refused_when_set_and_at_delivery(client, url, resolved: str = "127.0.0.1"):
    game = start_game(client, move_time_hours=None)
    answer = patch_webhook(client, game, url)
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["code"] == "validation-error"
    # Issue 38, item 12: refused without saying what the host resolves to (no probe of the service's DNS).
    assert "is not a public address" in answer.get_json()["detail"]
    assert resolved not in answer.get_json()["detail"] and "resolves to " + resolved not in answer.get_data(True)
    assert client.get(f"/games/{game['id']}/contact", headers=auth(game["tokens"][0])).get_json()["webhook_url"] is None
    with pytest.raises(calls.WebhookError) as refused:  # the very same verdict a delivery reaches
        calls.delivery_address(url, allow_private=False)
    assert refused.value.permanent and resolved not in str(refused.value)  # the seat's deliveries log shows it


@pytest.mark.parametrize("host", INTERNAL_HOSTS)
def test_a_host_the_resolver_reads_as_internal_is_refused_when_set(nclient, configure, host):
    configure(WEBHOOK_ALLOW_PRIVATE=False)
    assert_refused_when_set_and_at_delivery(nclient, f"http://{host}:8080/hook")


@pytest.mark.parametrize("internal", ["127.0.0.1", "fd00::5", "10.1.2.3"])
def test_a_name_whose_dns_answer_is_internal_is_refused_when_set(nclient, configure, monkeypatch, internal):
    configure(WEBHOOK_ALLOW_PRIVATE=False)
    monkeypatch.setattr(calls.socket, "getaddrinfo", resolving_to("93.184.216.34", internal))
    assert_refused_when_set_and_at_delivery(nclient, "https://hooks.example.org/gin", resolved=internal)


def test_a_name_that_does_not_resolve_now_is_taken_and_judged_at_each_delivery(nclient, configure, monkeypatch):
    configure(WEBHOOK_ALLOW_PRIVATE=False)

    def no_answer(*args, **kwargs):
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
    monkeypatch.setattr(calls.socket, "getaddrinfo", no_answer)
    game = start_game(nclient, move_time_hours=None)
    assert patch_webhook(nclient, game, "https://hooks.example.org/gin").status_code == 200
    with pytest.raises(calls.WebhookError) as failed:
        calls.delivery_address("https://hooks.example.org/gin", allow_private=False)
    assert not failed.value.permanent  # retried: DNS may be back by then


def test_a_name_resolving_to_loopback_is_taken_when_private_addresses_are_allowed(nclient, configure):
    configure(WEBHOOK_ALLOW_PRIVATE=True)
    game = start_game(nclient, move_time_hours=None)
    assert patch_webhook(nclient, game, "http://localhost:8080/hook").status_code == 200
