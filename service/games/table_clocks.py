"""Move clocks at a table of three or more seats: every seat to move (one per board in play) has a
deadline of its own, measured from when its own turn began and paused only by its own vacations.

One `SeatClock` row per seat to move holds its turn's start, deadline and reminder time, and the
worker's flags (notify/sweeps.py reminds and notices per row). The game's `GameClock` row
(deadlines.py) mirrors the seat whose deadline is earliest, so what reads the game's one clock
(the view's `deadline` and `on_clock`, a rematch, the seat page) keeps one answer.

A seat's turn begins as at two seats: its board was dealt or its board opponent moved (the caller,
notify's dispatch, says which seats' turns began); its own draw leaves its clock running, and a
move on another board touches no other seat's clock.

Claims: once a seat's deadline has passed, any seat of another side may claim (its board
opponent, or in a partnership the opponent's partner too; in a rotation the seat sitting out as
well): every seat of another side loses by the late seat's side forfeiting (Table.forfeit). A
claim names no seat: the claimant's opponent whose deadline passed first forfeits.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import bindparam, select

from ..core.extensions import db
from ..rules import IllegalAction
from . import deadlines
from .models import GameClock, SeatClock
from .table_game import TableGame

_rows = SeatClock.__table__
_DEADLINES = select(_rows.c.seat, _rows.c.deadline_at).where(_rows.c.game_id == bindparam("game"))


def is_table(match) -> bool:
    return isinstance(match, TableGame)


def clocks_of(game_id: str) -> dict[int, SeatClock]:
    return {row.seat: row for row in db.session.scalars(select(SeatClock).where(SeatClock.game_id == game_id))}


def deadlines_of(game_id: str) -> dict[int, datetime | None]:
    """Each seat to move's deadline (None in a game without move time)."""
    rows = db.session.connection().execute(_DEADLINES, {"game": game_id})
    return {seat: deadlines.as_utc(deadline) for seat, deadline in rows}


def own_deadline(game_id: str, seat: int) -> datetime | None:
    return deadlines_of(game_id).get(seat)


def on_change(game_id: str, match: TableGame, restarted: set[int], moment: datetime) -> None:
    """After a change: a fresh clock for each seat whose turn began (`restarted`) or that is newly
    to move, none for a seat no longer to move, the others as they were; then the game's row."""
    clock = deadlines.clock_of(game_id)
    if clock is None:
        return
    rows = clocks_of(game_id)
    movers = set() if match.is_over else set(match.table.to_move)
    for seat in set(rows) - movers:
        db.session.delete(rows.pop(seat))
    for seat in sorted(movers):
        row = rows.get(seat)
        if row is not None and seat not in restarted:
            continue  # its turn goes on: its deadline stays
        start = moment
        if row is None and seat not in restarted and clock.turn_seat == seat and clock.turn_started_at:
            start = deadlines.as_utc(clock.turn_started_at)  # a turn begun before seat clocks existed
        if row is None:
            row = rows[seat] = SeatClock(game_id=game_id, seat=seat)
            db.session.add(row)
        row.turn_started_at, row.reminded, row.expiry_noticed = start, False, False
        _schedule(row, clock.move_time_hours)
    _mirror(clock, list(rows.values()))


def reschedule(clock: GameClock, seat: int) -> None:
    """After `seat` took a vacation: its own deadline moves, and the game's row follows the earliest."""
    rows = clocks_of(clock.game_id)
    if seat in rows:
        _schedule(rows[seat], clock.move_time_hours)
        _mirror(clock, list(rows.values()))


def _schedule(row: SeatClock, move_time_hours: int | None) -> None:
    if move_time_hours is None:
        row.deadline_at = row.reminder_at = None
        return
    row.deadline_at, row.reminder_at = deadlines.deadline_and_reminder(
        row.turn_started_at, move_time_hours, deadlines.pauses_of(row.game_id, row.seat))


def _earliest(rows: list[SeatClock]) -> SeatClock | None:
    far = datetime.max.replace(tzinfo=timezone.utc)  # no move time: no deadline, first come first
    return min(rows, key=lambda r: (deadlines.as_utc(r.deadline_at) or far, deadlines.as_utc(r.turn_started_at),
                                    r.seat), default=None)


def _mirror(clock: GameClock, rows: list[SeatClock]) -> None:
    """The game's row on the seat whose deadline is earliest (none when nobody is to move). Its
    flags are not used at a table: the sweep goes by the seats' rows."""
    first = _earliest(rows)
    if first is None:
        clock.turn_seat = clock.turn_started_at = clock.deadline_at = clock.reminder_at = None
        return
    clock.turn_seat, clock.turn_started_at = first.seat, first.turn_started_at
    clock.deadline_at, clock.reminder_at = first.deadline_at, first.reminder_at


def claim_timeout(game_id: str, match: TableGame, seat: int, moment: datetime) -> list[dict]:
    """`seat` claims the match because a seat of another side let its own deadline pass."""
    side = match.table.side_of(seat)
    opponents = [s for s in match.table.to_move if match.table.side_of(s) != side]
    if not opponents:
        raise IllegalAction("cannot-claim-own-turn", "only a waiting opponent may claim on time: no seat of "
                            "another side is to move now")
    due = deadlines_of(game_id)
    due = {s: due[s] for s in opponents if due.get(s) is not None}
    late = [s for s in due if moment > due[s]]
    if not late:
        first = min(due.values(), default=None)
        raise IllegalAction("deadline-not-passed",
                            f"the earliest deadline of an opponent to move is "
                            f"{first.isoformat() if first else 'not set'}; you may claim only after it")
    return match.forfeit(min(late, key=lambda s: (due[s], s)), "timeout")


def turn_began(match, seat: int, actor: int | None, events: list[dict]) -> bool:
    """Whether `seat` is to move on its board and its turn began with this change (its opponent
    moved, or its board was dealt): a draw leaves the drawer's turn going, as at two seats."""
    if seat not in match.table.to_move:
        return False
    if actor is None:
        return True
    return any(e.get("board") is not None and seat in (e.get("seats") or ())
               and (e.get("type") == "deal" or seat != actor) for e in events)


def turns_begun(match, actor: int | None, events: list[dict]) -> set[int]:
    """The seats whose own move clock starts afresh with this change (table_clocks.on_change): a
    move on another board leaves a seat's deadline where it was."""
    return {seat for seat in match.table.to_move if turn_began(match, seat, actor, events)}


def claimants(match, late: int) -> list[int]:
    """The seats that may claim the match when `late` lets its deadline pass: every seat of
    another side (table_clocks.claim_timeout)."""
    if not isinstance(match, TableGame):
        return [1 - late]
    partners = set(match.partners_of(late))
    return [s for s in range(match.seats) if s != late and s not in partners]


def with_deadlines(view: dict, on_clock: int | None, due: dict[int, datetime | None]) -> dict:
    """A table view with each board's mover's deadline (`boards[].deadline`), the caller's own
    (`my_deadline`, while it is to move) and `on_clock`: the seat whose deadline is earliest."""
    for board in view.get("boards") or []:
        if board is not None:
            board["deadline"] = _iso(due.get(board["to_move"])) if board["to_move"] is not None else None
    view["my_deadline"] = _iso(due.get(view["seat"]))
    view["on_clock"] = on_clock
    return view


def clock_part(game_id: str) -> tuple[int | None, dict[int, datetime | None]]:
    """(the seat the game's clock is on, each seat to move's deadline): what with_deadlines needs."""
    clock = deadlines.clock_of(game_id)
    return (clock.turn_seat if clock else None), deadlines_of(game_id)


def mail_clock_seat(match: TableGame, seat: int, on_clock: int | None, due: dict) -> int | None:
    """Whose deadline a seat's mail tells: its own while it is to move, else its board opponent's
    while that one is, else the earliest at the table."""
    if seat in due:
        return seat
    board = match.table.board_of(seat)
    if board is not None:
        opponent = next(s for s in match.table.boards[board]["seats"] if s != seat)
        if opponent in due:
            return opponent
    return on_clock


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
