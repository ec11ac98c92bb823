"""Notifications and play by email: a feature above games and access.

At the top, what every way out shares:

    models.py          tables: contacts, the outbox, reply secrets, inbound mail, addresses' consent,
                       push subscriptions
    config.py          notify's settings: their defaults and types (read with core.settings.setting)
    channels.py        the registry of channels (mail, webhooks, push): how each is delivered, ordered, shed, retried
    dispatch.py        a change to a game -> outbox rows, in the change's own transaction (a change hook),
                       each seat told on every way it is reached; table_dispatch.py who hears what at a table
    contacts.py        a seat's email, mail and push modes and webhook, given at creation, at a join or later;
                       contact_changes.py what a new setting sets in motion (a seat-taken hook)
    outbox.py          rows claimed safely by many workers; worker.py the delivery loop
    sweeps.py          reminders, time-up notices, digests, forgetting old rows, features' work on the
                       clock (`periodic`: tournaments' deadlines) (the worker, every 30 s)
    routes.py          contact settings, vacations, one-click unsubscribing; schemas.py their shapes
    cli.py             flask notify worker | smtpd | inbound | sweep; codes.py the problem codes

and a sub-package per job (each __init__.py maps its modules):

    mail/              composing mail (text, HTML, tables, the RFC 5322 message) and sending it by SMTP
    inbound/           the SMTP listener, replies read as commands, senders, MIME limits, invitations by mail
    consent/           addresses, their confirmation, what an unsubscribe key does
    webhooks/          signed calls, public addresses, the circuit breaker, a seat's deliveries log
    push/              Web Push: VAPID keys, encrypted pushes, browsers' subscriptions, what a push says

It may import the games, access and the core; the games hear nothing of it but through the hooks
init_app registers (games.changes). Which sub-package may import which is pyproject.toml's.
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the channels, the notify routes, CLI and hooks on the app (called by create_app)."""
    from ..core import metrics
    from ..core.extensions import api
    from ..games import changes
    from . import channels, contact_changes, dispatch
    from .cli import notify_cli
    from .mail.channel import MAIL
    from .push.channel import PUSH
    from .push.routes import push
    from .routes import contact_settings, unsubscribe
    from .webhooks.channel import WEBHOOK
    from .webhooks.delivery_routes import webhook_deliveries
    channels.register(MAIL)  # the ways out; a new one is a module and a line here (docs/architecture.md)
    channels.register(WEBHOOK)
    channels.register(PUSH)
    api.register_blueprint(contact_settings)
    api.register_blueprint(unsubscribe)
    api.register_blueprint(webhook_deliveries)
    api.register_blueprint(push)
    app.cli.add_command(notify_cli)
    changes.on_change(dispatch.after_change, reads=dispatch.anyone_to_tell)  # the outbox's mails, webhooks, pushes
    changes.seat_taken.register(contact_changes.seat_taken)  # contact settings and invitations given with the seat
    metrics.scraped.register(("gin_outbox_pending", "Outbox rows (mail, webhooks, pushes) waiting for delivery",
                              pending_in_outbox))
    metrics.scraped.register(("gin_outbox_oldest_due_seconds", "How long the oldest outbox row due for "
                              "delivery has waited past its time (0: none): the notify workers' lag",
                              oldest_due_in_outbox))


def pending_in_outbox() -> int:
    from sqlalchemy import func, select

    from ..core.extensions import db
    from .models import OutboxMessage
    from .outbox import PENDING
    return db.session.scalar(select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status == PENDING))


def oldest_due_in_outbox() -> float:
    from sqlalchemy import func, select

    from ..core.extensions import db
    from ..games.deadlines import now
    from .models import OutboxMessage
    from .outbox import PENDING, as_utc
    moment = now()
    due = db.session.scalar(select(func.min(OutboxMessage.next_attempt_at))
                            .where(OutboxMessage.status == PENDING, OutboxMessage.next_attempt_at <= moment))
    return 0.0 if due is None else max((moment - as_utc(due)).total_seconds(), 0.0)
