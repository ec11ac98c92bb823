"""The notify processes' metrics (service/core/metrics.py): a failed delivery is counted by its
channel where the worker fails it, a mail the listener takes by what became of it."""
from __future__ import annotations

from prometheus_client import REGISTRY

from tests.api.helpers import choose

from .conftest import DOMAIN, act, deliver, outbox_rows, reply, start_game, view


def counted(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_failed_mail_delivery_is_counted_by_its_channel(nclient, notify_app, mail_server):
    game = start_game(nclient, contact0={"email": "ann@example.org"}, contact1={"email": "bob@example.org"})
    mail_server.stop()  # the SMTP server is away: every delivery fails
    seat = view(nclient, game, 0)["to_move"]
    assert act(nclient, game, seat, choose(view(nclient, game, seat))).status_code == 200
    before = counted("gin_outbox_failures_total", channel="mail")
    deliver(notify_app)
    attempts = sum(row.attempts for row in outbox_rows(notify_app, channel="mail", status="pending"))
    assert attempts > 0
    assert counted("gin_outbox_failures_total", channel="mail") - before == attempts


def test_inbound_mail_is_counted_by_outcome(nclient, listener):
    before = counted("gin_mail_inbound_total", outcome="unknown-address")
    reply(listener, f"play+{'x' * 40}@{DOMAIN}", "draw stock")
    assert counted("gin_mail_inbound_total", outcome="unknown-address") - before == 1


def test_a_failed_webhook_call_is_counted_by_its_channel(nclient, notify_app):
    """The receiver refuses connections (port 9 on loopback): every call the worker fails or puts
    off behind it counts once under channel="webhook", none under "mail"."""
    game = start_game(nclient, move_time_hours=None, contact1={"webhook_url": "http://127.0.0.1:9/hook"})
    seat = view(nclient, game, 0)["to_move"]
    assert act(nclient, game, seat, choose(view(nclient, game, seat))).status_code == 200
    before = {channel: counted("gin_outbox_failures_total", channel=channel) for channel in ("webhook", "mail")}
    deliver(notify_app)
    failed = [row for row in outbox_rows(notify_app, channel="webhook") if row.last_error]
    assert failed and all(row.status != "sent" for row in failed)
    assert counted("gin_outbox_failures_total", channel="webhook") - before["webhook"] == len(failed)
    assert counted("gin_outbox_failures_total", channel="mail") == before["mail"]
