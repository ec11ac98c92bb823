"""Play by email and notifications: a feature above games and access.

    models.py    tables: contacts, outbox, mail_tokens, inbound_mail (consent.py: addresses' consent)
    dispatch.py  a change to a game -> outbox rows, in the change's own transaction (a change hook)
    contacts.py  a seat's email and webhook, given at creation, at a join (a seat-taken hook) or later
    compose.py   mail text from view(seat) and redacted events; message.py the headers
    outbox.py    claiming rows safely with many workers; worker.py the delivery loop
    smtp.py / webhooks.py   the two ways out; sweeps.py reminders, time-up notices, digests
    inbound.py   moves by email (commands.py reads them); smtpd.py the SMTP listener
    routes.py    contact settings and vacations; one-click unsubscribing (one_click.py, unsubscribing.py)
    deliveries.py, delivery_routes.py   a seat's webhook deliveries log and redelivery
    cli.py       flask notify worker | smtpd | inbound | sweep

It may import the games, access and the core; the games hear nothing of it but through the hooks
init_app registers (games.changes).
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the notify routes, CLI and hooks on the app (called by create_app)."""
    from ..core import metrics
    from ..core.extensions import api
    from ..games import changes
    from . import contact_changes, dispatch
    from .cli import notify_cli
    from .delivery_routes import webhook_deliveries
    from .routes import settings, unsubscribe
    api.register_blueprint(settings)
    api.register_blueprint(unsubscribe)
    api.register_blueprint(webhook_deliveries)
    app.cli.add_command(notify_cli)
    changes.on_change(dispatch.after_change, wanted=dispatch.anyone_to_tell)  # the outbox's mails and webhooks
    changes.seat_taken.register(contact_changes.seat_taken)  # contact settings and invitations given with the seat
    metrics.scraped.register(("gin_outbox_pending", "Outbox rows (mail, webhooks) waiting for delivery",
                              pending_in_outbox))


def pending_in_outbox() -> int:
    from sqlalchemy import func, select

    from ..core.extensions import db
    from .models import OutboxMessage
    from .outbox import PENDING
    return db.session.scalar(select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status == PENDING))
