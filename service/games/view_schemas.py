"""What a seat of a two-seat game sees (`GameView`), and the engine's records inside it: the best
arrangement, the scores and sheet, each hand's record and the match's result."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import doc
from ..core.openapi import ref
from .fields import Card, Documented, EngineRecord, cards, pair, seat_field, view_kind

PHASES = ("cut", "dealer_choice", "awaiting_deal", "upcard_offer", "draw", "discard", "last_discard_offer", "match_over")
STATUSES = ("waiting_for_opponent", "active", "finished")
HAND_RESULTS = ("knock", "gin", "big_gin", "undercut", "tie", "void")
MATCH_END_REASONS = ("target", "resign", "timeout")


class ArrangementSchema(ma.Schema):
    melds = f.List(f.List(Card()), required=True, **doc("Own melds of the best arrangement"))
    deadwood = cards("Own unmelded cards")
    deadwood_points = f.Integer(required=True)
    best_discard = Card(metadata={"description": "With 11 cards only: the discard leaving the least deadwood"})
    deadwood_after_discard = f.Integer(**doc("With 11 cards only: the deadwood after best_discard"))


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
    margin = f.Integer(required=True, **doc("The winner's total less the loser's"))


class ScoreGameSchema(EngineRecord):
    """One game of the match (Hollywood scoring keeps three at once)."""
    totals = pair("Hand points so far")
    hands_won = pair("Hands won in this game")
    closed = f.Boolean(required=True, **doc("Someone reached the target in this game"))
    final = f.Nested(GameFinalSchema, required=True, allow_none=True, **doc("Once closed: the bonuses and totals"))


class SheetLineSchema(EngineRecord):
    """One hand on the score sheet."""
    hand = f.Integer(required=True)
    dealer = seat_field(required=True)
    knocker = seat_field("Who knocked (left out for a void hand)", )
    result = f.String(required=True, validate=v.OneOf(HAND_RESULTS))
    winner = seat_field("null: a tie or a void hand", required=True, allow_none=True)
    points = f.Integer(required=True)
    games_credited = f.List(f.Integer(), **doc("Indexes of the games the points went to (left out for a void hand)"))


class ScoresSchema(EngineRecord):
    games = f.List(f.Nested(ScoreGameSchema), required=True,
                   **doc("One game (three with Hollywood scoring)"))
    hands_won = pair("Hands won in the match")
    sheet = f.List(f.Nested(SheetLineSchema), required=True, **doc("One line per hand played"))


class SeatCardsSchema(ma.Schema):
    """Cards per seat, keyed by the seat number as a string; a seat's key is left out while its
    cards are hidden from this viewer."""
    zero = f.List(Card(), data_key="0", attribute="0", **doc("Seat 0's cards"))
    one = f.List(Card(), data_key="1", attribute="1", **doc("Seat 1's cards"))


class CutCardsSchema(ma.Schema):
    """One try of the cut for the first dealer: the card each seat drew, keyed by the seat number."""
    zero = Card(required=True, data_key="0", attribute="0", metadata={"description": "Seat 0's card"})
    one = Card(required=True, data_key="1", attribute="1", metadata={"description": "Seat 1's card"})


class BothHandsSchema(ma.Schema):
    """Both seats' cards, keyed by the seat number as a string."""
    zero = f.List(Card(), required=True, data_key="0", attribute="0", **doc("Seat 0's cards"))
    one = f.List(Card(), required=True, data_key="1", attribute="1", **doc("Seat 1's cards"))


class HandRecordSchema(EngineRecord):
    """How a hand ended, both hands shown. A void hand (the stock ran out) has only the first fields."""
    hand = f.Integer(required=True)
    dealer = seat_field(required=True)
    result = f.String(required=True, validate=v.OneOf(HAND_RESULTS))
    winner = seat_field("null: a tie or a void hand", required=True, allow_none=True)
    knocker = seat_field("null for a void hand", required=True, allow_none=True)
    points = f.Integer(required=True, **doc("What the winner scored, multiplier included"))
    hands = f.Nested(BothHandsSchema, required=True, **doc("Both hands as they ended"))
    knock_discard = Card(allow_none=True, metadata={"description": "The knocker's discard; null for Big Gin"})
    knocker_melds = f.List(f.List(Card()))
    knocker_deadwood = f.List(Card())
    knocker_points = f.Integer()
    defender_melds = f.List(f.List(Card()))
    defender_layoffs = f.List(Card(), **doc("Cards the defender laid off on the knocker's melds"))
    defender_deadwood = f.List(Card())
    defender_points = f.Integer()
    multiplier = f.Integer(**doc("2 for an Oklahoma spade hand, else 1"))
    games_credited = f.List(f.Integer())


class MatchResultSchema(EngineRecord):
    winner = seat_field("null: a drawn Hollywood match", required=True, allow_none=True)
    reason = f.String(required=True, validate=v.OneOf(MATCH_END_REASONS))
    margin = f.Integer(required=True, **doc("The winner's lead over all games (negative when the boxes "
                                             "left the loser ahead)"))
    totals = pair("Final totals, bonuses included")
    games = f.List(f.Nested(ScoreGameSchema), required=True)
    hands_won = pair("Hands won in the match")


class PlayerSchema(ma.Schema):
    seat = seat_field(required=True)
    name = f.String(required=True, allow_none=True, **doc("null until the seat is taken"))
    level = f.Integer(validate=v.Range(1, 5), **doc(
        "The house bot's seat only: the level (1-5) it plays at, chosen in the challenge (3: the reference bot)"))


class RevealedDealSchema(ma.Schema):
    hand = f.Integer(required=True, **doc("Hand number"))
    deck = f.List(Card(), required=True, validate=v.Length(52, 52), **doc("The 52 cards in the order dealt (index 0 first)"))
    salt = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"), **doc("64 hex digits"))
    commitment = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"),
                          **doc("hex(sha256(salt + ':' + ' '.join(deck))), as shown when dealt"))


class RevealedKnockDeckSchema(ma.Schema):
    number = f.Integer(required=True, **doc("1 for hands 1-52, 2 for hands 53-104, ..."))
    deck = f.List(Card(), required=True, validate=v.Length(52, 52),
                  **doc("The second deck in the order turned: hand h's knock card is card (h - 1) mod 52"))
    salt = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"), **doc("64 hex digits"))
    commitment = f.String(required=True, validate=v.Regexp("^[0-9a-f]{64}$"),
                          **doc("hex(sha256(salt + ':' + ' '.join(deck))), as shown when first used"))


class TableMeldSchema(ma.Schema):
    cards = f.List(Card(), required=True, **doc("In playing order"))
    owners = f.List(seat_field("Who put the card there"), required=True, **doc("One seat per card"))


class GameViewSchema(ma.Schema):
    """The caller's view: the engine's view of the match for this seat, plus the game's envelope."""

    kind = view_kind("game")
    game_id = f.String(required=True)
    version = f.Integer(required=True, **doc("Increases with every change; also the ETag"))
    status = f.String(required=True, validate=v.OneOf(STATUSES))
    players = f.List(f.Nested(PlayerSchema), required=True)
    deadline = f.String(required=True, allow_none=True,
                        **doc("When the player to move must act (ISO-8601), or null"))
    deal_commitment = f.String(required=True, allow_none=True,
                               **doc("SHA-256 commitment to the current hand's deck order"))
    revealed_deals = f.List(f.Nested(RevealedDealSchema), required=True,
                            **doc("Deck order and salt of every finished hand"))
    knock_deck_commitment = f.String(allow_none=True, validate=v.Regexp("^[0-9a-f]{64}$"), **doc(
        "knock_card second_deck only: the commitment to the second deck in use (same recipe as "
        "deal_commitment); null once the match is over and every deck is revealed"))
    revealed_knock_decks = f.List(f.Nested(RevealedKnockDeckSchema), **doc(
        "knock_card second_deck only: each second deck whose cards are all turned or whose match is over"))
    seat = seat_field("The caller's seat", required=True)
    phase = f.String(required=True, validate=v.OneOf(PHASES))
    to_move = seat_field("The seat to move; null between hands and once the match is over",
                         required=True, allow_none=True)
    dealer = seat_field("null until both seats are taken (and the cut, when the rules cut, has chosen)",
                        required=True, allow_none=True)
    hand_number = f.Integer(required=True, **doc("0 until the first deal"))
    hand = cards("The caller's own cards, sorted")
    arrangement = f.Nested(ArrangementSchema, required=True, allow_none=True,
                           **doc("The best layout of the caller's hand; null with no cards"))
    opponent = f.Nested(OpponentSchema, required=True)
    discard_pile = cards("Bottom to top")
    stock_count = f.Integer(required=True)
    knock_limit = f.Integer(required=True)
    knock_card = Card(metadata={"description": "knock_card second_deck only: this hand's card from the second "
                                              "deck, which sets the knock limit (and a spade doubles the hand)"})
    multiplier = f.Integer(required=True, **doc("2 for an Oklahoma spade hand, else 1"))
    legal_actions = Documented({"type": "array", "items": ref("Action")}, required=True,
                               metadata={"description": "Each postable unchanged to /actions (resign is "
                                                        "always allowed while can_resign, and never listed)"})
    can_resign = f.Boolean(required=True)
    scores = f.Nested(ScoresSchema, required=True)
    last_hand = f.Nested(HandRecordSchema, required=True, allow_none=True,
                         **doc("The previous hand's full record, both hands shown"))
    result = f.Nested(MatchResultSchema, required=True, allow_none=True, **doc("Once the match is over"))
    rules = Documented(ref("Rules"), required=True,
                       metadata={"description": "Every rules option's value, plus the preset"})
    table = f.List(f.Nested(TableMeldSchema), **doc(
        "Mahjong gin only: the melds on the table (public), with who put each card there; add_on's "
        "`meld` is an index into this list"))
    cuts = f.List(f.Nested(CutCardsSchema), **doc(
        "Rules first_dealer_by a cut only: each try of the cut for the first dealer, the card each seat drew "
        "(several when cards of one rank cut again)"))
    must_use = Card(allow_none=True, metadata={
        "description": "Mahjong gin only: the deepest card just taken from the pile, which must go "
                       "on the table this turn (shown to the seat to move)"})


# A real view (seat 1 just took the upcard), for the spec's examples.
VIEW_EXAMPLE = {
    "kind": "game",
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
