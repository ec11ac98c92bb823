"""From a change to a game to outbox rows, inside the change's own transaction.

`after_change` is called by the store right after it saved a move (or the join that deals the
first hand): it restarts the move clock when a new turn began and writes the mails and webhook
calls the change causes. Each mail is composed now, from the engine's view for its seat and the
events redacted for that seat, so what is delivered later is what was true at this version.
"""
from __future__ import annotations

import json
import secrets
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from .. import deadlines
from ..extensions import db
from ..tokens import hash_secret
from . import compose, message, outbox
from .contacts import contact_of, contacts_of
from .models import InboundMail, MailToken
from .settings import setting

WEBHOOK_TYPES = {"match_end": "match.ended", "hand_end": "hand.ended", "turn": "turn.started",
                 "start": "game.started", "reminder": "deadline.reminder", "expired": "deadline.passed"}
MAX_EVENTS = 40


@dataclass
class MailReply:
    """Set by the inbound side around the last command of a reply: the change's transaction then
    also writes the answer to that reply (instead of the seat's usual mail)."""

    seat: int
    played: list[str]
    message_id: str  # the reply's own Message-ID, for threading and for playing it only once
    fallback: str  # its From address, used if the seat has no email on file
    since_seq: int  # the answer lists what happened after this event (the reply's own effects)
    failure: str | None = None  # why the reply (or its last command tried) was not played


reply_context: ContextVar[MailReply | None] = ContextVar("reply_context", default=None)


def after_change(game, match, actor: int | None, events: list[dict], moment: datetime | None = None) -> None:
    moment = moment or deadlines.now()
    db.session.flush()  # the game's UPDATE has run: game.version is the new version
    with db.session.no_autoflush:  # the clock changes below are written once, by the change's last flush
        _after_change(game, match, actor, events, moment)


def _after_change(game, match, actor: int | None, events: list[dict], moment: datetime) -> None:
    hand_dealt = any(e.get("type") == "deal" for e in events)
    new_turn = match.to_move is not None and (match.to_move != actor or hand_dealt)
    deadlines.on_change(game.id, match.to_move, new_turn, moment)
    hand_ended = any(e.get("type") in ("hand_end", "hand_void") for e in events)
    reply = reply_context.get()
    contacts = contacts_of(game.id)
    for seat in (0, 1):
        reason = ("match_end" if match.is_over else "hand_end" if hand_ended
                  else "turn" if new_turn and match.to_move == seat else "start" if actor is None else None)
        contact = contacts.get(seat)
        if reply is not None and reply.seat == seat:
            write_answer(game, match, seat, reply, moment)
        elif reason and contact and contact.email and (
                contact.mail_mode == "turn" or (contact.mail_mode == "digest" and reason == "match_end")):
            # Digest readers still hear at once how the match ended: no later digest covers it.
            write_mail(game, match, seat, contact.email, reason, moment)
        if reason and contact and contact.webhook_url:
            write_webhook(game, match, seat, WEBHOOK_TYPES[reason], moment)


def greet(game, match, seat: int, contact, moment: datetime, mail: bool, webhook: bool) -> None:
    """A seat that just gave an email or webhook hears where the game stands."""
    reason = "turn" if match.to_move == seat else "start"
    if mail and contact.mail_mode == "turn":
        write_mail(game, match, seat, contact.email, reason, moment)
    if webhook:
        write_webhook(game, match, seat, WEBHOOK_TYPES[reason], moment)


# -- what a seat gets ---------------------------------------------------------------------------

def last_own_seq(game_id: str, seat: int) -> int:
    from ..models import Event
    # Events carrying a seat are that seat's own moves, except a timeout (claimed by the other).
    return db.session.scalar(select(func.max(Event.seq)).where(
        Event.game_id == game_id, Event.seat == seat, Event.type != "timeout")) or 0


def last_seq(game_id: str) -> int:
    from ..models import Event
    return db.session.scalar(select(func.max(Event.seq)).where(Event.game_id == game_id)) or 0


def seat_events(game, seat: int, after: int) -> list[dict]:
    from ..store import events_page
    return events_page(game, seat, after, MAX_EVENTS)["events"]


def scene_for(game, match, seat: int, moment: datetime, *, after: int | None = None) -> compose.Scene:
    """The seat's picture of the game now, with a fresh reply address bound to this version."""
    names = {s.seat: s.name for s in game.seats}
    after = last_own_seq(game.id, seat) if after is None else after
    reply = None if match.is_over else new_reply_address(game.id, seat, game.version, moment)
    return compose.Scene(
        game_id=game.id, version=game.version, seat=seat, names=names, view=match.view(seat),
        now=moment, events=seat_events(game, seat, after), deadline=deadlines.deadline_of(game.id),
        reply_address=reply, link=f"{setting('BASE_URL').rstrip('/')}/games/{game.id}", moved=after > 0)


def new_reply_address(game_id: str, seat: int, version: int, moment: datetime) -> str:
    """play+<secret>@MAIL_DOMAIN; the secret (stored only hashed) plays for `seat` until the next
    move is recorded (see MailToken.event_seq)."""
    secret = secrets.token_urlsafe(18)
    db.session.add(MailToken(token_hash=hash_secret(secret), purpose="reply", game_id=game_id, seat=seat,
                             version=version, event_seq=last_seq(game_id), created_at=moment))
    return message.address("play", secret)


def enqueue_mail(scene: compose.Scene, kind: str, to: str, subject: str, text: str, moment: datetime,
                 in_reply_to: str | None = None, unsubscribe: str | None = None,
                 auto: str = "auto-generated") -> None:
    message_id = message.new_message_id(scene.game_id, scene.seat, kind)
    mail = message.build(to=to, subject=subject, text=text, message_id=message_id, moment=moment,
                         reply_to=scene.reply_address, game_id=scene.game_id, seat=scene.seat,
                         version=scene.version, in_reply_to=in_reply_to, unsubscribe=unsubscribe, auto=auto)
    outbox.enqueue("mail", kind, to, message.serialise(mail), message_id, game_id=scene.game_id,
                   seat=scene.seat, version=scene.version, moment=moment)


def write_mail(game, match, seat: int, to: str, kind: str, moment: datetime) -> None:
    scene = scene_for(game, match, seat, moment)
    text = compose.body(scene, kind)
    enqueue_mail(scene, kind, to, compose.subject(scene, kind), text, moment)


def write_answer(game, match, seat: int, reply: MailReply, moment: datetime) -> None:
    """The answer to a reply that played (or tried to): what was played, what failed, the state."""
    contact = contact_of(game.id, seat)
    to = (contact.email if contact and contact.email else None) or reply.fallback
    scene = scene_for(game, match, seat, moment, after=reply.since_seq)
    lines = (compose.error_answer(reply.failure, reply.played) if reply.failure
             else ["Played: " + "; ".join(reply.played) + "."])
    subject = compose.answer_subject(scene, reply.played, bool(reply.failure))
    enqueue_mail(scene, "answer", to, subject, compose.body(scene, "answer", lines),
                 moment, in_reply_to=reply.message_id, auto="auto-replied")
    record_inbound(reply.message_id, game.id, "failed" if reply.failure else "played", moment)


def record_inbound(message_id: str, game_id: str | None, outcome: str, moment: datetime,
                   sender: str | None = None) -> None:
    db.session.add(InboundMail(message_id=message_id[:250], game_id=game_id, outcome=outcome,
                               received_at=moment, sender=sender))


def write_webhook(game, match, seat: int, event_type: str, moment: datetime) -> None:
    contact = contact_of(game.id, seat)
    view = match.view(seat)
    deadline = deadlines.deadline_of(game.id)
    body = {
        "type": event_type,
        "timestamp": moment.isoformat(),
        "data": {
            "game_id": game.id, "version": game.version, "seat": seat,
            "to_move": match.to_move, "your_turn": match.to_move == seat,
            "deadline": deadline.isoformat() if deadline else None,
            "events": seat_events(game, seat, last_own_seq(game.id, seat)),
            "view": view,
        },
    }
    msg_id = "msg_" + secrets.token_urlsafe(18)
    outbox.enqueue("webhook", event_type, contact.webhook_url, json.dumps(body, separators=(",", ":")),
                   msg_id, game_id=game.id, seat=seat, version=game.version, moment=moment)
