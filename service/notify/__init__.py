"""Play by email, deadlines and notifications.

    models.py    tables: contacts, outbox, mail_tokens, inbound_mail, game_clocks, vacations
    dispatch.py  a change to a game -> outbox rows, in the change's own transaction
    compose.py   mail text from view(seat) and redacted events; message.py the headers
    outbox.py    claiming rows safely with many workers; worker.py the delivery loop
    smtp.py / webhooks.py   the two ways out; sweeps.py reminders, time-up notices, digests
    inbound.py   moves by email (commands.py reads them); smtpd.py the SMTP listener
    routes.py    contact settings and vacations
    cli.py       flask notify worker | smtpd | inbound | sweep

Kept import-light: service.models imports .models from here, so nothing at this level may import
the store or the routes. The modules below may: notify depends on the store, never the reverse
(the store calls dispatch.after_change as a hook registered by init_app).
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the notify routes and CLI on the app (called by create_app, after api.init_app)."""
    from .. import store
    from ..extensions import api
    from .cli import notify_cli
    from .dispatch import after_change
    from .routes import settings
    api.register_blueprint(settings)
    app.cli.add_command(notify_cli)
    store.on_change(after_change)  # every change restarts the move clock and writes the outbox
