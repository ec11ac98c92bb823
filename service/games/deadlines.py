"""Move deadlines: one clock per game, vacations that pause a seat's clock, claiming on time.
(At a table every seat to move has a clock of its own, which the game's mirrors: table_clocks.py.)

Every game has a time per move (`move_time_hours`, default 72; null means no deadlines). The
seat to move is on the clock from the moment its turn began; its own vacations pause that clock.
A reminder is due when a quarter of the time is left, and once the deadline has passed the waiting
opponent may claim the match (action `claim_timeout`) or simply keep waiting.

All time comes from `now()`: `app.config["CLOCK"]` (a function returning an aware datetime) when
set, so tests can move time, else the system clock.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from flask import current_app, has_app_context
from sqlalchemy import bindparam, select

from ..core.extensions import db
from ..core.settings import register, setting
from ..rules import IllegalAction
from .models import GameClock, Vacation

DEFAULT_MOVE_TIME_HOURS = 72
MAX_MOVE_TIME_HOURS = 24 * 60
REMINDER_FRACTION = 0.25  # the reminder goes out when this share of the move time is left
register({"VACATION_DAYS_PER_GAME": 7}, {"VACATION_DAYS_PER_GAME": int})  # vacation days, per seat and game


def now() -> datetime:
    clock = current_app.config.get("CLOCK") if has_app_context() else None
    return as_utc(clock()) if clock else datetime.now(timezone.utc)


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes for what we stored as UTC; make them aware again."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone.utc)


def clock_end(start: datetime, running: timedelta, pauses: list[tuple[datetime, datetime]]) -> datetime:
    """When a clock started at `start` has run for `running`, not counting the `pauses`."""
    moment, left = start, running
    for pause_start, pause_end in sorted(pauses):
        if pause_end <= moment:
            continue
        if moment + left <= pause_start:
            break
        left -= max(pause_start - moment, timedelta(0))
        moment = max(moment, pause_end)
    return moment + left


def start_clock(game_id: str, move_time_hours: int | None) -> GameClock:
    """The game's clock, created with the game (no one is on it until the first deal)."""
    clock = GameClock(game_id=game_id, move_time_hours=move_time_hours)
    db.session.add(clock)
    return clock


def clock_of(game_id: str) -> GameClock | None:
    return db.session.get(GameClock, game_id)


_vacations = Vacation.__table__
_PAUSES = select(_vacations.c.starts_at, _vacations.c.ends_at).where(
    _vacations.c.game_id == bindparam("game"), _vacations.c.seat == bindparam("seat"))


def pauses_of(game_id: str, seat: int) -> list[tuple[datetime, datetime]]:
    """The seat's vacations in this game, (start, end) each."""
    rows = db.session.connection().execute(_PAUSES, {"game": game_id, "seat": seat})
    return [(as_utc(start), as_utc(end)) for start, end in rows]


_pauses = pauses_of


def deadline_and_reminder(start: datetime, move_time_hours: int, pauses: list) -> tuple[datetime, datetime]:
    """A turn's deadline and reminder time: its clock runs from `start`, paused by `pauses`."""
    start, move_time = as_utc(start), timedelta(hours=move_time_hours)
    return (clock_end(start, move_time, pauses),
            clock_end(start, move_time * (1 - REMINDER_FRACTION), pauses))


def schedule(clock: GameClock, pauses: list | None = None) -> None:
    """Recompute the deadline and the reminder time of whoever is on the clock (`pauses`: that
    seat's vacations, when the caller knows them already; read here otherwise)."""
    if clock.move_time_hours is None or clock.turn_seat is None:
        clock.deadline_at = clock.reminder_at = None
        return
    pauses = _pauses(clock.game_id, clock.turn_seat) if pauses is None else pauses
    clock.deadline_at, clock.reminder_at = deadline_and_reminder(clock.turn_started_at, clock.move_time_hours,
                                                                 pauses)


def on_change(game_id: str, to_move: int | None, new_turn: bool, moment: datetime) -> GameClock | None:
    """After a change to the game: start a fresh turn's clock, or stop it when nobody is to move."""
    clock = clock_of(game_id)
    if clock is None:
        return None
    advance(clock, to_move, new_turn, moment)
    return clock


def advance(clock, to_move: int | None, new_turn: bool, moment: datetime, pauses: list | None = None) -> bool:
    """on_change's work on any object with GameClock's fields (the move path's plain row too);
    True when the clock changed. `pauses` as for _schedule."""
    if to_move is None:
        clock.turn_seat = clock.turn_started_at = None
    elif new_turn or clock.turn_seat != to_move:
        clock.turn_seat, clock.turn_started_at = to_move, moment
    else:
        return False
    clock.reminded = clock.expiry_noticed = False
    schedule(clock, pauses)
    return True


def deadline_of(game_id: str) -> datetime | None:
    clock = clock_of(game_id)
    return as_utc(clock.deadline_at) if clock else None


def claim_on_time(clock: GameClock, match, seat: int, moment: datetime) -> list[dict]:
    """The waiting seat of a two-seat game claims the match because the seat to move let its deadline pass."""
    late = match.to_move
    if late is None or late == seat:
        raise IllegalAction("cannot-claim-own-turn", "only a waiting opponent may claim on time, "
                            "and it is your (or your partner's) move")
    deadline = as_utc(clock.deadline_at)
    if deadline is None or moment <= deadline:
        raise IllegalAction("deadline-not-passed",
                            f"the opponent's deadline is {deadline.isoformat() if deadline else 'not set'}; "
                            "you may claim only after it")
    return match.forfeit(late, "timeout")


def vacation_days_left(game_id: str, seat: int) -> int:
    cap = setting("VACATION_DAYS_PER_GAME")
    used = sum(db.session.scalars(select(Vacation.days).where(Vacation.game_id == game_id,
                                                               Vacation.seat == seat)))
    return cap - used


def vacation_summary(game_id: str, seat: int, moment: datetime) -> dict:
    pauses = _pauses(game_id, seat)
    current = max((end for start, end in pauses if start <= moment < end), default=None)
    return {"days_left": vacation_days_left(game_id, seat),
            "on_vacation_until": current.isoformat() if current else None}
