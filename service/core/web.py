"""HTTP details shared by the routes: JSON bodies, the bearer token, ETags, Idempotency-Key, documented problems."""
from __future__ import annotations

import json
import re
from collections import defaultdict

from flask import Flask, current_app, g, request

from .errors import (
    CATALOGUE,
    PROBLEM_MEDIA_TYPE,
    Problem,
    ProblemSchema,
    invalid_token,
    status_phrase,
)


class App(Flask):
    """Flask, with ensure_sync's answer kept per function: Flask asks it of every hook and view on
    every request (a dozen times per request here, each an `inspect` call), and the answer for a
    function never changes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync_functions: dict = {}

    def ensure_sync(self, func):
        try:
            return self._sync_functions[func]
        except KeyError:
            made = self._sync_functions[func] = super().ensure_sync(func)
            return made
        except TypeError:  # an unhashable callable: asked each time, as Flask does
            return super().ensure_sync(func)


def untyped_when_empty(response):
    """After every request: a 204 or 304 has no body, so no Content-Type (werkzeug would call it
    text/html, and a client would take the end of a stream, or a not-modified view, for a page)."""
    if response.status_code in (204, 304):
        response.headers.pop("Content-Type", None)
    return response


BEARER = [{"bearerAuth": []}]
BEARER_SCHEME = {"type": "http", "scheme": "bearer",
                 "description": "The seat token from POST /games or POST /games/{game_id}/join"}
ETAG_HEADER = {"ETag": {"description": 'The game\'s version, quoted: "7"', "schema": {"type": "string"}}}
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                 "description": "An ETag from an earlier answer: 304 while the game has not changed"}
# RFC 9110 8.8.3 and 13.1.1: `*`, or entity-tags ("7", W/"7") separated by commas.
ENTITY_TAGS = r'^[ \t]*(\*|(W/)?"[!#-~]*"([ \t]*,[ \t]*(W/)?"[!#-~]*")*)[ \t]*$'
IF_MATCH = {"in": "header", "name": "If-Match", "required": False,
            "schema": {"type": "string", "pattern": ENTITY_TAGS, "example": '"7"'},
            "description": "Optional. The ETag of the view the move was chosen from: 412 version-mismatch "
                           "if the game has moved on since. Without it the move is judged on the current state."}
IDEMPOTENCY_KEY = {"in": "header", "name": "Idempotency-Key", "required": False,
                   "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[ -~]+$"},
                   "description": "Optional, unique per move (e.g. a UUID): a retry with the same key and body "
                                  "returns the first answer and is never applied twice (kept per seat)."}


def body_required() -> bool:
    """Whether this request's route declares a required JSON body (flask-smorest's `arguments`, which
    openapi.yaml's `requestBody: required: true` is written from): such a route answers a request
    without one as POST /games does (415, or 400 for an empty JSON body), never as if it were `{}`."""
    view = current_app.view_functions.get(request.endpoint)
    declared = getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", ())
    return any(each.get("in") == "json" and each.get("required", True) for each in declared)


def bearer_token_or_none() -> str | None:
    """The request's bearer token, or None when it sends none (where a token is optional)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def bearer_token() -> str:
    token = bearer_token_or_none()
    if token is None:
        raise invalid_token()
    return token


def etag_headers(version: int) -> dict:
    # The view depends on the token too, so caches must key on Authorization.
    return {"ETag": f'"{version}"', "Vary": "Authorization"}


def not_modified(version: int) -> bool:
    # (the header's absence read from the environ: werkzeug would build an empty ETags first)
    return "HTTP_IF_NONE_MATCH" in request.environ and request.if_none_match.contains_weak(str(version))


def check_if_match_syntax() -> None:
    """An If-Match that is not entity-tags is refused as the spec's pattern refuses it, rather than
    read leniently into a tag that can never match."""
    value = request.headers.get("If-Match")
    if value is not None and not re.fullmatch(ENTITY_TAGS, value):
        raise Problem("validation-error", 'If-Match must be * or quoted versions, like "7"',
                      errors={"If-Match": ['* or entity-tags, like "7"']})


def check_if_match(version: int) -> None:
    """If-Match is optional (a client that always reloads first needs none); when sent, it must match."""
    if "HTTP_IF_MATCH" in request.environ and request.if_match and not request.if_match.contains(str(version)):
        raise Problem("version-mismatch", f'the game is at version "{version}", not the one in If-Match; '
                                          "reload the view and choose again")


MAX_JSON_DEPTH = 32  # the deepest body the API takes has 3 levels (a knock's melds)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_json_body(raw: bytes):
    """Strict JSON (RFC 8259): UTF-8 without a BOM, no NaN/Infinity, no unpaired surrogate escapes
    (no database can store them), nested at most MAX_JSON_DEPTH levels (deeper input would exhaust
    the parser's recursion). Raises ValueError naming the fault."""
    def no_constant(name):
        raise ValueError(f"{name} is not JSON")
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=no_constant)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels") from None
    stack = [(document, 0)]
    while stack:  # iterative: a recursive walk would fail on the input it is meant to refuse
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth >= MAX_JSON_DEPTH:
                raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
            items = [*node.keys(), *node.values()] if isinstance(node, dict) else node
            stack.extend((item, depth + 1) for item in items)
        elif isinstance(node, str) and _LONE_SURROGATE.search(node):
            raise ValueError("a string holds an unpaired UTF-16 surrogate escape")
    return document


def require_json_body() -> None:
    """Every POST (and PATCH, PUT, and a DELETE whose route takes a body) carries one JSON document: check
    size (413), media type (415), syntax (400). A blueprint's `before_request` (games, access,
    notify); the route reads the parsed body from `g.json_body`."""
    if request.method not in ("POST", "PATCH", "PUT") and not (request.method == "DELETE" and body_required()):
        return
    if not request.is_json:
        raise Problem("unsupported-media-type",
                      f"send the body as application/json, not {request.mimetype or 'no media type'}")
    body = request.get_data(cache=True) or b""
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(body) >= limit:
        # A streamed (chunked) body has no length to refuse up front, and werkzeug stops reading
        # it at the limit without a word: what it read is only the beginning of the body.
        raise Problem("payload-too-large", f"the body is larger than the limit of {limit} bytes")
    try:
        g.json_body = parse_json_body(body)  # the one parse: the route reads it from here
    except ValueError as exc:
        raise Problem("malformed-json", f"the body is not valid JSON: {exc}") from None


def require_json_body_when_sent() -> None:
    """A body, when sent, is one JSON document (require_json_body's checks: 413, 415, 400). Routes
    that take no fields (accept, cancel, rotate) may be posted with no body at all; a route whose
    body the spec marks required may not (POST /challenges without one would make an open
    challenge). The players' and series' blueprints' `before_request`."""
    if request.method in ("POST", "PATCH") and (request.content_length or request.headers.get("Transfer-Encoding")
                                                or request.mimetype or body_required()):
        require_json_body()


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (1 <= len(key) <= 200 and key.isprintable() and key.isascii()):
        raise Problem("validation-error", "Idempotency-Key must be 1 to 200 printable ASCII characters",
                      errors={"Idempotency-Key": ["1 to 200 printable ASCII characters"]})
    return key


def header(description: str, schema_type: str = "integer") -> dict:
    return {"description": description, "schema": {"type": schema_type}}


RATE_LIMIT_HEADERS = {
    "Retry-After": header("Seconds to wait before trying again"),
    "RateLimit-Limit": header("rate-limited only: the quota of the limit closest to running out"),
    "RateLimit-Remaining": header("rate-limited only: requests left in its window (0)"),
    "RateLimit-Reset": header("rate-limited only: seconds until its window resets"),
}
HEADERS_BY_STATUS = {
    401: {"WWW-Authenticate": header('Bearer realm="gin", error="invalid_token"', "string")},
    405: {"Allow": header("The methods the path takes", "string")},
    429: RATE_LIMIT_HEADERS,
    503: {"Retry-After": header("Seconds to wait before trying again")},
}


def problems(blueprint, *codes: str, limited: bool = True):
    """Document the problem responses an operation can answer with, one example per code, and
    their headers. `limited`: the rate limits (service/core/limits.py) apply, so 429 rate-limited too."""
    by_status = defaultdict(list)
    for code in (*codes, *(("rate-limited",) if limited else ())):
        by_status[CATALOGUE[code][0]].append(code)

    def decorator(func):
        for status, status_codes in sorted(by_status.items(), reverse=True):
            examples = {code: {"summary": CATALOGUE[code][1], "value": {
                "type": f"/docs#problem-{code}", "title": status_phrase(status), "status": status,
                "detail": CATALOGUE[code][1], "code": code}} for code in status_codes}
            documented = blueprint.alt_response(
                status, schema=ProblemSchema, content_type=PROBLEM_MEDIA_TYPE, examples=examples,
                headers=HEADERS_BY_STATUS.get(status),
                description="; ".join(f"`{code}`: {CATALOGUE[code][1]}" for code in status_codes))(func)
            # Only its documentation: alt_response's wrapper passes the call through, a layer per
            # status on every request (a few µs each: current_app, ensure_sync, the call).
            func._apidoc = documented._apidoc
        return func
    return decorator


def no_store_when_private(response):
    """An answer to a request carrying credentials (a seat's hand, its messages, a token) or changing
    something is `Cache-Control: no-store`: after "Forget this seat" nothing of it stays in the
    browser's disk cache. ETags still work for clients that send If-None-Match themselves."""
    if "Cache-Control" not in response.headers and (
            "Authorization" in request.headers or request.method not in ("GET", "HEAD", "OPTIONS")):
        response.headers["Cache-Control"] = "no-store"
    return response
