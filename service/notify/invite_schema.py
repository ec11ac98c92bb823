"""The fields POST /games takes to mail invitations (invitations.py). Apart from schemas.py,
which service/schemas.py imports: imports no models."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from .schemas import no_controls, no_encoded_word

_ADDRESS = [v.Length(3, 254), no_controls, no_encoded_word]


class InviteFields(ma.Schema):
    invite_email = f.String(validate=_ADDRESS, metadata={
        "description": "The opponent's email (seat 1): the service mails it an invitation (who invites, the "
                       "rules, `join` by reply, the invite link). At a table, `invite_emails` invites every "
                       "seat. At most INVITES_PER_SENDER_PER_DAY a day per inviting email or client; never to "
                       "an address that replied `stop` (422 invitation-refused); 429 too-many-invitations. "
                       "Nothing changes on a refusal",
        "example": "bob@example.org"})
    invite_emails = f.List(f.String(validate=_ADDRESS, allow_none=True), metadata={
        "description": "An email per seat to fill, in seat order (seats 1, 2, ...: as many as `seats` - 1); "
                       "null for a seat you invite yourself with its code. Each address is mailed the "
                       "invitation to its own seat (its own invite code: the reply `join` or the link takes "
                       "that seat, so the order decides the partnerships). Refused with nothing made: a list "
                       "of another length, an address twice, or with `invite_email` (422 validation-error); "
                       "an address that said `stop` or your own (422 invitation-refused); more mails than "
                       "the day's INVITES_PER_SENDER_PER_DAY left (each address counts one; 429 "
                       "too-many-invitations)",
        "example": ["bob@example.org", "carl@example.org", None]})

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
