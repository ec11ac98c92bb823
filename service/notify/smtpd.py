"""The inbound SMTP listener (aiosmtpd): `flask notify smtpd --port 2525`, the Procfile's `mail:`.

It accepts mail only for addresses at MAIL_DOMAIN that look like ours (play+..., join+..., new@...)
and refuses relaying. Each message is handled in a worker thread with an app context; if handling
fails (the database is down), the sender is told to try again later (451), so nothing is lost.
"""
from __future__ import annotations

import asyncio
import logging
import re

from aiosmtpd.controller import Controller

from .inbound import _LOCAL, receive
from .invitations import NEW_LOCAL
from .message import domain

log = logging.getLogger(__name__)
MAX_MESSAGE_BYTES = 1024 * 1024
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
        except Exception:  # noqa: BLE001 - tell the sender to retry rather than lose the move
            log.exception("inbound mail could not be handled; answered 451")
            return "451 4.3.0 temporary failure, please try again later"
        log.info("inbound mail: %s (%s)", outcome.status, outcome.detail)
        return "250 2.0.0 accepted: " + outcome.status

    def _receive(self, raw: bytes, recipients: list[str], envelope_sender: str | None):
        with self.app.app_context():
            # MAIL FROM:<> (a bounce) arrives as "": never answered. Anything else is checked
            # against the seat's address like the From header (senders.py).
            return receive(raw, recipients, envelope_sender)


def controller(app, host: str, port: int) -> Controller:
    """A started-on-demand listener: `.start()` / `.stop()` (tests use it on a free port)."""
    return Controller(InboundHandler(app), hostname=host, port=port, data_size_limit=MAX_MESSAGE_BYTES,
                      ready_timeout=10)
