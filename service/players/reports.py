"""Reports for the operator: a seat reports a message of its game or another seat, a player reports
a player by name, each with a reason and a few words. What was reported is copied into the report
(a message's text, the name), so it stays readable if the message, game or account goes.
`flask admin reports` lists them a page at a time, with filters, and closes one (service/admin/).

Since issue 38: a reporter files at most REPORTS_PER_REPORTER_DAY reports in 24 hours (a player by
its account, an anonymous seat as its seat) and a target draws at most REPORTS_PER_TARGET_DAY (then
429 too-many-reports: the operator has enough to act on); a seat held by a player is reported only
by a player's seat (an anonymous seat could name itself after anyone); and `details` holds no
control or format character (the operator reads it in a terminal)."""
from __future__ import annotations

import unicodedata
from datetime import timedelta

from sqlalchemy import and_, func, or_, select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.settings import register, setting
from ..games import deadlines, messages
from ..games.models import GameMessage, Seat, utcnow
from . import accounts
from .models import Player, PlayerSeat, Report

REASONS = ("spam", "abuse", "cheating", "name", "other")
MAX_DETAILS = 500
register({"REPORTS_PER_REPORTER_DAY": 20, "REPORTS_PER_TARGET_DAY": 50},
         {"REPORTS_PER_REPORTER_DAY": int, "REPORTS_PER_TARGET_DAY": int})


def unprintable(text: str) -> str | None:
    """The first character of `text` a terminal or a page could take for something else: a control
    (C0 but new line and tab, DEL, C1), a format character (bidi overrides, zero-width ones, tags) or
    a line or paragraph separator; None when there is none."""
    return next((char for char in text if char not in "\n\t" and unicodedata.category(char) in
                 ("Cc", "Cf", "Zl", "Zp")), None)


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
    me, mine, theirs = _seat_row(game.id, seat), _player_of(game.id, seat), _player_of(game.id, reported)
    if theirs is not None and mine is None:
        raise Problem("report-needs-player", "a seat held by a player is reported from a player's seat: an anonymous "
                                             "seat may report anonymous seats only")
    return _file(args, game_id=game.id, reporter_seat=seat, reporter_name=me.name if me else None,
                 reporter_player_id=mine, message_id=message_id, message_text=text,
                 reported_seat=reported, reported_name=target.name, reported_player_id=theirs)


def by_player(player: Player, args: dict) -> Report:
    """A player's report of another player, by name."""
    target = accounts.by_name(args["player"])
    if target is None:
        raise Problem("player-not-found", f"no player is called {args['player']!r}")
    if target.id == player.id:
        raise Problem("report-target-invalid", "you cannot report yourself")
    return _file(args, reporter_player_id=player.id, reporter_name=player.name,
                 reported_player_id=target.id, reported_name=target.name)


def _check_caps(fields: dict, moment) -> None:
    """Refuse past REPORTS_PER_REPORTER_DAY from this reporter, or REPORTS_PER_TARGET_DAY against this
    target, in the last 24 hours (a player by its account, an anonymous seat by its game and seat)."""
    since = Report.created_at > moment - timedelta(hours=24)
    if fields.get("reporter_player_id") is not None:
        reporter = Report.reporter_player_id == fields["reporter_player_id"]
    else:
        reporter = and_(Report.game_id == fields["game_id"], Report.reporter_seat == fields["reporter_seat"])
    if fields.get("reported_player_id") is not None:
        target = Report.reported_player_id == fields["reported_player_id"]
    else:
        target = and_(Report.game_id == fields["game_id"], Report.reported_seat == fields["reported_seat"],
                      Report.reported_player_id.is_(None))
    for condition, name, whose in ((reporter, "REPORTS_PER_REPORTER_DAY", "you filed"),
                                   (target, "REPORTS_PER_TARGET_DAY", "this player or seat drew")):
        most = setting(name)
        count = db.session.scalar(select(func.count()).select_from(Report).where(since, condition))
        if count >= most:
            raise Problem("too-many-reports", f"{whose} {count} reports in the last 24 hours, the most taken is "
                                              f"{most}: the operator has them", headers={"Retry-After": "3600"})


def _file(args: dict, **fields) -> Report:
    details = (args.get("details") or "").strip() or None
    moment = deadlines.now()
    _check_caps(fields, moment)
    report = Report(reason=args["reason"], details=details, created_at=moment, **fields)
    db.session.add(report)
    db.session.flush()
    return report


def describe(report: Report) -> dict:
    moment = report.created_at if report.created_at.tzinfo else report.created_at.replace(tzinfo=utcnow().tzinfo)
    return {"report_id": report.id, "reason": report.reason, "status": "closed" if report.closed_at else "open",
            "created_at": moment.isoformat()}


# -- the operator's side (flask admin reports) ---------------------------------------------------

def listing(status: str = "open", reason: str | None = None, player: str | None = None, after: int = 0,
            limit: int = 50) -> tuple[list[Report], int | None]:
    """A page of reports, oldest first, after the id `after`: open, closed or all; of one reason;
    by or about one player (by name, as it is now or as the report copied it). Also the id to pass as
    `after` for the next page (None: the last)."""
    query = select(Report).where(Report.id > after)
    if status != "all":
        query = query.where(Report.closed_at.is_(None) if status == "open" else Report.closed_at.is_not(None))
    if reason:
        query = query.where(Report.reason == reason)
    if player:
        found = accounts.by_name(player)
        ids = [found.id] if found else []
        query = query.where(or_(Report.reporter_player_id.in_(ids), Report.reported_player_id.in_(ids),
                                func.lower(Report.reported_name) == player.lower(),
                                func.lower(Report.reporter_name) == player.lower()))
    rows = list(db.session.scalars(query.order_by(Report.id).limit(limit + 1)))
    return rows[:limit], rows[limit - 1].id if len(rows) > limit else None


def close(report_id: int, note: str | None) -> Report | None:
    """Close an open report; None when there is no open report of this id."""
    report = db.session.get(Report, report_id)
    if report is None or report.closed_at is not None:
        return None
    report.closed_at, report.close_note = utcnow(), note
    return report
