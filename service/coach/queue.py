"""Reviews queued as matches end (the change hook), and a match's transcript read from the store
for the engine's reviewer, as the replay reads it (games/replay.py)."""
from __future__ import annotations

from sqlalchemy import func, select

from ..core.extensions import db
from ..games import second_deck
from ..games.models import Deal, Event, Game
from ..players.models import PlayerSeat
from ..rules import Match
from ..rules.coach import NotReviewable, Transcript, check_reviewable
from .config import setting
from .models import QUEUED, SKIPPED, Review


def after_change(change, read) -> None:
    """When a two-seat match of the standard cards ends, queue its review in the same transaction
    (skipped when a player of it has COACH_QUEUE_PER_PLAYER reviews waiting already)."""
    match = change.match
    if not isinstance(match, Match) or not match.is_over:
        return
    game = change.game()
    try:
        check_reviewable(game.rules)
    except NotReviewable:
        return
    if db.session.get(Review, game.id) is not None:
        return
    players = db.session.execute(select(PlayerSeat.player_id).where(PlayerSeat.game_id == game.id)).scalars().all()
    cap = setting("COACH_QUEUE_PER_PLAYER")
    waiting = [db.session.execute(
        select(func.count()).select_from(Review).join(PlayerSeat, PlayerSeat.game_id == Review.game_id)
        .where(PlayerSeat.player_id == player, Review.status == QUEUED)).scalar() for player in players]
    status = SKIPPED if any(count >= cap for count in waiting) else QUEUED
    db.session.add(Review(game_id=game.id, status=status, seed=game.id, queued_at=change.moment))
    db.session.flush()


def transcript(game: Game) -> Transcript:
    """What the engine needs to walk the match again: its decks, cuts and stored actions."""
    decks = dict(db.session.execute(select(Deal.hand, Deal.deck).where(Deal.game_id == game.id)).all())
    rows = db.session.execute(select(Event.seat, Event.payload, Event.action)
                              .where(Event.game_id == game.id).order_by(Event.seq)).all()
    cuts = [(row.payload["cards"]["0"], row.payload["cards"]["1"]) for row in rows if row.payload.get("type") == "cut"]
    moves = []
    for row in rows:
        if row.action is None:
            continue
        seat = row.payload.get("seat") if row.action.get("type") == "claim_timeout" else row.seat
        moves.append((seat, row.action))
    knock_cards = {}
    if second_deck.uses_second_deck(game.rules):
        knock_cards = {hand: second_deck.knock_card(game.id, hand) for hand in decks}
    return Transcript(rules=game.rules, first_dealer=game.first_dealer, decks=decks, moves=moves, cuts=cuts,
                      knock_cards=knock_cards)
