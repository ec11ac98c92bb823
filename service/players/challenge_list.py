"""GET /challenges: the pending challenges a player may see, filtered in SQL before any limit and
paged newest first with a cursor, so no number of others' challenges can hide one (issue 26)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import and_, not_, or_, select

from ..core.extensions import db
from .blocks import either_blocks
from .challenges import PENDING, describe
from .models import Challenge, Player, RematchSeat

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _cursor_of(challenge: Challenge) -> str:
    """The last row's place in the order: its created_at (microseconds since 1970) and id."""
    moment = challenge.created_at if challenge.created_at.tzinfo else challenge.created_at.replace(tzinfo=timezone.utc)
    return f"{(moment - _EPOCH) // timedelta(microseconds=1)}.{challenge.id}"


def _after(cursor: str):
    """Rows older than the cursor's (the schema checked its form: digits, a dot, an id)."""
    micros, challenge_id = cursor.split(".", 1)
    moment = _EPOCH + timedelta(microseconds=int(micros))
    return or_(Challenge.created_at < moment, and_(Challenge.created_at == moment, Challenge.id < challenge_id))


def listing(player: Player, now, limit: int, cursor: str | None) -> dict:
    """Pending challenges to this player (or to its seat at a table), the open ones it may take (of
    its kind: bot or human), and its own; newest first, `limit` at a time across the three."""
    kinds = ("any", "bot") if player.bot else ("any", "human")
    query = select(Challenge).where(
        Challenge.status == PENDING, Challenge.expires_at > now,
        or_(Challenge.challenger_id == player.id,
            and_(Challenge.target_id == player.id, not_(either_blocks(Challenge.challenger_id, player.id))),
            and_(Challenge.target_id.is_(None), Challenge.opponent.in_(kinds),  # never a blocked one's, nor to them
                 not_(either_blocks(Challenge.challenger_id, player.id))),
            Challenge.id.in_(select(RematchSeat.challenge_id).where(RematchSeat.player_id == player.id))))
    if cursor:
        query = query.where(_after(cursor))
    rows = db.session.execute(query.order_by(Challenge.created_at.desc(), Challenge.id.desc())
                              .limit(limit + 1)).scalars().all()
    out = {"to_me": [], "open": [], "mine": [], "next_cursor": _cursor_of(rows[limit - 1]) if len(rows) > limit
           else None}
    for challenge in rows[:limit]:
        if challenge.challenger_id == player.id:
            out["mine"].append(describe(challenge, now))
        elif challenge.target_id is not None:  # to me, or to my seat at a table (whose target_id is one seat's)
            out["to_me"].append(describe(challenge, now))
        else:
            out["open"].append(describe(challenge, now))
    return out
