"""The inbound SMTP listener (aiosmtpd): `flask notify smtpd --port 2525`, the Procfile's `mail:`.

It accepts mail only for addresses at MAIL_DOMAIN that look like ours (play+..., join+..., new@...)
and refuses relaying. Each message is handled in a worker thread with an app context; if handling
fails (the database is down), the sender is told to try again later (451), so nothing is lost.
A message no retry could make readable is refused for good (554) instead: one whose MIME parts
nest deeper, or are more, than any reply's (mime_shape.py, judged before the message is parsed),
so a sending server does not retry it for days, each try holding a thread. A connection's work
is bounded too: MAX_MESSAGE_BYTES a message, MESSAGES_PER_CONNECTION messages (then 421 and the
connection is closed), IDLE_SECONDS between commands.
"""
from __future__ import annotations

import asyncio
import logging
import re

from aiosmtpd.controller import Controller

from ...core import metrics
from ..mail.rfc5322 import domain
from .invitations import NEW_LOCAL
from .mime_shape import Refused
from .replies import _LOCAL, receive

log = logging.getLogger(__name__)
MAX_MESSAGE_BYTES = 1024 * 1024
MESSAGES_PER_CONNECTION = 10
IDLE_SECONDS = 60
_ADDRESS_SECRET = re.compile(r"\b(play|unsubscribe|confirm|join|start)\+[A-Za-z0-9_-]+@")


class HideAddressSecrets(logging.Filter):
    """aiosmtpd logs every SMTP command at INFO, `RCPT TO:<play+SECRET@...>` included, and the
    secret plays a move: keep the line, hide the secret."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "+" in text:
            record.msg, record.args = _ADDRESS_SECRET.sub(r"\1+[hidden]@", text), ()
        return True


logging.getLogger("mail.log").addFilter(HideAddressSecrets())


class InboundHandler:
    def __init__(self, app):
        self.app = app

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local, _, host = address.rpartition("@")
        with self.app.app_context():
            ours = host.lower() == domain().lower()
        if not ours:
            return "550 5.7.1 relaying denied: this server takes mail for its own domain only"
        if not _LOCAL.match(local) and local.lower() != NEW_LOCAL:
            return "550 5.1.1 no such mailbox: reply to a game mail (play+...@) instead"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        try:
            outcome = await asyncio.get_running_loop().run_in_executor(
                None, self._receive, raw, list(envelope.rcpt_tos), envelope.mail_from)
        except Refused as exc:  # the same bytes would be refused on every retry: say so for good
            log.info("inbound mail refused: %s", exc)
            return f"554 5.6.0 message refused: {exc}"
        except Exception:  # noqa: BLE001 - tell the sender to retry rather than lose the move
            log.exception("inbound mail could not be handled; answered 451")
            metrics.mail_received("failed")
            return "451 4.3.0 temporary failure, please try again later"
        log.info("inbound mail: %s (%s)", outcome.status, outcome.detail)
        metrics.mail_received(outcome.status)
        return "250 2.0.0 accepted: " + outcome.status

    def _receive(self, raw: bytes, recipients: list[str], envelope_sender: str | None):
        with self.app.app_context():
            # MAIL FROM:<> (a bounce) arrives as "": never answered. Anything else is checked
            # against the seat's address like the From header (senders.py).
            return receive(raw, recipients, envelope_sender)


def controller(app, host: str, port: int) -> Controller:
    """A started-on-demand listener: `.start()` / `.stop()` (tests use it on a free port)."""
    limits = {"MAIL": MESSAGES_PER_CONNECTION, "DATA": MESSAGES_PER_CONNECTION,
              "RCPT": 5 * MESSAGES_PER_CONNECTION, "*": 2 * MESSAGES_PER_CONNECTION}
    return Controller(InboundHandler(app), hostname=host, port=port, data_size_limit=MAX_MESSAGE_BYTES,
                      ready_timeout=10, timeout=IDLE_SECONDS, command_call_limit=limits)
