"""marshmallow schemas of the notify routes, and the contact fields POST /games and join accept.
Imports no models (service/schemas.py imports this module)."""
from __future__ import annotations

import math
import re

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from .codes import MAIL_MODES

# RFC 2047 encoded words (`=?charset?q?...?=`): the email package decodes them in any header value
# it is given as text, so `=?l1?q?=0A?=` turns into a linefeed there. No user text that can reach a
# mail header (names, addresses) may hold one. Plain functions, not Regexp validators: the spec
# keeps one readable pattern per field.
_ENCODED_WORD = re.compile(r"=\?.*\?=", re.S)
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")


def no_encoded_word(text: str) -> None:
    if _ENCODED_WORD.search(text):
        raise ma.ValidationError("may not hold an RFC 2047 encoded word (=?...?=)")


def no_controls(text: str) -> None:
    """C0 controls and DEL (NUL among them: PostgreSQL refuses it in text) are never part of an
    address or a URL; refused here, before anything reaches the database."""
    if _CONTROLS.search(text):
        raise ma.ValidationError("may not hold control characters")


# What webhooks.check_url takes at the least: an http(s) scheme (any case) and printable ASCII.
WEBHOOK_URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[!-~]+$"


class WholeNumber(f.Integer):
    """A JSON number with no fractional part, as JSON Schema's `integer` means: 3 and 3.0 alike;
    3.5, "3" and true are refused."""

    def _validated(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            raise self.make_error("invalid")
        return int(value)


class ContactFields(ma.Schema):
    """The optional contact fields, also accepted when creating or joining a game."""

    email = f.String(allow_none=True, validate=[v.Length(max=254), no_controls, no_encoded_word], metadata={
        "description": "Where turn mails (or the daily digest) go; null clears it", "example": "ann@example.org"})
    mail_mode = f.String(validate=v.OneOf(MAIL_MODES), metadata={
        "description": "turn: a mail whenever it is your turn, and when a hand or the match ends; "
                       "digest: one mail a day (and the match's end); off: no mail", "example": "turn"})
    webhook_url = f.String(allow_none=True, validate=[v.Length(max=2000), v.Regexp(
        WEBHOOK_URL_PATTERN, error="must be an http:// or https:// URL in ASCII, without spaces")], metadata={
        "description": "An http(s) URL to POST signed events to (Standard Webhooks); null clears it. "
                       "Refused too (422): a user name or password, a port outside 1-65535, a "
                       "non-public IP address", "example": "https://bot.example/gin"})


class ContactSchema(ContactFields):
    class Meta:
        unknown = ma.RAISE


EMAIL_STATUSES = ("unconfirmed", "confirmed", "stopped")


class ContactOutSchema(ma.Schema):
    email = f.String(required=True, allow_none=True)
    email_status = f.String(required=True, allow_none=True, validate=v.OneOf(EMAIL_STATUSES), metadata={
        "openapi": {"type": "string", "enum": list(EMAIL_STATUSES)},  # null beside the enum, not in it
        "description": "unconfirmed: only a confirmation mail is sent until its owner replies `confirm`; "
                       "confirmed: game mail goes to it; stopped: its owner replied `stop`, nothing is ever "
                       "sent to it again; null when no email is set"})
    mail_mode = f.String(required=True, validate=v.OneOf(MAIL_MODES))
    webhook_url = f.String(required=True, allow_none=True)
    webhook_secret = f.String(metadata={
        "description": "whsec_...: only in the answer that set webhook_url; verify webhook-signature with it"})


class VacationSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    # At most the allowance of a whole game (notify/settings.py's default VACATION_DAYS_PER_GAME):
    # more could never be granted.
    days = WholeNumber(required=True, validate=v.Range(1, 7), metadata={
        "description": "Days to pause your clock, from now (or from the end of a vacation under way); "
                       "at most the days left of the game's allowance (422 vacation-exhausted beyond)",
        "example": 3})


class VacationOutSchema(ma.Schema):
    days_left = f.Integer(required=True, metadata={"description": "Vacation days still available to you in this game"})
    on_vacation_until = f.String(required=True, allow_none=True)
    deadline = f.String(required=True, allow_none=True, metadata={"description": "The deadline of the seat to move (at a table: yours while you are to move, else the "
                                      "earliest at the table)"})


class WaitQuerySchema(ma.Schema):
    wait = f.Integer(strict=False, validate=v.Range(0, 60), metadata={
        "description": "Long-poll: wait up to this many seconds (max 60) for the version to change"})
    version = f.Integer(validate=v.Range(min=0), metadata={
        "description": "The version you have (instead of If-None-Match)"})


MOVE_TIME_HOURS = WholeNumber(load_default=72, allow_none=True, validate=v.Range(1, 24 * 60), metadata={
    "description": "Time per move in hours (default 72, i.e. 3 days); null for no deadlines", "example": 72})
