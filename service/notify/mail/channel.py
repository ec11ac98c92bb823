"""The mail channel (channels.py): a claimed mail is sent through the worker's SMTP connection
(smtp.py), on the worker's own thread, in no particular order, and given up after
NOTIFY_MAX_ATTEMPTS attempts. Its outbox kinds are the reasons themselves (turn, hand_end,
match_end, reminder, expired, answer, digest, confirm, invitation, ...)."""
from __future__ import annotations

from ..channels import Channel
from .smtp import Mailer

MAIL = Channel(name="mail", courier=Mailer)
