"""Who sent a reply: only the seat's own confirmed address may play for it.

A reply address's secret says which seat a reply is for; the sender says who wrote it. A turn
mail may be forwarded, read over a shoulder or leaked, so the secret alone is not enough (as
Discourse's reply-by-email also checks the sender against the user the reply key belongs to).

Addresses compare as mail providers treat them (`same_address`, by consent.addresses.normalised, the one
key every cap and `stop` use): the domain and, in practice, the local part in any case, and a
`+tag` subaddress is the same mailbox: `Ann+gin@Example.org` is `ann@example.org` (and, where
Gmail documents it, `a.n.n@gmail.com` is `ann@gmail.com`). Both the `From` header and the envelope sender (SMTP `MAIL FROM`, when the
listener or the MTA pipe passes it) must be the seat's address.

`From` is only a claim, so with MAIL_REQUIRE_AUTH = dmarc or dkim the listener also requires the
receiving MX's verdict: an `Authentication-Results` header (RFC 8601) from the trusted
MAIL_AUTHSERV_ID saying DMARC (or an aligned DKIM signature) passed for the From's domain.
"""
from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import getaddresses

from ..config import setting
from ..consent.addresses import normalised

AUTH_MODES = ("off", "dkim", "dmarc")
_PRINTABLE_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]{3,100}$")
_COMMENT = re.compile(r"\([^()]*\)")


def mailbox(address: str) -> str:
    """The key two addresses are compared by (consent.addresses.normalised)."""
    return normalised(address)


def same_address(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and mailbox(a) == mailbox(b)


def from_address(msg: EmailMessage) -> str | None:
    """The one address of the From header; None when it holds none or several."""
    try:
        found = [addr for _, addr in getaddresses(msg.get_all("From", [])) if addr]
    except (TypeError, ValueError, IndexError):
        return None
    return found[0] if len(found) == 1 else None


def is_sender(msg: EmailMessage, envelope_sender: str | None, owner: str | None) -> bool:
    """Whether `owner` (the seat's confirmed address) wrote this mail: its From, the envelope
    sender where known, and (MAIL_REQUIRE_AUTH) the MX's authentication verdict all agree."""
    sender = from_address(msg)
    if not same_address(sender, owner):
        return False
    if envelope_sender is not None and not same_address(envelope_sender, owner):
        return False
    return authenticated(msg, sender)


def authenticated(msg: EmailMessage, sender: str) -> bool:
    mode = (setting("MAIL_REQUIRE_AUTH") or "off").strip().lower()
    if mode == "off":
        return True
    trusted = (setting("MAIL_AUTHSERV_ID") or "").strip().lower()
    if mode not in AUTH_MODES or not trusted:
        return False  # misconfigured: refuse rather than trust a claim
    domain = sender.rpartition("@")[2].lower()
    verdict = trusted_results(msg, trusted)
    if verdict is None:
        return False
    for method, result, props in verdict:
        if result != "pass":
            continue
        if mode == "dmarc" and method == "dmarc" and props.get("header.from", "").lower() == domain:
            return True
        if mode == "dkim" and method == "dkim" and _aligned(domain, props):
            return True
    return False


def _aligned(domain: str, props: dict[str, str]) -> bool:
    """A DKIM signature's domain (header.d, or header.i's) is the From's domain or a parent of it."""
    signer = props.get("header.d") or props.get("header.i", "").rpartition("@")[2]
    signer = signer.lower().strip(".")
    return bool(signer) and (domain == signer or domain.endswith("." + signer))


def trusted_results(msg: EmailMessage, trusted: str) -> list[tuple[str, str, dict[str, str]]] | None:
    """The topmost Authentication-Results header written by `trusted`, as (method, result, props).
    Only the topmost: the MX prepends its own, so one a sender forged with the same id is below."""
    for raw in msg.get_all("Authentication-Results", []):
        text = _COMMENT.sub(" ", str(raw))
        head, _, rest = text.partition(";")
        if (head.split() or [""])[0].lower() != trusted:
            continue
        results = []
        for piece in rest.split(";"):
            words = piece.split()
            if not words or "=" not in words[0]:
                continue
            method, _, result = words[0].partition("=")
            props = {}
            for word in words[1:]:
                key, eq, value = word.partition("=")
                if eq:
                    props.setdefault(key.lower(), value.strip('"'))
            results.append((method.lower().split("/")[0], result.lower(), props))
        return results
    return None


def shown(address: str | None) -> str:
    """An address as a notice may quote it: plain printable ASCII, or a fixed stand-in."""
    return address if address and _PRINTABLE_ADDRESS.match(address) else "(an address that cannot be shown)"
