"""gin_deliveries_total and gin_outbox_failures_total, by channel: the worker counts each row it
delivered (a mail the server accepted, a webhook call answered 2xx) and each failed attempt."""
from __future__ import annotations

from service.core import metrics

from .conftest import deliver, outbox_rows, start_game

ANN = "ann@example.org"


def counted() -> dict:
    return {(family, channel): metric.labels(channel)._value.get()
            for family, metric in (("delivered", metrics.DELIVERIES), ("failed", metrics.OUTBOX_FAILURES))
            for channel in ("mail", "webhook")}


def test_deliveries_and_failures_are_counted_by_channel(nclient, notify_app, mail_server, receiver):
    before = counted()
    game = start_game(nclient, contact0={"email": ANN, "webhook_url": receiver.url})
    deliver(notify_app)
    rows = outbox_rows(notify_app, game_id=game["id"])
    sent = {channel: sum(r.status == "sent" and r.channel == channel for r in rows) for channel in ("mail", "webhook")}
    assert sent["mail"] >= 1 and sent["webhook"] >= 1 and all(r.status == "sent" for r in rows)
    after = counted()
    assert after[("delivered", "mail")] - before[("delivered", "mail")] == sent["mail"]
    assert after[("delivered", "webhook")] - before[("delivered", "webhook")] == sent["webhook"] == \
        len(receiver.delivered())
    assert after[("failed", "mail")] == before[("failed", "mail")]

    receiver.fail_next = 1  # the next call is answered 503: a failure, retried later
    assert nclient.post(f"/games/{game['id']}/actions", json={"type": "resign"},
                        headers={"Authorization": f"Bearer {game['tokens'][0]}"}).status_code == 200
    deliver(notify_app)
    again = counted()
    assert again[("failed", "webhook")] - after[("failed", "webhook")] == 1
    assert again[("delivered", "webhook")] == after[("delivered", "webhook")]  # (the rest wait behind it, in order)
