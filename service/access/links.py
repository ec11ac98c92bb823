"""Link keys (one per mail, exchanged once for a fresh bearer token) and a seat's token list."""
from __future__ import annotations

import hmac
import os
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.settings import setting
from ..core.tokens import hash_secret, new_token
from ..games import deadlines, store
from ..games.models import Game, Seat
from .models import SeatLink, SeatToken

LINK_DAYS = 30  # a mail's link opens the seat for this long (LINK_KEY_DAYS), once
ORIGINAL = "original"  # the id of the token given when the seat was taken (seats.token_hash)


def further_token_seat(game_id, token_hash):
    """The seat opener (games.changes.seat_openers) of a seat's further tokens: the seat of
    `game_id` whose list holds a token with this hash, as a unique-index probe."""
    tokens = SeatToken.__table__
    return select(tokens.c.seat).where(tokens.c.game_id == game_id, tokens.c.token_hash == token_hash).scalar_subquery()


def link_days() -> float:
    return float(current_app.config.get("LINK_KEY_DAYS") or os.environ.get("LINK_KEY_DAYS") or LINK_DAYS)


def seat_page_url(game_id: str, fragment: str = "") -> str:
    """The seat page's public address (BASE_URL); secrets only ever go in the fragment, which
    browsers send to no server and put in no Referer."""
    url = f"{setting('BASE_URL').rstrip('/')}/play/{game_id}"
    return f"{url}#{fragment}" if fragment else url


def seat_link(game_id: str, seat: int, moment: datetime) -> str:
    """A fresh link that opens `seat` in a browser once: called for every mail, in its transaction."""
    key = new_token()
    db.session.add(SeatLink(key_hash=hash_secret(key), game_id=game_id, seat=seat, created_at=moment))
    return seat_page_url(game_id, f"link={key}")


def exchange(game_id: str, link_key: str, label: str | None, moment: datetime) -> tuple[int, str, int]:
    """Spend a link key: (seat, a new bearer token of that seat, the token's id). A wrong key is
    refused like a wrong token; a used or expired one says so."""
    link = db.session.execute(select(SeatLink).where(SeatLink.key_hash == hash_secret(link_key))
                              .with_for_update()).scalar()
    if link is None or not hmac.compare_digest(link.game_id, game_id):
        raise Problem("invalid-link", "this link does not open a seat of this game")
    if link.used_at is not None:
        raise Problem("link-used", "this link was used already (each mail's link opens the seat once): "
                                   "open the link in your newest mail about this game")
    if deadlines.as_utc(link.created_at) + timedelta(days=link_days()) < moment:
        raise Problem("link-expired", f"this link is older than {link_days():g} days: "
                                      "open the link in your newest mail about this game")
    shut = store.closed_by(game_id, link.seat)
    if shut is not None:  # the link stays unused: it works again if the suspension is lifted
        raise shut
    link.used_at = moment
    token = new_token()
    row = SeatToken(game_id=game_id, seat=link.seat, token_hash=hash_secret(token), label=label,
                    created_at=moment)
    db.session.add(row)
    db.session.flush()
    return link.seat, token, row.id


def seat_tokens(game: Game, seat: int, current_token: str) -> list[dict]:
    """The seat's bearer tokens, oldest first, never the secrets: the first one while it stands,
    then those from mail links. `current` marks the one this request came with."""
    current = hash_secret(current_token)
    own = next(s for s in game.seats if s.seat == seat)
    listed = []
    if own.token_hash is not None:
        listed.append({"id": ORIGINAL, "label": "given when the seat was taken",
                       "created_at": _iso(own.joined_at), "current": own.token_hash == current})
    rows = db.session.execute(select(SeatToken).where(SeatToken.game_id == game.id, SeatToken.seat == seat)
                              .order_by(SeatToken.id)).scalars()
    listed += [{"id": str(row.id), "label": row.label or "opened from a mail's link",
                "created_at": _iso(row.created_at), "current": row.token_hash == current} for row in rows]
    return listed


def revoke(game: Game, seat: int, token_id: str) -> None:
    """Revoke one of the seat's tokens (its own current one too); 404 if it has no such token."""
    if token_id == ORIGINAL:
        own: Seat = next(s for s in game.seats if s.seat == seat)
        if own.token_hash is not None:
            own.token_hash = None
            return
    elif token_id.isdigit() and len(token_id) <= 9:
        gone = db.session.execute(delete(SeatToken).where(
            SeatToken.id == int(token_id), SeatToken.game_id == game.id, SeatToken.seat == seat))
        if gone.rowcount == 1:
            return
    raise Problem("not-found", "this seat has no token with that id (revoked already?)")


def _iso(moment: datetime | None) -> str | None:
    return deadlines.as_utc(moment).isoformat() if moment else None
