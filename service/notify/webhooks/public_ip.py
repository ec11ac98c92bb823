"""Which IP addresses a webhook may be delivered to: public unicast ones, judged by where the
packet really goes.

Python's `is_global` is not enough: it calls global several IPv6 forms that carry an IPv4
address inside them, and on a network that translates them (NAT64, 6to4, SIIT, or a stack that
treats IPv4-mapped addresses as IPv4) a connection to such an address reaches that IPv4 host,
perhaps 127.0.0.1 or 10.0.0.5. It also calls multicast global.

`public_addresses` resolves a host name and judges every address it gives: the one check both
when a webhook URL is set and at each delivery, so a URL refused at delivery (`localhost`,
`127.1`, `2130706433`, `0x7f000001`, a name whose DNS answer is internal) is refused when set.

Two kinds of treatment:
- forms that translate to an IPv4 destination are judged by that IPv4 address (IPv4-mapped,
  SIIT, the well-known NAT64 prefix, 6to4). Refusing them outright would break every webhook of a
  service running on an IPv6-only network with DNS64, where each IPv4-only receiver resolves to
  64:ff9b::a.b.c.d;
- forms no public receiver uses are refused outright: IPv4-compatible addresses (deprecated since
  2006, some stacks still route them as IPv4), local-use NAT64 (its IPv4 sits at a place only the
  local network knows), Teredo (a tunnel to an obfuscated client address), site-local, multicast.
"""
from __future__ import annotations

import ipaddress
import socket

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: the IPv4 address is the last 32 bits
SIIT = ipaddress.ip_network("::ffff:0:0:0/96")  # RFC 6145/7915: ::ffff:0:a.b.c.d
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # ::a.b.c.d (RFC 4291, deprecated)
REFUSED_OUTRIGHT = (
    (ipaddress.ip_network("64:ff9b:1::/48"), "a local-use NAT64 address (RFC 8215)"),
    (ipaddress.ip_network("2001::/32"), "a Teredo tunnel address (RFC 4380)"),
    (ipaddress.ip_network("fec0::/10"), "a site-local address"),
)


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address a translating network would deliver `address` to, if it is such a form."""
    if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d
        return address.ipv4_mapped
    if address.sixtofour is not None:  # 2002:aabb:ccdd::/48
        return address.sixtofour
    if address in NAT64 or address in SIIT:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refusal(address: str | Address) -> str | None:
    """Why a webhook must not be delivered to `address`, or None when it is a public unicast one."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if ip.is_multicast:
        return "a multicast address"
    if ip.version == 6:
        inner = embedded_ipv4(ip)
        if inner is not None:
            why = refusal(inner)
            return f"an IPv6 form of the IPv4 address {inner}, which is {why}" if why else None
        if ip in IPV4_COMPATIBLE and int(ip) > 1:  # :: and ::1 are judged below
            return "an IPv4-compatible address (deprecated, RFC 4291)"
        for network, why in REFUSED_OUTRIGHT:
            if ip in network:
                return why
    if not ip.is_global:
        return "not a public address (loopback, private, link-local or reserved)"
    return None


class NotPublic(ValueError):
    """The host resolves to an address no webhook may reach (the message says which and why)."""


class Unresolved(OSError):
    """The host does not resolve now (perhaps for a while only: DNS may be down)."""


def public_addresses(host: str) -> list[str]:
    """Every address `host` resolves to (IP literals in any form the resolver reads, such as
    127.1 or 0x7f000001, included), all public; else NotPublic for the first that is not, or
    Unresolved when there is none to judge."""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise Unresolved(f"cannot resolve {host}: {exc}") from None
    addresses = [info[4][0] for info in infos]
    for address in addresses:
        why = refusal(address)
        if why:
            raise NotPublic(f"{host} resolves to {address}, {why}")
    if not addresses:
        raise Unresolved(f"cannot resolve {host}: no address")
    return addresses
