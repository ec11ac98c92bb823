"""Moves by email: one inbound message in, its commands played through the store, an answer out.

The message reaches us through the SMTP listener (smtpd.py) or an MTA pipe
(`flask notify inbound < rfc5322.eml`). Its recipient is a reply address
play+<secret>@MAIL_DOMAIN: the secret (stored only hashed) names one seat of one game until the
next move. A reply to an older turn (a move was made since), garbage or an illegal move changes
nothing and is answered saying why; so does mail to a wrong secret, but its fixed answer goes only
to a known player (see answer_unknown). Each command is played exactly like POST
/games/{id}/actions (the store's locked load, apply, record), and a reply's commands together
with its answer commit as one transaction (see play_reply).
"""
from __future__ import annotations

import email
import email.policy
import hashlib
import logging
import re
from datetime import timedelta
from functools import partial
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from sqlalchemy import func, select

from ...core.errors import Problem
from ...core.extensions import db
from ...core.tokens import hash_secret
from ...games import deadlines, messages, moves, plans, store
from ...games.models import Game
from ...games.table_game import is_table_state
from ...rules import IllegalAction
from ...rules.plans import Plan
from .. import dispatch, outbox, table_dispatch
from ..config import setting
from ..consent import confirm, unsubscribing
from ..consent.addresses import normalised
from ..contacts import contact_of
from ..mail import compose, mail_text, rfc5322
from ..mail.channel import MAIL
from ..models import InboundMail, MailConfirmation, MailToken
from . import invitations, mime_shape, senders
from .commands import CommandError, Outcome, parse_commands, resolve, strip_reply, subject_text, text_of

log = logging.getLogger(__name__)
_LOCAL = re.compile(r"^(play|unsubscribe|confirm|join|start)\+([A-Za-z0-9_-]{8,64})$")
_MESSAGE_ID = re.compile(r"^<[^<>\s]{3,200}>$")  # threads the answer; anything else is not echoed
ANSWERED_UNKNOWN = "unknown-address"
WRONG_SENDER = "wrong-sender"


class Stale(Exception):
    pass


def parse(raw: bytes) -> EmailMessage:
    """The message, once its MIME tree's shape passed mime_shape.check (Refused otherwise)."""
    mime_shape.check(raw)
    try:
        return email.message_from_bytes(raw, policy=email.policy.default)
    except RecursionError:  # a shape the scan let through: refused for good all the same
        raise mime_shape.Refused("its MIME parts nest too deep to be read") from None


def our_address(addresses) -> tuple[str, str, str] | None:
    """The first (full address, kind, secret) at MAIL_DOMAIN among `addresses`."""
    domain = rfc5322.domain().lower()
    for _, addr in getaddresses([a for a in addresses if a]):
        local, _, host = addr.rpartition("@")
        match = _LOCAL.match(local)
        if host.lower() == domain and match:
            return addr, match.group(1), match.group(2)
        if host.lower() == domain and local.lower() == invitations.NEW_LOCAL:
            return addr, "new", ""
    return None


def is_automatic(msg: EmailMessage) -> bool:
    """Bounces, vacation replies and list mail: never answered, so no mail loop can start."""
    auto = (msg.get("Auto-Submitted") or "no").strip().lower()
    precedence = (msg.get("Precedence") or "").strip().lower()
    sender = parseaddr(msg.get("From") or "")[1].lower()
    ours = parseaddr(setting("MAIL_FROM"))[1].lower()
    return (auto != "no" or precedence in ("bulk", "junk", "list", "auto_reply")
            or bool(msg.get("X-Autoreply") or msg.get("X-Autorespond")) or not sender or sender == ours
            or sender.startswith(("mailer-daemon@", "postmaster@")))


def _once(work):
    try:
        result = work()
        db.session.commit()
        return result
    except BaseException:
        db.session.rollback()
        raise


def receive(raw: bytes, recipients: list[str] | None = None, envelope_sender: str | None = None) -> Outcome:
    """Handle one inbound message (bytes as received). `recipients` and `envelope_sender` (MAIL
    FROM): the SMTP envelope's, when known (None: not known; "": the null sender of a bounce).
    A message whose MIME tree or headers no reply has raises mime_shape.Refused, before it is
    parsed; so does one the email package cannot read without RecursionError (a header of nested
    comments, in the shape scan or any later read): the same bytes would fail on every retry."""
    try:
        return _receive(raw, recipients, envelope_sender)
    except RecursionError:
        db.session.rollback()
        raise mime_shape.Refused("its headers nest too deep to be read") from None


def _receive(raw: bytes, recipients: list[str] | None, envelope_sender: str | None) -> Outcome:
    msg = parse(raw)
    message_id = (msg.get("Message-ID") or "").strip() or "sha256:" + hashlib.sha256(raw).hexdigest()
    moment = deadlines.now()
    if is_automatic(msg) or envelope_sender == "":
        return Outcome("ignored", "an automatic message (bounce, auto-reply or list mail): not answered")
    if _once(lambda: db.session.scalar(select(InboundMail.id).where(InboundMail.message_id == message_id[:250]))):
        return Outcome("duplicate", f"message {message_id} was handled already")
    sender = parseaddr(msg.get("From") or "")[1]
    found = our_address((recipients or []) + msg.get_all("Delivered-To", []) + msg.get_all("X-Original-To", [])
                        + msg.get_all("To", []) + msg.get_all("Cc", []))
    token = None
    if found and found[1] in ("join", "start", "new"):
        return invitations.receive(msg, message_id, found[1], found[2], envelope_sender, moment)
    if found and found[1] == "confirm":
        if _once(lambda: db.session.get(MailConfirmation, hash_secret(found[2]))) is not None:
            return _once(lambda: answer_confirmation(msg, message_id, hash_secret(found[2]), moment))
    elif found and found[1] == "unsubscribe":  # a List-Unsubscribe button's mail: the key is what counts
        done = _once(lambda: unsubscribe(found[2], message_id, moment))
        if done is not None:
            return Outcome("unsubscribed" if done == unsubscribing.DIGEST_OFF else "stopped",
                           "no more digests to that address" if done == unsubscribing.DIGEST_OFF
                           else "the address gets no more mail from this service")
    elif found:
        token = _once(lambda: db.session.get(MailToken, hash_secret(found[2])))
        token = token if token is not None and token.purpose == "reply" else None
    if token is None:
        address = found[0] if found else (recipients or ["(no address of ours)"])[0]
        answered = _once(lambda: answer_unknown(message_id, sender, moment))
        return Outcome("unknown-address", f"{address} is not a valid reply address"
                       + ("" if answered else " (not answered: not a known player, or answered enough)"))
    owner = _once(lambda: dispatch.confirmed_email(token.game_id, token.seat))
    if not senders.is_sender(msg, envelope_sender, owner):
        return _once(lambda: wrong_sender(token.game_id, token.seat, owner, sender, message_id, moment))
    if confirm.first_word(strip_reply(text_of(msg))) == "stop":
        return _once(lambda: stop_seat_address(token.game_id, token.seat, message_id, moment))
    return play_reply(msg, message_id, token.game_id, token.seat, token.version, moment, token.event_seq)


def wrong_sender(game_id: str, seat: int, owner: str | None, sender: str, message_id: str, moment) -> Outcome:
    """A reply for a seat from anyone but its confirmed address (or failing MAIL_REQUIRE_AUTH):
    nothing is played and the sender is not answered; the seat's own address is told, at most
    WRONG_SENDER_NOTICES_PER_HOUR times an hour. Only told mail leaves a row (junk adds none)."""
    detail = "not played: the sender is not the seat's confirmed address (or not authenticated)"
    if owner is None or noticed(owner, moment - timedelta(hours=1)) >= setting("WRONG_SENDER_NOTICES_PER_HOUR"):
        return Outcome("wrong-sender", detail, game_id)
    game = db.session.get(Game, game_id)
    dispatch.record_inbound(message_id, game_id, WRONG_SENDER, moment, sender=senders.mailbox(owner)[:254])
    names = {s.seat: s.name for s in game.seats}
    notice_id = rfc5322.new_message_id(game_id, seat, "wrong-sender")
    mail = rfc5322.build(to=owner, subject=mail_text.game_subject(game_id),
                         text=compose.wrong_sender_body(senders.shown(sender), names, seat),
                         message_id=notice_id, moment=moment, game_id=game_id, seat=seat)
    outbox.enqueue(MAIL, "wrong-sender", owner, rfc5322.serialise(mail), notice_id, game_id=game_id,
                   seat=seat, version=game.version, moment=moment)
    return Outcome("wrong-sender", detail + "; the seat was told", game_id)


def noticed(owner: str, since) -> int:
    return db.session.scalar(select(func.count()).select_from(InboundMail).where(
        InboundMail.sender == senders.mailbox(owner)[:254], InboundMail.received_at >= since,
        InboundMail.outcome == WRONG_SENDER))


def stop_seat_address(game_id: str, seat: int, message_id: str, moment) -> Outcome:
    """`stop` in a reply to a game mail: the seat's address never gets mail from us again (a reply
    secret reached only that address, so the reply speaks for its owner). Good even when stale."""
    contact = contact_of(game_id, seat)
    if contact is not None and contact.email:
        confirm.stop(contact.email, moment)
    dispatch.record_inbound(message_id, game_id, "stopped", moment)
    return Outcome("stopped", "the address gets no more mail from this service", game_id)


def answer_confirmation(msg: EmailMessage, message_id: str, token_hash: str, moment) -> Outcome:
    """A reply to a confirmation mail: its first word `confirm` or `stop` (or a one-word Subject,
    as a List-Unsubscribe mailto sends). Possessing the secret is what counts, not the From. A
    confirmed seat is greeted with where its game stands; nothing else is ever answered."""
    subject = subject_text(msg.get("Subject") or "")
    word = confirm.first_word(strip_reply(text_of(msg))) or (
        confirm.first_word(subject) if len(subject.split()) == 1 else "")
    confirmed = confirm.answer(token_hash, word, moment)
    dispatch.record_inbound(message_id, None, f"confirmation: {word or 'no word'}"[:40], moment)
    if confirmed is not None and confirmed.game_id is not None:
        greet_confirmed(confirmed.game_id, confirmed.seat, confirmed.address, moment)
    if word == "stop":
        return Outcome("stopped", "the address gets no more mail from this service")
    return Outcome("confirmed" if confirmed is not None else "ignored",
                   "the address is confirmed" if confirmed is not None else "no confirm or stop found")


def greet_confirmed(game_id: str, seat: int, address: str, moment) -> None:
    """The seat that asked for the address now confirmed hears where its game stands."""
    game = store.lock_game(game_id)
    contact = contact_of(game_id, seat) if game is not None else None
    match = store.load_match(game) if contact is not None else None
    if match is None or match.is_over or normalised(contact.email or "") != address:
        return
    dispatch.greet(game, match, seat, contact, moment, mail=True, webhook=False)


def answer_unknown(message_id: str, sender: str, moment) -> bool:
    """Mail to a reply address we do not know changes nothing. `From` is only a claim, so the
    fixed answer goes only to a player's address on file, a few times an hour at most; anyone
    else is recorded and not answered (we must not mail whomever a stranger names)."""
    sender, key = sender.lower()[:254], normalised(sender)[:254]  # capped per mailbox, +tags together
    answer = bool(sender) and is_known_player(sender) and \
        answers_to(key, moment - timedelta(hours=1)) < setting("UNKNOWN_ANSWERS_PER_HOUR")
    if not answer:
        # Not recorded at all: junk from strangers (or beyond a player's hourly answers) adds no
        # row, however much of it comes. Only the answers, capped per sender, are kept.
        return False
    dispatch.record_inbound(message_id, None, ANSWERED_UNKNOWN, moment, sender=key)
    reply_id = rfc5322.new_message_id(None, None, "unknown")
    mail = rfc5322.build(to=sender, subject=compose.UNKNOWN_ADDRESS_SUBJECT, text=compose.unknown_address_body(),
                         message_id=reply_id, moment=moment,
                         in_reply_to=message_id if _MESSAGE_ID.match(message_id) else None, auto="auto-replied")
    outbox.enqueue(MAIL, "unknown", sender, rfc5322.serialise(mail), reply_id, moment=moment)
    return True


def is_known_player(address: str) -> bool:
    """A player's address its owner confirmed (and did not stop): the only kind ever answered."""
    return confirm.may_mail(address)


def answers_to(sender: str, since) -> int:
    return db.session.scalar(select(func.count()).select_from(InboundMail).where(
        InboundMail.sender == sender, InboundMail.received_at >= since,
        InboundMail.outcome == ANSWERED_UNKNOWN))


def unsubscribe(key: str, message_id: str, moment) -> str | None:
    done = unsubscribing.follow(key, moment)
    if done is not None:
        dispatch.record_inbound(message_id, None, "unsubscribed" if done == unsubscribing.DIGEST_OFF else "stopped",
                                moment)
    return done


def commands_of(msg: EmailMessage):
    text = strip_reply(text_of(msg))
    if text:
        return parse_commands(text)
    subject = subject_text(msg.get("Subject") or "")
    try:
        commands = parse_commands(subject) if subject else []
    except CommandError:
        commands = []
    if not commands:
        raise CommandError("found no commands in your reply: write them at the top of the mail, one per line")
    return commands


# In words: a version number tells a player nothing.
STALE = ("a move was made since the mail this reply answers was sent (by the other side, or by you from "
         "another mail or device). The game as it stands now is below: reply to this mail instead")


_PLAN_WORDS = re.compile(r"\b(worst|drawn|unless|else|otherwise|if possible|if deadwood)\b", re.IGNORECASE)


def plan_of(msg: EmailMessage) -> Plan | None:
    """The plan a reply holds (docs/plans.md), or None when it holds plain commands: a reply is a
    plan when it says something only a plan can (a conditional, `worst`, `drawn`). Lines that
    say something to the other seat (`say ...`) are no part of it."""
    text = strip_reply(text_of(msg)) or subject_text(msg.get("Subject") or "")
    kept = "\n".join(line for line in text.split("\n") if not line.strip().lower().startswith("say "))
    return Plan.parse(kept) if _PLAN_WORDS.search(kept) else None


_ORDERS = re.compile(r"^\s*(?:standing\s+)?orders\s*:?\s*", re.IGNORECASE)


def orders_of(msg: EmailMessage):
    """The standing orders a reply sets (`orders: pass unless it melds; always go gin`, `orders:
    none`), or None when it does not begin with `orders`."""
    text = strip_reply(text_of(msg)) or subject_text(msg.get("Subject") or "")
    found = _ORDERS.match(text)
    if not found or not text[found.end():].strip():
        return None
    return plans.read_orders(text[found.end():])


def set_orders(game, seat: int, orders, message_id: str, since: int, moment) -> None:
    """Set the seat's orders from its reply; the answer says so (and what they played at once:
    a move they made writes the answer with its change)."""
    reply = dispatch.MailReply(seat, [f"orders: {orders}"], message_id, since)
    context = dispatch.reply_context.set(reply)
    try:
        _orders, played = plans.set_orders(game.id, seat, orders)
    finally:
        dispatch.reply_context.reset(context)
    if not played:
        dispatch.write_answer(game, store.load_match(game), seat, reply, moment,
                              dispatch.confirmed_email(game.id, seat))


def play_plan(game_id: str, seat: int, plan: Plan, message_id: str, since: int) -> None:
    """Play a reply's plan through the move path (plans.plan_decider: refused whole, or played as
    one change); the answer the change writes says what was drawn and what each rule decided."""
    reply = dispatch.MailReply(seat, [str(plan)], message_id, since)
    context = dispatch.reply_context.set(reply)
    try:
        moves.make(game_id, seat=seat, decide=plans.plan_decider(plan, [], told=reply.told))
    finally:
        dispatch.reply_context.reset(context)


def moved_since(game, version: int, event_seq: int | None, seat: int | None = None) -> bool:
    """Whether a move was recorded after the reply's secret was issued. A change that is no move
    (a vacation, a contact change) leaves the secret good. Secrets from before event_seq was
    stored are judged by the version, as they were. At a table only what concerns the seat's
    own board counts: a move on the other board of a partnership leaves its reply good."""
    if event_seq is None:
        return game.version != version
    if seat is not None and is_table_state(game.state):
        return table_dispatch.moved_since(game.id, seat, event_seq)
    return dispatch.last_seq(game.id) != event_seq


def resolved(command, match, seat: int) -> dict:
    """The action a reply's command names, read against the seat's view of the locked match."""
    return resolve(command, seat_view(match, seat))


def seat_view(match, seat: int) -> dict:
    """What a reply's commands are read against: the seat's view, at a table its own board's
    (an empty one while it plays on no board: the engine then says why nothing plays)."""
    view = match.view(seat)
    if "format" in view:
        return (view.get("my_board") or {}).get("view") or {}
    return view


def play_reply(msg: EmailMessage, message_id: str, game_id: str, seat: int, version: int,
               moment, event_seq: int | None = None) -> Outcome:
    """Play a reply's commands in order, in one transaction under the game's lock. A command the
    rules refuse is undone alone (a savepoint) and ends the reply: what came before it stays
    played, and the answer says why. If the process dies midway, nothing of the reply is kept,
    so the mail server's retry plays it whole (its secret is still good: no move was recorded)."""
    played: list[str] = []
    command, since = None, 0
    try:
        try:
            game = store.lock_game(game_id)
            since = dispatch.last_seq(game_id)
            if game is None:
                raise Stale("the game no longer exists")
            shut = store.closed_by(game_id, seat)  # a suspended player's seat plays no reply either
            if shut is not None:
                raise shut
            if moved_since(game, version, event_seq, seat):
                raise Stale(STALE)
            command = "your orders"
            orders = orders_of(msg)  # standing orders set by mail (issue 39)
            if orders is not None:
                command = f"orders: {orders}"
                set_orders(game, seat, orders, message_id, since, moment)
                db.session.commit()
                return Outcome("played", command, game_id)
            command = "your plan"
            plan = plan_of(msg)  # a whole turn said in advance (issue 39): played as one change
            if plan is not None:
                command = str(plan)
                play_plan(game_id, seat, plan, message_id, since)
                db.session.commit()
                return Outcome("played", command, game_id)
            commands = commands_of(msg)
            moves_in = [index for index, command in enumerate(commands) if command.verb != "say"]
            for index, command in enumerate(commands):
                last = bool(moves_in) and index == moves_in[-1]  # the last move's change writes the answer
                if command.verb == "say":  # a message to the other seats: no move, the secret stays good
                    with db.session.begin_nested():
                        messages.post(game, seat, command.said, moment)
                    played.append(str(command))
                    continue
                with db.session.begin_nested():  # a refused command undoes itself, and only itself
                    context = dispatch.reply_context.set(dispatch.MailReply(
                        seat, played + [str(command)], message_id, since) if last else None)
                    try:  # the move path, in the session's transaction
                        moves.make(game_id, seat=seat, decide=partial(resolved, command))
                    finally:
                        dispatch.reply_context.reset(context)
                played.append(str(command))
        except (CommandError, IllegalAction, Problem, Stale) as exc:
            detail = getattr(exc, "message", None) or getattr(exc, "detail", None) or str(exc)
            named = isinstance(exc, (Stale, CommandError)) or detail.lower().startswith(f"{command}:".lower())
            problem = detail if named else f"{command}: {detail}"
            answer_failure(game_id, seat, played, problem, message_id, since, moment)
            db.session.commit()  # the commands played before the failure, and the answer
            status = "stale" if isinstance(exc, Stale) else "failed"
            log.info("inbound %s for %s seat %s: %s (%s)", message_id, game_id, seat, status, problem)
            return Outcome(status, problem, game_id)
        if not moves_in:  # only messages: no move's change recorded the reply (a redelivery is a duplicate)
            dispatch.record_inbound(message_id, game_id, "said", moment)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return Outcome("played", "; ".join(played), game_id)


def answer_failure(game_id: str, seat: int, played: list[str], problem: str, message_id: str,
                   since: int, moment) -> None:
    game = db.session.get(Game, game_id)
    match = store.load_match(game) if game else None
    if match is None:
        dispatch.record_inbound(message_id, game_id, "failed", moment)
        return
    reply = dispatch.MailReply(seat, played, message_id, since, failure=problem)
    dispatch.write_answer(game, match, seat, reply, moment, dispatch.confirmed_email(game_id, seat))
