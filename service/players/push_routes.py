"""A player's Web Push subscriptions (/me/push-subscriptions): a browser told of every seat the
player holds, now and in games to come (notify/push/ sends them; it finds the player's seats
through the `holders` this feature registers)."""
from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint

from ..core.web import BEARER, problems, require_json_body
from ..games import deadlines, store
from ..notify.push import subscriptions
from ..notify.push.routes import BODY_PROBLEMS, SUBSCRIBE_PROBLEMS, SUBSCRIPTION_EXAMPLE
from ..notify.push.schemas import (
    PushEndpointSchema,
    PushSubscriptionOutSchema,
    PushSubscriptionSchema,
    PushSubscriptionsSchema,
)
from . import accounts
from .models import PlayerSeat

player_push = Blueprint("player_push", __name__, description="A player's Web Push subscriptions")
player_push.before_request(require_json_body)


def held_seats():
    """The seats players hold, for notify's push (subscriptions.holders): (game_id, seat, player_id)."""
    return PlayerSeat.game_id, PlayerSeat.seat, PlayerSeat.player_id


@player_push.route("/me/push-subscriptions", methods=["GET"])
@player_push.doc(operationId="listMyPush", security=BEARER)
@player_push.response(200, PushSubscriptionsSchema)
@problems(player_push, "invalid-token", "account-suspended")
def list_mine():
    """The browsers subscribed to your pushes."""
    player = accounts.current()
    return {"subscriptions": [subscriptions.public(row) for row in subscriptions.of_owner(player_id=player.id)]}


@player_push.route("/me/push-subscriptions", methods=["POST"])
@player_push.doc(operationId="subscribeMyPush", security=BEARER)
@player_push.arguments(PushSubscriptionSchema, example=SUBSCRIPTION_EXAMPLE)
@player_push.response(201, PushSubscriptionOutSchema)
@player_push.alt_response(200, schema=PushSubscriptionOutSchema, description="Known already: its keys are updated")
@problems(player_push, *SUBSCRIBE_PROBLEMS, "account-suspended")
def subscribe_me(fields):
    """Have this browser told by Web Push of every seat you hold, in your games now and to come, as
    POST /games/{id}/push-subscriptions does for one seat (a seat whose push_mode is off is not
    told). Revoking or rotating your token forgets these browsers."""
    with store.transaction():
        player = accounts.current(lock=True)
        row, new = subscriptions.subscribe(fields, deadlines.now(), player_id=player.id)
        answer = subscriptions.public(row)
    return answer, 201 if new else 200


@player_push.route("/me/push-subscriptions", methods=["DELETE"])
@player_push.doc(operationId="unsubscribeMyPush", security=BEARER)
@player_push.arguments(PushEndpointSchema, example={"endpoint": SUBSCRIPTION_EXAMPLE["endpoint"]})
@player_push.response(204, description="Forgotten (or never known): that browser is told nothing more")
@problems(player_push, "invalid-token", "account-suspended", *BODY_PROBLEMS)
def unsubscribe_me(fields):
    """Stop telling a browser of your seats: the body names its endpoint."""
    with store.transaction():
        player = accounts.current(lock=True)
        subscriptions.unsubscribe(fields["endpoint"], player_id=player.id)
    return Response(status=204)
