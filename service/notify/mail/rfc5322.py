"""RFC 5322 messages: headers for threading, replies and unsubscribing around composed text."""
from __future__ import annotations

import email.policy
import email.utils
import re
import secrets
from datetime import datetime
from email.message import EmailMessage

from ..config import setting
from . import one_click
from .layout import wrap_text


class HeaderInjection(ValueError):
    """A header whose value (once the email package decoded it) would carry a line break or
    another control character: refused, the mail is not built."""


_URL_LISTS = {"list-unsubscribe", "list-unsubscribe-post"}  # written as they are, never encoded
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # tab is folding whitespace; the rest never belongs
_CONTINUATION = re.compile(r"\r\n(?![ \t])")  # a line break not followed by folding whitespace


class HeaderSafePolicy(email.policy.EmailPolicy):
    """policy.SMTP, refusing what it would otherwise write. The email package decodes RFC 2047
    encoded words in a value it is given as text (`=?l1?q?=0A...?=` becomes a linefeed) and, on
    Python before 3.11.10 (no verify_generated_headers), writes the decoded linefeed raw. So every
    value is checked after parsing, and every folded header before it is written."""

    def header_store_parse(self, name, value):
        name, header = super().header_store_parse(name, value)
        if _CONTROL.search(str(header)):
            raise HeaderInjection(f"the {name} header would carry a control character: {str(header)!r}")
        return name, header

    def fold(self, name, value):
        if name.lower() in _URL_LISTS:
            return self._checked(name, self._fold_url_list(name, value))
        return self._checked(name, super().fold(name, value))

    def fold_binary(self, name, value):
        if name.lower() in _URL_LISTS:
            return self.fold(name, value).encode("ascii")
        folded = super().fold_binary(name, value)
        self._checked(name, folded.decode("ascii", "replace"))
        return folded

    def _fold_url_list(self, name, value) -> str:
        """`<url>, <url>` folded between its URLs only. The email package would write a URL longer
        than a line as RFC 2047 encoded words, which no mail client reads as a URL (RFC 2369: the
        URLs stay as they are; a line may be up to 998 characters)."""
        text = str(value)
        if not text.isascii():
            raise HeaderInjection(f"the {name} header must be ASCII: {text!r}")
        return f"{name}: " + f",{self.linesep} ".join(text.split(", ")) + self.linesep

    def _checked(self, name, folded: str) -> str:
        body = folded[:-len(self.linesep)] if folded.endswith(self.linesep) else folded
        if "\n" in body.replace("\r\n", "") or "\r" in body.replace("\r\n", "") or _CONTINUATION.search(body):
            raise HeaderInjection(f"the {name} header would not stay one header: {folded!r}")
        return folded


# CRLF line ends, and any defect found while building is an error rather than a repaired mail.
SMTP_POLICY = HeaderSafePolicy(linesep="\r\n", raise_on_defect=True)
_MESSAGE_ID = re.compile(r"^<[!-;=?-~]{1,200}@[!-;=?-~]{1,200}>$")  # printable ASCII, no < > or spaces


def message_id_or_none(text: str | None) -> str | None:
    """A Message-ID taken from inbound mail, echoed in In-Reply-To only if it is one."""
    return text if text and _MESSAGE_ID.match(text) and "=?" not in text else None


def domain() -> str:
    return setting("MAIL_DOMAIN")


def new_message_id(game_id: str | None, seat: int | None, kind: str) -> str:
    """Unique and decided once, when the row is written: every retry sends this same id, so a
    duplicate after a crash between send and mark is recognisable (and dropped by most clients)."""
    where = f"{game_id}.{seat}." if game_id else ""
    return f"<gin.{where}{kind}.{secrets.token_hex(8)}@{domain()}>"


def thread_root(game_id: str, seat: int) -> str:
    """A fixed id every mail about one game to one seat refers to, so mail clients thread them."""
    return f"<gin.{game_id}.{seat}@{domain()}>"


def address(local: str, secret: str) -> str:
    return f"{local}+{secret}@{domain()}"


def build(*, to: str, subject: str, text: str, message_id: str, moment: datetime,
          reply_to: str | None = None, game_id: str | None = None, seat: int | None = None,
          version: int | None = None, in_reply_to: str | None = None, unsubscribe: str | None = None,
          auto: str = "auto-generated", html: str | None = None) -> EmailMessage:
    """The whole mail. `text` is wrapped to 78 columns here (layout.py), for every kind of mail;
    `html`, if given, becomes a text/html alternative after the unchanged plain part. Every mail
    offers one-click unsubscribing (one_click.py) with the key `unsubscribe`, or a fresh key that
    stops the address."""
    message = EmailMessage(policy=SMTP_POLICY)
    message["From"] = setting("MAIL_FROM")
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = email.utils.format_datetime(moment)
    message["Message-ID"] = message_id
    if reply_to:
        message["Reply-To"] = reply_to
    # Threading: every mail about one game to one seat refers to that thread's fixed root;
    # an answer also refers to the reply it answers.
    in_reply_to = message_id_or_none(in_reply_to)
    references = ([thread_root(game_id, seat)] if game_id is not None and seat is not None else []) + \
        ([in_reply_to] if in_reply_to else [])
    if references:
        message["In-Reply-To"] = references[-1]
        message["References"] = " ".join(references)
    if game_id is not None and seat is not None:
        message["X-Gin-Game"] = game_id
        message["X-Gin-Seat"] = str(seat)
    if version is not None:
        message["X-Gin-Version"] = str(version)
    for name, value in one_click.headers(unsubscribe or one_click.new_key(to, moment)).items():
        message[name] = value
    # Tells vacation responders not to answer (and our own inbound side ignores such answers).
    message["Auto-Submitted"] = auto
    text = wrap_text(text)
    message.set_content(text, cte="7bit" if text.isascii() else "quoted-printable")
    if html:
        message.add_alternative(html, subtype="html", cte="quoted-printable")
    return message


def serialise(message: EmailMessage) -> str:
    """The exact text to send, plain ASCII (non-ASCII headers and body are encoded)."""
    return message.as_bytes(policy=SMTP_POLICY).decode("ascii")
