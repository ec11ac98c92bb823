"""The routes of messages in a game (messages.py): a seat writes one, a seat reads them."""
from __future__ import annotations

from flask_smorest import Blueprint

from ..core.web import BEARER, bearer_token, problems, require_json_body
from . import messages, store
from .message_schemas import MessageSchema, MessagesPageSchema, MessagesQuerySchema, NewMessageSchema

chat = Blueprint("messages", __name__, description="Messages between the seats of a game")
MESSAGE_EXAMPLE = {"id": 41, "seat": 1, "name": "Bob", "text": "Good luck!", "created_at": "2030-01-01T12:00:00+00:00"}
chat.before_request(require_json_body)  # the games routes' checks of a body: 413, 415, 400


@chat.route("/games/<game_id>/messages", methods=["POST"])
@chat.doc(operationId="postMessage", security=BEARER)
@chat.arguments(NewMessageSchema, example={"text": "Good luck!"})
@chat.response(201, MessageSchema, example=MESSAGE_EXAMPLE)
@problems(chat, "malformed-json", "invalid-token", "account-suspended", "payload-too-large",
          "unsupported-media-type", "validation-error", "message-empty", "message-too-long", "message-not-plain",
          "too-many-messages")
def post_message(args, game_id):
    """Write a message to the other seats of the game (every seat of a table). Watchers never see
    messages. A seat may write MESSAGES_PER_SEAT messages (default 10 a minute)."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        message = messages.post(game, seat, args["text"])
    return message, 201


@chat.route("/games/<game_id>/messages", methods=["GET"])
@chat.doc(operationId="listMessages", security=BEARER)
@chat.arguments(MessagesQuerySchema(), location="query")
@chat.response(200, MessagesPageSchema, example={"messages": [MESSAGE_EXAMPLE], "next_after": None})
@problems(chat, "invalid-token", "account-suspended", "validation-error", "too-many-waiters")
def list_messages(query, game_id):
    """The game's messages, oldest first, as this seat may see them (a player it blocked: none of
    theirs). Page with `after`; add `wait` to wait for the next one (long-poll)."""
    game, seat = store.read_seat(game_id, bearer_token())
    return messages.wait_for_page(game.id, seat, query["after"], query["limit"], query["wait"])
