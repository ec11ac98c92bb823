"""`flask admin ...`: an operator's moderation and personal-data commands. Each is written to the
audit table (admin_actions) with its --reason and who ran it (--by, else the OS user)."""
from __future__ import annotations

import functools
import json
import re
import sys

import click
from flask.cli import AppGroup, with_appcontext
from sqlalchemy import select

from ..core.extensions import db
from ..games import store
from ..games.models import Game
from ..notify.config import setting
from ..notify.push import keys, subscriptions
from ..players import reports
from . import backup, erasure, export, moderation
from .moderation import AdminError, audit, player_named

admin_cli = AppGroup("admin", help="Moderation and personal data (suspend, rename, export, erase); reports; backups; "
                                   "the Web Push key (vapid).")
BY = click.option("--by", "operator", default=None, help="Who runs the command, for the audit table "
                  "(default: the OS user).")


def said(command):
    """Run the command; a refusal is said on standard error with exit status 1, nothing changed."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except AdminError as exc:
            raise click.ClickException(str(exc)) from exc
    return run


def echo(document: dict, output=None) -> None:
    """The document as JSON, every control, format or separator character escaped (\\u009b): what
    strangers typed (a report's details, a name, a message) never reaches the terminal as a command
    (CSI, OSC 52), a bidi override or a line break."""
    text = json.dumps(document, indent=2, ensure_ascii=False, default=str)
    (output or sys.stdout).write(_UNPRINTABLE.sub(lambda m: f"\\u{ord(m[0]):04x}", text) + "\n")


_UNPRINTABLE = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
                          "\U000e0000-\U000e007f]")


def seat_of(game_id: str, seat: int) -> Game:
    game = db_game(game_id)
    if game is None or seat not in {s.seat for s in game.seats}:
        raise AdminError(f"game {game_id!r} has no seat {seat}")
    return game


def db_game(game_id: str) -> Game | None:
    if not store.could_be_game_id(game_id):
        return None
    return db.session.execute(select(Game).where(Game.id == game_id)).scalar()


@admin_cli.command("suspend")
@click.argument("name")
@click.option("--reason", default=None, help="Why, for the audit table (never shown to the player).")
@BY
@said
def suspend_command(name: str, reason: str | None, operator: str | None) -> None:
    """Suspend a player: its token and its seats answer 403 account-suspended, its pending
    challenges are withdrawn, and its opponents may claim its running games at once."""
    echo(moderation.suspend(name, reason, operator))


@admin_cli.command("unsuspend")
@click.argument("name")
@BY
@said
def unsuspend_command(name: str, operator: str | None) -> None:
    """Lift a suspension: the token and the seats open again (games claimed meanwhile stay lost)."""
    echo(moderation.unsuspend(name, operator))


@admin_cli.command("rename")
@click.argument("name")
@click.argument("new")
@click.option("--reason", default=None, help="Why, for the audit table.")
@BY
@said
def rename_command(name: str, new: str, reason: str | None, operator: str | None) -> None:
    """Give a player another name (the rules of registration apply); its games show it at once."""
    echo(moderation.rename(name, new, operator, reason))


@admin_cli.command("export")
@click.argument("name")
@click.option("--output", type=click.File("w", encoding="utf-8"), default=None, help="A file (default: stdout).")
@BY
@said
def export_command(name: str, output, operator: str | None) -> None:
    """Every piece of personal data held about a player, as one JSON document."""
    with store.transaction():
        player = player_named(name)
        document = export.export_player(player)
        audit("export", operator, player)
    echo(document, output)


@admin_cli.command("erase")
@click.argument("name")
@click.confirmation_option(prompt="Erase this player's name, addresses, tokens and stream for good?")
@BY
@said
def erase_command(name: str, operator: str | None) -> None:
    """Erase a player: "deleted player N" everywhere, addresses and contacts removed, tokens revoked;
    its games stay for the opponents' records, without the name."""
    with store.transaction():
        player = player_named(name)
        if player.erased_at is not None:
            raise AdminError(f"{player.name} was erased already")
        summary = erasure.erase_player(player)
        audit("erase", operator, player)
    echo(summary)


@admin_cli.command("export-seat")
@click.argument("game_id")
@click.argument("seat", type=int)
@click.option("--output", type=click.File("w", encoding="utf-8"), default=None, help="A file (default: stdout).")
@BY
@said
def export_seat_command(game_id: str, seat: int, output, operator: str | None) -> None:
    """Every piece of personal data held about an anonymous seat (GAME SEAT), as one JSON document."""
    with store.transaction():
        game = seat_of(game_id, seat)
        document = export.export_seat(game, seat)
        audit("export-seat", operator, game_id=game.id, seat=seat)
    echo(document, output)


@admin_cli.command("erase-seat")
@click.argument("game_id")
@click.argument("seat", type=int)
@click.confirmation_option(prompt="Erase this seat's name, addresses and tokens for good?")
@BY
@said
def erase_seat_command(game_id: str, seat: int, operator: str | None) -> None:
    """Erase an anonymous seat (GAME SEAT): name, addresses, contact settings and tokens."""
    with store.transaction():
        game = seat_of(game_id, seat)
        if erasure.held_by_player(game.id, seat):
            raise AdminError(f"seat {seat} of game {game.id} is a player's: erase the player by name")
        summary = erasure.erase_seat(game.id, seat)
        audit("erase-seat", operator, game_id=game.id, seat=seat)
    echo(summary)


@admin_cli.command("backup")
@click.argument("path")
@BY
@said
def backup_command(path: str, operator: str | None) -> None:
    """Copy the live SQLite database to PATH, consistently, while the service runs (PostgreSQL:
    pg_dump, docs/operations.md)."""
    summary = backup.backup_sqlite(path)
    with store.transaction():
        audit("backup", operator)
    echo(summary)


@admin_cli.command("vapid")
@click.option("--rotate", is_flag=True, help="A new key pair in the key file; every browser subscribed with the "
              "old one is forgotten (its page subscribes again when next opened).")
@click.option("--private", "show_private", is_flag=True, help="Also print the private key as VAPID_PRIVATE_KEY "
              "takes it (to give every node the same key). Keep it secret.")
@click.option("--new", "new_only", is_flag=True, help="Print a new private key for VAPID_PRIVATE_KEY and store "
              "nothing (to rotate a key set in the environment: set it on every node, restart).")
@BY
@said
def vapid_command(rotate: bool, show_private: bool, new_only: bool, operator: str | None) -> None:
    """The VAPID key pair Web Push is signed with (notify/push/keys.py): its public key, where it is
    kept (made in the instance folder if there is none yet) and how many browsers are subscribed."""
    if new_only:
        echo({"private_key": keys.new_private_key_text()})
        return
    if rotate:
        if setting("VAPID_PRIVATE_KEY"):
            raise AdminError("the key is set by VAPID_PRIVATE_KEY: rotate it there (`flask admin vapid --new` "
                             "prints a new one)")
        keys.write_new(keys.key_file(), replace=True)
    public_key = keys.public_key()
    with store.transaction():
        forgotten = subscriptions.forget_other_keys(public_key) if rotate else 0
        if rotate:
            audit("vapid-rotate", operator, reason=f"{forgotten} subscription(s) forgotten")
        summary = {"public_key": public_key, "kept_in": keys.source(), "subscriptions": subscriptions.count(),
                   "made_with_another_key": subscriptions.count(public_key)}
    if rotate:
        summary["forgotten"] = forgotten
    if show_private:
        summary["private_key"] = keys.private_key_text()
    echo(summary)


@admin_cli.group("reports", invoke_without_command=True)
@click.option("--status", type=click.Choice(("open", "closed", "all")), default="open", show_default=True)
@click.option("--reason", type=click.Choice(reports.REASONS), default=None, help="Only reports of this reason.")
@click.option("--player", default=None, help="Only reports by or about this player (by name).")
@click.option("--after", type=click.IntRange(0), default=0, help="Only reports of a higher id (the last page's "
              "next_after).")
@click.option("--limit", type=click.IntRange(1, 500), default=50, show_default=True, help="At most this many.")
@BY
@click.pass_context
@with_appcontext  # (a group's own callback gets none from AppGroup, unlike its commands)
@said
def reports_command(context, operator: str | None, status: str, reason: str | None, player: str | None,
                    after: int, limit: int) -> None:
    """Reports of messages and players, oldest first, a page at a time (`next_after`: pass it as
    --after for the next); open ones unless --status says; `reports close ID` closes one."""
    if context.invoked_subcommand is not None:
        return
    with store.transaction():
        page, next_after = reports.listing(status, reason, player, after, limit)
        listed = [report_document(report) for report in page]
        audit("list-reports", operator)
    echo({"reports": listed, "next_after": next_after})


@reports_command.command("close")
@click.argument("report_id", type=int)
@click.option("--note", default=None, help="What was done, kept with the report and in the audit table.")
@BY
@said
def close_report_command(report_id: int, note: str | None, operator: str | None) -> None:
    """Close an open report (ID as listed), with a note of what was done."""
    with store.transaction():
        report = reports.close(report_id, note)
        if report is None:
            raise AdminError(f"no open report has id {report_id}")
        audit("close-report", operator, game_id=report.game_id, seat=report.reported_seat,
              reason=f"report {report.id}" + (f": {note}" if note else ""))
        document = report_document(report)
    echo(document)


def report_document(report) -> dict:
    """A report as the operator reads it: who reported what, why, and the text reported."""
    return {"id": report.id, "created_at": report.created_at, "reason": report.reason, "details": report.details,
            "by": {"name": report.reporter_name, "player_id": report.reporter_player_id,
                   "game_id": report.game_id, "seat": report.reporter_seat},
            "reported": {"name": report.reported_name, "player_id": report.reported_player_id,
                         "seat": report.reported_seat, "message_id": report.message_id,
                         "message": report.message_text},
            "closed_at": report.closed_at, "note": report.close_note}
