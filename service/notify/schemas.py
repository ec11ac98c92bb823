"""marshmallow schemas of the notify routes (routes.py): a seat's contact settings and vacations, and
what one-click unsubscribing answers. The contact fields themselves are the games'
(games/contact_fields.py): creating and joining take them too. The webhook deliveries log's are
webhooks/schemas.py."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import WholeNumber
from ..games.contact_fields import ContactFields


class ContactSchema(ContactFields):
    class Meta:
        unknown = ma.RAISE


class VacationSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    # At most the allowance of a whole game (core/settings.py's default VACATION_DAYS_PER_GAME):
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


class UnsubscribedSchema(ma.Schema):
    result = f.String(required=True, validate=v.OneOf(("stopped", "digest-off")), metadata={
        "description": "stopped: the address gets no mail from this service again; digest-off: no more "
                       "daily digests to it"})
    one_click = f.String(required=True, metadata={"description": "RFC 8058's List-Unsubscribe-Post value, "
                                                                 "which this operation answers"})
