"""Turn mails through a real SMTP server: content, headers, threading, and no hidden card."""
from __future__ import annotations

import re

from .conftest import DOMAIN, act, deliver, outbox_rows, reply_address, start_game, text, view

ANN, BOB = "ann@example.org", "bob@example.org"


def test_smoke(nclient, notify_app, mail_server):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    deliver(notify_app)
    for rcpts, m in mail_server.catcher.messages:
        print(rcpts, m["Subject"])
        print(text(m))
    assert mail_server.catcher.messages
