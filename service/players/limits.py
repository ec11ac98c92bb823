"""Fair limits on offers to play: a player holds at most CHALLENGES_PENDING_MAX pending challenges
and series offers it sent, and receives at most CHALLENGES_FROM_ONE_MAX pending ones from any one
sender. So nobody floods the open listing or another player's inbox (issue 26)."""
from __future__ import annotations

from sqlalchemy import func, select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.hooks import Registry
from ..core.settings import register, setting
from . import feed
from .models import Challenge

register({"CHALLENGES_PENDING_MAX": 20, "CHALLENGES_FROM_ONE_MAX": 3},
         {"CHALLENGES_PENDING_MAX": int, "CHALLENGES_FROM_ONE_MAX": int})

# Features above players that hold offers of their own (series) register a function
# (sender_id, target_id) -> (pending sent by the sender, pending from the sender to the target).
pending_offers = Registry("functions (sender_id, target_id) -> (sent, sent to target) of other kinds of offer")


def _challenges(sender_id: int, target_id: int | None, now) -> tuple[int, int]:
    pending = (Challenge.challenger_id == sender_id, Challenge.status == "pending", Challenge.expires_at > now)
    sent = db.session.execute(select(func.count()).select_from(Challenge).where(*pending)).scalar()
    to_target = db.session.execute(select(func.count()).select_from(Challenge).where(
        *pending, Challenge.target_id == target_id)).scalar() if target_id is not None else 0
    return sent, to_target


def check(sender_id: int, target_id: int | None, now) -> None:
    """Before a new offer from sender (to target, or open): refuse it past either cap. Takes both
    players' row locks first, so two requests at once cannot both slip under a cap."""
    feed.lock_players([sender_id] + ([target_id] if target_id is not None else []))
    sent, to_target = _challenges(sender_id, target_id, now)
    for counter in pending_offers():
        more_sent, more_to_target = counter(sender_id, target_id)
        sent, to_target = sent + more_sent, to_target + more_to_target
    most = setting("CHALLENGES_PENDING_MAX")
    if sent >= most:
        raise Problem("too-many-pending-offers", f"you hold {sent} pending challenges and series offers, the most "
                                                 f"allowed is {most}: cancel one, or wait for answers")
    from_one = setting("CHALLENGES_FROM_ONE_MAX")
    if target_id is not None and to_target >= from_one:
        raise Problem("too-many-offers-to-player", f"this player already has {to_target} pending offers from you, "
                                                   f"the most allowed is {from_one}: wait for an answer")
