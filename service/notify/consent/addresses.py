"""Contact email addresses: what the service accepts, and the one key it files an address under.

An address is accepted only if a mail can be built to it and delivered by any SMTP server:
plain ASCII (no SMTPUTF8 needed), a dot-atom local part (no quoted strings, no comments), a
domain of ordinary host labels, no RFC 2047 encoded word (`=?utf-8?q?a=0D=0Ab?=@x.org` is a valid
dot-atom, but the email package decodes it into CR LF when building the To header), and, as the
last word, the email package's own parser (headerregistry.Address) and a To header built with the
service's header-safe policy must give the same address back.
"""
from __future__ import annotations

import re
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import parseaddr

from ..mail import rfc5322

_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf"^{_ATEXT}(\.{_ATEXT})*$")
_LABEL = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_TOP_LABEL = re.compile(r"^([A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$")
_ENCODED_WORD = re.compile(r"=\?.*\?=")
HINT = "write a bare address like ann@example.org"


# Domains whose provider documents that dots in the local part do not matter (Gmail: "Gmail
# doesn't recognize dots as characters within usernames"), and that googlemail.com is gmail.com.
DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def normalised(address: str) -> str:
    """The key an address is confirmed, counted, capped and stopped under: one per mailbox, so
    that variants of an address are not asked, counted or stopped apart. The whole address in
    lower case (providers treat local parts case-insensitively in practice), a `+tag` of the
    local part left out (the owner of a mailbox owns its subaddresses), and, only for the
    domains whose provider documents it, the local part's dots (DOTLESS_DOMAINS). What is stored
    and mailed stays the address as given; only comparisons use this key."""
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return address.strip().lower()
    local = local.split("+", 1)[0]
    if domain in DOTLESS_DOMAINS:
        local, domain = local.replace(".", ""), DOTLESS_DOMAINS[domain]
    return f"{local}@{domain}"


def check_email(text: str) -> str:
    """The address as given (trimmed), or ValueError saying what is wrong with it."""
    address = text.strip()
    if not address.isascii():
        raise ValueError(f"{address!r}: only ASCII addresses are accepted (a non-ASCII local part needs "
                         "SMTPUTF8, which not every mail server offers; write an international domain "
                         "in its xn-- form)")
    if len(address) > 254 or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in address):
        raise ValueError(f"not an email address: {address!r} ({HINT})")
    if _ENCODED_WORD.search(address):
        raise ValueError(f"{address!r}: an address may not hold an RFC 2047 encoded word (=?...?=)")
    local, at, domain = address.rpartition("@")
    if not at or not _LOCAL.match(local) or len(local) > 64 or not _domain_ok(domain):
        raise ValueError(f"not an email address: {address!r} ({HINT})")
    if domain.lower() == rfc5322.domain().lower():
        raise ValueError(f"{address!r} is one of this service's own addresses")
    if not _builds(address):
        raise ValueError(f"no mail can be built to {address!r} ({HINT})")
    return address


def _domain_ok(domain: str) -> bool:
    if domain.lower() == "localhost":
        return True
    labels = domain.split(".")
    return (len(domain) <= 253 and len(labels) >= 2 and all(_LABEL.match(label) for label in labels)
            and bool(_TOP_LABEL.match(labels[-1])))


def _builds(address: str) -> bool:
    """The email package parses it as this very address, and a To header to it builds and reads back."""
    try:
        parsed = Address(addr_spec=address)
        mail = EmailMessage(policy=rfc5322.SMTP_POLICY)
        mail["To"] = address
        written = mail.as_bytes(policy=rfc5322.SMTP_POLICY).decode("ascii")
    except (ValueError, TypeError, IndexError, LookupError):
        return False
    header = written.split("\r\n", 1)[0].removeprefix("To: ")
    return parsed.addr_spec == address and parseaddr(header)[1] == address
