"""From a change to a game to outbox rows, inside the change's own transaction.

`after_change` is a change hook (games.changes), called right after a move (or the join that deals
the first hand) was saved and the move clock moved: it writes the mails, webhook calls and pushes
the change causes. Each is composed now, from the engine's view for its seat and the events
redacted for that seat, so what is delivered later is what was true at this version.

Who hears what is said once, in `WAYS`: for each channel, where a seat is reached on it (a
`Listener`'s confirmed email, webhook URL, push endpoints), which reasons it hears, and how its
notice is written. A change (`after_change`), a new setting (`greet`) and the clock (sweeps.py's
reminders and time-up notices) all `tell` a seat through them.

Mail goes only to confirmed addresses (consent/confirm.py). Nothing a player set can make the change
fail: a notice that cannot be composed is written as a dead outbox row saying why (`composing`),
and the move commits.
"""
from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import and_, case, exists, func, or_, select
from sqlalchemy.exc import SQLAlchemyError

from ..access import links
from ..core.extensions import db
from ..core.tokens import hash_secret
from ..games import deadlines, standing, table_clocks
from ..games.models import Event
from ..games.table_game import is_table_state
from ..games.views import events_page
from . import outbox, table_dispatch
from .channels import Channel
from .config import setting
from .consent import confirm
from .consent.addresses import normalised
from .contacts import contact_of, contacts_of
from .mail import chat_lines, compose, html_part, mail_text, rfc5322
from .mail.channel import MAIL
from .mail.scene import Scene
from .models import Contact, InboundMail, MailAddress, MailToken
from .push import notice as push_notice
from .push import subscriptions as push_subscriptions
from .push.channel import PUSH
from .webhooks.channel import WEBHOOK

log = logging.getLogger(__name__)

MAX_EVENTS = 40
TABLE_EVENTS = 200


@dataclass
class MailReply:
    """Set by the inbound side around the last command of a reply: the change's transaction then
    also writes the answer to that reply (instead of the seat's usual mail)."""

    seat: int
    played: list[str]
    message_id: str  # the reply's own Message-ID, for threading and for playing it only once
    since_seq: int  # the answer lists what happened after this event (the reply's own effects)
    failure: str | None = None  # why the reply (or its last command tried) was not played
    told: list[str] = field(default_factory=list)  # a plan's answer: what was drawn, what each rule decided


reply_context: ContextVar[MailReply | None] = ContextVar("reply_context", default=None)
# While a change's notices are written: what each seat's standing orders played in it, for that
# seat's own mail (Change.ordered).
orders_played: ContextVar[dict | None] = ContextVar("orders_played", default=None)


# What the move's one read found (anyone_to_tell): a bit for each kind of listener.
TELL_CONTACT, TELL_PUSH = 1, 2


@dataclass
class Listener:
    """Where one seat is reached: its contact settings, its email if its owner confirmed it, its
    push endpoints (its own subscriptions' and its player's, unless it turned push off)."""

    seat: int
    contact: Contact | None
    email: str | None = None
    endpoints: tuple[str, ...] = ()


def listeners(game_id: str, push: bool = True, seats: Iterable[int] | None = None) -> dict[int, Listener]:
    """The game's listeners by seat (`push` False: the move's read found no push subscription)."""
    contacts = contacts_of(game_id)
    confirmed = confirm.mailable(c.email for c in contacts.values())
    endpoints = push_subscriptions.endpoints_of(game_id, seats) if push else {}
    out = {}
    for seat in set(contacts) | set(endpoints):
        contact = contacts.get(seat)
        email = contact.email if contact and contact.email and normalised(contact.email) in confirmed else None
        out[seat] = Listener(seat, contact, email, tuple(endpoints.get(seat, ())))
    return out


# What a digest reader still hears at once: what no digest covers in time.
DIGEST_TOO = ("match_end", "reminder", "expired")


def mail_hears(contact: Contact, reason: str) -> bool:
    """Turn mode hears everything; digest mode only DIGEST_TOO's (off: nothing)."""
    return contact.mail_mode == "turn" or (contact.mail_mode == "digest" and reason in DIGEST_TOO)


@dataclass(frozen=True)
class Way:
    """A channel as a seat hears it: where the seat is reached on it (`where`), whether its
    settings let it hear a reason (`hears`, beyond the channel's kinds), and how one notice is
    written (`write(game, match, seat, recipient, kind, moment, clock_seat)`)."""

    channel: Channel
    where: Callable[[Listener], Iterable[str]]
    hears: Callable[[Contact | None, str], bool]
    write: Callable[..., None]


def tell(game, match, listener: Listener, reason: str, moment: datetime, clock_seat: int | None = None,
         channels: Iterable[Channel] | None = None) -> None:
    """Write what `reason` tells the seat on each way it is reached (only `channels`, if given)."""
    for way in WAYS:
        if channels is not None and way.channel not in channels:
            continue
        kinds = way.channel.kinds
        kind = reason if kinds is None else kinds.get(reason)
        if kind is None or not way.hears(listener.contact, reason):
            continue
        for recipient in way.where(listener):
            way.write(game, match, listener.seat, recipient, kind, moment, clock_seat)


def after_change(change, anyone) -> None:
    """The change hook (games.changes): the notices this change causes. Nothing when the move's
    read found no one to tell (`anyone`) and no reply by mail is being answered."""
    if not anyone and reply_context.get() is None:
        return
    game = change.game()
    with db.session.no_autoflush:  # what it adds (outbox rows, reply secrets) goes in the change's last flush
        _after_change(game, change.match, change.actor, change.events, change.moment,
                      push=bool(anyone and anyone & TELL_PUSH), ordered=change.ordered)


def _after_change(game, match, actor: int | None, events: list[dict], moment: datetime, push: bool = True,
                  ordered: dict | None = None) -> None:
    ordered = ordered or {}
    token = orders_played.set(ordered)
    try:
        _tell_change(game, match, actor, events, moment, push, ordered)
    finally:
        orders_played.reset(token)


def _tell_change(game, match, actor, events, moment, push, ordered: dict) -> None:
    if table_dispatch.is_table(match):  # three or four seats: each seat by its own board
        reasons = table_dispatch.reasons(match, actor, events)
    else:
        hand_dealt = any(e.get("type") == "deal" for e in events)
        new_turn = match.to_move is not None and (match.to_move != actor or hand_dealt or match.to_move in ordered)
        hand_ended = any(e.get("type") in ("hand_end", "hand_void") for e in events)
        reasons = {seat: ("match_end" if match.is_over else "hand_end" if hand_ended
                          else "turn" if new_turn and match.to_move == seat else "start" if actor is None else None)
                   for seat in (0, 1)}
    reply = reply_context.get()
    if reply is None and not any(reasons.values()):  # a move that tells nobody (the opponent's draw)
        return
    found = listeners(game.id, push)
    for seat, reason in reasons.items():
        listener = found.get(seat) or Listener(seat, None)
        ways = None
        if reply is not None and reply.seat == seat:  # the answer to the reply stands for the seat's mail
            write_answer(game, match, seat, reply, moment, listener.email)
            ways = [way.channel for way in WAYS if way.channel is not MAIL]
        if reason:
            tell(game, match, listener, reason, moment, channels=ways)


def anyone_to_tell(game_id_column):
    """SQL integer for the move path's read (games/move_reads.py): TELL_CONTACT when a seat of the
    game has a webhook, or an email its owner confirmed and did not stop, in a mail mode that is
    not off; TELL_PUSH when a seat has a push subscription (push/subscriptions.py). Otherwise (0)
    after_change has no one to tell (but a reply by mail being answered), and costs the move nothing."""
    confirmed = exists().where(MailAddress.address == Contact.email_key, MailAddress.confirmed_at.is_not(None),
                               MailAddress.stopped_at.is_(None))
    contact = exists().where(Contact.game_id == game_id_column,
                             or_(Contact.webhook_url.is_not(None), and_(Contact.mail_mode != "off", confirmed)))
    return (case((contact, TELL_CONTACT), else_=0)
            + case((push_subscriptions.anyone_subscribed(game_id_column), TELL_PUSH), else_=0))


def greet(game, match, seat: int, contact, moment: datetime, mail: bool, webhook: bool) -> None:
    """A seat that just gave an email or webhook hears where the game stands (a confirmed
    address; an unconfirmed one is asked to confirm first, see contact_changes.apply)."""
    reason = "turn" if is_to_move(match, seat) else "start"
    email = contact.email if mail and confirm.may_mail(contact.email) else None
    listener = Listener(seat, contact, email)
    tell(game, match, listener, reason, moment, channels=[MAIL] * mail + [WEBHOOK] * webhook)


@contextmanager
def composing(channel: Channel, kind: str, recipient: str, moment: datetime, game_id: str | None = None,
              seat: int | None = None, version: int | None = None):
    """Compose one notification; if composing raises (a header that would carry a line break, an
    address the email package cannot write), drop what it added and write a dead outbox row with
    the reason instead, so the change it belongs to still commits. Database errors are not
    composition: they propagate, and the change is rolled back as always."""
    before = set(db.session.new)
    try:
        yield
    except SQLAlchemyError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever a player's settings make composing raise
        for added in set(db.session.new) - before:
            db.session.expunge(added)
        reason = f"not composed: {type(exc).__name__}: {exc}"
        log.warning("%s %s for game %s seat %s %s", channel, kind, game_id, seat, reason)
        row = outbox.enqueue(channel, kind, printable(recipient), "", rfc5322.new_message_id(game_id, seat, kind),
                             game_id=game_id, seat=seat, version=version, moment=moment)
        row.status, row.last_error = outbox.DEAD, printable(reason)[:500]


def printable(text: str) -> str:
    """`text` with control characters (and NUL, which PostgreSQL refuses) escaped, for the record."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text or "")[:2000]


# -- what a seat gets ---------------------------------------------------------------------------

def is_to_move(match, seat: int) -> bool:
    """Whether `seat` may act now (at a table, one seat per board may)."""
    return seat in match.table.to_move if table_dispatch.is_table(match) else match.to_move == seat


def own_seq(game, seat: int) -> int:
    """The seq of the seat's own last move (a table's board events name local seats: see
    table_dispatch.last_own_seq)."""
    if is_table_state(game.state):
        return table_dispatch.last_own_seq(game.id, seat)
    return last_own_seq(game.id, seat)


def last_own_seq(game_id: str, seat: int) -> int:
    # Events carrying a seat are that seat's own moves, except a timeout (claimed by the other).
    return db.session.scalar(select(func.max(Event.seq)).where(
        Event.game_id == game_id, Event.seat == seat, Event.type != "timeout")) or 0


def last_seq(game_id: str) -> int:
    return db.session.scalar(select(func.max(Event.seq)).where(Event.game_id == game_id)) or 0


def seat_events(game, seat: int, after: int) -> list[dict]:
    if is_table_state(game.state):
        # A table's mail tells only the seat's own board move by move and sums up the rest, so
        # it reads the latest events (a seat that sat out a hand has many since its last move).
        after = max(after, last_seq(game.id) - TABLE_EVENTS)
        return events_page(game, seat, after, TABLE_EVENTS)["events"]
    return events_page(game, seat, after, MAX_EVENTS)["events"]


def scene_for(game, match, seat: int, moment: datetime, *, after: int | None = None,
              clock_seat: int | None = None) -> Scene:
    """The seat's picture of the game now, with a fresh reply address bound to this version
    (`clock_seat`: at a table, whose deadline to tell; see view_and_deadline)."""
    names = {s.seat: s.name for s in game.seats}
    after = own_seq(game, seat) if after is None else after
    reply = None if match.is_over else new_reply_address(game.id, seat, game.version, moment)
    view, deadline = view_and_deadline(game, match, seat, clock_seat)
    return Scene(
        game_id=game.id, version=game.version, seat=seat, names=names, view=view,
        now=moment, events=seat_events(game, seat, after), deadline=deadline,
        reply_address=reply, link=seat_link(game.id, seat, moment), moved=after > 0,
        orders=orders_in_words(game, match, seat), orders_played=list((orders_played.get() or {}).get(seat, ())))


def orders_in_words(game, match, seat: int) -> str | None:
    """The seat's standing orders that stand now, in words (None: none, or a table)."""
    if table_dispatch.is_table(match):
        return None
    row = next((s for s in game.seats if s.seat == seat), None)
    orders = standing.active(row.orders, match) if row is not None else None
    return str(orders) if orders else None


def view_and_deadline(game, match, seat: int, clock_seat: int | None = None) -> tuple[dict, datetime | None]:
    """The seat's view and the deadline its mail or webhook tells. At a table every board's mover
    has its own: the view carries them all, and its `on_clock` names the seat whose deadline is
    told (`clock_seat`, else the seat's own while it is to move, else its board opponent's)."""
    view = match.view(seat)
    if not table_dispatch.is_table(match):
        return view, deadlines.deadline_of(game.id)
    on_clock, due = table_clocks.clock_part(game.id)
    told = clock_seat if clock_seat is not None else table_clocks.mail_clock_seat(match, seat, on_clock, due)
    return table_clocks.with_deadlines(view, told, due), due.get(told)


def deadline_told(game, match, seat: int, clock_seat: int | None = None) -> datetime | None:
    """The deadline view_and_deadline tells, without the view (a push's)."""
    if not table_dispatch.is_table(match):
        return deadlines.deadline_of(game.id)
    on_clock, due = table_clocks.clock_part(game.id)
    return due.get(clock_seat if clock_seat is not None else table_clocks.mail_clock_seat(match, seat, on_clock, due))


def seat_link(game_id: str, seat: int, moment: datetime) -> str:
    """The seat page's address with a fresh link key, which opens the seat in a browser once."""
    return links.seat_link(game_id, seat, moment)


def new_reply_address(game_id: str, seat: int, version: int, moment: datetime) -> str:
    """play+<secret>@MAIL_DOMAIN; the secret (stored only hashed) plays for `seat` until the next
    move is recorded (see MailToken.event_seq)."""
    secret = secrets.token_urlsafe(18)
    db.session.add(MailToken(token_hash=hash_secret(secret), purpose="reply", game_id=game_id, seat=seat,
                             version=version, event_seq=last_seq(game_id), created_at=moment))
    return rfc5322.address("play", secret)


def enqueue_mail(scene: Scene, kind: str, to: str, subject: str, text: str, moment: datetime,
                 in_reply_to: str | None = None, unsubscribe: str | None = None,
                 auto: str = "auto-generated") -> None:
    message_id = rfc5322.new_message_id(scene.game_id, scene.seat, kind)
    html = html_part.render(scene, text) if setting("MAIL_HTML") else None
    mail = rfc5322.build(to=to, subject=subject, text=text, message_id=message_id, moment=moment,
                         reply_to=scene.reply_address, game_id=scene.game_id, seat=scene.seat,
                         version=scene.version, in_reply_to=in_reply_to, unsubscribe=unsubscribe, auto=auto,
                         html=html)
    outbox.enqueue(MAIL, kind, to, rfc5322.serialise(mail), message_id, game_id=scene.game_id,
                   seat=scene.seat, version=scene.version, moment=moment)


def write_mail(game, match, seat: int, to: str, kind: str, moment: datetime, clock_seat: int | None = None) -> None:
    with composing(MAIL, kind, to, moment, game.id, seat, game.version):
        scene = scene_for(game, match, seat, moment, clock_seat=clock_seat)
        scene.said = chat_lines.take_unmailed(game.id, seat)
        text = mail_text.body(scene, kind)
        enqueue_mail(scene, kind, to, mail_text.subject(scene, kind), text, moment)


def write_answer(game, match, seat: int, reply: MailReply, moment: datetime, to: str | None = None) -> None:
    """The answer to a reply that played (or tried to): what was played, what failed, the state.
    It goes to the seat's confirmed address only (`to`), never to the From the reply claims:
    without one, the reply still counts but is not answered (no hand, no fresh reply address to
    whoever wrote it)."""
    record_inbound(reply.message_id, game.id, "failed" if reply.failure else "played", moment)
    if to is None:
        log.info("reply %s for game %s seat %s not answered: no confirmed address on file",
                 reply.message_id, game.id, seat)
        return
    with composing(MAIL, "answer", to, moment, game.id, seat, game.version):
        scene = scene_for(game, match, seat, moment, after=reply.since_seq)
        scene.said = chat_lines.take_unmailed(game.id, seat)
        lines = (compose.error_answer(mail_text.refusal(reply.failure, scene), reply.played) if reply.failure
                 else ["Played: " + "; ".join(reply.played) + ".", *reply.told])
        subject = mail_text.subject(scene)
        enqueue_mail(scene, "answer", to, subject, mail_text.body(scene, "answer", lines),
                     moment, in_reply_to=reply.message_id, auto="auto-replied")


def confirmed_email(game_id: str, seat: int) -> str | None:
    """The seat's email on file if its owner confirmed it, else None."""
    contact = contact_of(game_id, seat)
    return contact.email if contact and confirm.may_mail(contact.email) else None


def record_inbound(message_id: str, game_id: str | None, outcome: str, moment: datetime,
                   sender: str | None = None) -> None:
    db.session.add(InboundMail(message_id=message_id[:250], game_id=game_id, outcome=outcome,
                               received_at=moment, sender=sender))


def write_webhook(game, match, seat: int, url: str, event_type: str, moment: datetime,
                  clock_seat: int | None = None) -> None:
    with composing(WEBHOOK, event_type, url, moment, game.id, seat, game.version):
        _write_webhook(game, match, seat, url, event_type, moment, clock_seat)


def _write_webhook(game, match, seat: int, url: str, event_type: str, moment: datetime,
                   clock_seat: int | None = None) -> None:
    view, deadline = view_and_deadline(game, match, seat, clock_seat)
    body = {
        "type": event_type,
        "timestamp": moment.isoformat(),
        "data": {
            "game_id": game.id, "version": game.version, "seat": seat,
            # as the view has it: one seat, or at a table every seat to move (one per board)
            "to_move": view["to_move"], "your_turn": is_to_move(match, seat),
            "deadline": deadline.isoformat() if deadline else None,
            "events": seat_events(game, seat, own_seq(game, seat)),
            "view": view,
        },
    }
    msg_id = "msg_" + secrets.token_urlsafe(18)
    outbox.enqueue(WEBHOOK, event_type, url, json.dumps(body, separators=(",", ":")),
                   msg_id, game_id=game.id, seat=seat, version=game.version, moment=moment)


def write_push(game, match, seat: int, endpoint: str, kind: str, moment: datetime,
               clock_seat: int | None = None) -> None:
    """A push to one browser: who plays whom, the deadline, the seat page's path (push/notice.py)."""
    with composing(PUSH, kind, endpoint, moment, game.id, seat, game.version):
        names = {s.seat: s.name for s in game.seats}
        body = push_notice.payload(game.id, seat, game.version, kind, mail_text.matchup(names, seat),
                                   is_to_move(match, seat), deadline_told(game, match, seat, clock_seat))
        outbox.enqueue(PUSH, kind, endpoint, body, "push_" + secrets.token_urlsafe(18), game_id=game.id,
                       seat=seat, version=game.version, moment=moment)


# Every way out, in the order a seat's notices are written.
WAYS = (
    Way(MAIL, lambda listener: [listener.email] if listener.email else [],
        lambda contact, reason: contact is not None and mail_hears(contact, reason), write_mail),
    Way(WEBHOOK, lambda listener: [listener.contact.webhook_url] if listener.contact and listener.contact.webhook_url
        else [], lambda contact, reason: True, write_webhook),
    Way(PUSH, lambda listener: listener.endpoints, lambda contact, reason: True, write_push),
)
