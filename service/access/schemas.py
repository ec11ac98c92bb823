"""Request and answer shapes of the seat-access routes (part of openapi.yaml)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import NAME_PATTERN, StrictSchema, doc
from ..core.openapi import DOC_KEY, ref
from ..games.fields import Documented
from ..games.schemas import VIEW_DOC
from ..games.table_game import MAX_SEAT, SEAT_COUNTS


class ExchangeLinkSchema(StrictSchema):
    link_key = f.String(required=True, validate=v.Length(1, 100),
                        **doc("The key from a mail's link (the part after #link=)", example="Xq3v..."))
    label = f.String(validate=[v.Length(1, 40), v.Regexp(NAME_PATTERN, error="no control characters")],
                     **doc("What to call this device in the seat's token list", example="phone"))


class ExchangedSchema(ma.Schema):
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=v.Range(0, MAX_SEAT), **doc("The seat the link opens (0 to 7 at a table)"))
    token = f.String(required=True, **doc("A new bearer token of that seat. Shown once: keep it"))
    token_id = f.String(required=True, **doc("Its id in GET /games/{game_id}/tokens"))
    game = Documented(VIEW_DOC, required=True, metadata={"description": "The seat's view (a TableView at a table)"})


class TokenSchema(ma.Schema):
    id = f.String(required=True, **doc('"original" for the token given when the seat was taken, else a number'))
    label = f.String(required=True, **doc("Where it came from, or what the seat called it"))
    created_at = f.String(required=True, allow_none=True, **doc("ISO-8601"))
    current = f.Boolean(required=True, **doc("The token this request was made with"))


class TokenListSchema(ma.Schema):
    tokens = f.List(f.Nested(TokenSchema), required=True)


class InvitationRequestSchema(StrictSchema):
    invite_code = f.String(required=True, validate=v.Length(1, 100),
                           **doc("The invite code (from the invite link's fragment)", example="q3Jw..."))


class InvitationSchema(ma.Schema):
    game_id = f.String(required=True)
    inviter = f.String(required=True, **doc("The name of the player who created the game"))
    rules = f.Raw(required=True, **doc("Every rules option's value, plus the preset",
                                        **{DOC_KEY: ref("Rules")}))
    move_time_hours = f.Integer(required=True, allow_none=True, **doc("Time per move; null: no deadlines"))
    seats = f.Integer(required=True, validate=v.OneOf(SEAT_COUNTS), **doc("How many play: 2, or a table of 3, 4, 6 or 8"))
    format = f.String(required=True, allow_none=True, validate=v.OneOf(("rotation", "partnership")), **doc(
        "null for two; rotation (three, one sitting out each hand) or partnership (4, 6 or 8: two teams, "
        "seats 0, 2, 4.. against 1, 3, 5..)"))
    seat = f.Integer(required=True, validate=v.Range(1, MAX_SEAT), **doc("The seat this code opens (1 in a game of two)"))
