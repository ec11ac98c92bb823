"""Start and join by mail.

- `POST /games` with `"invite_email"`: the opponent is sent an invitation (who invites, the rules
  in words, `join` by reply, the web invite link). Its reply address is join+<invite code>, the
  same secret as the link's, so a reply and the page open the same seat, once. At a table,
  `"invite_emails"` (one per seat to fill, in seat order) mails each its own seat's code.
- A reply `join` (or `join Name`) from the invited address takes the seat its code opens: that
  address counts as confirmed (the reply proves its owner reads mail sent to it), and the game goes
  on by mail.
- A mail to new@MAIL_DOMAIN naming the opponent's address (and optionally `name ...`, `rules ...`)
  is answered with one mail to its sender asking to confirm (start+<secret>); `confirm` creates the
  game, the sender in seat 0 with a confirmed address, and sends the invitation.
- A seat's name (the one asked for, else the From's display name, the address's local part,
  "Guest" or "Host") is checked as an anonymous seat's over HTTP (games.changes.check_seat_name):
  a registered player's name, one like it or the house bot's is passed over for the next.

Abuse limits: INVITES_PER_SENDER_PER_DAY per sender (address) and per HTTP client, and
INVITES_PER_RECIPIENT_PER_DAY per invited address, whoever asks (every address counted by its
mailbox key, consent.addresses.normalised, so `+tag` variants count as one); none to an address that
said `stop`; the Subject is fixed text, the inviter's name only in the body, quoted; an
invitation goes only where a player asked (nobody else is mailed who never played); replies to
join/start addresses count only from the address they were sent to; `stop` in a reply (or the
List-Unsubscribe button) stops the address for good.
"""
from __future__ import annotations

import json
import re
import secrets
from datetime import timedelta
from email.message import EmailMessage
from email.utils import getaddresses

from flask import has_request_context, request
from sqlalchemy import func, select

from ...core.errors import Problem
from ...core.extensions import db
from ...core.tokens import hash_secret
from ...games import changes, seating, store
from ...games.models import GameClock
from ...games.table_game import SEAT_COUNTS
from ...rules import Rules
from ...rules.options import PRESETS
from .. import outbox
from ..config import setting
from ..consent import confirm
from ..consent.addresses import check_email, normalised
from ..contacts import set_contact
from ..mail import mail_text, rfc5322
from ..mail.channel import MAIL
from ..mail.wording import rules_in_words
from ..models import InboundMail, MailInvitation
from . import senders
from .commands import Outcome, strip_reply, subject_text, text_of

NEW_LOCAL = "new"
MORE_INVITEES = "_more_invitees"  # kept with a new@ request's rules: the addresses of seats 2, 3, ...
MOVE_TIME_HOURS = 72  # a game started by mail has the API's default move time
_NAME = re.compile(r"^[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]{1,40}$")


class Refused(Exception):
    """A mail to new@ we will not act on; the text is for the log (the sender is not answered)."""


# -- inviting ----------------------------------------------------------------------------------

def invite(game, invite_code: str, address: str, inviter_email: str | None, moment) -> None:
    """An invitation for seat 1 of `game` (just created) to `address`, asked over HTTP."""
    invite_seats(game, {1: invite_code}, {1: address}, inviter_email, moment, field="invite_email")


def invite_seats(game, invites: dict[int, str], addresses: dict[int, str], inviter_email: str | None,
                 moment, field: str = "invite_emails") -> None:
    """An invitation per seat of `game` (just created) to its address, each with the seat's own
    invite code, asked over HTTP. Every address is checked before any is sent, so a refusal leaves
    nothing (the caller's transaction undoes the game). Problems: validation-error (not an
    address), invitation-refused (an address said stop, or is the inviter's own),
    too-many-invitations (the sender's or the client's day has fewer left than asked)."""
    checked = {}
    for seat, address in sorted(addresses.items()):
        try:
            checked[seat] = check_email(address)
        except ValueError as exc:
            raise Problem("validation-error", f"seat {seat}: {exc}", errors={"json": {field: [str(exc)]}}) from None
        if any(normalised(other) == normalised(checked[seat]) for other in list(checked.values())[:-1]):
            why = f"{checked[seat]} is an address given already (the same mailbox): each invitee takes one seat"
            raise Problem("validation-error", why, errors={"json": {field: [why]}})
        if confirm.status(address) == confirm.STOPPED or senders.same_address(address, inviter_email):
            raise Problem("invitation-refused", f"no invitation can be sent to {checked[seat]} (it asked for no "
                          "mail from this service, or it is your own); nothing was changed")
    client = request.remote_addr[:64] if has_request_context() and request.remote_addr else None
    sender = senders.mailbox(inviter_email) if inviter_email else None
    if over_limit(sender, client, moment, asked=len(checked)):
        raise Problem("too-many-invitations", "enough invitations were sent today by you; nothing was "
                      "changed (invite by the link instead, or try again tomorrow)")
    if recipients_over_limit(checked.values(), moment):
        raise Problem("too-many-invitations", "an address you invite was sent enough invitations today; "
                      "nothing was changed (invite by the link instead, or try again tomorrow)")
    for seat, address in checked.items():
        row = MailInvitation(game_id=game.id, sender=sender, client=client, invitee=address,
                             invitee_key=normalised(address), join_hash=hash_secret(invites[seat]), created_at=moment)
        db.session.add(row)
        send_invitation(game, row, invites[seat], address, moment, seat)


def over_limit(sender: str | None, client: str | None, moment, asked: int = 1) -> bool:
    """Whether `asked` more invitations would take the sender's or the client's day over the cap."""
    day_ago, cap = moment - timedelta(days=1), setting("INVITES_PER_SENDER_PER_DAY")
    for column, value in ((MailInvitation.sender, sender), (MailInvitation.client, client)):
        if value and db.session.scalar(select(func.count()).select_from(MailInvitation).where(
                column == value, MailInvitation.created_at > day_ago)) + asked > cap:
            return True
    return False


def recipients_over_limit(addresses, moment) -> bool:
    """Whether one more invitation to any of `addresses` would take it over its day's cap
    (INVITES_PER_RECIPIENT_PER_DAY invitations sent to its mailbox, whoever asked)."""
    keys = {normalised(address) for address in addresses}
    day_ago = moment - timedelta(days=1)
    sent = dict(db.session.execute(
        select(MailInvitation.invitee_key, func.count()).where(
            MailInvitation.invitee_key.in_(keys), MailInvitation.sent_at.is_not(None),
            MailInvitation.sent_at > day_ago).group_by(MailInvitation.invitee_key)).all())
    return any(sent.get(key, 0) + 1 > setting("INVITES_PER_RECIPIENT_PER_DAY") for key in keys)


# A table's invitation: each seat's carries its own invite code.
TABLE_WORDS = {3: " for three players (one sits out each hand; the winner of a hand plays the one who sat out)",
               4: " for four players in two partnerships (two games at once, partners' points combined)",
               6: " for six players in two teams of three (three games at once, teammates' points combined)",
               8: " for eight players in two teams of four (four games at once, teammates' points combined)"}


def table_words(seats: int, seat: int) -> str:
    """What kind of game, and at a partnership whose partner the invitee is (the code decides it)."""
    if seats == 2:
        return ""
    if seats in TABLE_WORDS:
        words = TABLE_WORDS[seats]
    else:
        words = f" for {seats} players in two teams (a game per pair of opponents at once, team points combined)"
    if seats % 2 == 0:  # a partnership: seats 0, 2, .. against 1, 3, ..
        words += f"; you take seat {seat}, in the team of seats {', '.join(map(str, range(seat % 2, seats, 2)))}"
    return words


def send_invitation(game, row: MailInvitation, invite_code: str, to: str, moment, seat: int = 1) -> None:
    inviter = game.seats[0].name
    reply_to = rfc5322.address("join", invite_code)
    base = setting("BASE_URL").rstrip("/")
    hours = _move_time(game.id)
    # The inviter's name is a stranger's words: never in the Subject, and quoted here as what they typed.
    text = (f"A player of the Gin Rummy service at {base} invites you to a game of Gin "
            f"Rummy{table_words(len(game.seats), seat)}, played by mail: one move at a time, at your own pace.\n\n"
            "The player gave this name (their own words, not checked by the service):\n\n"
            f"    \"{inviter}\"\n\n"
            f"The rules: {rules_in_words(game.rules)}\n"
            + (f"Time per move: {hours} hours.\n" if hours else "No time limit per move.\n") +
            "\nTo join, reply to this mail with the one word\n\n    join\n\n"
            "or with the name you want to play under, like\n\n    join Bob\n\n"
            "Each of your turns then comes as a mail with your hand and the commands to reply "
            "with. Replies count only from this address.\n\n"
            "Or join in a browser (the link works once):\n"
            f"{base}/join/{game.id}#invite={invite_code}\n\n"
            "If you don't want to play, ignore this mail: nothing more is sent unless you reply. "
            "To never get mail from this service, reply `stop`.\n")
    message_id = rfc5322.new_message_id(game.id, seat, "invitation")
    mail = rfc5322.build(to=to, subject=mail_text.game_subject(game.id),
                         text=text, message_id=message_id, moment=moment, reply_to=reply_to,
                         game_id=game.id, seat=seat)
    outbox.enqueue(MAIL, "invitation", to, rfc5322.serialise(mail), message_id, game_id=game.id,
                   seat=seat, moment=moment)
    row.sent_at = moment


def _move_time(game_id: str) -> int | None:
    clock = db.session.get(GameClock, game_id)
    return clock.move_time_hours if clock else MOVE_TIME_HOURS


# -- replies to join+, start+ and new@ -----------------------------------------------------------

def receive(msg: EmailMessage, message_id: str, kind: str, secret: str, envelope_sender: str | None, moment):
    words = strip_reply(text_of(msg)).split("\n", 1)[0].split()
    if not words:  # a List-Unsubscribe mailto sends only a Subject
        words = subject_text(msg.get("Subject") or "").split()[:1]
    word = words[0].lower().strip(".!,;:") if words else ""
    try:
        if kind == "new":
            outcome = Outcome(*_new_game(msg, envelope_sender, moment))
        elif kind == "start":
            outcome = Outcome(*_start(msg, secret, word, envelope_sender, moment))
        else:
            outcome = Outcome(*_join(msg, secret, word, words[1:], envelope_sender, moment))
        if outcome.status not in ("ignored", "wrong-sender"):  # junk leaves no row
            db.session.add(_inbound_row(message_id, outcome, moment))
        db.session.commit()
        return outcome
    except BaseException:
        db.session.rollback()
        raise


def _inbound_row(message_id: str, outcome, moment):
    return InboundMail(message_id=message_id[:250], game_id=outcome.game_id, outcome=outcome.status[:40],
                       received_at=moment)


def _join(msg, secret: str, word: str, rest: list[str], envelope_sender, moment):
    row = db.session.scalar(select(MailInvitation).where(MailInvitation.join_hash == hash_secret(secret))
                            .with_for_update())
    if row is None or row.game_id is None:
        return "ignored", "not an invitation's reply address"
    if not senders.is_sender(msg, envelope_sender, row.invitee):
        return "wrong-sender", "a join reply counts only from the invited address"
    if word == "stop":
        confirm.stop(row.invitee, moment)
        return "stopped", "the address gets no more mail from this service", row.game_id
    if word != "join":
        return "ignored", "no join or stop found"
    if row.joined_at is not None:
        return "duplicate", "this invitation was used already", row.game_id
    game = store.lock_game(row.game_id)
    seat = next((s for s in (game.seats[1:] if game is not None else []) if s.invite_hash == row.join_hash), None)
    if seat is None or seat.joined_at is not None:
        return "failed", "the seat was taken already (by the invite link?)", row.game_id
    name = _seat_name(" ".join(rest), msg_display_name(msg), row.invitee.split("@")[0], "Guest")
    if name is None:
        return "failed", "no name the seat may take (each is a registered player's or looks like one)", row.game_id
    try:
        with db.session.begin_nested():  # a refused join leaves the contact unset too
            set_contact(row.game_id, seat.seat, moment, email=row.invitee, mail_mode="turn")
            # The reply came from the address the invitation went to: its owner reads that mail.
            confirm.confirmed(row.invitee, moment)
            # The invite code opens its seat (1 of two, or any of a table: the deal waits for every
            # seat); the last seat taken deals, and the first turn's mails go to every seat.
            seating.take_seat(row.game_id, secret, name)
    except (Problem, ValueError) as exc:
        return "failed", getattr(exc, "detail", None) or str(exc), row.game_id
    row.joined_at = moment
    return "joined", f"seat {seat.seat} taken as {name}", row.game_id


def msg_display_name(msg) -> str:
    found = getaddresses(msg.get_all("From", []))
    return found[0][0] if len(found) == 1 else ""


def _name(text: str) -> str | None:
    text = " ".join((text or "").split())[:40].strip()
    return text if text and _NAME.match(text) and "=?" not in text else None


def _seat_name(*candidates: str) -> str | None:
    """The first of the candidates (the name asked for, then ones taken from the mail) an anonymous
    seat may take: a player's name, one like it, the house bot's or an unfit one is passed over
    (games.changes.check_seat_name), so no seat started or joined by mail passes for a member."""
    for text in candidates:
        name = _name(text)
        if name is None:
            continue
        try:
            changes.check_seat_name(name)
        except Problem:
            continue
        return name
    return None


def _start(msg, secret: str, word: str, envelope_sender, moment):
    row = db.session.scalar(select(MailInvitation).where(MailInvitation.start_hash == hash_secret(secret))
                            .with_for_update())
    if row is None:
        return "ignored", "not a start address"
    if not senders.is_sender(msg, envelope_sender, row.sender):
        return "wrong-sender", "a start reply counts only from the address that asked"
    if word == "stop":
        confirm.stop(row.sender, moment)
        return "stopped", "the address gets no more mail from this service"
    if word != "confirm" or row.game_id is not None:
        return "ignored", "no confirm or stop found, or the game was started already"
    rules = json.loads(row.rules or "{}")
    others = rules.pop(MORE_INVITEES, [])  # a table asked for: seats 2, 3, ... in the order given
    if any(confirm.status(address) == confirm.STOPPED for address in [row.invitee, *others]):
        return "failed", "an opponent's address asked for no mail"
    if recipients_over_limit([row.invitee, *others], moment):
        return "failed", "an opponent's address was sent enough invitations today"
    # Checked again: a player may have taken the name since the request.
    name = _seat_name(row.inviter_name or "", row.sender.split("@")[0], "Host")
    if name is None:
        return "failed", "no name the seat may take (each is a registered player's or looks like one)"
    starter = senders.from_address(msg)
    confirm.confirmed(starter, moment)
    game, _token, invites = seating.open_game(Rules.from_dict(rules), name, 2 + len(others),
                                            MOVE_TIME_HOURS)
    set_contact(game.id, 0, moment, email=starter, mail_mode="turn")
    row.game_id, row.join_hash = game.id, hash_secret(invites[1])
    send_invitation(game, row, invites[1], row.invitee, moment)
    for seat, address in enumerate(others, 2):
        more = MailInvitation(game_id=game.id, sender=row.sender, invitee=address, invitee_key=normalised(address),
                              join_hash=hash_secret(invites[seat]), created_at=moment)
        db.session.add(more)
        send_invitation(game, more, invites[seat], address, moment, seat)
    _tell_starter(game, starter, ", ".join([row.invitee, *others]), moment)
    return "started", f"game {game.id} created, invitation sent", game.id


def _tell_starter(game, to: str, invitee: str, moment) -> None:
    text = (f"Your game is set up, {game.seats[0].name}: the invitation went to {invitee}.\n"
            "You will get a mail with your hand as soon as they join; reply to it to play.\n")
    message_id = rfc5322.new_message_id(game.id, 0, "started")
    mail = rfc5322.build(to=to, subject=mail_text.game_subject(game.id), text=text,
                         message_id=message_id, moment=moment, game_id=game.id, seat=0)
    outbox.enqueue(MAIL, "started", to, rfc5322.serialise(mail), message_id, game_id=game.id, seat=0,
                   moment=moment)


def _new_game(msg, envelope_sender, moment):
    """A mail to new@: checked, then one mail to its sender asking to confirm (no game yet)."""
    sender = senders.from_address(msg)
    if sender is None or not senders.is_sender(msg, envelope_sender, sender):
        return "ignored", "no single From address, or it does not match the envelope / authentication"
    try:
        sender = check_email(sender)
        opponents, name, rules = parse_request(strip_reply(text_of(msg)), msg_display_name(msg), sender)
    except (ValueError, Refused) as exc:
        return "ignored", f"not a game request: {exc}"
    if any(confirm.status(address) == confirm.STOPPED for address in [sender, *opponents]):
        return "ignored", "an address that said stop"
    if over_limit(senders.mailbox(sender), None, moment, asked=len(opponents)):
        return "ignored", "enough invitations from this sender today"
    if recipients_over_limit(opponents, moment):
        return "ignored", "an opponent's address was sent enough invitations today"
    secret = secrets.token_urlsafe(32)
    others = opponents[1:]  # as given, like the first
    db.session.add(MailInvitation(sender=senders.mailbox(sender), invitee=opponents[0],
                                  invitee_key=normalised(opponents[0]), inviter_name=name,
                                  rules=json.dumps({**rules, **({MORE_INVITEES: others} if others else {})}),
                                  start_hash=hash_secret(secret), created_at=moment))
    reply_to = rfc5322.address("start", secret)
    text = (f"Someone asked the Gin Rummy service at {setting('BASE_URL').rstrip('/')} from this "
            f"address to start a game against {', '.join(opponents)}.\n"
            f"The rules: {rules_in_words(Rules.from_dict(rules).to_dict())}\n\n"
            "To start it and send the invitation, reply to this mail with the one word\n\n    confirm\n\n"
            "If you did not ask for this, ignore this mail; to never get mail from this service, "
            "reply `stop`.\n")
    message_id = rfc5322.new_message_id(None, None, "start")
    mail = rfc5322.build(to=sender, subject="[Gin] Confirm your new game", text=text, message_id=message_id,
                         moment=moment, reply_to=reply_to)
    outbox.enqueue(MAIL, "start", sender, rfc5322.serialise(mail), message_id, moment=moment)
    return "asked", "the sender was asked to confirm the new game"


def parse_request(text: str, display_name: str, sender: str) -> tuple[list[str], str, dict]:
    """(the opponents' addresses, the starter's name, rules) from a new@ mail's body:

        bob@example.org
        name Ann
        rules oklahoma target 150

    An address per line: one makes a game of two, more a table (seats 1, 2, ... in their order)."""
    opponents, asked, rules = [], "", {}
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        head = words[0].lower().rstrip(":")
        if head == "name" and _name(" ".join(words[1:])):
            asked = " ".join(words[1:])
        elif head == "rules":
            rules = _rules(words[1:])
        elif "@" in line:
            candidate = words[-1] if head in ("opponent", "invite", "to") else words[0]
            opponents.append(check_email(candidate.strip("<>,;")))
        else:
            raise Refused(f"a line that is not an address, name or rules: {line[:60]!r}")
    if not opponents or any(senders.same_address(o, sender) for o in opponents):
        raise Refused("no opponent's address (other than the sender's own)")
    if len({normalised(o) for o in opponents}) != len(opponents) or len(opponents) + 1 not in SEAT_COUNTS:
        raise Refused(f"{len(opponents)} opponents' addresses (an address twice, or no table of that size)")
    seating.check_seats(Rules.from_dict(rules), len(opponents) + 1)  # Mahjong gin is for two, say
    name = _seat_name(asked, display_name, sender.split("@")[0], "Host")
    if name is None:
        raise Refused("no name the starter's seat may take (each is a registered player's or looks like one)")
    return opponents, name, rules


def _rules(words: list[str]) -> dict:
    """`oklahoma target 150 knock_limit 8`: a preset's name, and option names each followed by a
    value (a number, yes/no, or a word); Rules checks them (InvalidRules names a bad one)."""
    rules: dict = {}
    words = [w.lower() for w in words]
    while words:
        word = words.pop(0)
        if word in PRESETS:
            rules["preset"] = word
            continue
        if not words:
            raise Refused(f"rules: {word!r} needs a value")
        value = words.pop(0)
        rules[word] = int(value) if value.lstrip("-").isdigit() else \
            {"yes": True, "true": True, "no": False, "false": False}.get(value, value)
    Rules.from_dict(rules)
    return rules
