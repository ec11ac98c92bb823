"""Issue 38, item 13: with TRUSTED_PROXIES set, forwarded headers are believed only from the
addresses of TRUSTED_PROXY_IPS (default loopback). A client reaching gunicorn directly and saying
`X-Forwarded-For: 127.0.0.1` read /metrics and chose its own rate-limit key; now it keeps its address."""
from __future__ import annotations

import re

import pytest

from .test_rate_limits import assert_rate_limited, auth, from_address, limited_app

OUTSIDE = "203.0.113.9"


def behind_proxy(db_config, **settings):
    from service import create_app
    return create_app({"TESTING": True, **db_config, "TRUSTED_PROXIES": 1, **settings}).test_client()


def test_a_direct_client_cannot_pass_for_loopback(db_config):
    served = behind_proxy(db_config)
    forged = served.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"}, **from_address(OUTSIDE))
    assert forged.status_code == 403 and forged.get_json()["code"] == "metrics-forbidden"
    # Through the proxy on loopback, the forwarded address is the client's, both ways.
    assert served.get("/metrics", headers={"X-Forwarded-For": OUTSIDE},
                      **from_address("127.0.0.1")).status_code == 403
    assert served.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"},
                      **from_address("127.0.0.1")).status_code == 200


def test_a_direct_client_picks_no_request_id_and_no_scheme(db_config):
    served = behind_proxy(db_config)
    answer = served.get("/health", headers={"X-Request-Id": "chosen-by-me", "X-Forwarded-Proto": "https"},
                        **from_address(OUTSIDE))
    assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["X-Request-Id"])
    via_proxy = served.get("/health", headers={"X-Request-Id": "chosen-by-proxy"}, **from_address("::1"))
    assert via_proxy.headers["X-Request-Id"] == "chosen-by-proxy"


def test_a_direct_client_cannot_choose_its_rate_limit_key(db_config):
    served = limited_app(db_config, RATELIMIT_FAILED_AUTH="2 per minute", TRUSTED_PROXIES=1)
    client = served.test_client()
    for n in range(2):
        assert client.get("/games/x", headers=auth("x", **{"X-Forwarded-For": f"198.51.100.{n}"}),
                          **from_address(OUTSIDE)).status_code == 401
    assert_rate_limited(client.get("/games/x", headers=auth("x", **{"X-Forwarded-For": "198.51.100.7"}),
                                   **from_address(OUTSIDE)))


def test_proxies_elsewhere_are_named_by_address_or_network(db_config):
    served = behind_proxy(db_config, TRUSTED_PROXY_IPS="10.0.7.0/24, 192.0.2.1")
    for proxy in ("10.0.7.20", "192.0.2.1"):
        assert served.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"},
                          **from_address(proxy)).status_code == 200
    # Loopback is no longer trusted once the list names others.
    assert served.get("/metrics", headers={"X-Forwarded-For": OUTSIDE},
                      **from_address("127.0.0.1")).status_code == 200


@pytest.mark.parametrize("spec", ["10.0.0.300", "not-an-address"])
def test_a_bad_trusted_proxy_list_stops_the_start(db_config, spec):
    with pytest.raises(ValueError):
        behind_proxy(db_config, TRUSTED_PROXY_IPS=spec)
