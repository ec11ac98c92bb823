"""JSON routes for getting into a seat from a browser: reading an invitation before joining,
exchanging a mail's link key for a token, and listing and revoking a seat's tokens."""
from __future__ import annotations

import hmac
import json

from flask import Response
from flask_smorest import Blueprint

from ..core.errors import Problem
from ..core.extensions import db
from ..core.tokens import hash_secret
from ..core.web import BEARER, bearer_token, etag_headers, problems, require_json_body
from ..games import deadlines, store, views
from ..games.models import Game
from ..games.table_game import FORMATS
from . import links
from .schemas import (
    ExchangedSchema,
    ExchangeLinkSchema,
    InvitationRequestSchema,
    InvitationSchema,
    TokenListSchema,
)

access = Blueprint("access", __name__, description="Getting into a seat: invitations, mail links, tokens")


access.before_request(require_json_body)


@access.route("/games/<game_id>/invitation", methods=["POST"])
@access.doc(operationId="readInvitation")
@access.arguments(InvitationRequestSchema, example={"invite_code": "q3Jw..."})
@access.response(200, InvitationSchema, example={
    "game_id": "MKsaxqYqE1pJxqt2oSEDug", "inviter": "Ann", "move_time_hours": 72,
    "rules": {"preset": "standard", "target": 100, "knock_limit": 10}, "seats": 2, "format": None, "seat": 1})
@problems(access, "malformed-json", "unsupported-media-type", "validation-error", "invalid-invite",
          "game-full")
def read_invitation(args, game_id):
    """What an invite code invites to (the inviter's name, the rules), before joining: the code
    travels in the body, never in a URL. Changes nothing."""
    game = db.session.get(Game, game_id) if store.could_be_game_id(game_id) else None
    hashed = hash_secret(args["invite_code"])
    # Any seat but the creator's (a table of three or four has an invite per seat), as joining reads it.
    seat = next((s for s in (game.seats[1:] if game is not None else [])
                 if hmac.compare_digest(s.invite_hash or "", hashed)), None)
    if seat is None:
        raise Problem("invalid-invite", "this invite code does not open a seat in this game")
    if seat.joined_at is not None:
        raise Problem("game-full", "this invite's seat is taken already: an invite code works once")
    clock = deadlines.clock_of(game.id)
    return {"game_id": game.id, "inviter": game.seats[0].name, "rules": game.rules,
            "move_time_hours": clock.move_time_hours if clock else None, "seats": len(game.seats),
            "format": FORMATS.get(len(game.seats)), "seat": seat.seat}


@access.route("/games/<game_id>/tokens", methods=["POST"])
@access.doc(operationId="exchangeLink")
@access.arguments(ExchangeLinkSchema, example={"link_key": "Xq3v...", "label": "phone"})
@access.response(201, ExchangedSchema)
@problems(access, "malformed-json", "unsupported-media-type", "validation-error", "invalid-link",
          "link-used", "link-expired", "account-suspended")
def exchange_link(args, game_id):
    """Exchange a mail's link key for a new bearer token of the seat it names. Each link works
    once; the token works until revoked. The seat page does this when opened from a mail."""
    with store.transaction():
        seat, token, token_id = links.exchange(game_id, args["link_key"], args.get("label"), deadlines.now())
    version, _, view = views.read_view(game_id, token)  # a read of its own, after the commit
    body = {"game_id": game_id, "seat": seat, "token": token, "token_id": str(token_id), "game": json.loads(view)}
    return body, 201, etag_headers(version)


@access.route("/games/<game_id>/tokens", methods=["GET"])
@access.doc(operationId="listTokens", security=BEARER)
@access.response(200, TokenListSchema, example={"tokens": [
    {"id": "original", "label": "given when the seat was taken", "created_at": "2030-01-01T12:00:00+00:00",
     "current": False},
    {"id": "3", "label": "phone", "created_at": "2030-01-02T08:30:00+00:00", "current": True}]})
@problems(access, "invalid-token")
def list_tokens(game_id):
    """Your seat's bearer tokens (never the secrets), to revoke one a lost device holds."""
    token = bearer_token()
    game, seat = store.read_seat(game_id, token)
    return {"tokens": links.seat_tokens(game, seat, token)}


@access.route("/games/<game_id>/tokens/<token_id>", methods=["DELETE"])
@access.doc(operationId="revokeToken", security=BEARER)
@access.response(204, description="Revoked: the token opens nothing from now on")
@problems(access, "invalid-token", "not-found")
def revoke_token(game_id, token_id):
    """Revoke one of your seat's tokens (the one you are using too, which signs this browser out)."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        links.revoke(game, seat, token_id)
    return Response(status=204)
