"""`erase`: a player's (or an anonymous seat's) personal data removed for good. The name becomes
"deleted player N" ("deleted seat N" for a seat) everywhere it showed, every address and contact
setting goes, every token, device, browser subscribed to pushes and mail link is revoked, the players it blocked are forgotten,
the stream and the mail log of the player's games are deleted. The games stay, finished ones for
the opponents' records, under the new name; a running one is closed to the erased seat and its
opponent may claim it at once."""
from __future__ import annotations

from sqlalchemy import delete, func, select, update

from ..access.models import SeatLink, SeatToken
from ..core import wakeup
from ..core.extensions import db
from ..games import deadlines
from ..games.models import GameMessage, IdempotencyRecord, Seat
from ..notify.consent.addresses import normalised
from ..notify.models import (
    Contact,
    InboundMail,
    MailAddress,
    MailConfirmation,
    MailInvitation,
    MailToken,
    OutboxMessage,
    PushSubscription,
)
from ..players.models import Block, Player, PlayerEvent, PlayerSeat, Report
from ..series.models import SeriesGame, SeriesRecord
from .export import seat_addresses
from .moderation import republish, withdraw_challenges


def replaced(value, old: str, new: str):
    """`value` (JSON) with every string equal to `old` replaced by `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [replaced(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: replaced(item, old, new) for key, item in value.items()}
    return value


def forget_seat(game_id: str, seat: int, name: str | None, new_name: str) -> None:
    """The seat's name, tokens, devices, mail links, contact settings and reply secrets gone."""
    db.session.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat == seat)
                       .values(name=new_name, token_hash=None))
    for model in (SeatToken, SeatLink, Contact, MailToken, MailConfirmation, PushSubscription):
        db.session.execute(delete(model).where(model.game_id == game_id, model.seat == seat))
    if name:
        db.session.execute(update(MailInvitation).where(MailInvitation.game_id == game_id,
                                                        MailInvitation.inviter_name == name)
                           .values(inviter_name=None))
    forget_messages(game_id, seat, new_name)


def forget_messages(game_id: str, seat: int, new_name: str) -> None:
    """The seat's messages, the players' stream events carrying them, and its name and words in reports."""
    db.session.execute(delete(GameMessage).where(GameMessage.game_id == game_id, GameMessage.seat == seat))
    told = select(PlayerSeat.player_id).where(PlayerSeat.game_id == game_id)  # only the game's players heard
    for event in db.session.execute(select(PlayerEvent).where(PlayerEvent.type == "message",
                                                              PlayerEvent.player_id.in_(told))).scalars():
        if event.payload.get("game_id") == game_id and (event.payload.get("message") or {}).get("seat") == seat:
            db.session.delete(event)
    in_game = (Report.game_id == game_id,)
    db.session.execute(update(Report).where(*in_game, Report.reporter_seat == seat).values(reporter_name=new_name))
    db.session.execute(update(Report).where(*in_game, Report.reported_seat == seat)
                       .values(reported_name=new_name, message_text=None))


def forget_games(games: set[str], addresses: set[str]) -> None:
    """What the games kept that may name the seat: the delivery log (every message but those still
    to be delivered to others), the answers kept for retries; then the views, written again."""
    if games:
        db.session.execute(delete(OutboxMessage).where(OutboxMessage.game_id.in_(games),
                                                       OutboxMessage.status != "pending"))
        db.session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.game_id.in_(games)))
    if addresses:
        db.session.execute(delete(OutboxMessage).where(func.lower(OutboxMessage.recipient).in_(addresses)))
    for game_id in sorted(games):
        republish(game_id)


def forget_addresses(addresses: set[str]) -> None:
    if not addresses:
        return
    for column in (MailAddress.address, MailConfirmation.address, MailInvitation.invitee, MailInvitation.sender,
                   MailToken.email):
        db.session.execute(delete(column.class_).where(func.lower(column).in_(addresses)))
    db.session.execute(update(InboundMail).where(InboundMail.sender.in_(addresses)).values(sender=None))


def rename_in_records(old: str, new: str, player_id: int | None, games: set[str] | None = None) -> None:
    """Others' stream events and the series records name players by name: the old one replaced
    (with `games`, only in what concerns those games: a seat's name is not unique, an account's is)."""
    events = select(PlayerEvent)
    series = select(SeriesRecord)
    if player_id is not None:
        events = events.where(PlayerEvent.player_id != player_id)
    if games is not None:
        series = series.where(SeriesRecord.id.in_(select(SeriesGame.series_id).where(SeriesGame.game_id.in_(games))))
    for event in db.session.execute(events).scalars():
        if games is not None and event.payload.get("game_id") not in games:
            continue
        payload = replaced(event.payload, old, new)
        if payload != event.payload:
            event.payload = payload
    for row in db.session.execute(series).scalars():
        record = replaced(row.record, old, new)
        if record != row.record:
            row.record = record


def erase_player(player: Player) -> dict:
    """Erase the player, in the caller's transaction."""
    old, new = player.name, f"deleted player {player.id}"
    seats = [(g, s) for g, s in db.session.execute(select(PlayerSeat.game_id, PlayerSeat.seat)
                                                   .where(PlayerSeat.player_id == player.id)).all()]
    addresses = seat_addresses(seats) | ({normalised(player.email)} if player.email else set())
    moment = deadlines.now()
    withdraw_challenges(player)
    player.name, player.name_key, player.name_skeleton, player.email = new, new, None, None
    player.token_hash = player.token_created_at = None
    player.public_games_secret = None  # no profile shows its games any more, nor opens them
    player.suspended_at, player.erased_at = player.suspended_at or moment, moment  # closed for good
    db.session.execute(delete(PlayerEvent).where(PlayerEvent.player_id == player.id))
    db.session.execute(delete(Block).where(Block.blocker_id == player.id))  # the players it blocked
    db.session.execute(delete(PushSubscription).where(PushSubscription.player_id == player.id))
    for game_id, seat in seats:
        forget_seat(game_id, seat, old, new)
    forget_addresses(addresses)
    db.session.execute(update(Report).where(Report.reporter_player_id == player.id).values(reporter_name=new))
    db.session.execute(update(Report).where(Report.reported_player_id == player.id)
                       .values(reported_name=new, message_text=None))
    rename_in_records(old, new, player.id)
    forget_games({game_id for game_id, _ in seats}, addresses)
    wakeup.player_changed(player.id, None)
    return {"player": player.id, "name": new, "games": sorted({g for g, _ in seats})}


def erase_seat(game_id: str, seat: int) -> dict:
    """Erase an anonymous seat (one no player holds), in the caller's transaction."""
    row = db.session.execute(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat)).scalar()
    old, new = row.name, f"deleted seat {row.id}"
    addresses = seat_addresses([(game_id, seat)])
    forget_seat(game_id, seat, old, new)
    forget_addresses(addresses)
    if old:
        rename_in_records(old, new, None, {game_id})
    forget_games({game_id}, addresses)
    return {"game_id": game_id, "seat": seat, "name": new}


def held_by_player(game_id: str, seat: int) -> bool:
    return db.session.execute(select(PlayerSeat.player_id).where(PlayerSeat.game_id == game_id,
                                                                 PlayerSeat.seat == seat)).first() is not None
