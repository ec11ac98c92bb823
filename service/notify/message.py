"""RFC 5322 messages: headers for threading, replies and unsubscribing around composed text."""
from __future__ import annotations

import email.policy
import email.utils
import secrets
from datetime import datetime
from email.message import EmailMessage

from .settings import setting

SMTP_POLICY = email.policy.SMTP


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
          auto: str = "auto-generated") -> EmailMessage:
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
    if unsubscribe:
        message["List-Unsubscribe"] = f"<mailto:{unsubscribe}?subject=unsubscribe>"
    # Tells vacation responders not to answer (and our own inbound side ignores such answers).
    message["Auto-Submitted"] = auto
    message.set_content(text, cte="7bit" if text.isascii() else "quoted-printable")
    return message


def serialise(message: EmailMessage) -> str:
    """The exact text to send, plain ASCII (non-ASCII headers and body are encoded)."""
    return message.as_bytes(policy=SMTP_POLICY).decode("ascii")
