"""Reports for the operator: a seat reports a message of its game or another seat, a player reports
a player by name, each with a reason and a few words. What was reported is copied into the report
(a message's text, the name), so it stays readable if the message, game or account goes.
`flask admin reports` lists the open ones and closes one (service/admin/)."""
from __future__ import annotations

from sqlalchemy import select

from ..core.errors import Problem
from ..core.extensions import db
from ..games import messages
from ..games.models import GameMessage, Seat, utcnow
from . import accounts
from .models import Player, PlayerSeat, Report

REASONS = ("spam", "abuse", "cheating", "name", "other")
MAX_DETAILS = 500


def _seat_row(game_id: str, seat: int) -> Seat | None:
    return db.session.execute(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat)).scalar()


def _player_of(game_id: str, seat: int) -> int | None:
    return db.session.scalar(select(PlayerSeat.player_id).where(PlayerSeat.game_id == game_id,
                                                                PlayerSeat.seat == seat))


def by_seat(game, seat: int, args: dict) -> Report:
    """A seat's report of another seat of its game (its holder), and of one of its messages when
    `message_id` names one (one the reporting seat may see)."""
    reported, message_id, text = args["seat"], args.get("message_id"), None
    target = _seat_row(game.id, reported)
    if reported == seat or target is None or target.name is None:
        raise Problem("report-target-invalid", "report another seat of this game, one that is taken")
    if message_id is not None:
        row = db.session.get(GameMessage, message_id)
        if row is None or row.game_id != game.id or row.seat != reported or \
                reported in messages.hidden_from(game.id, seat):
            raise Problem("message-not-found", f"seat {reported} of this game wrote no message {message_id}")
        text = row.text
    me = _seat_row(game.id, seat)
    return _file(args, game_id=game.id, reporter_seat=seat, reporter_name=me.name if me else None,
                 reporter_player_id=_player_of(game.id, seat), message_id=message_id, message_text=text,
                 reported_seat=reported, reported_name=target.name,
                 reported_player_id=_player_of(game.id, reported))


def by_player(player: Player, args: dict) -> Report:
    """A player's report of another player, by name."""
    target = accounts.by_name(args["player"])
    if target is None:
        raise Problem("player-not-found", f"no player is called {args['player']!r}")
    if target.id == player.id:
        raise Problem("report-target-invalid", "you cannot report yourself")
    return _file(args, reporter_player_id=player.id, reporter_name=player.name,
                 reported_player_id=target.id, reported_name=target.name)


def _file(args: dict, **fields) -> Report:
    details = (args.get("details") or "").strip() or None
    report = Report(reason=args["reason"], details=details, created_at=utcnow(), **fields)
    db.session.add(report)
    db.session.flush()
    return report


def describe(report: Report) -> dict:
    moment = report.created_at if report.created_at.tzinfo else report.created_at.replace(tzinfo=utcnow().tzinfo)
    return {"report_id": report.id, "reason": report.reason, "status": "closed" if report.closed_at else "open",
            "created_at": moment.isoformat()}


# -- the operator's side (flask admin reports) ---------------------------------------------------

def open_reports() -> list[Report]:
    return list(db.session.scalars(select(Report).where(Report.closed_at.is_(None)).order_by(Report.id)))


def close(report_id: int, note: str | None) -> Report | None:
    """Close an open report; None when there is no open report of this id."""
    report = db.session.get(Report, report_id)
    if report is None or report.closed_at is not None:
        return None
    report.closed_at, report.close_note = utcnow(), note
    return report
