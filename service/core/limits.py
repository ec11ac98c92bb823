"""Rate limits: per client address, per seat token, and a harder one on failed tokens/invites.

Flask-Limiter counts; this module chooses the keys, answers a breach with a 429 problem
(`rate-limited`) and writes the draft IETF headers (draft-ietf-httpapi-ratelimit-headers, the
separate-fields form) on every limited answer:

    RateLimit-Limit: 120          the quota of the limit closest to running out
    RateLimit-Remaining: 37       what is left of it in the current window
    RateLimit-Reset: 42           seconds until the window resets (delta seconds, not a date)
    Retry-After: 42               on a 429 only: seconds to wait

Configuration (app.config first, then the environment, then the default):

    RATELIMIT_ENABLED          "true"; the tests turn it off except where they test it
    RATELIMIT_STORAGE_URI      "memory://" counts per worker process; "redis://127.0.0.1:6379"
                               makes every worker on every host count together
    RATELIMIT_PER_ADDRESS      "600 per minute"   every request from one client address
    RATELIMIT_PER_TOKEN        "120 per minute"   every request carrying one bearer token
    RATELIMIT_PER_HOUSE_BOT    "1200 per minute"  the house bot's token instead (a feature says
                               which token that is through `token_quotas`): it plays every
                               player's games against the computer, so a person's limit would
                               ration them all (docs/operations.md sizes the bot)
    RATELIMIT_FAILED_AUTH      "10 per minute"    refused tokens, invite codes and link keys, per
                               address: past it a refused credential is answered 429 instead of
                               401/422; a request whose credentials are good is never turned
                               away by it, so a guesser cannot lock out the players behind the
                               same address (a NAT, an unconfigured proxy)
    RATELIMIT_STRATEGY         "fixed-window" (or "moving-window"), RATELIMIT_KEY_PREFIX "gin",
                               and Flask-Limiter's other RATELIMIT_* settings (app.config only)

The failed-credential count is charged before the answer is sent (a Redis INCR per refusal), so
requests sent together cannot all slip under it.

Behind a reverse proxy, set TRUSTED_PROXIES to the number of proxies in front of the service
(service/core/config.py): the client address is then read from X-Forwarded-For (werkzeug's ProxyFix),
not the proxy's own. Without it, every client shares the proxy's address and its limits.
"""
from __future__ import annotations

import hashlib
import math
import os
import time

from flask import current_app, request
from flask_limiter import ApplicationLimit, Limiter, RateLimitExceeded
from limits import parse

from .errors import problem_response
from .hooks import Registry
from .web import bearer_token_or_none

DEFAULTS = {
    "RATELIMIT_ENABLED": "true",
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_PER_ADDRESS": "600 per minute",
    "RATELIMIT_PER_TOKEN": "120 per minute",
    "RATELIMIT_PER_HOUSE_BOT": "1200 per minute",
    "RATELIMIT_FAILED_AUTH": "10 per minute",
    "RATELIMIT_KEY_PREFIX": "gin",
    "RATELIMIT_STRATEGY": "fixed-window",  # or moving-window: exact, at more storage per key
}
UNLIMITED_ENDPOINTS = {"service.health", "service.ready"}  # load balancers' probes: never turned away
HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")
# hook(bearer token) -> the name of the setting holding this token's limit (players: the house
# bot's, RATELIMIT_PER_HOUSE_BOT), or None; the first answer wins, else RATELIMIT_PER_TOKEN.
token_quotas = Registry("hook(token) -> the app.config name of this token's per-token limit, or None")


def init_limits(app) -> Limiter:
    """Bind a limiter to `app` (one per app: tests build apps with different settings)."""
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, os.environ.get(name, default))
    app.config["RATELIMIT_ENABLED"] = _flag(app.config["RATELIMIT_ENABLED"])
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # a dead Redis must not stop the games
    app.config["RATELIMIT_HEADERS_ENABLED"] = False  # ours below: delta-second Reset, draft names
    limiter = Limiter(
        client_address,
        application_limits=[
            ApplicationLimit(lambda: current_app.config["RATELIMIT_PER_ADDRESS"], scope="address",
                             exempt_when=_unlimited),
            ApplicationLimit(_token_limit, scope="token",
                             key_function=token_key, exempt_when=lambda: _unlimited() or not token_key()),
        ],
    )
    # Registered first so that it runs last, after Flask-Limiter's own after_request has
    # counted a refused token: the headers then show what is really left.
    app.after_request(_rate_limit_headers)
    limiter.init_app(app)
    app.after_request(_charge_refused_credentials)  # runs before Flask-Limiter's and the headers'
    app.extensions["gin_limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, too_many_requests)
    return limiter


def _token_limit() -> str:
    """The bearer token's limit, evaluated per request: RATELIMIT_PER_TOKEN unless a hook names another."""
    token = bearer_token_or_none()
    for quota in token_quotas() if token else ():
        setting = quota(token)
        if setting:
            return current_app.config[setting]
    return current_app.config["RATELIMIT_PER_TOKEN"]


def client_address() -> str:
    return request.remote_addr or "unknown"


def token_key() -> str:
    """A digest of the bearer token: the token itself never reaches the limiter's storage."""
    token = bearer_token_or_none()
    if token is None:
        return ""
    return hashlib.sha256(b"ratelimit:" + token.encode("utf-8", "replace")).hexdigest()[:32]


def _unlimited() -> bool:
    return request.endpoint in UNLIMITED_ENDPOINTS


def _refused_credentials(response) -> bool:
    """Answers that refused a token, an invite code or a link key count toward RATELIMIT_FAILED_AUTH."""
    if response.status_code == 401:
        return True
    if response.status_code == 422 and response.is_json:
        return (response.get_json(silent=True) or {}).get("code") == "invalid-invite"
    return False


def _charge_refused_credentials(response):
    """Count a refusal against its address; past the limit, answer 429 instead. Only refused
    requests are ever turned away here, so good credentials from the same address still work."""
    limiter = current_app.extensions["gin_limiter"]
    if not limiter.enabled or _unlimited() or not _refused_credentials(response):
        return response
    item = parse(current_app.config["RATELIMIT_FAILED_AUTH"])
    key = (current_app.config["RATELIMIT_KEY_PREFIX"], "failed-auth", client_address())
    try:
        if limiter.limiter.hit(item, *key):
            return response
        stats = limiter.limiter.get_window_stats(item, *key)
    except Exception:  # the storage went away: RATELIMIT_SWALLOW_ERRORS, answer as if unlimited
        current_app.logger.warning("rate limit storage unavailable; refused credentials not counted")
        return response
    wait = _seconds_until(stats.reset_time)
    refused = problem_response(429, "rate-limited", f"too many refused credentials from this address "
                                                    f"({item}); retry in {wait} s", {"Retry-After": str(wait)})
    refused.headers.update({"RateLimit-Limit": str(item.amount), "RateLimit-Remaining": "0",
                            "RateLimit-Reset": str(wait)})
    return refused


def too_many_requests(error: RateLimitExceeded):
    wait = _seconds_until(getattr(_tightest(), "reset_at", time.time() + 1))
    return problem_response(429, "rate-limited",
                            f"too many requests ({error.description}); retry in {wait} s",
                            {"Retry-After": str(wait)})


def _rate_limit_headers(response):
    limiter = current_app.extensions["gin_limiter"]
    if not limiter.enabled or "RateLimit-Limit" in response.headers:  # set by the failed-credential limit
        return response
    try:
        tightest = _tightest()
        if tightest is None:
            return response
        values = (tightest.limit.amount, max(0, tightest.remaining), _seconds_until(tightest.reset_at))
    except Exception:  # the storage went away: answer (unlimited) without the headers
        current_app.logger.warning("rate limit storage unavailable; RateLimit headers left out")
        return response
    for name, value in zip(HEADERS, values):
        response.headers[name] = str(value)
    return response


def _tightest():
    """The limit that bit, else the one with the least left: what a client should pace itself by."""
    limits = current_app.extensions["gin_limiter"].current_limits
    if not limits:
        return None
    breached = [limit for limit in limits if limit.breached]
    return breached[0] if breached else min(limits, key=lambda limit: limit.remaining)


def _seconds_until(moment: float) -> int:
    return max(1, math.ceil(moment - time.time()))


def _flag(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("0", "false", "no", "off", "")
    return bool(value)
