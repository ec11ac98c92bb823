"""marshmallow schemas: request validation, response shapes, and the source of openapi.yaml.

Every response field the service always sends is `required` (generated clients type it as present);
a field whose JSON shape marshmallow cannot say is documented through contract.DOC_KEY."""
from __future__ import annotations

import functools
import re

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from .contract import DOC_KEY, ref
from .notify.invite_schema import InviteFields
from .notify.schemas import MOVE_TIME_HOURS, ContactFields, ContactOutSchema, WholeNumber, no_encoded_word
from .rules import options as rule_options
from .table_games import MAX_SEAT, SEAT_COUNTS

CARD_PATTERN = "^[A2-9TJQK][CDHS]$"  # rank (A 2-9 T J Q K) then suit (C D H S), as the views write them
CARD = {"description": "A card: rank (A 2-9 T J Q K) then suit (C D H S)", "example": "7H"}
PHASES = ("awaiting_deal", "upcard_offer", "draw", "discard", "last_discard_offer", "match_over")
STATUSES = ("waiting_for_opponent", "active", "finished")
HAND_RESULTS = ("knock", "gin", "big_gin", "undercut", "tie", "void")
MATCH_END_REASONS = ("target", "resign", "timeout")


def _doc(description: str, **more) -> dict:
    return {"metadata": {"description": description, **more}}


class StrictSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE  # an unexpected field is named in a validation-error, never ignored


# -- errors --------------------------------------------------------------------------------

class ProblemSchema(ma.Schema):
    """An RFC 9457 problem document (media type application/problem+json)."""

    type = f.String(required=True, **_doc("A URI reference naming the kind of problem",
                                          example="/docs#problem-not-your-turn"))
    title = f.String(required=True, **_doc("The HTTP status phrase", example="Conflict"))
    status = f.Integer(required=True, **_doc("The HTTP status code", example=409))
    detail = f.String(required=True, **_doc("What went wrong, for a human; names the card and the phase",
                                            example="it is seat 1's turn, in the draw"))
    code = f.String(required=True, **_doc("Stable machine code: switch on this", example="not-your-turn",
                                          **{DOC_KEY: lambda: {"type": "string", "enum": _problem_codes()}}))
    instance = f.String(required=True, **_doc("The request path", example="/games/x1y2/actions"))
    errors = f.Dict(**_doc("validation-error only: the offending fields and their messages"))
    option = f.String(**_doc("invalid-option only: the rules option that was refused", example="knock_limt"))


def _problem_codes() -> list[str]:
    from .errors import CATALOGUE  # errors imports this module: read the catalogue at spec time
    return sorted(CATALOGUE)


class Card(f.String):
    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {}).setdefault("description", CARD["description"])
        kwargs["metadata"].setdefault("example", CARD["example"])
        super().__init__(validate=v.Regexp(CARD_PATTERN, error="not a card: write rank then suit, like 7H or TD"),
                         **kwargs)


def cards(description: str, **kwargs) -> f.List:
    return f.List(Card(), required=True, **_doc(description), **kwargs)


def seat_field(description: str = "A seat: 0 (who created the game) or 1", **kwargs) -> f.Integer:
    return f.Integer(validate=v.Range(0, 1), **_doc(description), **kwargs)


def pair(description: str) -> f.List:
    """A number per seat: [seat 0's, seat 1's]."""
    return f.List(f.Integer(), required=True, validate=v.Length(2, 2), **_doc(description))


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


class CreateGameSchema(StrictSchema, ContactFields, InviteFields):
    name = NameField()
    # Loaded loosely and checked by the engine, which names the option it refuses (invalid-option).
    rules = f.Dict(load_default=dict, **_doc(
        "A preset from RULES.md plus option overrides; an unknown option or a value out of range is "
        "refused (422 invalid-option, naming the option)",
        example={"preset": "standard", "knock_limit": 10}, **{DOC_KEY: ref("RulesChoice")}))
    move_time_hours = MOVE_TIME_HOURS
    seats = WholeNumber(load_default=2,
                        validate=v.OneOf(SEAT_COUNTS, error="a game has 2, 3, 4, 6 or 8 seats"), **_doc(
        "How many players: 2 (the default), 3 (a rotation: one sits out each hand, the hand's winner plays "
        "the one who sat out), or 4, 6 or 8 (two teams of 2, 3 or 4, seats 0, 2, 4.. against 1, 3, 5..: a "
        "board per pair at once, each player meeting each of the other team in turn, round by round; "
        "Tedesco's teams of three and four, with the team bonus when all of a team win a round). Any "
        "preset may be played at any table but Mahjong gin (two players only); tedesco_gin_teams_of_three "
        "suits 6 seats but does not require it. Each seat but the creator's has an invite code of its "
        "own (`invites` in the answer); the first hand is dealt when every seat is taken", example=2))


class JoinGameSchema(StrictSchema, ContactFields):
    invite_code = f.String(required=True, validate=v.Length(1, 100),
                           **_doc("The invite code the creator received", example="q3Jw..."))
    name = NameField()


def action_type(name: str) -> f.String:
    return f.String(required=True, validate=v.OneOf((name,)), **_doc("The kind of action"))


class TakeUpcardActionSchema(StrictSchema):
    """Take the upcard (the first turn's offer)."""
    type = action_type("take_upcard")


class PassActionSchema(StrictSchema):
    """Pass the upcard, or the last discard when the stock has run down."""
    type = action_type("pass")


class DrawActionSchema(StrictSchema):
    """Draw the top card of the stock or of the discard pile."""
    type = action_type("draw")
    from_ = f.String(data_key="from", attribute="from", required=True, validate=v.OneOf(("stock", "discard")),
                     **_doc("Where to draw from"))
    count = WholeNumber(validate=v.Range(1, 52), **_doc(
        "Mahjong gin only: how many cards to take from the top of the discard pile (default 1)"))


class DiscardActionSchema(StrictSchema):
    """Discard a card, ending the turn."""
    type = action_type("discard")
    card = Card(required=True, metadata={"description": "The card to discard"})


class KnockActionSchema(StrictSchema):
    """Knock (or go gin), discarding a card face down."""
    type = action_type("knock")
    discard = Card(required=True, metadata={"description": "The card discarded face down"})
    melds = f.List(f.List(Card()), allow_none=True, **_doc(
        "Optional: the knocker's melds; left out (or null), the engine lays out the best",
        example=[["7C", "8C", "9C"]]))


class MeldActionSchema(StrictSchema):
    """Mahjong gin: put a meld from the hand on the table."""
    type = action_type("meld")
    cards = f.List(Card(), required=True, validate=v.Length(3, 11), **_doc("The meld's cards",
                                                                          example=["7C", "8C", "9C"]))


class AddOnActionSchema(StrictSchema):
    """Mahjong gin: add a card to one of your melds on the table."""
    type = action_type("add_on")
    card = Card(required=True, metadata={"description": "The card to add"})
    meld = WholeNumber(required=True, validate=v.Range(0, 20),
                     **_doc("Which meld on the table (an index into the view's `table`, 0 first)"))


class BigGinActionSchema(StrictSchema):
    """Declare Big Gin: all 11 cards meld."""
    type = action_type("big_gin")


class ResignActionSchema(StrictSchema):
    """Give up the match (the opponent wins); allowed whenever the match goes on."""
    type = action_type("resign")


class ClaimTimeoutActionSchema(StrictSchema):
    """The waiting seat claims the match once the opponent's deadline has passed."""
    type = action_type("claim_timeout")


ACTION_SCHEMAS = {"take_upcard": TakeUpcardActionSchema, "pass": PassActionSchema, "draw": DrawActionSchema,
                  "discard": DiscardActionSchema, "knock": KnockActionSchema, "big_gin": BigGinActionSchema,
                  "resign": ResignActionSchema, "claim_timeout": ClaimTimeoutActionSchema,
                  "meld": MeldActionSchema, "add_on": AddOnActionSchema}
ACTION_TYPES = tuple(ACTION_SCHEMAS)


def action_errors(body) -> str | None:
    """What is wrong with an action's form (None when it is well formed), judged by the very
    schemas openapi.yaml documents: the HTTP API takes exactly the actions its spec describes."""
    if not isinstance(body, dict):
        return "an action must be a JSON object with a 'type'"
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in ACTION_SCHEMAS:
        return f"unknown action type {kind!r}; one of {', '.join(ACTION_TYPES)}"
    if _plainly_well_formed(kind, body):
        return None
    try:
        _action_schema(kind).load(body)
    except ma.ValidationError as exc:
        return f"{kind}: " + "; ".join(f"{field}: {' '.join(map(str, _flat(messages)))}"
                                       for field, messages in exc.normalized_messages().items())
    return None


_CARD_MATCH = re.compile(CARD_PATTERN).match  # as v.Regexp matches it


def _plainly_well_formed(kind: str, body: dict) -> bool:
    """The moves of almost every turn, in exactly the form their schemas accept, seen without
    loading them (a tenth of a move's request path); any other body is judged by the schema."""
    if kind == "draw":
        return len(body) == 2 and body.get("from") in ("stock", "discard")
    if kind == "discard":
        card = body.get("card")
        return len(body) == 2 and isinstance(card, str) and _CARD_MATCH(card) is not None
    return kind == "pass" and len(body) == 1


@functools.cache
def _action_schema(kind: str) -> ma.Schema:
    """One instance per action type for the process (a marshmallow Schema costs more to build
    than to load with; its load keeps no state between calls)."""
    return ACTION_SCHEMAS[kind]()


def _flat(messages):
    if isinstance(messages, dict):
        for value in messages.values():
            yield from _flat(value)
    elif isinstance(messages, list):
        for value in messages:
            yield from _flat(value)
    else:
        yield messages


class EventsQuerySchema(ma.Schema):
    after = f.Integer(load_default=0, validate=v.Range(0, 2**31 - 1),  # the database's integer range
                      **_doc("Return events with a sequence number greater than this"))
    limit = f.Integer(load_default=100, validate=v.Range(1, 500), **_doc("At most this many events"))


# -- responses -----------------------------------------------------------------------------

class EngineRecord(ma.Schema):
    """A record the rules engine writes (scores, hand and match results, events): open to fields a
    later engine adds (additionalProperties), which clients should ignore."""

    class Meta:
        unknown = ma.INCLUDE


class ArrangementSchema(ma.Schema):
    melds = f.List(f.List(Card()), required=True, **_doc("Own melds of the best arrangement"))
    deadwood = cards("Own unmelded cards")
    deadwood_points = f.Integer(required=True)
    best_discard = Card(metadata={"description": "With 11 cards only: the discard leaving the least deadwood"})
    deadwood_after_discard = f.Integer(**_doc("With 11 cards only: the deadwood after best_discard"))


class OpponentSchema(ma.Schema):
    seat = seat_field(required=True)
    card_count = f.Integer(required=True)
    known_cards = cards("Cards the opponent took from the discard pile and still holds")


class GameFinalSchema(EngineRecord):
    """A closed game's score with its bonuses."""
    winner = seat_field(required=True)
    hand_points = pair("Points from hands won")
    shutout_bonus = pair("The shutout bonus (rules.shutout), when the loser won no hand")
    game_bonus = pair("rules.game_bonus, to the winner")
    box_bonus = pair("rules.box_bonus per hand won")
    totals = pair("The sum of the above")
    margin = f.Integer(required=True, **_doc("The winner's total less the loser's"))


class ScoreGameSchema(EngineRecord):
    """One game of the match (Hollywood scoring keeps three at once)."""
    totals = pair("Hand points so far")
    hands_won = pair("Hands won in this game")
    closed = f.Boolean(required=True, **_doc("Someone reached the target in this game"))
    final = f.Nested(GameFinalSchema, required=True, allow_none=True, **_doc("Once closed: the bonuses and totals"))


class SheetLineSchema(EngineRecord):
    """One hand on the score sheet."""
    hand = f.Integer(required=True)
    dealer = seat_field(required=True)
    knocker = seat_field("Who knocked (left out for a void hand)", )
    result = f.String(required=True, validate=v.OneOf(HAND_RESULTS))
    winner = seat_field("null: a tie or a void hand", required=True, allow_none=True)
    points = f.Integer(required=True)
    games_credited = f.List(f.Integer(), **_doc("Indexes of the games the points went to (left out for a void hand)"))


class ScoresSchema(EngineRecord):
    games = f.List(f.Nested(ScoreGameSchema), required=True,
                   **_doc("One game (three with Hollywood scoring)"))
    hands_won = pair("Hands won in the match")
    sheet = f.List(f.Nested(SheetLineSchema), required=True, **_doc("One line per hand played"))


class SeatCardsSchema(ma.Schema):
    """Cards per seat, keyed by the seat number as a string; a seat's key is left out while its
    cards are hidden from this viewer."""
    zero = f.List(Card(), data_key="0", attribute="0", **_doc("Seat 0's cards"))
    one = f.List(Card(), data_key="1", attribute="1", **_doc("Seat 1's cards"))


class BothHandsSchema(ma.Schema):
    """Both seats' cards, keyed by the seat number as a string."""
    zero = f.List(Card(), required=True, data_key="0", attribute="0", **_doc("Seat 0's cards"))
    one = f.List(Card(), required=True, data_key="1", attribute="1", **_doc("Seat 1's cards"))


class HandRecordSchema(EngineRecord):
    """How a hand ended, both hands shown. A void hand (the stock ran out) has only the first fields."""
    hand = f.Integer(required=True)
    dealer = seat_field(required=True)
    result = f.String(required=True, validate=v.OneOf(HAND_RESULTS))
    winner = seat_field("null: a tie or a void hand", required=True, allow_none=True)
    knocker = seat_field("null for a void hand", required=True, allow_none=True)
    points = f.Integer(required=True, **_doc("What the winner scored, multiplier included"))
    hands = f.Nested(BothHandsSchema, required=True, **_doc("Both hands as they ended"))
    knock_discard = Card(allow_none=True, metadata={"description": "The knocker's discard; null for Big Gin"})
    knocker_melds = f.List(f.List(Card()))
    knocker_deadwood = f.List(Card())
    knocker_points = f.Integer()
    defender_melds = f.List(f.List(Card()))
    defender_layoffs = f.List(Card(), **_doc("Cards the defender laid off on the knocker's melds"))
    defender_deadwood = f.List(Card())
    defender_points = f.Integer()
    multiplier = f.Integer(**_doc("2 for an Oklahoma spade hand, else 1"))
    games_credited = f.List(f.Integer())


class MatchResultSchema(EngineRecord):
    winner = seat_field("null: a drawn Hollywood match", required=True, allow_none=True)
    reason = f.String(required=True, validate=v.OneOf(MATCH_END_REASONS))
    margin = f.Integer(required=True, **_doc("The winner's lead over all games (negative when the boxes "
                                             "left the loser ahead)"))
    totals = pair("Final totals, bonuses included")
    games = f.List(f.Nested(ScoreGameSchema), required=True)
    hands_won = pair("Hands won in the match")


class PlayerSchema(ma.Schema):
    seat = seat_field(required=True)
    name = f.String(required=True, allow_none=True, **_doc("null until the seat is taken"))


class RevealedDealSchema(ma.Schema):
    hand = f.Integer(required=True, **_doc("Hand number"))
    deck = f.List(Card(), required=True, validate=v.Length(52, 52), **_doc("The 52 cards in the order dealt (index 0 first)"))
    salt = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"), **_doc("64 hex digits"))
    commitment = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"),
                          **_doc("hex(sha256(salt + ':' + ' '.join(deck))), as shown when dealt"))


class RevealedKnockDeckSchema(ma.Schema):
    number = f.Integer(required=True, **_doc("1 for hands 1-52, 2 for hands 53-104, ..."))
    deck = f.List(Card(), required=True, validate=v.Length(52, 52),
                  **_doc("The second deck in the order turned: hand h's knock card is card (h - 1) mod 52"))
    salt = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"), **_doc("64 hex digits"))
    commitment = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"),
                          **_doc("hex(sha256(salt + ':' + ' '.join(deck))), as shown when first used"))


class Documented(f.Raw):
    """Dumped unchanged (the engine's JSON is already the answer), documented as `schema`."""

    def __init__(self, schema, **kwargs):
        metadata = kwargs.pop("metadata", {})
        super().__init__(metadata={**metadata, DOC_KEY: schema}, **kwargs)


class TableMeldSchema(ma.Schema):
    cards = f.List(Card(), required=True, **_doc("In playing order"))
    owners = f.List(seat_field("Who put the card there"), required=True, **_doc("One seat per card"))


class GameViewSchema(ma.Schema):
    """The caller's view: the engine's view of the match for this seat, plus the game's envelope."""

    game_id = f.String(required=True)
    version = f.Integer(required=True, **_doc("Increases with every change; also the ETag"))
    status = f.String(required=True, validate=v.OneOf(STATUSES))
    players = f.List(f.Nested(PlayerSchema), required=True)
    deadline = f.String(required=True, allow_none=True,
                        **_doc("When the player to move must act (ISO-8601), or null"))
    deal_commitment = f.String(required=True, allow_none=True,
                               **_doc("SHA-256 commitment to the current hand's deck order"))
    revealed_deals = f.List(f.Nested(RevealedDealSchema), required=True,
                            **_doc("Deck order and salt of every finished hand"))
    knock_deck_commitment = f.String(allow_none=True, validate=v.Regexp("^[0-9a-f]{64}$"), **_doc(
        "knock_card second_deck only: the commitment to the second deck in use (same recipe as "
        "deal_commitment); null once the match is over and every deck is revealed"))
    revealed_knock_decks = f.List(f.Nested(RevealedKnockDeckSchema), **_doc(
        "knock_card second_deck only: each second deck whose cards are all turned or whose match is over"))
    seat = seat_field("The caller's seat", required=True)
    phase = f.String(required=True, validate=v.OneOf(PHASES))
    to_move = seat_field("The seat to move; null between hands and once the match is over",
                         required=True, allow_none=True)
    dealer = seat_field("null until both seats are taken", required=True, allow_none=True)
    hand_number = f.Integer(required=True, **_doc("0 until the first deal"))
    hand = cards("The caller's own cards, sorted")
    arrangement = f.Nested(ArrangementSchema, required=True, allow_none=True,
                           **_doc("The best layout of the caller's hand; null with no cards"))
    opponent = f.Nested(OpponentSchema, required=True)
    discard_pile = cards("Bottom to top")
    stock_count = f.Integer(required=True)
    knock_limit = f.Integer(required=True)
    knock_card = Card(metadata={"description": "knock_card second_deck only: this hand's card from the second "
                                              "deck, which sets the knock limit (and a spade doubles the hand)"})
    multiplier = f.Integer(required=True, **_doc("2 for an Oklahoma spade hand, else 1"))
    legal_actions = Documented({"type": "array", "items": ref("Action")}, required=True,
                               metadata={"description": "Each postable unchanged to /actions (resign is "
                                                        "always allowed while can_resign, and never listed)"})
    can_resign = f.Boolean(required=True)
    scores = f.Nested(ScoresSchema, required=True)
    last_hand = f.Nested(HandRecordSchema, required=True, allow_none=True,
                         **_doc("The previous hand's full record, both hands shown"))
    result = f.Nested(MatchResultSchema, required=True, allow_none=True, **_doc("Once the match is over"))
    rules = Documented(ref("Rules"), required=True,
                       metadata={"description": "Every rules option's value, plus the preset"})
    table = f.List(f.Nested(TableMeldSchema), **_doc(
        "Mahjong gin only: the melds on the table (public), with who put each card there; add_on's "
        "`meld` is an index into this list"))
    must_use = Card(allow_none=True, metadata={
        "description": "Mahjong gin only: the deepest card just taken from the pile, which must go "
                       "on the table this turn (shown to the seat to move)"})


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
    game = f.String(required=True)
    join = f.String(required=True)
    actions = f.String(required=True)
    events = f.String(required=True)


class SeatInviteSchema(ma.Schema):
    seat = f.Integer(required=True, validate=v.Range(1, MAX_SEAT), **_doc("The seat this code opens"))
    invite_code = f.String(required=True, **_doc("Works once"))


# A view: GameView (two seats) or TableView (3, 4, 6 or 8; service/table_schemas.py).
VIEW_DOC = {"description": "GameView for a two-seat game, TableView for 3, 4, 6 or 8 seats (it has `format`)",
            "anyOf": [ref("GameView"), ref("TableView")]}


class CreatedGameSchema(ma.Schema):
    game_id = f.String(required=True)
    seat = seat_field("Always 0 for the creator", required=True)
    token = f.String(required=True, **_doc("The creator's bearer token. Shown once: keep it"))
    invite_code = f.String(required=True, **_doc("Give this to the opponent (seat 1); it works once"))
    invites = f.List(f.Nested(SeatInviteSchema), **_doc(
        "Games of 3 or more seats only: one invite code per seat to fill (seat 1's is invite_code too); "
        "send each player theirs: the code decides the seat, and so the partnership"))
    links = f.Nested(LinksSchema, required=True)
    game = Documented(VIEW_DOC, required=True, metadata={"description": "The creator's view"})
    contact = f.Nested(ContactOutSchema, **_doc("Only when contact fields were given"))


class JoinedGameSchema(ma.Schema):
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=v.Range(1, MAX_SEAT), **_doc(
        "The seat the invite code opened: 1 in a two-seat game"))
    token = f.String(required=True, **_doc("The joiner's bearer token. Shown once: keep it"))
    links = f.Nested(LinksSchema, required=True)
    game = Documented(VIEW_DOC, required=True, metadata={"description": "The joiner's view"})
    contact = f.Nested(ContactOutSchema, **_doc("Only when contact fields were given"))


# -- events: one schema per type ----------------------------------------------------------

class EventBase(EngineRecord):
    seq = f.Integer(required=True, **_doc("Sequence number, from 1, unique within the game"))
    hand = f.Integer(required=True, **_doc("The hand it belongs to (at a table: the deal's number; "
                                           "for an event of the whole table, the latest deal)"))
    board = f.Integer(**_doc("Tables only: the board the event happened on. A board's events "
                             "name its players by their local seats 0 and 1 (`seat`, the keys of `cards`, "
                             "the hand record), which `seats` maps to table seats"))
    seats = f.List(f.Integer(validate=v.Range(0, MAX_SEAT)), validate=v.Length(2, 2),
                   **_doc("Tables only: the table seats of the board's local seats 0 and 1"))


def event_type(name: str) -> f.String:
    return f.String(required=True, validate=v.OneOf((name,)))


class SeatEventBase(EventBase):
    seat = f.Integer(required=True, validate=v.Range(0, MAX_SEAT), **_doc(
        "The seat that acted: 0 or 1 (on a table's board, the local seat; a table's resign or timeout "
        "names the table seat, 0 to 7)"))


class DealEventSchema(EventBase):
    """A hand was dealt."""
    type = event_type("deal")
    dealer = seat_field(required=True)
    upcard = Card(required=True, allow_none=True, metadata={
        "description": "The first card of the discard pile; null with a second-deck knock card (no upcard)"})
    knock_card = Card(metadata={"description": "knock_card second_deck only: the card turned from the second deck"})
    stock_count = f.Integer(required=True)
    knock_limit = f.Integer(required=True, **_doc("This hand's (Oklahoma: the upcard's value, or the knock card's)"))
    cards = f.Nested(SeatCardsSchema, required=True,
                     **_doc("The cards dealt: your own; the opponent's once the hand is over"))


class TakeUpcardEventSchema(SeatEventBase):
    type = event_type("take_upcard")
    card = Card(required=True)


class PassEventSchema(SeatEventBase):
    type = event_type("pass")


class DrawEventSchema(SeatEventBase):
    type = event_type("draw")
    from_ = f.String(data_key="from", attribute="from", required=True, validate=v.OneOf(("stock", "discard")))
    card = Card(metadata={"description": "Always from the discard pile; from the stock only for the "
                                         "drawer, or once the hand is over"})
    stock_count = f.Integer(**_doc("From the stock only: the cards left in it"))
    count = f.Integer(**_doc("Mahjong gin: how many cards were taken from the discard pile"))
    cards = f.List(Card(), **_doc("Mahjong gin: the cards taken from the discard pile"))


class DiscardEventSchema(SeatEventBase):
    type = event_type("discard")
    card = Card(required=True)


class MeldEventSchema(SeatEventBase):
    """Mahjong gin: a meld put on the table."""
    type = event_type("meld")
    cards = f.List(Card(), required=True)


class AddOnEventSchema(SeatEventBase):
    """Mahjong gin: a card added to a meld on the table."""
    type = event_type("add_on")
    card = Card(required=True)
    meld = f.Integer(required=True, **_doc("Which meld on the table (0 first)"))


class KnockEventSchema(SeatEventBase):
    type = event_type("knock")
    discard = Card(metadata={"description": "The face-down discard: the knocker's own, everyone's once the "
                                            "hand is over"})


class BigGinEventSchema(SeatEventBase):
    type = event_type("big_gin")


class HandEndEventSchema(EventBase):
    type = event_type("hand_end")
    record = f.Nested(HandRecordSchema, required=True)


class HandVoidEventSchema(EventBase):
    type = event_type("hand_void")
    record = f.Nested(HandRecordSchema, required=True)


class ResignEventSchema(SeatEventBase):
    type = event_type("resign")


class TimeoutEventSchema(SeatEventBase):
    """The seat named ran out of time and its opponent claimed the match."""
    type = event_type("timeout")


class MatchEndEventSchema(EventBase):
    type = event_type("match_end")
    result = Documented({"anyOf": [ref("MatchResult"), ref("TableResult")]}, required=True, metadata={
        "description": "The match's result (a table's: TableResult, by side)"})


EVENT_SCHEMAS = {"deal": DealEventSchema, "take_upcard": TakeUpcardEventSchema, "pass": PassEventSchema,
                 "draw": DrawEventSchema, "discard": DiscardEventSchema, "knock": KnockEventSchema,
                 "big_gin": BigGinEventSchema, "hand_end": HandEndEventSchema, "hand_void": HandVoidEventSchema,
                 "resign": ResignEventSchema, "timeout": TimeoutEventSchema, "match_end": MatchEndEventSchema,
                 "meld": MeldEventSchema, "add_on": AddOnEventSchema}
# A table's own events (three and four seats) join the union; service/table_schemas.py builds them
# from this module's parts, so it is imported here, after them.
from .table_schemas import TABLE_EVENT_SCHEMAS  # noqa: E402
EVENT_SCHEMAS.update(TABLE_EVENT_SCHEMAS)


class EventsPageSchema(ma.Schema):
    events = Documented({"type": "array", "items": ref("Event")}, required=True,
                        metadata={"description": "Events in order, as this seat may see them"})
    next_after = f.Integer(required=True, allow_none=True,
                           **_doc("Pass as ?after= for the next page; null when none is left"))


class HealthSchema(ma.Schema):
    status = f.String(required=True, validate=v.OneOf(("ok",)), **_doc("ok when the database answers", example="ok"))
    database = f.String(required=True, **_doc("The database dialect answering", example="sqlite"))
