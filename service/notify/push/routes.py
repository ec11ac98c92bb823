"""Web Push routes: the service's public key, a seat's own subscriptions (for its token), and the
seat's push deliveries log. A player's subscriptions are the players feature's (/me/push-subscriptions)."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response
from flask_smorest import Blueprint

from ...core.web import BEARER, bearer_token, problems, require_json_body
from ...games import deadlines, store
from ..webhooks import deliveries
from ..webhooks.schemas import DeliveriesQuerySchema
from . import keys, subscriptions
from .channel import PUSH
from .schemas import (
    KEYS_EXAMPLE,
    PushDeliveriesPageSchema,
    PushEndpointSchema,
    PushKeySchema,
    PushSubscriptionOutSchema,
    PushSubscriptionSchema,
    PushSubscriptionsSchema,
)

push = Blueprint("push", __name__, description="Web Push: a browser told when it is your turn, its page closed")
push.before_request(require_json_body)

SUBSCRIPTION_EXAMPLE = {"endpoint": "https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bH...",
                        "keys": KEYS_EXAMPLE}
BODY_PROBLEMS = ("malformed-json", "unsupported-media-type", "validation-error")
SUBSCRIBE_PROBLEMS = (*BODY_PROBLEMS, "invalid-token", "too-many-push-subscriptions")


@push.route("/push/key", methods=["GET"])
@push.doc(operationId="getPushKey")
@push.response(200, PushKeySchema)
def push_key():
    """The service's VAPID public key: a browser subscribes with it (applicationServerKey), and the
    service signs every push with its private key (RFC 8292)."""
    return {"public_key": keys.public_key()}


@push.route("/games/<game_id>/push-subscriptions", methods=["GET"])
@push.doc(operationId="listSeatPush", security=BEARER)
@push.response(200, PushSubscriptionsSchema)
@problems(push, "invalid-token")
def list_subscriptions(game_id):
    """The browsers subscribed to your seat's pushes with a token of the seat (a player's own
    subscriptions are under /me/push-subscriptions)."""
    game, seat = store.read_seat(game_id, bearer_token())
    return {"subscriptions": [subscriptions.public(row) for row in subscriptions.of_owner(game_id=game.id, seat=seat)]}


@push.route("/games/<game_id>/push-subscriptions", methods=["POST"])
@push.doc(operationId="subscribeSeatPush", security=BEARER)
@push.arguments(PushSubscriptionSchema, example=SUBSCRIPTION_EXAMPLE)
@push.response(201, PushSubscriptionOutSchema)
@push.alt_response(200, schema=PushSubscriptionOutSchema, description="Known already: its keys are updated")
@problems(push, *SUBSCRIBE_PROBLEMS)
def subscribe(fields, game_id):
    """Have this browser told of your seat by Web Push: the body is the browser's
    PushSubscription.toJSON(), made with GET /push/key's public key. It is told when it is your
    turn, when a hand or the match ends and when the deadline nears or passes (unless the seat's
    push_mode is off): a notification naming the players and the deadline, never a card or a
    token. At most PUSH_SUBSCRIPTIONS_PER_OWNER browsers per seat."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        row, new = subscriptions.subscribe(fields, deadlines.now(), game_id=game.id, seat=seat)
        answer = subscriptions.public(row)
    return answer, 201 if new else 200


@push.route("/games/<game_id>/push-subscriptions", methods=["DELETE"])
@push.doc(operationId="unsubscribeSeatPush", security=BEARER)
@push.arguments(PushEndpointSchema, example={"endpoint": SUBSCRIPTION_EXAMPLE["endpoint"]})
@push.response(204, description="Forgotten (or never known): that browser is told nothing more of this seat")
@problems(push, "invalid-token", *BODY_PROBLEMS)
def unsubscribe(fields, game_id):
    """Stop telling a browser of your seat: the body names its endpoint."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        subscriptions.unsubscribe(fields["endpoint"], game_id=game.id, seat=seat)
    return Response(status=204)


@push.route("/games/<game_id>/push-deliveries", methods=["GET"])
@push.doc(operationId="listPushDeliveries", security=BEARER)
@push.arguments(DeliveriesQuerySchema, location="query", as_kwargs=True)
@push.response(200, PushDeliveriesPageSchema)
@problems(push, "invalid-token", "validation-error")
def list_push_deliveries(game_id, limit, cursor=None):
    """Your seat's pushes, newest first, to every browser subscribed to it (its own and its
    player's), as GET /games/{id}/webhook-deliveries lists its webhook calls: each with its
    event, status (pending, sent, dead, replaced), attempts, the push service's last status code
    (201: taken; 404 or 410: the browser's subscription is gone, and was deleted) and its times."""
    game, seat = store.read_seat(game_id, bearer_token())
    return deliveries.page(game.id, seat, cursor, limit, channel=PUSH, shown=shown)


def shown(row) -> dict:
    """A push as its log shows it: the push service's host, not the browser's endpoint."""
    return {"delivery_id": row.message_id, **deliveries.fields(row),
            "push_service": urlsplit(row.recipient).hostname or ""}
