"""Notify's settings (core.settings reads them: app.config, then the environment, then these
defaults, which work on a fresh machine: mail to a catcher on 127.0.0.1:1025)."""
from __future__ import annotations

from ..core import settings
from ..core.settings import setting  # noqa: F401  (notify's modules read their settings through here)

DEFAULTS = {
    "MAIL_DOMAIN": "gin.localhost",  # reply addresses are play+<secret>@MAIL_DOMAIN
    "MAIL_FROM": lambda: f"Gin Rummy <gin@{setting('MAIL_DOMAIN')}>",
    "SMTP_HOST": "127.0.0.1",
    "SMTP_PORT": 1025,
    "SMTP_USER": None,
    "SMTP_PASSWORD": None,
    "SMTP_STARTTLS": False,
    "SMTP_TIMEOUT": 30.0,
    "WEBHOOK_TIMEOUT": 10.0,  # seconds for a whole webhook call: resolving, connecting, sending, the answer
    "WEBHOOK_CONNECT_TIMEOUT": 3.0,  # of which making the connection
    # Webhook calls at once per worker (threads); also the most webhook rows one batch claims.
    "WEBHOOK_CONCURRENCY": 8,
    # After this many consecutive failed calls to one host:port (timeouts, refused, 5xx, 429), its
    # rows are postponed without a call for a cool-down, doubling while it keeps failing.
    "WEBHOOK_BREAKER_FAILURES": 3,
    "WEBHOOK_BREAKER_COOLDOWN_SECONDS": 60.0,
    # A failed webhook call is retried (with the NOTIFY_RETRY_* backoff) until this many hours after it
    # was queued or redelivered, then marked dead: about a day, as Standard Webhooks' schedule.
    "WEBHOOK_RETRY_HOURS": 24.0,
    # Webhook URLs resolving to loopback/private addresses are refused unless this is on
    # (a seat must not make the worker call the operator's own internal services).
    "WEBHOOK_ALLOW_PRIVATE": False,
    # Web Push (notify/push/): the VAPID key pair the service signs with (RFC 8292). VAPID_PRIVATE_KEY
    # (the private key, base64url or PEM: the same on every node), else the file VAPID_KEY_FILE, else
    # vapid_private.pem in the instance folder, made on first use (`flask admin vapid` shows it).
    "VAPID_PRIVATE_KEY": None,
    "VAPID_KEY_FILE": None,
    # Who the push services may write to about this service's pushes (the JWT's `sub`).
    "VAPID_SUBJECT": lambda: f"mailto:gin@{setting('MAIL_DOMAIN')}",
    # Push endpoints must be https:// URLs at public addresses unless this is on (tests on loopback).
    "PUSH_ALLOW_PRIVATE": False,
    # A push is kept by the push service until the deadline it tells, at most this long (its TTL).
    "PUSH_TTL_HOURS": 72.0,
    # A failed push is retried (with the NOTIFY_RETRY_* backoff) until this many hours after it was queued.
    "PUSH_RETRY_HOURS": 24.0,
    "PUSH_SUBSCRIPTIONS_PER_OWNER": 10,  # browsers one seat (or one player) may subscribe
    "NOTIFY_RETRY_BASE_SECONDS": 30.0,  # first retry after this, doubling per attempt ...
    "NOTIFY_RETRY_MAX_SECONDS": 3600.0,  # ... up to this
    "NOTIFY_MAX_ATTEMPTS": 30,  # then a mail is marked dead (about a day of retries); webhooks: WEBHOOK_RETRY_HOURS
    # A claim lasts this long unless renewed: a worker renews its claims while it lives (every quarter
    # of this), so a dead worker's rows are taken over this long after its death.
    "NOTIFY_LEASE_SECONDS": 20.0,
    # ... for at most this long after it took them (a delivery stuck that long gives its row up):
    # one delivery's network timeouts are capped to a tenth of this.
    "NOTIFY_HOLD_SECONDS": 600.0,
    "NOTIFY_BATCH": 20,
    "DIGEST_HOURS": 24.0,
    "NOTIFY_KEEP_DAYS": 14.0,  # sent outbox rows are kept this long, reply secrets twice as long
    # Mail to an unknown reply address is answered only to a known player, at most this often an hour.
    "UNKNOWN_ANSWERS_PER_HOUR": 3,
    # Confirmation mails (the only mail an address gets before its owner confirmed it), at most:
    "CONFIRM_MAILS_PER_GAME": 6,  # over a game's life, both seats together
    "CONFIRM_MAILS_PER_ADDRESS": 3,  # to one address a day
    "CONFIRM_MAILS_PER_CLIENT": 20,  # asked by one client address (the HTTP peer) a day
    # A reply plays only from the seat's confirmed address (inbound/senders.py); with dkim or dmarc the
    # listener also needs an Authentication-Results pass from the MX named MAIL_AUTHSERV_ID.
    "MAIL_REQUIRE_AUTH": "off",  # off | dkim | dmarc
    "MAIL_AUTHSERV_ID": None,  # the authserv-id your MX writes in Authentication-Results
    "WRONG_SENDER_NOTICES_PER_HOUR": 1,  # to a seat's address, when someone else replied for it
    "INVITES_PER_SENDER_PER_DAY": 5,  # invitation mails asked by one player (or client) a day
    "INVITES_PER_RECIPIENT_PER_DAY": 3,  # invitation mails to one address (its mailbox) a day, whoever asks
    "MAIL_HTML": True,  # game mails carry an HTML alternative part (the plain part unchanged)
}
_TYPES = {"SMTP_PORT": int, "SMTP_STARTTLS": bool, "SMTP_TIMEOUT": float, "WEBHOOK_TIMEOUT": float,
          "WEBHOOK_ALLOW_PRIVATE": bool, "NOTIFY_RETRY_BASE_SECONDS": float,
          "NOTIFY_RETRY_MAX_SECONDS": float, "NOTIFY_MAX_ATTEMPTS": int, "NOTIFY_LEASE_SECONDS": float,
          "NOTIFY_HOLD_SECONDS": float,
          "NOTIFY_BATCH": int, "DIGEST_HOURS": float,
          "NOTIFY_KEEP_DAYS": float, "UNKNOWN_ANSWERS_PER_HOUR": int, "CONFIRM_MAILS_PER_GAME": int,
          "CONFIRM_MAILS_PER_ADDRESS": int, "CONFIRM_MAILS_PER_CLIENT": int}

_TYPES.update({"WRONG_SENDER_NOTICES_PER_HOUR": int, "INVITES_PER_SENDER_PER_DAY": int, "MAIL_HTML": bool,
               "INVITES_PER_RECIPIENT_PER_DAY": int})
_TYPES.update({"PUSH_ALLOW_PRIVATE": bool, "PUSH_TTL_HOURS": float, "PUSH_RETRY_HOURS": float,
               "PUSH_SUBSCRIPTIONS_PER_OWNER": int})
_TYPES.update({"WEBHOOK_CONNECT_TIMEOUT": float, "WEBHOOK_CONCURRENCY": int, "WEBHOOK_BREAKER_FAILURES": int,
               "WEBHOOK_BREAKER_COOLDOWN_SECONDS": float, "WEBHOOK_RETRY_HOURS": float})


settings.register(DEFAULTS, _TYPES)
