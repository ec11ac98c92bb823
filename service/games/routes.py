"""The HTTP routes: load (with the lock), ask the engine, save, serialise."""
from __future__ import annotations

import json

from flask import Response, g, stream_with_context, url_for
from flask_smorest import Blueprint

from ..core.errors import ENGINE_CODES, Problem
from ..core.openapi import ref
from ..core.pool import ends_cleanly
from ..core.web import (
    BEARER,
    ETAG_HEADER,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    IF_NONE_MATCH,
    bearer_token,
    check_if_match,
    check_if_match_syntax,
    etag_headers,
    idempotency_key,
    problems,
    require_json_body,
)
from ..rules import Rules
from . import changes, deadlines, moves, seating, store, views, waiting
from .codes import CLOCK_CODES
from .event_schemas import EventsPageSchema
from .examples import CREATED_EXAMPLE, EVENTS_EXAMPLE, JOINED_EXAMPLE
from .schemas import (
    VIEW_DOC,
    CreatedGameSchema,
    CreateGameSchema,
    EventsQuerySchema,
    JoinedGameSchema,
    JoinGameSchema,
    WaitQuerySchema,
)
from .stream_docs import event_stream, last_event_id
from .view_schemas import VIEW_EXAMPLE

games = Blueprint("games", __name__, description="Games, seats, moves and history")


games.before_request(require_json_body)


def json_answer(text: str, status: int, version: int) -> Response:
    """A view, already JSON (stored with the change that made it): sent as it is. GameViewSchema
    still documents it; tests/api/test_stored_views.py checks that it dumps every view unchanged."""
    return Response(text + "\n", status=status, mimetype="application/json", headers=etag_headers(version))


LAST_EVENT_ID = last_event_id("The id of the last event received (a version): the stream starts after it. "
                              "Empty: as if not sent")
STREAM_DESCRIPTION = (
    "`text/event-stream`. Each event is `id: <version>`, `event: view`, `data: <the view, as GET answers it, "
    "with `\"event\": \"view\"` added>` (a `GameStreamEvent`); the first is the current view (left out when "
    "Last-Event-ID names the current version). Each message a seat writes from then on (and this seat may see) "
    "comes as `event: message` (its id the current version; after a reconnection read the ones missed from "
    "GET /games/{game_id}/messages). "
    "A comment line (`: keep-alive`) is sent every 15 s while nothing happens. Views are whole states: "
    "after a reconnection the first event is the newest view, so nothing is lost and none is sent twice. "
    "The stream ends when the match is over, after an hour, or when the server restarts; reconnect with "
    "Last-Event-ID. At the end of a two-seat match whose seats are not both players', it stays open for a "
    "seat rematch: when the other seat offers one (the game's version moves on), the new view is followed "
    "by `event: rematch_offered` (what accepting or declining takes, at the same id), and the stream ends; the "
    "seat that offered gets the new view and its stream stays open for the answer: a decline comes as "
    "`event: rematch_declined` (who declined, the reason code if any) after the view it made, an acceptance "
    "as that view alone, and the stream ends. A token holds at most 4 waiting requests (streams and "
    "long-polls); past that, a "
    "request for this game takes the place of the token's oldest wait for it (which ends), and any other "
    "gets 429; so does an address past its share of the server's waits. A full server makes room for an "
    "address holding fewer waits: the oldest wait of the address holding the most ends (unless none holds "
    "more than yours would after: 429).")
STREAM_EXAMPLE = (f"retry: 2000\n\nid: {VIEW_EXAMPLE['version']}\nevent: view\n"
                  f"data: {json.dumps({'event': 'view', **VIEW_EXAMPLE}, separators=(',', ':'))}\n\n: keep-alive\n\n")


def links(game_id: str) -> dict:
    return {name: url_for(f"games.{endpoint}", game_id=game_id) for name, endpoint in
            (("game", "get_game"), ("join", "join_game"), ("actions", "post_action"), ("events", "get_events"))}


@games.route("/games", methods=["POST"])
@games.doc(operationId="createGame")
@games.arguments(CreateGameSchema, example={"name": "Ann", "rules": {"preset": "standard", "target": 100}})
@games.response(201, CreatedGameSchema, example=CREATED_EXAMPLE, headers={
    "Location": {"description": "The game's URL", "schema": {"type": "string"}}, **ETAG_HEADER})
@problems(games, "malformed-json", "payload-too-large", "unsupported-media-type", "validation-error",
          "invalid-option", "too-many-confirmations", "too-many-invitations", "invitation-refused", "name-not-allowed",
          "name-reserved", "name-taken", "name-confusable")
def create_game(args):
    """Create a game of 2, 3, 4, 6 or 8 seats and take seat 0. The token and the invite codes (one per
    other seat) are shown once only; `invite_emails` mails each seat its own code. The name may not be a
    registered player's (`name-taken`) or look like one (`name-confusable`) unless the request carries
    that player's token (`Authorization: Bearer`), nor the house bot's (`name-reserved`)."""
    rules = Rules.from_dict(args["rules"])
    with store.transaction():
        changes.check_seat_name(args["name"])
        game, token, invites = seating.open_game(rules, args["name"], args["seats"], args["move_time_hours"])
        added = changes.after_seat_taken(game, None, 0, args, deadlines.now(), invites=invites)
        view = json.loads(views.publish_views(game, None)[0])
    body = {"game_id": game.id, "seat": 0, "token": token, "invite_code": invites[1],
            **({"invites": [{"seat": seat, "invite_code": code} for seat, code in invites.items()]}
               if len(invites) > 1 else {}),
            "links": links(game.id), "game": view, **added}
    return body, 201, {"Location": url_for("games.get_game", game_id=game.id), **etag_headers(game.version)}


@games.route("/games/<game_id>/join", methods=["POST"])
@games.doc(operationId="joinGame")
@games.arguments(JoinGameSchema, example={"invite_code": "pX0c...", "name": "Bob"})
@games.response(201, JoinedGameSchema, headers=ETAG_HEADER, example=JOINED_EXAMPLE)
@problems(games, "malformed-json", "payload-too-large", "unsupported-media-type", "validation-error",
          "invalid-invite", "game-full", "too-many-confirmations", "name-not-allowed", "name-reserved",
          "name-taken", "name-confusable")
def join_game(args, game_id):
    """Take the seat the invite code opens; when every seat is taken the first hand is dealt.
    The token is shown once only. The name is checked as POST /games checks it: not a registered
    player's, nor like one, unless the request carries that player's token."""
    with store.transaction():
        changes.check_seat_name(args["name"])
        game, match, token, seat = seating.take_seat(game_id, args["invite_code"], args["name"])
        added = changes.after_seat_taken(game, match, seat, args, deadlines.now())
        view = json.loads(views.publish_views(game, match)[seat])
    body = {"game_id": game.id, "seat": seat, "token": token, "links": links(game.id), "game": view, **added}
    return body, 201, etag_headers(game.version)


@games.route("/games/<game_id>", methods=["GET"])
# `parameters` here replaces the list @arguments would make: the long-poll's query is named again.
@games.doc(operationId="getGame", security=BEARER, parameters=[IF_NONE_MATCH, {"in": "query", "schema": WaitQuerySchema}])
@games.arguments(WaitQuerySchema(), location="query")  # an instance: webargs builds a class anew per request
@games.response(200, VIEW_DOC, headers=ETAG_HEADER, example=VIEW_EXAMPLE)
@games.alt_response(304, description="Not modified: the version named in If-None-Match is current",
                    headers=ETAG_HEADER)
@problems(games, "invalid-token", "account-suspended", "validation-error")
def get_game(query, game_id):
    """The caller's view of the game. Send If-None-Match with the last ETag to poll cheaply; add
    ?wait=N (up to 60) to have the answer wait until the game changes (long-poll)."""
    version, view = waiting.view_when_asked(game_id, bearer_token(), query)
    if waiting.unchanged(version, query):
        return Response(status=304, headers=etag_headers(version))
    return json_answer(view, 200, version)


@games.route("/games/<game_id>/stream", methods=["GET"])
@games.doc(operationId="streamGame", security=BEARER, parameters=[LAST_EVENT_ID], responses={
    "200": event_stream(STREAM_DESCRIPTION, "GameStreamFrame", STREAM_EXAMPLE),
    "204": {"description": "The match is over and Last-Event-ID names its last version: nothing more "
                           "will come (no seat rematch may still be offered to this seat; EventSource stops "
                           "reconnecting). No body, and no Content-Type"}})
@problems(games, "invalid-token", "validation-error", "too-many-waiters")
def stream_game(game_id):
    """The caller's view as Server-Sent Events: now, and after every change (`id` is the version)."""
    opened = waiting.open_stream(game_id, bearer_token())
    if opened is None:
        return Response(status=204)  # no Content-Type: core.web.untyped_when_empty takes it off
    frames, closed = opened
    response = Response(stream_with_context(ends_cleanly(frames)), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(closed)
    return response


@games.route("/games/<game_id>/actions", methods=["POST"])
@games.doc(operationId="postAction", security=BEARER, parameters=[IF_MATCH, IDEMPOTENCY_KEY], requestBody={
    "required": True, "content": {"application/json": {"schema": ref("Action"), "examples": {
        "draw": {"value": {"type": "draw", "from": "stock"}},
        "discard": {"value": {"type": "discard", "card": "7H"}},
        "knock": {"value": {"type": "knock", "discard": "KD", "melds": [["7C", "8C", "9C"]]}}}}}})
@games.response(200, VIEW_DOC, headers=ETAG_HEADER, example=VIEW_EXAMPLE)
@problems(games, "malformed-json", "invalid-token", "payload-too-large", "unsupported-media-type",
          "validation-error", "idempotency-key-reused", "version-mismatch", "game-not-started",
          *ENGINE_CODES, *CLOCK_CODES)
def post_action(game_id):
    """Make one move. The engine decides; the answer is the new view. A retry with the same
    Idempotency-Key returns the first answer and never applies twice."""
    made = moves.make(game_id, g.json_body, token=bearer_token(), pre=_preconditions())
    return json_answer(made.text, made.status, made.version)


def _preconditions() -> moves.Preconditions:
    """The key and If-Match, read before the game is (the lock brings the key's first answer
    along); a malformed one is refused after the token is checked, as an invalid token is told first."""
    try:
        key = idempotency_key()
        check_if_match_syntax()
    except Problem as fault:
        return moves.Preconditions(refused=fault)
    return moves.Preconditions(key=key, version=check_if_match)


@games.route("/games/<game_id>/events", methods=["GET"])
@games.doc(operationId="listEvents", security=BEARER)
@games.arguments(EventsQuerySchema(), location="query")
@games.response(200, EventsPageSchema, example=EVENTS_EXAMPLE)
@problems(games, "invalid-token", "validation-error")
def get_events(query, game_id):
    """What happened, in order, as this seat may see it: the opponent's stock draws show no card
    until the hand is over; then the hand's whole record is visible to both."""
    game, seat = store.read_seat(game_id, bearer_token())
    return views.events_page(game, seat, query["after"], query["limit"])
