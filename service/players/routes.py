"""Routes of players: an account and its token, my games, my stream."""
from __future__ import annotations

import ipaddress
import json

from flask import Response, current_app, stream_with_context, url_for
from flask_smorest import Blueprint

from ..core.errors import Problem
from ..core.extensions import db
from ..core.limits import client_address
from ..core.pool import ends_cleanly
from ..core.tokens import hash_secret
from ..core.wakeup import hub
from ..core.web import BEARER, bearer_token, etag_headers, problems, require_json_body_when_sent
from ..games import seating, store, views, waiting
from ..games.stream_docs import event_stream, last_event_id
from ..games.view_schemas import VIEW_EXAMPLE
from ..rules import Rules
from . import accounts, house_levels, profiles, ratings, stream
from .profile_schemas import AccountPatchSchema
from .schemas import (
    AccountSchema,
    HouseBotSchema,
    JoinAsPlayerSchema,
    MyGamesSchema,
    NewGameSchema,
    NewPlayerSchema,
    PageQuerySchema,
    PlayerTokenSchema,
    SeatedSchema,
)

players = Blueprint("players", __name__, description="Players: an account, its games and its stream of events")
PLAYER_EXAMPLE = {"id": 7, "name": "Ann", "email": None, "bot": False, "created_at": "2030-01-01T12:00:00+00:00",
                  "rating": {"value": 1500.0, "deviation": 350.0, "volatility": 0.06, "games": 0, "provisional": True},
                  "table_rating": {"mu": 25.0, "sigma": 8.3333, "ordinal": 0.0, "games": 0},
                  "public_games": False, "token_created_at": "2030-01-01T12:00:00+00:00"}
TOKEN_EXAMPLE = {"token": "pl4y3r...", "player": PLAYER_EXAMPLE}
LINKS_EXAMPLE = {"game": "/games/MKsaxqYqE1pJxqt2oSEDug", "actions": "/games/MKsaxqYqE1pJxqt2oSEDug/actions",
                 "events": "/games/MKsaxqYqE1pJxqt2oSEDug/events", "stream": "/games/MKsaxqYqE1pJxqt2oSEDug/stream"}


players.before_request(require_json_body_when_sent)


def game_links(game_id: str) -> dict:
    return {name: url_for(f"games.{endpoint}", game_id=game_id) for name, endpoint in
            (("game", "get_game"), ("actions", "post_action"), ("events", "get_events"), ("stream", "stream_game"))}


def _from_this_host() -> bool:
    """A request from a loopback address (after TRUSTED_PROXIES' hops): the house bot's own process."""
    try:
        return ipaddress.ip_address(client_address()).is_loopback
    except ValueError:
        return False


@players.route("/players", methods=["POST"])
@players.doc(operationId="createPlayer")
@players.arguments(NewPlayerSchema, example={"name": "Ann", "bot": False})
@players.response(201, PlayerTokenSchema, example=TOKEN_EXAMPLE)
@problems(players, "malformed-json", "payload-too-large", "unsupported-media-type", "validation-error",
          "name-taken", "name-confusable", "name-not-allowed", "name-reserved")
def create_player(args):
    """Make a player account. Its token is shown once: it opens /me, /challenges and every seat the
    player holds. Names are normalised (NFKC), unique ignoring case, and refused when they look like
    another's (`name-confusable`) or hold invisible characters or several scripts (`name-not-allowed`).
    The house bot's name and its look-alikes are reserved (`name-reserved`) for its own process."""
    with store.transaction():
        player, token = accounts.create(args["name"], args.get("email"), args["bot"],
                                        current_app.config.get("HOUSE_BOT_NAME") or "", _from_this_host())
    return {"token": token, "player": accounts.describe(player)}, 201


@players.route("/house-bot", methods=["GET"])
@players.doc(operationId="getHouseBot")
@players.response(200, HouseBotSchema, example={"name": "House", "bot": True, "levels": [
    {"level": level, "label": f"House (level {level})",
     "rating": {"value": value, "deviation": 84.2, "volatility": 0.059991, "games": 40, "provisional": False}}
    for level, value in ((1, 1210.5), (2, 1388.0), (3, 1522.7), (4, 1710.3), (5, 1804.9))]})
@problems(players, "no-house-bot")
def house_bot():
    """The computer to play: the service's own bot account (run by the Procfile's `bot:` line,
    named by HOUSE_BOT_NAME). Challenge it by this name; it accepts and plays, at the challenge's
    `level`. Each level is rated as an identity of its own: its rating is here."""
    name = current_app.config.get("HOUSE_BOT_NAME")
    player = accounts.by_name(name) if name else None
    if player is None or not player.bot:
        raise Problem("no-house-bot", "this server runs no house bot" if not name else
                      f"no bot account called {name!r} yet: the house bot registers it when it first starts")
    return {"name": player.name, "bot": True, "levels": [
        {"level": level, "label": house_levels.label(player.name, level), "rating": ratings.describe(rated)}
        for level, rated in house_levels.ratings_by_level().items()]}


@players.route("/me", methods=["GET"])
@players.doc(operationId="getMe", security=BEARER)
@players.response(200, AccountSchema, example=PLAYER_EXAMPLE)
@problems(players, "invalid-token", "account-suspended")
def get_me():
    """The player the token opens."""
    return accounts.describe(accounts.current())


@players.route("/me", methods=["PATCH"])
@players.doc(operationId="updateMe", security=BEARER)
@players.arguments(AccountPatchSchema, example={"public_games": True})
@players.response(200, AccountSchema, example={**PLAYER_EXAMPLE, "public_games": True})
@problems(players, "invalid-token", "account-suspended", "malformed-json", "payload-too-large",
          "unsupported-media-type", "validation-error")
def update_me(fields):
    """Change your account's settings: `public_games` lets anyone who opens your profile watch your
    current games and replay your finished ones; false revokes every such link at once."""
    with store.transaction():
        player = accounts.current(lock=True)
        profiles.set_public_games(player, fields["public_games"])
    return accounts.describe(player)


@players.route("/me/token", methods=["POST"])
@players.doc(operationId="rotatePlayerToken", security=BEARER)
@players.response(200, PlayerTokenSchema, example=TOKEN_EXAMPLE)
@problems(players, "invalid-token", "malformed-json", "unsupported-media-type")
def rotate_token():
    """A new player token; the one sent stops working at once (open streams with it end)."""
    with store.transaction():
        player = accounts.current(lock=True)
        token = accounts.rotate(player)
    return {"token": token, "player": accounts.describe(player)}


@players.route("/me/token", methods=["DELETE"])
@players.doc(operationId="revokePlayerToken", security=BEARER)
@players.response(204, description="Revoked: no token opens the account any more; seat tokens still open "
                                   "their seats")
@problems(players, "invalid-token")
def revoke_token():
    """Revoke the player token (a leaked one): nothing opens the account afterwards."""
    with store.transaction():
        accounts.revoke(accounts.current(lock=True))
    return Response(status=204)


@players.route("/me/games", methods=["GET"])
@players.doc(operationId="listMyGames", security=BEARER)
@players.arguments(PageQuerySchema, location="query")
@players.response(200, MyGamesSchema, example={"games": [{
    "game_id": "MKsaxqYqE1pJxqt2oSEDug", "seat": 0, "status": "active", "version": 12, "your_turn": True,
    "phase": "draw", "opponent": {"name": "Bob", "player": "Bob", "bot": False}, "score": {"you": 25, "opponent": 0},
    "deadline": "2030-01-04T12:00:00+00:00", "links": LINKS_EXAMPLE}],
    "next_offset": None})
@problems(players, "invalid-token", "validation-error")
def my_games(query):
    """Your games: those where it is your turn first, then by deadline, then waiting and finished ones; paged."""
    player = accounts.current()
    return accounts.my_games(player, query["limit"], query["offset"], game_links)


@players.route("/me/games", methods=["POST"])
@players.doc(operationId="createMyGame", security=BEARER)
@players.arguments(NewGameSchema, example={"rules": {"preset": "standard", "target": 100}, "move_time_hours": 72})
@players.response(201, SeatedSchema)
@problems(players, "invalid-token", "malformed-json", "payload-too-large", "unsupported-media-type",
          "validation-error", "invalid-option", "rated-target-too-low")
def create_my_game(args):
    """Create a game with your player in seat 0, under your name; invite anyone with the invite code
    (at a table, each seat's code from `invites`). Rated (unless `rated: false`, or a target below the
    minimum) when every seat is taken by a player: Glicko-2 at two seats, the table rating at 3 to 8."""
    rules = Rules.from_dict(args["rules"])
    with store.transaction():
        player = accounts.current()
        game, token, invites = seating.open_game(rules, player.name, args["seats"], args["move_time_hours"])
        accounts.bind(game.id, 0, player)
        if not ratings.resolve_rated(args.get("rated"), rules.target):
            ratings.mark_unrated(game.id)
        view = json.loads(views.publish_views(game, None)[0])
    body = {"game_id": game.id, "seat": 0, "token": token, "invite_code": invites[1], "links": game_links(game.id),
            "game": view, **({"invites": [{"seat": seat, "invite_code": code} for seat, code in invites.items()]}
                             if len(invites) > 1 else {})}
    return body, 201, etag_headers(game.version)


@players.route("/me/games/<game_id>/join", methods=["POST"])
@players.doc(operationId="joinAsPlayer", security=BEARER)
@players.arguments(JoinAsPlayerSchema, example={"invite_code": "q3Jw..."})
@players.response(201, SeatedSchema, example={"game_id": "MKsaxqYqE1pJxqt2oSEDug", "seat": 1, "token": "b0b...",
                                              "links": LINKS_EXAMPLE, "game": VIEW_EXAMPLE})
@problems(players, "invalid-token", "malformed-json", "payload-too-large", "unsupported-media-type",
          "validation-error", "invalid-invite", "game-full", "already-seated")
def join_as_player(args, game_id):
    """Take the seat the invite code opens (seat 1 of two, any seat of a table) as your player; when
    every seat is taken the first hand is dealt."""
    with store.transaction():
        player = accounts.current()
        game = store.lock_game(game_id) if store.could_be_game_id(game_id) else None
        seat = seating.seat_of_invite(game, args["invite_code"]) if game is not None else None
        if seat is not None:
            accounts.bind(game_id, seat, player)  # before the deal, so the deal's events reach this player too
        game, match, token, seat = seating.take_seat(game_id, args["invite_code"], player.name)
        view = json.loads(views.publish_views(game, match)[seat])
    body = {"game_id": game.id, "seat": seat, "token": token, "links": game_links(game.id), "game": view}
    return body, 201, etag_headers(game.version)


LAST_EVENT_ID = last_event_id("The id of the last event received: the stream starts after it (0: from the "
                              "first). Absent or empty: only events from now on")
STREAM_EXAMPLE = (': connected\n\nid: 3\nevent: challenge_accepted\ndata: {"seq":3,"type":"challenge_accepted",'
                  '"created_at":"2030-01-01T12:00:00+00:00","challenge_id":"q9VbA0lW5yq2Lk1l3cJ9Rw",'
                  '"game_id":"MKsaxqYqE1pJxqt2oSEDug","by":"Bob"}\n\n: keep-alive\n\n')


@players.route("/me/stream", methods=["GET"])
@players.doc(operationId="streamMe", security=BEARER, parameters=[LAST_EVENT_ID], responses={"200": event_stream(
    "`text/event-stream`: each event is `id: <seq>`, `event: <type>`, `data: <JSON>` (a `PlayerStreamEvent`, "
    "whose `type` is the event's), in order, each once. Connect first, then read GET /me/games for what is "
    "already pending. A comment line (`: keep-alive`) every 15 s while nothing happens. The stream ends after "
    "an hour, when the server restarts, when the token is rotated, or when the same token opens a newer "
    "stream past its cap of 4 waiting requests (the newer takes its place); reconnect with Last-Event-ID. "
    "An address past its share of the server's waits gets 429; a full server makes room for an address "
    "holding fewer waits (the oldest wait of the address holding the most ends), else 429.",
    "PlayerStreamFrame", STREAM_EXAMPLE)})
@problems(players, "invalid-token", "validation-error", "too-many-waiters")
def stream_me():
    """Everything that concerns you, as Server-Sent Events: challenges, games started, your turn (with
    your view), the opponent's moves, games over, rematches offered."""
    mark = hub().mark()  # before the read: a wake-up after it is not missed (stream.open_stream)
    player = accounts.current()
    frames, closed = stream.open_stream(player, hash_secret(bearer_token()), waiting.last_event_id(), mark)
    db.session.rollback()  # a stream holds no pooled connection between its reads
    response = Response(stream_with_context(ends_cleanly(frames)), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(closed)
    return response

