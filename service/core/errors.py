"""RFC 9457 problem details for every error, with a stable machine `code`.

Every error the service answers with goes through `problem_response`: the routes raise `Problem`
(or let the engine raise `IllegalAction` / `InvalidRules`), werkzeug's HTTP errors are translated
here, and anything unexpected becomes a generic 500 whose traceback stays in the server log.
"""
from __future__ import annotations

import logging
import random
from http import HTTPStatus

import marshmallow as ma
from flask import jsonify, request
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from marshmallow import fields as f
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import HTTPException

from ..rules import IllegalAction, InvalidRules
from .fields import doc
from .openapi import DOC_KEY, documented_as, nullable_enum

PROBLEM_MEDIA_TYPE = "application/problem+json"
log = logging.getLogger(__name__)

# Every code the service answers with: (HTTP status, when it happens). The engine's codes take
# their status from IllegalAction.status, so the two cannot drift apart.
ENGINE_CODES = {
    "invalid-action": "the action is not a well-formed action (unknown type, missing field, bad card text)",
    "not-your-turn": "the other seat is to move",
    "game-over": "the match is over",
    "wrong-phase": "that kind of action is not allowed in this phase of the turn",
    "card-not-in-hand": "the card named is not in your hand",
    "cannot-discard-taken-card": "the card just taken from the discard pile cannot be discarded this turn",
    "deadwood-over-limit": "knocking needs deadwood within the knock limit",
    "invalid-meld": "the melds given do not form legal melds of your cards",
    "knocking-not-allowed": "these rules do not allow knocking (only gin ends a hand)",
    "knock-required": "the last discard was taken to finish: knock (or go gin), do not discard",
    "big-gin-not-allowed": "Big Gin is off in these rules, or the 11 cards do not all meld",
    "invalid-plan": "a plan's words or JSON cannot be read (docs/plans.md)",
    "ambiguous-plan": "a plan that does not say one thing (a rule needing an else, two draws, a rule after one "
                      "that always decides), or names a pile top that is not there",
    "invalid-orders": "standing orders' words or JSON cannot be read (docs/plans.md)",
}
SERVICE_CODES = {
    "malformed-json": (400, "the body is not valid JSON"),
    "bad-request": (400, "the request is malformed in some other way"),
    "invalid-token": (401, "the bearer token is missing, or does not open a seat of this game"),
    "metrics-forbidden": (403, "the metrics answer only a loopback client or the bearer token METRICS_TOKEN"),
    "not-found": (404, "no such path"),
    "method-not-allowed": (405, "the path does not take this method (see the Allow header)"),
    "game-not-started": (409, "the game waits for its second player"),
    "game-full": (409, "both seats are taken; an invite code works once"),
    "version-mismatch": (412, "If-Match names a version that is no longer current"),
    "payload-too-large": (413, "the body is larger than the limit (MAX_CONTENT_LENGTH)"),
    "unsupported-media-type": (415, "the body is not sent as application/json"),
    "validation-error": (422, "a field is missing, unknown or out of range (see errors)"),
    "invalid-option": (422, "a rules option or preset is unknown or out of range (see option)"),
    "invalid-invite": (422, "the invite code does not open a seat of this game"),
    "invalid-link": (401, "the link key does not open a seat of this game"),
    "link-used": (410, "the mail's link was used already: each opens the seat once"),
    "link-expired": (410, "the mail's link is too old (LINK_KEY_DAYS): use the newest mail's link"),
    "idempotency-key-reused": (422, "the Idempotency-Key was first used with a different body"),
    "rate-limited": (429, "too many requests from this token or address: wait Retry-After seconds"),
    "too-many-waiters": (429, "this token, address or server holds as many waiting requests (long-polls, "
                              "streams) as allowed (a full server: and no address holds more than yours "
                              "would after): close one, or wait Retry-After seconds"),
    "header-too-large": (431, "a request header, or all of them, is larger than the server takes"),
    "uri-too-long": (414, "the request line is longer than the server takes"),
    "internal-error": (500, "the server failed; the details are in its log, never in the answer"),
    "database-unavailable": (503, "the database cannot be reached, stayed locked, or no pooled connection came "
                                 "free in time (DB_POOL_TIMEOUT): retry after Retry-After seconds"),
    "database-not-migrated": (503, "the database schema is behind the code: run flask db upgrade"),
    "not-ready": (503, "this process should take no traffic yet: `failing` names what is wrong (database, "
                       "schema, wake-up listener)"),
}
# Raised by the engine used as a library only, never in answer to a request (no route takes a
# defender's own layoffs; a seat always comes from the token), so not part of the API's catalogue.
LIBRARY_CODES = {"invalid-layoff", "invalid-seat"}
# Every code the API answers with: (HTTP status, when it happens). The core's are here; each
# feature's (games' clock codes, notify's, players', series') are added by the app factory
# (register_codes) before it registers any route, so the catalogue is whole when it is read.
CATALOGUE: dict[str, tuple[int, str]] = {}
STATUS_BY_CODE: dict[str, int] = {}


def register_codes(service: dict[str, tuple[int, str]] | None = None, engine: dict[str, str] | None = None) -> None:
    """Add problem codes to the catalogue: `service` codes with their status, and codes raised as
    the engine's IllegalAction (`engine`: their status is IllegalAction.status, so the two cannot
    drift apart). Registering a code again with the same meaning changes nothing."""
    added = {code: (IllegalAction(code, "").status, text) for code, text in (engine or {}).items()}
    added.update(service or {})
    for code, entry in added.items():
        if CATALOGUE.setdefault(code, entry) != entry:
            raise ValueError(f"problem code {code} is registered twice with different meanings")
        STATUS_BY_CODE[code] = entry[0]


register_codes(SERVICE_CODES, ENGINE_CODES)

# werkzeug's exceptions (raised by routing, request parsing and webargs) by status.
CODE_BY_HTTP_STATUS = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "payload-too-large",
    415: "unsupported-media-type",
    422: "validation-error",
}


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem document (media type application/problem+json)."""

    type = f.String(required=True, **doc("A URI reference naming the kind of problem",
                                          example="/docs#problem-not-your-turn"))
    title = f.String(required=True, **doc("The HTTP status phrase", example="Conflict"))
    status = f.Integer(required=True, **doc("The HTTP status code", example=409))
    detail = f.String(required=True, **doc("What went wrong, for a human; names the card and the phase",
                                            example="it is seat 1's turn, in the draw"))
    code = f.String(required=True, **doc("Stable machine code: switch on this", example="not-your-turn",
                                          **{DOC_KEY: lambda: {"type": "string", "enum": _problem_codes()}}))
    instance = f.String(required=True, **doc("The request path", example="/games/x1y2/actions"))
    errors = f.Dict(**doc("validation-error only: the offending fields and their messages"))
    option = f.String(**doc("invalid-option only: the rules option that was refused", example="knock_limt"))
    failing = f.Dict(keys=f.String(), values=f.String(),
                     **doc("not-ready only: each failing check (database, schema, wakeup) and what is wrong"))
    legal_actions = f.List(f.Dict(), **doc("A refused plan or orders only: the actions legal for the seat now "
                                           "(as GET lists them in the view; empty when it is not its turn)"))


def _problem_codes() -> list[str]:
    return sorted(CATALOGUE)  # read at spec time: every feature's codes are registered by then


class Problem(Exception):
    """An error to answer with: a code from STATUS_BY_CODE, a human detail, optional extra members."""

    def __init__(self, code: str, detail: str, *, headers: dict | None = None, **extra):
        super().__init__(detail)
        self.code = code
        self.status = STATUS_BY_CODE[code]
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


def problem_response(status: int, code: str, detail: str, headers=None, **extra):
    body = {
        # A relative reference to the docs page, whose problem list has one anchor per code.
        "type": f"/docs#problem-{code}",
        "title": status_phrase(status),
        "status": status,
        "detail": detail,
        "code": code,
        "instance": request.path,
        **extra,
    }
    response = jsonify(body)
    response.status_code = status
    response.mimetype = PROBLEM_MEDIA_TYPE
    for name, value in (headers or {}).items():
        response.headers[name] = value
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="gin", error="invalid_token"'
    return response


def status_phrase(status: int) -> str:
    return HTTPStatus(status).phrase


# What any path may answer, beside the statuses each operation lists (the server and the routing
# answer these before any operation is chosen).
ANYWHERE = ("bad-request", "not-found", "method-not-allowed", "uri-too-long", "header-too-large",
            "internal-error", "database-unavailable", "database-not-migrated")
ANYWHERE_DESCRIPTION = "Any error, as a problem document. On any path: " + "; ".join(
    f"{STATUS_BY_CODE[code]} `{code}`: {SERVICE_CODES[code][1]}" for code in ANYWHERE)


class ProblemApi(Api):
    """flask-smorest's Api, answering and documenting errors as application/problem+json."""

    ERROR_SCHEMA = ProblemSchema
    # Set by the app factory: called with (spec, ma_plugin) before anything else is documented, to
    # register the components that name every feature's schemas (app/spec.py).
    register_components = None

    def _register_responses(self):
        self.ma_plugin.converter.add_attribute_function(documented_as)  # fields documented as another schema
        self.ma_plugin.converter.add_attribute_function(nullable_enum)  # one enum class per nullable enum
        if self.register_components is not None:
            self.register_components(self.spec, self.ma_plugin)
        # The lazily registered per-status responses (e.g. the 422 that @arguments documents)
        # are problem+json, not the success media type.
        for status in HTTPStatus:
            response = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_MEDIA_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": ANYWHERE_DESCRIPTION, "schema": self.ERROR_SCHEMA,
                    "headers": {"Allow": {"description": "405 only: the methods the path takes",
                                          "schema": {"type": "string"}}}}
        prepare_response(response, self.spec, PROBLEM_MEDIA_TYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response, lazy=True)

    def _register_error_handlers(self):
        app = self._app
        app.register_error_handler(HTTPException, self.handle_http_exception)
        app.register_error_handler(Problem, handle_problem)
        app.register_error_handler(IllegalAction, handle_illegal_action)
        app.register_error_handler(InvalidRules, handle_invalid_rules)
        app.register_error_handler(OperationalError, handle_database_error)
        app.register_error_handler(PoolTimeout, handle_pool_timeout)
        app.register_error_handler(StaleDataError, handle_stale)
        app.register_error_handler(Exception, handle_unexpected)

    def handle_http_exception(self, error: HTTPException):
        status = error.code or 500
        if status >= 500:
            return handle_unexpected(error)
        code = CODE_BY_HTTP_STATUS.get(status, "bad-request")
        # Keep werkzeug's own headers: a 405 must carry its Allow header.
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        data = getattr(error, "data", None) or {}
        extra = {}
        if code == "validation-error":
            extra["errors"] = data.get("messages") or data.get("errors") or {}
            detail = "the request does not match the schema: " + _summarise(extra["errors"])
        else:
            detail = data.get("message") or error.description or status_phrase(status)
        headers.update(data.get("headers") or {})
        return problem_response(status, code, detail, headers, **extra)


def _summarise(errors) -> str:
    """One line naming the first offending field(s), for the human-readable detail."""
    parts = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, path + [str(key)])
        elif isinstance(node, list) and node and all(isinstance(m, str) for m in node):
            parts.append(f"{'.'.join(p for p in path if p != 'json') or 'body'}: {node[0]}")
        elif isinstance(node, list):
            for item in node:
                walk(item, path)
    walk(errors, [])
    return "; ".join(parts[:3]) or "invalid input"


def invalid_token() -> Problem:
    # The same answer for an unknown game, a wrong token and another game's token: no hint.
    return Problem("invalid-token", "missing or invalid bearer token for this game")


def handle_problem(error: Problem):
    return problem_response(error.status, error.code, error.detail, error.headers, **error.extra)


def handle_illegal_action(error: IllegalAction):
    return problem_response(error.status, error.code, error.message)


def handle_invalid_rules(error: InvalidRules):
    return problem_response(422, error.code, error.message, option=error.option)


def handle_database_error(error: OperationalError):
    log.error("database error on %s %s", request.method, request.path, exc_info=error)
    return problem_response(503, "database-unavailable", "the database is unavailable or busy; retry shortly",
                            {"Retry-After": "1"})


BUSY_RETRY_AFTER = (3, 8)  # seconds, drawn at random: clients turned away together come back spread out


def busy_retry_after() -> int:
    return random.randint(*BUSY_RETRY_AFTER)


def handle_pool_timeout(error: PoolTimeout):
    """Every pooled connection stayed out for DB_POOL_TIMEOUT (core/pool.py): the process is busier
    than its connection budget, which a client rides out by coming back a few seconds later."""
    log.warning("no database connection for %s %s: %s", request.method, request.path, error)
    return problem_response(503, "database-unavailable", "the service is busy: no database connection "
                                                         "came free in time; retry after Retry-After seconds",
                            {"Retry-After": str(busy_retry_after())})


def handle_stale(error: StaleDataError):
    # Unreachable while the row lock works; the version check in the UPDATE is the second guard.
    return problem_response(412, "version-mismatch", "the game changed while this action was applied; reload")


def handle_unexpected(error: Exception):
    # The traceback goes to the server log only; the client gets a generic problem.
    log.error("unhandled error on %s %s", request.method, request.path, exc_info=error)
    return problem_response(500, "internal-error",
                            "the server hit an unexpected error; it has been logged")
