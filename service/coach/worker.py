"""`flask coach worker`: takes the oldest queued review (or one whose worker's lease ran out),
weighs the match's decisions with the engine's reviewer within the CPU budget (config.py), the
lease renewed and the progress saved with every decision, and stores the figures. One match at a
time per process; start more processes for more at once (each claims its own row)."""
from __future__ import annotations

import logging
import os
import socket
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, select, update

from ..core.extensions import db
from ..games.models import Game
from ..rules.coach import NotReviewable, review_match
from . import events
from .config import setting
from .models import DONE, FAILED, QUEUED, RUNNING, Review
from .queue import transcript

log = logging.getLogger("gin.coach")
MAX_ATTEMPTS = 3  # a review whose worker died this many times is not taken up again (it may be what kills it)


def _now() -> datetime:
    return datetime.now(UTC)


class Worker:
    def __init__(self, name: str | None = None):
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"

    def claim(self) -> str | None:
        """The game id of the review this worker now holds, or None: the oldest queued one, or a
        running one whose lease has passed (its worker died); taken by a conditional update, so two
        workers never hold one review."""
        now = _now()
        db.session.execute(update(Review).where(Review.status == RUNNING, Review.lease_until < now,
                                                Review.attempts >= MAX_ATTEMPTS).values(status=FAILED))
        due = or_(Review.status == QUEUED,
                  (Review.status == RUNNING) & (Review.lease_until < now) & (Review.attempts < MAX_ATTEMPTS))
        game_id = db.session.execute(select(Review.game_id).where(due).order_by(Review.queued_at).limit(1)).scalar()
        if game_id is None:
            db.session.commit()  # the reviews given up, if any
            return None
        taken = db.session.execute(
            update(Review).where(Review.game_id == game_id, due)
            .values(status=RUNNING, worker=self.name, attempts=Review.attempts + 1, done=0,
                    lease_until=now + timedelta(seconds=setting("COACH_LEASE_SECONDS")))).rowcount
        db.session.commit()
        return game_id if taken else None

    def run(self, game_id: str) -> None:
        """Review the match held; the figures are stored only while this worker still holds it."""
        game = db.session.get(Game, game_id)
        review = db.session.get(Review, game_id)
        seed = review.seed
        started = time.process_time()

        def progress(done: int, total: int) -> None:
            self._save(game_id, done=done, total=total)

        try:
            figures = review_match(transcript(game), seed, deals=setting("COACH_DEALS"),
                                   seconds=setting("COACH_DECISION_SECONDS"),
                                   match_seconds=setting("COACH_MATCH_SECONDS"),
                                   clock=time.process_time, progress=progress)
        except (NotReviewable, KeyError, ValueError) as exc:  # a match the engine cannot walk again
            db.session.rollback()
            log.warning("review of game=%s failed: %s", game_id[:8], exc)
            self._save(game_id, status=FAILED, finished_at=_now())
            return
        cpu = round(time.process_time() - started, 3)
        if self._save(game_id, commit=False, status=DONE, figures=figures, finished_at=_now(), cpu_seconds=cpu,
                      done=len(figures["decisions"]), total=len(figures["decisions"])):
            events.tell(game_id, figures)  # the streams hear of it with the figures' commit
        db.session.commit()
        log.info("reviewed game=%s: %d decisions in %.1f s of CPU", game_id[:8], len(figures["decisions"]), cpu)

    def _save(self, game_id: str, commit: bool = True, **values) -> bool:
        """Store `values` while this worker still holds the review; whether it did."""
        lease = _now() + timedelta(seconds=setting("COACH_LEASE_SECONDS"))
        held = db.session.execute(update(Review).where(Review.game_id == game_id, Review.worker == self.name,
                                                       Review.status == RUNNING)
                                  .values(lease_until=lease, **values)).rowcount
        if commit:
            db.session.commit()
        return bool(held)

    def once(self) -> bool:
        """Review one match if one is due; whether one was."""
        game_id = self.claim()
        if game_id is None:
            return False
        self.run(game_id)
        return True

    def loop(self, interval: float, stop) -> None:
        while not stop.is_set():
            if not self.once():
                stop.wait(interval)
