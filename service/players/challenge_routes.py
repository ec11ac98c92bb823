"""Routes of challenges: offer, list, accept, decline, cancel."""
from __future__ import annotations

import json

from flask import jsonify
from flask_smorest import Blueprint

from ..core.web import BEARER, bearer_token, etag_headers, problems, require_json_body_when_sent
from ..games import deadlines, store, views
from ..games.view_schemas import VIEW_EXAMPLE
from ..rules import Rules
from . import accounts, challenge_list, challenges
from .routes import LINKS_EXAMPLE, game_links
from .schemas import (
    AcceptedSchema,
    ChallengeListSchema,
    ChallengeQuerySchema,
    ChallengeSchema,
    DeclineSchema,
    NewChallengeSchema,
)

challenge_routes = Blueprint("challenges", __name__, description="Challenges between players")
challenge_routes.before_request(require_json_body_when_sent)
CHALLENGE_EXAMPLE = {
    "challenge_id": "c7Hq0tq4s8m1PZk2w9lX3A", "from": "Ann", "to": "Bob",
    "rules": {"preset": "standard", "target": 100, "knock_limit": 10}, "move_time_hours": 72, "opponent": "any",
    "status": "pending", "reason": None, "game_id": None, "rematch_of": None, "rated": True, "level": None,
    "created_at": "2030-01-01T12:00:00+00:00", "expires_at": "2030-01-04T12:00:00+00:00"}


@challenge_routes.route("/challenges", methods=["POST"])
@challenge_routes.doc(operationId="createChallenge", security=BEARER)
@challenge_routes.arguments(NewChallengeSchema, example={"to": "Bob", "rules": {"preset": "standard"}})
@challenge_routes.response(201, ChallengeSchema, example=CHALLENGE_EXAMPLE)
@problems(challenge_routes, "invalid-token", "malformed-json", "payload-too-large", "unsupported-media-type",
          "validation-error", "invalid-option", "unknown-player", "challenge-to-self", "too-many-pending-offers",
          "too-many-offers-to-player", "level-not-house-bot", "rated-target-too-low",
          "house-bot-games-max")
def create_challenge(args):
    """Challenge a named player (who hears of it on their stream), or anyone (`to` left out), optionally
    bots only or humans only. It lapses after expires_in_hours. To the house bot, `level` (1-5,
    default 3) is the level it plays at; the game's `players` shows it on the bot's seat. A player
    holds at most 3 games and challenges with the house bot at once (HOUSE_BOT_GAMES_PER_PLAYER), and a
    game with it always has a move deadline (`move_time_hours` null: 24, HOUSE_BOT_MOVE_HOURS)."""
    rules, now = Rules.from_dict(args["rules"]), deadlines.now()
    with store.transaction():
        challenger = accounts.current()
        challenge = challenges.offer(challenger, args.get("to"), rules, args["move_time_hours"], args["opponent"],
                                     args["expires_in_hours"], now, rated=args.get("rated"), level=args.get("level"))
        body = challenges.describe(challenge, now)
    return body, 201


@challenge_routes.route("/challenges", methods=["GET"])
@challenge_routes.doc(operationId="listChallenges", security=BEARER)
@challenge_routes.arguments(ChallengeQuerySchema, location="query")
@challenge_routes.response(200, ChallengeListSchema, example={"to_me": [CHALLENGE_EXAMPLE], "open": [], "mine": [],
                                                             "next_cursor": None})
@problems(challenge_routes, "invalid-token", "validation-error")
def list_challenges(args):
    """Pending challenges: those naming you, the open ones you may take, and your own; newest first,
    `limit` at a time across the three lists (`next_cursor` asks for older ones)."""
    return challenge_list.listing(accounts.current(), deadlines.now(), args["limit"], args.get("cursor"))


@challenge_routes.route("/challenges/<challenge_id>/accept", methods=["POST"])
@challenge_routes.doc(operationId="acceptChallenge", security=BEARER)
@challenge_routes.response(201, AcceptedSchema, example={
    "challenge": {**CHALLENGE_EXAMPLE, "status": "accepted", "game_id": "MKsaxqYqE1pJxqt2oSEDug"},
    "game_id": "MKsaxqYqE1pJxqt2oSEDug", "seat": 1, "links": LINKS_EXAMPLE, "game": VIEW_EXAMPLE})
@challenge_routes.alt_response(202, schema=ChallengeSchema, description=(
    "A rematch at a table that other seats have still to accept: your acceptance is noted (`seats`); "
    "the game is made, and every player hears `challenge_accepted` and `game_started`, when the last accepts"))
@problems(challenge_routes, "invalid-token", "malformed-json", "unsupported-media-type", "challenge-not-found",
          "challenge-closed", "challenge-expired", "challenge-to-self", "opponent-kind-mismatch",
          "house-bot-games-max")
def accept_challenge(challenge_id):
    """Accept: the game is made with both seats bound to the two players and the first hand dealt.
    Your player token opens your seat; both players hear `game_started` (and `your_turn`) on their streams.
    A rematch at a table waits for every seat's acceptance (202 until then)."""
    now = deadlines.now()
    with store.transaction():
        challenge, game, seat = challenges.accept(challenge_id, accounts.current(), now)
        if game is None:
            waiting = jsonify(ChallengeSchema().dump(challenges.describe(challenge, now)))
        else:
            body = {"challenge": challenges.describe(challenge, now), "game_id": game.id, "seat": seat,
                    "links": game_links(game.id)}
    if game is None:
        return waiting, 202
    version, _, view = views.read_view(game.id, bearer_token())  # the player token opens the new seat
    return {**body, "game": json.loads(view)}, 201, etag_headers(version)


@challenge_routes.route("/challenges/<challenge_id>/decline", methods=["POST"])
@challenge_routes.doc(operationId="declineChallenge", security=BEARER)
@challenge_routes.arguments(DeclineSchema, example={"reason": "busy"})
@challenge_routes.response(200, ChallengeSchema, example={**CHALLENGE_EXAMPLE, "status": "declined", "reason": "busy"})
@problems(challenge_routes, "invalid-token", "malformed-json", "payload-too-large", "unsupported-media-type",
          "validation-error", "challenge-not-found", "challenge-closed", "challenge-expired")
def decline_challenge(args, challenge_id):
    """Decline a challenge that names you, with a reason code the challenger's program can read."""
    now = deadlines.now()
    with store.transaction():
        challenge = challenges.decline(challenge_id, accounts.current(), args["reason"], now)
        body = challenges.describe(challenge, now)
    return body


@challenge_routes.route("/challenges/<challenge_id>/cancel", methods=["POST"])
@challenge_routes.doc(operationId="cancelChallenge", security=BEARER)
@challenge_routes.response(200, ChallengeSchema, example={**CHALLENGE_EXAMPLE, "status": "cancelled"})
@problems(challenge_routes, "invalid-token", "malformed-json", "unsupported-media-type", "challenge-not-found",
          "challenge-closed", "challenge-expired")
def cancel_challenge(challenge_id):
    """Withdraw your own pending challenge."""
    now = deadlines.now()
    with store.transaction():
        challenge = challenges.cancel(challenge_id, accounts.current(), now)
        body = challenges.describe(challenge, now)
    return body
