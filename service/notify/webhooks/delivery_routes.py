"""A seat's webhook deliveries log and redelivery (deliveries.py), for the seat's own token."""
from __future__ import annotations

from flask_smorest import Blueprint

from ...core.web import BEARER, bearer_token, problems
from ...games import deadlines, store
from . import deliveries
from .schemas import DeliveriesPageSchema, DeliveriesQuerySchema, DeliverySchema

webhook_deliveries = Blueprint("webhook_deliveries", __name__, description="A seat's webhook deliveries")


@webhook_deliveries.route("/games/<game_id>/webhook-deliveries", methods=["GET"])
@webhook_deliveries.doc(operationId="listDeliveries", security=BEARER)
@webhook_deliveries.arguments(DeliveriesQuerySchema, location="query", as_kwargs=True)
@webhook_deliveries.response(200, DeliveriesPageSchema)
@problems(webhook_deliveries, "invalid-token", "validation-error")
def list_deliveries(game_id, limit, cursor=None):
    """Your seat's webhook calls, newest first: each with its webhook-id, event, status (pending,
    sent, dead, replaced), attempts, the receiver's last status code, the last error and its times."""
    game, seat = store.read_seat(game_id, bearer_token())
    return deliveries.page(game.id, seat, cursor, limit)


@webhook_deliveries.route("/games/<game_id>/webhook-deliveries/<webhook_id>/redeliver", methods=["POST"])
@webhook_deliveries.doc(operationId="redeliverWebhook", security=BEARER)
@webhook_deliveries.response(202, DeliverySchema)
@problems(webhook_deliveries, "invalid-token", "delivery-not-found", "delivery-not-sendable", "delivery-in-flight")
def redeliver(game_id, webhook_id):
    """Send one of your seat's webhook calls again: the same body and webhook-id (receivers that drop
    duplicates by id drop it), signed anew, as the seat's next call, retried as any call. No body."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        return deliveries.redeliver(game.id, seat, webhook_id, deadlines.now()), 202
