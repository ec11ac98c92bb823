"""marshmallow schemas: request validation, response shapes, and the source of openapi.yaml."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from .notify.schemas import MOVE_TIME_HOURS, ContactFields, ContactOutSchema, no_encoded_word

CARD = {"description": "A card: rank (A 2-9 T J Q K) then suit (C D H S)", "example": "7H"}
ACTION_TYPES = ("take_upcard", "pass", "draw", "discard", "knock", "big_gin", "resign",
                "claim_timeout")  # claim_timeout: the waiting seat, once the opponent's deadline passed


def _doc(description: str, **more) -> dict:
    return {"metadata": {"description": description, **more}}


class StrictSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE  # an unexpected field is named in a validation-error, never ignored


# -- errors --------------------------------------------------------------------------------

class ProblemSchema(ma.Schema):
    """An RFC 9457 problem document (media type application/problem+json)."""

    type = f.String(**_doc("A URI reference naming the kind of problem", example="/docs#problem-not-your-turn"))
    title = f.String(**_doc("The HTTP status phrase", example="Conflict"))
    status = f.Integer(**_doc("The HTTP status code", example=409))
    detail = f.String(**_doc("What went wrong, for a human; names the card and the phase",
                             example="it is seat 1's turn, in the draw"))
    code = f.String(**_doc("Stable machine code: switch on this", example="not-your-turn"))
    instance = f.String(**_doc("The request path", example="/games/x1y2/actions"))
    errors = f.Dict(**_doc("validation-error only: the offending fields and their messages"))
    option = f.String(**_doc("invalid-option only: the rules option that was refused", example="knock_limt"))


# -- requests ------------------------------------------------------------------------------

# No control characters (C0, DEL, C1), line separators or bidirectional overrides: a name is shown
# to the opponent, in mails and in terminals, and must not rewrite what is around it.
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]*$"


class NameField(f.String):
    def __init__(self, **kwargs):
        super().__init__(required=True, validate=[v.Length(1, 40), v.Regexp(
                             NAME_PATTERN, error="a name may not hold control or direction characters"),
                             no_encoded_word],  # the name goes into mail Subjects
                         **_doc("Display name shown to the opponent", example="Ann"), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        self._validate(text)  # what was sent, as the spec says; then the trimmed name must show
        if not text.strip():
            raise ma.ValidationError("a name needs at least one visible character")
        return text.strip()


class CreateGameSchema(StrictSchema, ContactFields):
    name = NameField()
    rules = f.Dict(load_default=dict, **_doc(
        "A preset from RULES.md plus option overrides; unknown options are refused (invalid-option)",
        example={"preset": "standard", "knock_limit": 10}))
    move_time_hours = MOVE_TIME_HOURS


class JoinGameSchema(StrictSchema, ContactFields):
    invite_code = f.String(required=True, validate=v.Length(1, 100),
                           **_doc("The invite code the creator received", example="q3Jw..."))
    name = NameField()


class ActionSchema(ma.Schema):
    """One action, in the engine's JSON form; every entry of a view's legal_actions is postable as is.
    The engine parses and checks it (a malformed action is 400 invalid-action)."""

    type = f.String(required=True, validate=v.OneOf(ACTION_TYPES), **_doc("The kind of action"))
    from_ = f.String(data_key="from", attribute="from", validate=v.OneOf(("stock", "discard")),
                     **_doc("draw only: where to draw from"))
    card = f.String(**_doc("discard only: the card to discard", example="7H"))
    discard = f.String(**_doc("knock only: the card discarded face down", example="KD"))
    melds = f.List(f.List(f.String()), **_doc(
        "knock only, optional: the knocker's melds; omitted, the engine lays out the best",
        example=[["7C", "8C", "9C"]]))


class EventsQuerySchema(ma.Schema):
    after = f.Integer(load_default=0, validate=v.Range(0, 2**31 - 1),  # the database's integer range
                      **_doc("Return events with a sequence number greater than this"))
    limit = f.Integer(load_default=100, validate=v.Range(1, 500), **_doc("At most this many events"))


# -- responses -----------------------------------------------------------------------------

class ArrangementSchema(ma.Schema):
    melds = f.List(f.List(f.String()), **_doc("Own melds of the best arrangement"))
    deadwood = f.List(f.String(), **_doc("Own unmelded cards"))
    deadwood_points = f.Integer()
    best_discard = f.String(**_doc("With 11 cards: the discard leaving the least deadwood"))
    deadwood_after_discard = f.Integer(**_doc("With 11 cards: the deadwood after best_discard"))


class OpponentSchema(ma.Schema):
    seat = f.Integer()
    card_count = f.Integer()
    known_cards = f.List(f.String(), **_doc("Cards the opponent took from the discard pile and still holds"))


class ScoresSchema(ma.Schema):
    games = f.List(f.Dict(), **_doc("One game (three with Hollywood scoring): totals, hands_won, closed, final"))
    hands_won = f.List(f.Integer())
    sheet = f.List(f.Dict(), **_doc("One line per hand played"))


class PlayerSchema(ma.Schema):
    seat = f.Integer()
    name = f.String(allow_none=True, **_doc("null until the seat is taken"))


class RevealedDealSchema(ma.Schema):
    hand = f.Integer(**_doc("Hand number"))
    deck = f.List(f.String(), **_doc("The 52 cards in the order dealt (index 0 first)"))
    salt = f.String(**_doc("64 hex digits"))
    commitment = f.String(**_doc("hex(sha256(salt + ':' + ' '.join(deck))), as shown when dealt"))


class GameViewSchema(ma.Schema):
    """The caller's view: the engine's view of the match for this seat, plus the game's envelope."""

    game_id = f.String()
    version = f.Integer(**_doc("Increases with every change; also the ETag"))
    status = f.String(**_doc("waiting_for_opponent, active or finished"))
    players = f.List(f.Nested(PlayerSchema))
    deadline = f.String(allow_none=True, **_doc("When the player to move must act (ISO-8601), or null"))
    deal_commitment = f.String(allow_none=True, **_doc("SHA-256 commitment to the current hand's deck order"))
    revealed_deals = f.List(f.Nested(RevealedDealSchema), **_doc("Deck order and salt of every finished hand"))
    seat = f.Integer(**_doc("The caller's seat, 0 or 1"))
    phase = f.String(**_doc("awaiting_deal, upcard_offer, draw, discard, last_discard_offer, match_over"))
    to_move = f.Integer(allow_none=True)
    dealer = f.Integer(allow_none=True, **_doc("null until both seats are taken"))
    hand_number = f.Integer()
    hand = f.List(f.String(), **_doc("The caller's own cards, sorted"))
    arrangement = f.Nested(ArrangementSchema, allow_none=True)
    opponent = f.Nested(OpponentSchema)
    discard_pile = f.List(f.String(), **_doc("Bottom to top"))
    stock_count = f.Integer()
    knock_limit = f.Integer()
    multiplier = f.Integer(**_doc("2 for an Oklahoma spade hand, else 1"))
    legal_actions = f.List(f.Nested(ActionSchema), **_doc("Each postable unchanged to /actions"))
    can_resign = f.Boolean()
    scores = f.Nested(ScoresSchema)
    last_hand = f.Dict(allow_none=True, **_doc("The previous hand's full record, both hands shown"))
    result = f.Dict(allow_none=True, **_doc("The match result once it is over"))
    rules = f.Dict(**_doc("Every rules option's value, plus the preset"))


# A real view (seat 1 just took the upcard), for the spec's examples.
VIEW_EXAMPLE = {
    "game_id": "MKsaxqYqE1pJxqt2oSEDug", "version": 3, "status": "active",
    "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
    "deadline": "2026-11-25T06:16:59.487114+00:00",
    "deal_commitment": "b8eb24b0c117d83404b10e2a4174e465371a12a6dd81193c24003885bee1b4c8",
    "revealed_deals": [], "seat": 1, "phase": "discard", "to_move": 1, "dealer": 0, "hand_number": 1,
    "hand": ["AC", "2C", "9C", "QC", "AD", "4H", "TH", "QH", "KH", "AS", "JS"],
    "arrangement": {"melds": [["AC", "AD", "AS"]], "deadwood": ["2C", "9C", "QC", "4H", "TH", "QH", "KH", "JS"],
                    "deadwood_points": 65, "best_discard": "QC", "deadwood_after_discard": 55},
    "opponent": {"seat": 0, "card_count": 10, "known_cards": []},
    "discard_pile": [], "stock_count": 31, "knock_limit": 10, "multiplier": 1,
    "legal_actions": [{"type": "discard", "card": c} for c in ("AC", "2C", "QC", "AD", "4H", "TH", "QH", "KH", "AS", "JS")],
    "can_resign": True,
    "scores": {"games": [{"totals": [0, 0], "hands_won": [0, 0], "closed": False, "final": None}],
               "hands_won": [0, 0], "sheet": []},
    "last_hand": None, "result": None,
    "rules": {"knock_limit": 10, "knocking_allowed": True, "oklahoma": False, "gin_bonus": 25, "undercut_bonus": 25,
              "undercut_on_tie": True, "big_gin": True, "big_gin_bonus": 31, "target": 100, "game_bonus": 100,
              "box_bonus": 25, "shutout": "double", "next_dealer": "alternate", "scoring": "single",
              "last_discard_rule": "void", "preset": "standard"},
}


class LinksSchema(ma.Schema):
    game = f.String()
    join = f.String()
    actions = f.String()
    events = f.String()


class CreatedGameSchema(ma.Schema):
    game_id = f.String()
    seat = f.Integer(**_doc("Always 0 for the creator"))
    token = f.String(**_doc("The creator's bearer token. Shown once: keep it"))
    invite_code = f.String(**_doc("Give this to the opponent; it works once"))
    links = f.Nested(LinksSchema)
    game = f.Nested(GameViewSchema)
    contact = f.Nested(ContactOutSchema, **_doc("Only when contact fields were given"))


class JoinedGameSchema(ma.Schema):
    game_id = f.String()
    seat = f.Integer(**_doc("Always 1 for the joiner"))
    token = f.String(**_doc("The joiner's bearer token. Shown once: keep it"))
    links = f.Nested(LinksSchema)
    game = f.Nested(GameViewSchema)
    contact = f.Nested(ContactOutSchema, **_doc("Only when contact fields were given"))


class EventSchema(ma.Schema):
    """One event as this seat may see it; the fields besides these depend on `type`."""

    class Meta:
        unknown = ma.INCLUDE  # documents additionalProperties: the other fields depend on the type

    seq = f.Integer(**_doc("Sequence number, from 1, unique within the game"))
    type = f.String(**_doc("deal, take_upcard, pass, draw, discard, knock, big_gin, hand_end, "
                           "hand_void, resign, timeout, match_end"))
    hand = f.Integer()
    seat = f.Integer(**_doc("The seat that acted, when one did"))


class PassThroughNested(f.Nested):
    """Documented as the nested schema, dumped unchanged: an event's fields depend on its type."""

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class EventsPageSchema(ma.Schema):
    events = f.List(PassThroughNested(EventSchema), **_doc("Events in order, as this seat may see them"))
    next_after = f.Integer(allow_none=True, **_doc("Pass as ?after= for the next page; null when none is left"))


class HealthSchema(ma.Schema):
    status = f.String(**_doc("ok when the database answers", example="ok"))
    database = f.String(**_doc("The database dialect answering", example="sqlite"))
