"""The field POST /games takes to mail the opponent an invitation (invitations.py). Apart from
schemas.py, which service/schemas.py imports: imports no models."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from .schemas import no_controls, no_encoded_word


class InviteFields(ma.Schema):
    invite_email = f.String(validate=[v.Length(3, 254), no_controls, no_encoded_word], metadata={
        "description": "The opponent's email: the service mails it an invitation (who invites, the rules, "
                       "`join` by reply, the invite link). At most INVITES_PER_SENDER_PER_DAY a day per "
                       "inviting email or client; never to an address that replied `stop` "
                       "(422 invitation-refused); 429 too-many-invitations. Nothing changes on a refusal",
        "example": "bob@example.org"})
