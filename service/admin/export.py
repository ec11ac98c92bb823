"""`export`: every piece of personal data the service holds about a player (or an anonymous seat),
as one JSON-ready document. Secrets are never in it (tokens and link keys are kept only as hashes;
a webhook's signing secret is said to be set, not shown), nor anything of another player's but
the names shown in a shared game."""
from __future__ import annotations

import json

from sqlalchemy import func, or_, select

from ..access.models import SeatLink, SeatToken
from ..core.extensions import db
from ..games import deadlines, store, views
from ..games.models import Game, GameMessage, Seat, Vacation
from ..notify.consent.addresses import normalised
from ..notify.models import (
    Contact,
    InboundMail,
    MailAddress,
    MailConfirmation,
    MailInvitation,
    OutboxMessage,
    PushSubscription,
)
from ..players import ratings, table_ratings
from ..players.models import (
    Block,
    Challenge,
    Player,
    PlayerEvent,
    PlayerSeat,
    RatingChange,
    Report,
    TableRatingChange,
    WatchLink,
)
from ..series.models import SeriesRecord
from ..tournaments.models import Entrant, Tournament
from .models import AdminAction

NOT_HELD = ("No request log is tied to a player (the HTTP client's address is kept only with a mail "
            "confirmation it asked for, listed under mail.confirmations). Who filed a report about this "
            "person, and their words, are the reporter's and are left out; so is who blocked them.")


def when(moment) -> str | None:
    return deadlines.as_utc(moment).isoformat() if moment else None


def rows(statement) -> list:
    return list(db.session.execute(statement).scalars())


def seat_record(game: Game, seat: int) -> dict:
    """One seat of one game: the seat, the game as the seat sees it and its history, the seat's
    contact settings, devices, vacations and watch links."""
    row = db.session.execute(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat)).scalar()
    contact = db.session.get(Contact, (game.id, seat))
    match = store.load_match(game)
    return {
        "game_id": game.id, "seat": seat, "name": row.name, "joined_at": when(row.joined_at),
        "status": game.status, "created_at": when(game.created_at), "rules": game.rules,
        "players": [{"seat": s.seat, "name": s.name} for s in game.seats],
        "view": json.loads(views.view_text(views.view_for(game, seat, match))) if match else None,
        "history": views.events_page(game, seat, 0, 1_000_000)["events"],
        "contact": None if contact is None else {
            "email": contact.email, "mail_mode": contact.mail_mode, "push_mode": contact.push_mode,
            "webhook_url": contact.webhook_url, "webhook_secret_set": contact.webhook_secret is not None},
        "push_subscriptions": [{"endpoint": p.endpoint, "created_at": when(p.created_at)} for p in rows(
            select(PushSubscription).where(PushSubscription.game_id == game.id, PushSubscription.seat == seat)
            .order_by(PushSubscription.id))],
        "devices": [{"id": t.id, "label": t.label, "created_at": when(t.created_at)} for t in rows(
            select(SeatToken).where(SeatToken.game_id == game.id, SeatToken.seat == seat).order_by(SeatToken.id))],
        "mail_links_sent": db.session.execute(select(func.count()).select_from(SeatLink).where(
            SeatLink.game_id == game.id, SeatLink.seat == seat)).scalar(),
        "vacations": [{"days": v.days, "starts_at": when(v.starts_at), "ends_at": when(v.ends_at)} for v in rows(
            select(Vacation).where(Vacation.game_id == game.id, Vacation.seat == seat).order_by(Vacation.id))],
        "watch_links_made": db.session.execute(select(func.count()).select_from(WatchLink).where(
            WatchLink.game_id == game.id, WatchLink.created_by_seat == seat)).scalar(),
        "messages_written": [{"id": m.id, "text": m.text, "created_at": when(m.created_at)} for m in rows(
            select(GameMessage).where(GameMessage.game_id == game.id, GameMessage.seat == seat)
            .order_by(GameMessage.id))],
    }


def mail_record(addresses: set[str], seats: list[tuple[str, int]]) -> dict:
    """What the mail side holds for these addresses (normalised) and seats: consent, confirmations,
    invitations, the delivery log (mail to the addresses, webhook calls for the seats) and inbound mail."""
    def for_seats(model):
        return or_(*((model.game_id == game) & (model.seat == seat) for game, seat in seats))
    outbox_mine = [func.lower(OutboxMessage.recipient).in_(addresses)] if addresses else []
    if seats:
        outbox_mine.append(for_seats(OutboxMessage))
    log = rows(select(OutboxMessage).where(or_(*outbox_mine)).order_by(OutboxMessage.id)) if outbox_mine else []
    confirmations = [MailConfirmation.address.in_(addresses)] if addresses else []
    if seats:
        confirmations.append(for_seats(MailConfirmation))
    return {
        "addresses": [{"address": a.address, "confirmed_at": when(a.confirmed_at), "stopped_at": when(a.stopped_at)}
                      for a in rows(select(MailAddress).where(MailAddress.address.in_(addresses)))],
        "confirmations": [{"address": c.address, "game_id": c.game_id, "seat": c.seat, "client": c.client,
                           "created_at": when(c.created_at), "answered_at": when(c.answered_at)}
                          for c in (rows(select(MailConfirmation).where(or_(*confirmations))
                                         .order_by(MailConfirmation.created_at)) if confirmations else [])],
        "invitations": [{"game_id": i.game_id, "sender": i.sender, "invitee": i.invitee, "client": i.client,
                         "created_at": when(i.created_at), "sent_at": when(i.sent_at), "joined_at": when(i.joined_at)}
                        for i in rows(select(MailInvitation).where(or_(MailInvitation.sender.in_(addresses),
                                                                       MailInvitation.invitee.in_(addresses)))
                                      .order_by(MailInvitation.id))],
        # The log of what was sent, without the messages' text: it carries reply secrets.
        "log": [{"channel": m.channel, "kind": m.kind, "game_id": m.game_id, "seat": m.seat,
                 "recipient": m.recipient, "status": m.status, "attempts": m.attempts,
                 "created_at": when(m.created_at), "sent_at": when(m.sent_at)} for m in log],
        "inbound": [{"game_id": i.game_id, "outcome": i.outcome, "received_at": when(i.received_at)}
                    for i in rows(select(InboundMail).where(InboundMail.sender.in_(addresses))
                                  .order_by(InboundMail.id))],
    }


def seat_addresses(seats: list[tuple[str, int]]) -> set[str]:
    found = set()
    for game_id, seat in seats:
        contact = db.session.get(Contact, (game_id, seat))
        if contact is not None and contact.email:
            found.add(normalised(contact.email))
    return found


def audit_record(**where) -> list[dict]:
    return [{"action": a.action, "reason": a.reason, "game_id": a.game_id, "seat": a.seat,
             "at": when(a.created_at)} for a in rows(select(AdminAction).filter_by(**where).order_by(AdminAction.id))]


def report_records(filed, about) -> dict:
    """The reports this person filed (all of it: their own words) and those filed about them: what
    was reported, why, when and what became of it, without the reporter's name or words."""
    def common(r: Report) -> dict:
        return {"report_id": r.id, "game_id": r.game_id, "reason": r.reason, "created_at": when(r.created_at),
                "closed_at": when(r.closed_at)}
    return {
        "filed": [{**common(r), "seat": r.reporter_seat, "reported_name": r.reported_name,
                   "reported_seat": r.reported_seat, "message_id": r.message_id, "message_text": r.message_text,
                   "details": r.details} for r in rows(select(Report).where(filed).order_by(Report.id))],
        "about": [{**common(r), "seat": r.reported_seat, "message_id": r.message_id, "message_text": r.message_text}
                  for r in rows(select(Report).where(about).order_by(Report.id))],
    }


def seat_reports(game_id: str, seat: int) -> dict:
    in_game = Report.game_id == game_id
    return report_records(in_game & (Report.reporter_seat == seat), in_game & (Report.reported_seat == seat))


def export_player(player: Player) -> dict:
    bound = db.session.execute(select(PlayerSeat.game_id, PlayerSeat.seat).where(PlayerSeat.player_id == player.id)
                               .order_by(PlayerSeat.game_id)).all()
    seats = [(game_id, seat) for game_id, seat in bound]
    addresses = seat_addresses(seats) | ({normalised(player.email)} if player.email else set())
    names = dict(db.session.execute(select(Player.id, Player.name)).all())
    challenges = rows(select(Challenge).where(or_(Challenge.challenger_id == player.id,
                                                  Challenge.target_id == player.id)).order_by(Challenge.created_at))
    series = rows(select(SeriesRecord).where(or_(SeriesRecord.offered_by == player.id,
                                                 SeriesRecord.opponent_id == player.id)).order_by(SeriesRecord.created_at))
    return {
        "exported_at": when(deadlines.now()),
        "player": {"id": player.id, "name": player.name, "email": player.email, "bot": player.bot,
                   "created_at": when(player.created_at), "token_created_at": when(player.token_created_at),
                   "suspended_at": when(player.suspended_at), "erased_at": when(player.erased_at),
                   "rating": ratings.describe(player), "table_rating": table_ratings.describe(player),
                   "public_games": player.public_games_secret is not None},
        "push_subscriptions": [{"endpoint": p.endpoint, "created_at": when(p.created_at)} for p in rows(
            select(PushSubscription).where(PushSubscription.player_id == player.id).order_by(PushSubscription.id))],
        "games": [seat_record(db.session.get(Game, game_id), seat) for game_id, seat in seats],
        "challenges": [{"challenge_id": c.id, "made_by_you": c.challenger_id == player.id,
                        "other": names.get(c.target_id if c.challenger_id == player.id else c.challenger_id),
                        "status": c.status, "reason": c.reason, "rules": c.rules, "game_id": c.game_id,
                        "rated": c.rated,
                        "created_at": when(c.created_at), "expires_at": when(c.expires_at)} for c in challenges],
        "series": [{"series_id": s.id, "offered_by_you": s.offered_by == player.id, "status": s.status,
                    "record": s.record, "created_at": when(s.created_at)} for s in series],
        "tournaments": tournament_records(player),
        "rating_changes": [{"game_id": r.game_id, "opponent": names.get(r.opponent_id), "score": r.score,
                            "before": r.value_before, "after": r.value_after, "deviation": r.deviation_after,
                            "volatility": r.volatility_after, "level": r.level, "opponent_level": r.opponent_level,
                            "created_at": when(r.created_at)}
                           for r in rows(select(RatingChange).where(RatingChange.player_id == player.id)
                                         .order_by(RatingChange.created_at))],
        "table_rating_changes": [{"game_id": r.game_id, "seat": r.seat, "rank": r.rank, "mu_before": r.mu_before,
                                  "sigma_before": r.sigma_before, "mu_after": r.mu_after, "sigma_after": r.sigma_after,
                                  "created_at": when(r.created_at)}
                                 for r in rows(select(TableRatingChange).where(TableRatingChange.player_id == player.id)
                                               .order_by(TableRatingChange.created_at))],
        "stream_events": [{"seq": e.seq, "type": e.type, "payload": e.payload, "created_at": when(e.created_at)}
                          for e in rows(select(PlayerEvent).where(PlayerEvent.player_id == player.id)
                                        .order_by(PlayerEvent.seq))],
        "blocks": [{"blocked": names.get(b.blocked_id), "created_at": when(b.created_at)}
                   for b in rows(select(Block).where(Block.blocker_id == player.id).order_by(Block.created_at))],
        "reports": report_records(Report.reporter_player_id == player.id, Report.reported_player_id == player.id),
        "mail": mail_record(addresses, seats),
        "operator_actions": audit_record(player_id=player.id),
        "not_held": NOT_HELD,
    }


def tournament_records(player: Player) -> list[dict]:
    """The tournaments the player organized or entered (its games are under `games`)."""
    entered = {e.tournament_id: e for e in rows(select(Entrant).where(Entrant.player_id == player.id))}
    made = rows(select(Tournament).where(or_(Tournament.organizer_id == player.id, Tournament.id.in_(list(entered))))
                .order_by(Tournament.created_at))
    return [{"tournament_id": t.id, "name": t.name, "status": t.status, "organized_by_you": t.organizer_id == player.id,
             "entered": t.id in entered, "level": getattr(entered.get(t.id), "level", None),
             "rating_at_start": getattr(entered.get(t.id), "rating", None),
             "withdrawn_round": getattr(entered.get(t.id), "withdrawn_round", None),
             "place": getattr(entered.get(t.id), "place", None), "created_at": when(t.created_at)} for t in made]


def export_seat(game: Game, seat: int) -> dict:
    addresses = seat_addresses([(game.id, seat)])
    return {"exported_at": when(deadlines.now()), "games": [seat_record(game, seat)],
            "reports": seat_reports(game.id, seat), "mail": mail_record(addresses, [(game.id, seat)]),
            "operator_actions": audit_record(game_id=game.id, seat=seat), "not_held": NOT_HELD}
