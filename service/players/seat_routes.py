"""Routes on a game for its seats (seat or player token): a rematch (a challenge between players,
a seat rematch otherwise), watch links and the replay; and the public view a watch key opens."""
from __future__ import annotations

import json

from flask import Response, jsonify, request, url_for
from flask_smorest import Blueprint

from ..core.errors import Problem
from ..core.web import BEARER, bearer_token, problems, require_json_body_when_sent
from ..games import changes, deadlines, replay, seating, store, views
from ..games.replay_schemas import REPLAY_DOC
from . import challenges, seat_rematch, watching
from .challenge_routes import CHALLENGE_EXAMPLE
from .schemas import (
    PUBLIC_VIEW_DOC,
    ChallengeSchema,
    NewWatchLinkSchema,
    RematchSchema,
    SeatRematchDeclineSchema,
    SeatRematchSchema,
    SeatRematchSeatSchema,
    WatchLinkListSchema,
)

# "table": the tag openapi.yaml groups these operations by, part of the published contract (the
# module and Python names say what they hold: routes on a game's seats, any game's).
seat_routes = Blueprint("table", __name__, description="Rematches and watch links of a game")
seat_routes.before_request(require_json_body_when_sent)
WATCH_EXAMPLE = {"id": "3", "created_by_seat": 0, "created_at": "2030-01-01T12:00:00+00:00"}


@seat_routes.route("/games/<game_id>/rematch", methods=["POST"])
@seat_routes.doc(operationId="offerRematch", security=BEARER)
@seat_routes.response(201, ChallengeSchema, example={**CHALLENGE_EXAMPLE, "rematch_of": "MKsaxqYqE1pJxqt2oSEDug"})
@problems(seat_routes, "invalid-token", "malformed-json", "unsupported-media-type", "rematch-unavailable")
def offer_rematch(game_id):
    """When the match is over, offer the other player a rematch: the same rules and move time, the
    first deal to the other side. They accept or decline it as a challenge (POST /challenges/{id}/accept).
    At a table whose every seat holds a player: offered to every other seat, the same seats (so the
    same partnerships), made when all have accepted; one decline ends it."""
    now = deadlines.now()
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        challenge = challenges.offer_rematch(game, seat, now)
        body = challenges.describe(challenge, now)
    return body, 201


@seat_routes.route("/games/<game_id>/rematch", methods=["GET"])
@seat_routes.doc(operationId="getRematch", security=BEARER)
@seat_routes.response(200, RematchSchema, example={"rematch_of": None, "rematch": {
    **CHALLENGE_EXAMPLE, "status": "accepted", "game_id": "Zq8hW2cVt0bR4nYpLk6sJg", "rematch_of": "MKsaxqYqE1pJxqt2oSEDug"}})
@problems(seat_routes, "invalid-token")
def get_rematch(game_id):
    """The links between rematches: the game this one follows, and the rematch offered after it."""
    store.read_seat(game_id, bearer_token())
    return challenges.rematch_links(game_id)


@seat_routes.route("/games/<game_id>/watch-links", methods=["POST"])
@seat_routes.doc(operationId="createWatchLink", security=BEARER)
@seat_routes.response(201, NewWatchLinkSchema, example={**WATCH_EXAMPLE, "key": "w4tch...",
                                                  "url": "/games/MKsaxqYqE1pJxqt2oSEDug/public"})
@problems(seat_routes, "invalid-token", "malformed-json", "unsupported-media-type", "too-many-watch-links")
def create_watch_link(game_id):
    """A read-only key to share: it shows what is public (discards, counts, scores, finished hands),
    never a hand in play. Shown once; revocable. At most 10 live per game (WATCH_LINKS_PER_GAME)."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        link, key = watching.create(game, seat)
        body = {**watching.describe(link), "key": key, "url": url_for(".watch_game", game_id=game.id)}
    return body, 201


@seat_routes.route("/games/<game_id>/watch-links", methods=["GET"])
@seat_routes.doc(operationId="listWatchLinks", security=BEARER)
@seat_routes.response(200, WatchLinkListSchema, example={"links": [WATCH_EXAMPLE]})
@problems(seat_routes, "invalid-token")
def list_watch_links(game_id):
    """The game's watch links (never the keys)."""
    game, _ = store.read_seat(game_id, bearer_token())
    return {"links": watching.listing(game)}


@seat_routes.route("/games/<game_id>/watch-links/<link_id>", methods=["DELETE"])
@seat_routes.doc(operationId="revokeWatchLink", security=BEARER)
@seat_routes.response(204, description="Revoked: the key shows nothing from now on")
@problems(seat_routes, "invalid-token", "not-found")
def revoke_watch_link(game_id, link_id):
    """Revoke a watch link (either seat may)."""
    with store.transaction():
        game, _ = store.lock_seat(game_id, bearer_token())
        watching.revoke(game, link_id)
    return Response(status=204)


@seat_routes.route("/games/<game_id>/public", methods=["GET"])
@seat_routes.doc(operationId="watchGame", security=BEARER)
@seat_routes.response(200, PUBLIC_VIEW_DOC)
@problems(seat_routes, "invalid-watch-key")
def watch_game(game_id):
    """What a watcher sees, with the watch key as the bearer token: the table, never a hand in play
    (at a table of three or four: every board's public part, the sides' scores, finished hands)."""
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise watching.invalid_watch_key()
    return jsonify(watching.public_view(game_id, key.strip()))  # whitelisted already: sent as built


@seat_routes.route("/games/<game_id>/replay", methods=["GET"])
@seat_routes.doc(operationId="replayGame", security=BEARER)
@seat_routes.response(200, REPLAY_DOC)
@problems(seat_routes, "invalid-token", "match-not-over", "replay-not-available")
def replay_game(game_id):
    """A finished match move by move, every hand shown after each deal and move (at a table: every
    board's): for its seats (a seat's token) and for watch-link holders (the watch key), once the
    match is over."""
    key = bearer_token()
    try:
        game, _ = store.read_seat(game_id, key)
    except Problem:  # not a seat's token: a watch key, or refused as a wrong token
        game = watching.game_by_key(game_id, key)
        if game is None:
            raise
    return jsonify(replay.replay(game))


@seat_routes.route("/games/<game_id>/seat-rematch", methods=["GET"])
@seat_routes.doc(operationId="getSeatRematch", security=BEARER)
@seat_routes.response(200, SeatRematchSchema)
@problems(seat_routes, "invalid-token")
def get_seat_rematch(game_id):
    """Whether the finished game offers a rematch between its seats, and the one offered."""
    game, _ = store.read_seat(game_id, bearer_token())
    return seat_rematch.describe(game)


@seat_routes.route("/games/<game_id>/seat-rematch", methods=["POST"])
@seat_routes.doc(operationId="offerSeatRematch", security=BEARER)
@seat_routes.response(201, SeatRematchSeatSchema)
@problems(seat_routes, "invalid-token", "malformed-json", "unsupported-media-type", "rematch-unavailable")
def offer_seat_rematch(game_id):
    """When a two-seat match whose seats are not both players' is over, offer the other seat a
    rematch: the same rules and move time; you take its seat 0 now, the other seat its seat 1 by
    accepting, and the first deal goes to the other side."""
    now = deadlines.now()
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        rematch, token, invites = seat_rematch.offer(game, seat, now)
        changes.after_seat_taken(rematch, None, 0, {}, now, invites=invites)
        view = views.publish_views(rematch, None)[0]
    return {"game_id": rematch.id, "seat": 0, "token": token, "game": json.loads(view)}, 201


@seat_routes.route("/games/<game_id>/seat-rematch/accept", methods=["POST"])
@seat_routes.doc(operationId="acceptSeatRematch", security=BEARER)
@seat_routes.response(201, SeatRematchSeatSchema)
@problems(seat_routes, "invalid-token", "malformed-json", "unsupported-media-type", "rematch-unavailable")
def accept_seat_rematch(game_id):
    """Take the rematch the other seat offered, with your token of this game: its seat 1, and the
    first hand is dealt."""
    now = deadlines.now()
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        rematch_id, code, name, first_dealer = seat_rematch.invite_back(game, seat)
        rematch, match, token, taken = seating.take_seat(rematch_id, code, name, first_dealer)
        changes.after_seat_taken(rematch, match, taken, {"name": name}, now)
        seat_rematch.moved_on(game, now)  # answered: the offering seat's stream, open for it, ends
        view = views.publish_views(rematch, match)[taken]
    return {"game_id": rematch.id, "seat": taken, "token": token, "game": json.loads(view)}, 201


@seat_routes.route("/games/<game_id>/seat-rematch/decline", methods=["POST"])
@seat_routes.doc(operationId="declineSeatRematch", security=BEARER)
@seat_routes.arguments(SeatRematchDeclineSchema, required=False, example={"reason": "busy"})
@seat_routes.response(200, SeatRematchSchema)
@problems(seat_routes, "invalid-token", "malformed-json", "unsupported-media-type", "validation-error",
          "rematch-unavailable", "rematch-not-offered", "rematch-own-offer", "rematch-answered")
def decline_seat_rematch(args, game_id):
    """Decline the rematch the other seat offered, with your token of this game and, if you like, a
    reason code (as a challenge's decline): the offering seat's stream hears `rematch_declined`, and
    neither seat may take the rematch up any more."""
    now = deadlines.now()
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        seat_rematch.decline(game, seat, args.get("reason"), now)
        return seat_rematch.describe(game)
