"""The games' requests and answers besides views, actions and events: creating and joining a game,
the long-poll's and the history's queries, and the rules as JSON Schema.

Every response field the service always sends is `required` (generated clients type it as present);
a field whose JSON shape marshmallow cannot say is documented through core.openapi.DOC_KEY."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import NameField, StrictSchema, WholeNumber, doc
from ..core.openapi import DOC_KEY, ref
from ..rules import options as rule_options
from .contact_fields import ContactFields, ContactOutSchema, HintFields, InviteFields
from .deadlines import DEFAULT_MOVE_TIME_HOURS, MAX_MOVE_TIME_HOURS
from .fields import Documented, RulesChoiceField, seat_field
from .table_game import MAX_SEAT, SEAT_COUNTS

MOVE_TIME_HOURS = WholeNumber(load_default=DEFAULT_MOVE_TIME_HOURS, allow_none=True,
                              validate=v.Range(1, MAX_MOVE_TIME_HOURS), metadata={
    "description": "Time per move in hours (default 72, i.e. 3 days); null for no deadlines", "example": 72})


def rules_schema(*, all_required: bool) -> dict:
    """The rules options as JSON Schema, from the engine's own table (service/rules/options.py):
    the options a game is created with (each optional), or the set every view shows (the options
    added later appear there only when they differ from their standard value)."""
    always = getattr(rule_options, "OPTION_SPECS")
    every = getattr(rule_options, "ALL_OPTION_SPECS", always)
    properties = {"preset": {"type": "string", "enum": list(rule_options.PRESETS),
                             "description": "The preset the options start from (docs/RULES.md)"}}
    for name, (kind, allowed) in every.items():
        if kind is bool:
            properties[name] = {"type": "boolean"}
        elif kind is int:
            properties[name] = {"type": "integer", "minimum": allowed.start, "maximum": allowed.stop - 1}
        else:
            properties[name] = {"type": "string", "enum": list(allowed)}
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if all_required:
        schema["required"] = ["preset", *always]
    return schema


class CreateGameSchema(StrictSchema, ContactFields, InviteFields, HintFields):
    name = NameField()
    # Loaded loosely and checked by the engine, which names the option it refuses (invalid-option).
    rules = RulesChoiceField(load_default=dict, **doc(
        "A preset from RULES.md plus option overrides; an unknown option or a value out of range is "
        "refused (422 invalid-option, naming the option)",
        example={"preset": "standard", "knock_limit": 10}, **{DOC_KEY: ref("RulesChoice")}))
    move_time_hours = MOVE_TIME_HOURS
    seats = WholeNumber(load_default=2,
                        validate=v.OneOf(SEAT_COUNTS, error="a game has 2, 3, 4, 6 or 8 seats"), **doc(
        "How many players: 2 (the default), 3 (a rotation: one sits out each hand, the hand's winner plays "
        "the one who sat out), or 4, 6 or 8 (two teams of 2, 3 or 4, seats 0, 2, 4.. against 1, 3, 5..: a "
        "board per pair at once, each player meeting each of the other team in turn, round by round; "
        "Tedesco's teams of three and four, with the team bonus when all of a team win a round). Any "
        "preset may be played at any table but Mahjong gin (two players only); tedesco_gin_teams_of_three "
        "suits 6 seats but does not require it. Each seat but the creator's has an invite code of its "
        "own (`invites` in the answer); the first hand is dealt when every seat is taken", example=2))


class JoinGameSchema(StrictSchema, ContactFields, HintFields):
    invite_code = f.String(required=True, validate=v.Length(1, 100),
                           **doc("The invite code the creator received", example="q3Jw..."))
    name = NameField()


class EventsQuerySchema(ma.Schema):
    after = WholeNumber(text=True, load_default=0, validate=v.Range(0, 2**31 - 1),  # the database's integer range
                      **doc("Return events with a sequence number greater than this"))
    limit = WholeNumber(text=True, load_default=100, validate=v.Range(1, 500), **doc("At most this many events"))


class WaitQuerySchema(ma.Schema):
    wait = WholeNumber(text=True, validate=v.Range(0, 60), metadata={
        "description": "Long-poll: wait up to this many seconds (max 60) for the version to change"})
    version = WholeNumber(text=True, validate=v.Range(min=0), metadata={
        "description": "The version you have (instead of If-None-Match)"})


class LinksSchema(ma.Schema):
    game = f.String(required=True)
    join = f.String(required=True)
    actions = f.String(required=True)
    events = f.String(required=True)


class SeatInviteSchema(ma.Schema):
    seat = f.Integer(required=True, validate=v.Range(1, MAX_SEAT), **doc("The seat this code opens"))
    invite_code = f.String(required=True, **doc("Works once"))


def view_union(game: str, table: str) -> dict:
    """A view of either kind, as a oneOf a generator switches on by `kind` (a TableView also has
    `format`, which older clients told it apart by)."""
    return {"description": f"{game} for a two-seat game (`kind`: game), {table} for 3, 4, 6 or 8 seats "
                           "(`kind`: table)",
            "oneOf": [ref(game), ref(table)],
            "discriminator": {"propertyName": "kind", "mapping": {"game": ref(game)["$ref"],
                                                                  "table": ref(table)["$ref"]}}}


# A view: GameView (two seats) or TableView (3, 4, 6 or 8; service/games/table_schemas.py).
VIEW_DOC = view_union("GameView", "TableView")


class CreatedGameSchema(ma.Schema):
    game_id = f.String(required=True)
    seat = seat_field("Always 0 for the creator", required=True)
    token = f.String(required=True, **doc("The creator's bearer token. Shown once: keep it"))
    invite_code = f.String(required=True, **doc("Give this to the opponent (seat 1); it works once"))
    invites = f.List(f.Nested(SeatInviteSchema), **doc(
        "Games of 3 or more seats only: one invite code per seat to fill (seat 1's is invite_code too); "
        "send each player theirs: the code decides the seat, and so the partnership"))
    links = f.Nested(LinksSchema, required=True)
    game = Documented(VIEW_DOC, required=True, metadata={"description": "The creator's view"})
    contact = f.Nested(ContactOutSchema, **doc("Only when contact fields were given"))


class JoinedGameSchema(ma.Schema):
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=v.Range(1, MAX_SEAT), **doc(
        "The seat the invite code opened: 1 in a two-seat game"))
    token = f.String(required=True, **doc("The joiner's bearer token. Shown once: keep it"))
    links = f.Nested(LinksSchema, required=True)
    game = Documented(VIEW_DOC, required=True, metadata={"description": "The joiner's view"})
    contact = f.Nested(ContactOutSchema, **doc("Only when contact fields were given"))
