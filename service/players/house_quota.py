"""The house bot's own rate limit (core.limits.token_quotas): it plays every player's games against
the computer from one token, so RATELIMIT_PER_TOKEN, a person's limit, would ration them all.

Which token is the house bot's is read from the database at most once a minute per process (the
bot may rotate its token: the new one is known within the minute), on a connection of its own that
goes back at once: the check runs before every request, long-polls included, which must hold none."""
from __future__ import annotations

import time

from flask import current_app
from sqlalchemy import select

from ..core.extensions import db
from ..core.tokens import hash_secret
from .models import Player
from .names import name_key

KNOWN_FOR_SECONDS = 60.0


def _house_token_hash() -> str | None:
    """The house bot's token hash as this app last read it (app.extensions: each app its own)."""
    name = current_app.config.get("HOUSE_BOT_NAME")
    if not name:
        return None
    now = time.monotonic()
    known = current_app.extensions.get("gin_house_token")
    if known is not None and known[1] > now:
        return known[0]
    with db.engine.connect() as connection:
        found = connection.execute(select(Player.token_hash).where(
            Player.name_key == name_key(name), Player.bot.is_(True))).scalar()
    current_app.extensions["gin_house_token"] = (found, now + KNOWN_FOR_SECONDS)
    return found


def quota(token: str) -> str | None:
    """RATELIMIT_PER_HOUSE_BOT for the house bot's token; None (RATELIMIT_PER_TOKEN) for any other."""
    house = _house_token_hash()
    return "RATELIMIT_PER_HOUSE_BOT" if house is not None and hash_secret(token) == house else None
