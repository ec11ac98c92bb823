"""The move clock of any game, two seats or a table: what a change does to it, claiming a match on
time, and vacations. Two seats share one clock (deadlines.py); at a table every seat to move has
its own (table_clocks.py), which the game's clock mirrors."""
from __future__ import annotations

from datetime import datetime, timedelta

from ..core.extensions import db
from ..rules import IllegalAction
from . import changes, deadlines, table_clocks
from .models import Vacation


def after_change(game_id: str, match, actor: int | None, events: list[dict], moment: datetime) -> None:
    """Restart the clock of the seats whose turn began with this change (actor None: the deal that
    started the match); a seat still in its own turn (after its draw) keeps its deadline."""
    if table_clocks.is_table(match):
        table_clocks.on_change(game_id, match, table_clocks.turns_begun(match, actor, events), moment)
        db.session.flush()  # the seats' clocks are read back (mails tell each seat its own deadline)
        return
    hand_dealt = any(event.get("type") == "deal" for event in events)
    new_turn = match.to_move is not None and (match.to_move != actor or hand_dealt)
    deadlines.on_change(game_id, match.to_move, new_turn, moment)


def claim_timeout(game_id: str, match, seat: int, moment: datetime) -> list[dict]:
    """The waiting seat claims the match because the seat (at a table: a seat of another side) to move
    let its deadline pass."""
    if match.is_over:
        raise IllegalAction("game-over", "the match is over already")
    gone = forfeiting_seat(game_id, match, seat)
    if gone is not None:  # its holder was suspended: no clock to wait for
        return match.forfeit(gone, "timeout")
    clock = deadlines.clock_of(game_id)
    if clock is None or clock.move_time_hours is None:
        raise IllegalAction("no-deadline", "this game has no move time, so there is nothing to claim")
    if table_clocks.is_table(match):  # every board's mover has a deadline of its own
        return table_clocks.claim_timeout(game_id, match, seat, moment)
    return deadlines.claim_on_time(clock, match, seat, moment)


def forfeiting_seat(game_id: str, match, seat: int) -> int | None:
    """A seat of another side than `seat` whose holder may be claimed against at once
    (changes.forfeiting: a suspended player's), if any."""
    gone = set().union(*(hook(game_id) for hook in changes.forfeiting()))
    if table_clocks.is_table(match):
        side = match.table.side_of(seat)
        return min((s for s in gone if match.table.side_of(s) != side), default=None)
    return 1 - seat if 1 - seat in gone else None


def take_vacation(game_id: str, match, seat: int, days: int, moment: datetime) -> Vacation:
    """Pause `seat`'s clock for `days` days from now (or from the end of its current vacation)."""
    if match is not None and match.is_over:
        raise IllegalAction("game-over", "the match is over; there is no clock to pause")
    clock = deadlines.clock_of(game_id)
    if clock is None or clock.move_time_hours is None:
        raise IllegalAction("no-deadline", "this game has no move time, so there is no clock to pause")
    left = deadlines.vacation_days_left(game_id, seat)
    if days < 1 or days > left:
        raise IllegalAction("vacation-exhausted", f"you have {left} vacation day(s) left in this game; "
                            f"{days} asked")
    own = table_clocks.own_deadline(game_id, seat) if table_clocks.is_table(match) else \
        deadlines.as_utc(clock.deadline_at) if clock.turn_seat == seat else None
    if own is not None and moment > own:
        raise IllegalAction("deadline-passed", "your deadline has passed already; a vacation cannot "
                            "start after it (move now: the game goes on until your opponent claims)")
    ongoing = [end for start, end in deadlines.pauses_of(game_id, seat) if start <= moment < end]
    start = max(ongoing) if ongoing else moment
    vacation = Vacation(game_id=game_id, seat=seat, days=days, starts_at=start,
                        ends_at=start + timedelta(days=days))
    db.session.add(vacation)
    db.session.flush()
    if table_clocks.is_table(match):  # only this seat's own clock moves; the game's follows the earliest
        table_clocks.reschedule(clock, seat)
    elif clock.turn_seat == seat:
        deadlines.schedule(clock)
    return vacation
