"""The contact settings a seat may give when it creates or joins a game, or later (PATCH
/games/{id}/contact), and the invitation fields of POST /games: part of the games' contract; the
notify feature acts on them (through games.changes.seat_taken) and answers the contact routes."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import EmailField

MAIL_MODES = ("turn", "digest", "off")
PUSH_MODES = ("turn", "off")
EMAIL_STATUSES = ("unconfirmed", "confirmed", "stopped")
# What webhooks.check_url takes at the least: an http(s) scheme (any case) and printable ASCII.
WEBHOOK_URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[!-~]+$"


class ContactFields(ma.Schema):
    """The optional contact fields, also accepted when creating or joining a game."""

    email = EmailField("Where turn mails (or the daily digest) go; null clears it", allow_none=True)
    mail_mode = f.String(validate=v.OneOf(MAIL_MODES), metadata={
        "description": "turn: a mail whenever it is your turn, and when a hand or the match ends; "
                       "digest: one mail a day (and the match's end); off: no mail", "example": "turn"})
    push_mode = f.String(validate=v.OneOf(PUSH_MODES), metadata={
        "description": "turn: the browsers subscribed to Web Push for this seat (or its player) are notified "
                       "when it is your turn, a hand or the match ends, the deadline nears or passes; off: "
                       "none is (the subscriptions are kept). With mail_mode: mail, push, both or none",
        "example": "turn"})
    webhook_url = f.String(allow_none=True, validate=[v.Length(max=2000), v.Regexp(
        WEBHOOK_URL_PATTERN, error="must be an http:// or https:// URL in ASCII, without spaces")], metadata={
        "description": "An http(s) URL to POST signed events to (Standard Webhooks); null clears it. "
                       "Refused too (422): a user name or password, a port outside 1-65535, a "
                       "host that is or resolves to a non-public address (localhost, 127.1, "
                       "2130706433, a name whose DNS answer is private), judged as each delivery "
                       "judges it", "example": "https://bot.example/gin"})


class ContactOutSchema(ma.Schema):
    email = f.String(required=True, allow_none=True)
    email_status = f.String(required=True, allow_none=True, validate=v.OneOf(EMAIL_STATUSES), metadata={
        "description": "unconfirmed: only a confirmation mail is sent until its owner replies `confirm`; "
                       "confirmed: game mail goes to it; stopped: its owner replied `stop`, nothing is ever "
                       "sent to it again; null when no email is set"})
    mail_mode = f.String(required=True, validate=v.OneOf(MAIL_MODES))
    push_mode = f.String(required=True, validate=v.OneOf(PUSH_MODES))
    webhook_url = f.String(required=True, allow_none=True)
    webhook_secret = f.String(metadata={
        "description": "whsec_...: only in the answer that set webhook_url; verify webhook-signature with it"})


class HintFields(ma.Schema):
    """Asked with the seat, before the first deal (the coach acts on it: service/coach)."""

    hints = f.Boolean(metadata={
        "description": "true: this seat agrees to hints (GET /games/{game_id}/hint: what the computer would do). "
                       "Hints are on in a two-seat game when both seats agreed as they created or joined it "
                       "(and in unrated games against the house bot); never in rated games or tournaments. "
                       "The game records that hints were on", "example": False})


class InviteFields(ma.Schema):
    invite_email = EmailField(
        "The opponent's email (seat 1): the service mails it an invitation (who invites, the rules, `join` by "
        "reply, the invite link). At a table, `invite_emails` invites every seat. At most "
        "INVITES_PER_SENDER_PER_DAY a day per inviting email or client; never to an address that replied `stop` "
        "(422 invitation-refused); 429 too-many-invitations. Nothing changes on a refusal",
        example="bob@example.org")
    # No example of the list: a request made of every field's example would give both, which is refused.
    invite_emails = f.List(EmailField("An invitee's address, or null", allow_none=True, example=None), metadata={
        "description": "An email per seat to fill, in seat order (seats 1, 2, ...: as many as `seats` - 1); "
                       "null for a seat you invite yourself with its code. Each address is mailed the "
                       "invitation to its own seat (its own invite code: the reply `join` or the link takes "
                       "that seat, so the order decides the partnerships). Refused with nothing made: a list "
                       "of another length, an address twice, or with `invite_email` (422 validation-error); "
                       "an address that said `stop` or your own (422 invitation-refused); more mails than "
                       "the day's INVITES_PER_SENDER_PER_DAY left (each address counts one; 429 "
                       "too-many-invitations); e.g. [\"bob@example.org\", \"carl@example.org\", null] at 4 seats"})

    @ma.validates_schema
    def _one_address_per_seat(self, data, **_):
        emails = data.get("invite_emails")
        if emails is None:
            return
        if "invite_email" in data:
            raise ma.ValidationError("give invite_email or invite_emails, not both", "invite_emails")
        seats = data.get("seats", 2)
        if len(emails) != seats - 1:
            raise ma.ValidationError(f"one entry per seat to fill: {seats - 1} for a game of {seats} "
                                     f"(null for a seat not invited by mail), not {len(emails)}", "invite_emails")
        given = [e.strip().lower() for e in emails if e]
        if len(set(given)) != len(given):
            raise ma.ValidationError("an address is given twice: each invitee takes one seat", "invite_emails")
