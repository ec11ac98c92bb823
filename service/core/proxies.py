"""Forwarded headers believed only from the proxies the operator names: X-Forwarded-For and
X-Forwarded-Proto (werkzeug's ProxyFix, TRUSTED_PROXIES hops) and X-Request-Id are read only when
the connection comes from an address in TRUSTED_PROXY_IPS (default loopback, where the deployment's
nginx runs). A client reaching gunicorn directly and sending `X-Forwarded-For: 127.0.0.1` keeps its
own address: it reads no /metrics and picks no rate-limit key."""
from __future__ import annotations

import ipaddress

from werkzeug.middleware.proxy_fix import ProxyFix

DEFAULT_TRUSTED_PROXY_IPS = "127.0.0.0/8,::1"
VIA_TRUSTED_PROXY = "gin.via_trusted_proxy"  # set in the WSGI environ of a request that came through one


def networks(spec: str) -> tuple:
    """The addresses and networks of a comma-separated TRUSTED_PROXY_IPS ("10.0.0.5, 10.1.0.0/16")."""
    out = []
    for part in (p.strip() for p in spec.split(",")):
        if part:
            out.append(ipaddress.ip_network(part, strict=False))  # a bad entry stops the start: a clear error
    return tuple(out)


def trusted(address: str | None, allowed: tuple) -> bool:
    try:
        ip = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return False  # a Unix socket peer, or nothing: not a proxy's address
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return any(ip in network for network in allowed if network.version == ip.version)


class TrustedProxyFix:
    """ProxyFix for requests from a trusted proxy's address; the others as they came."""

    def __init__(self, app, hops: int, allowed: tuple):
        self.plain, self.fixed, self.allowed = app, ProxyFix(app, x_for=hops, x_proto=hops), allowed

    def __call__(self, environ, start_response):
        if trusted(environ.get("REMOTE_ADDR"), self.allowed):
            environ[VIA_TRUSTED_PROXY] = True
            return self.fixed(environ, start_response)
        return self.plain(environ, start_response)
