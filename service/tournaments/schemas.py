"""Request and answer shapes of tournaments (part of openapi.yaml)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import NameField, StrictSchema, WholeNumber, doc, no_controls
from ..games.fields import RulesChoiceField
from ..games.schemas import MOVE_TIME_HOURS
from ..players.schemas import RULES, RULES_CHOICE, JsonBoolean
from .describe import OUTCOMES
from .formats import BEST_OF, ENTRY_KINDS, FORMATS, MAX_ENTRANTS, MIN_ENTRANTS, PACES, TIE_BREAKS
from .rounds import STATUSES

DEFAULT_PRESET = "standard"


class NewTournamentSchema(StrictSchema):
    name = f.String(required=True, validate=[v.Length(1, 80), no_controls], **doc("Its name", example="Winter Swiss"))
    format = f.String(required=True, validate=v.Length(1, 20), **doc(
        "swiss (`rounds` rounds, players of equal or near scores paired without repeats), round_robin "
        "(everyone meets everyone; `cycles` 2: twice, the first deal swapped) or knockout (single "
        "elimination seeded by rating, each pairing a match or a best-of series)", example="swiss"))
    rules = RulesChoiceField(load_default=lambda: {"preset": DEFAULT_PRESET}, **{
        **RULES_CHOICE, "metadata": {**RULES_CHOICE["metadata"], "example": {"preset": "standard", "target": 100},
                                     "description": "Every match's rules (default the preset standard). " +
                                                    RULES_CHOICE["metadata"]["description"]}})
    rated = JsonBoolean(load_default=True, **doc("Whether each match moves its players' ratings, as a rated "
                                                 "challenge does"))
    move_time_hours = MOVE_TIME_HOURS
    rounds = WholeNumber(allow_none=True, load_default=None, validate=v.Range(1, MAX_ENTRANTS), **doc(
        "A Swiss's rounds (required for a Swiss, at most min_entrants - 1; the other formats compute theirs)",
        example=5))
    cycles = WholeNumber(load_default=1, validate=v.Range(1, 2), **doc("A round robin's cycles: 1 or 2"))
    best_of = WholeNumber(load_default=1, validate=v.OneOf(BEST_OF), **doc(
        "A knockout pairing's matches: 1, or a best-of series of 3, 5 or 7 (series play)"))
    pace = f.String(load_default="rounds", validate=v.OneOf(PACES), **doc(
        "rounds: each round starts when the last game of the one before ends (or at its deadline); "
        "all_at_once (a round robin only): every game starts at once, as ICCF's round robins"))
    round_hours = WholeNumber(allow_none=True, load_default=None, validate=v.Range(1, 24 * 90), **doc(
        "A round's deadline in hours (all at once: the whole tournament's); then an unfinished game is settled by "
        "the clock rules. At least move_time_hours. Null (the default): a round waits for its last game",
        example=336))
    entry = f.String(load_default="anyone", validate=v.OneOf(ENTRY_KINDS), **doc(
        "Who may enter: anyone, people (no bot accounts), bots (bot accounts only), invitation (those named in "
        "`invite`)"))
    invite = f.List(NameField(), load_default=list, validate=v.Length(max=MAX_ENTRANTS), **doc(
        "The players invited (entry invitation only)"))
    house_bot = JsonBoolean(load_default=False, **doc(
        "Whether the organizer may enter the house bot, at a level (POST /tournaments/{id}/house-bot)"))
    min_entrants = WholeNumber(load_default=4, validate=v.Range(MIN_ENTRANTS, MAX_ENTRANTS), **doc(
        f"The fewest entrants it starts with ({MIN_ENTRANTS} to {MAX_ENTRANTS}; default 4)", example=6))
    max_entrants = WholeNumber(load_default=32, validate=v.Range(MIN_ENTRANTS, MAX_ENTRANTS), **doc(
        f"The most entrants it takes ({MIN_ENTRANTS} to {MAX_ENTRANTS}; default 32)", example=32))
    entry_hours = WholeNumber(load_default=72, validate=v.Range(1, 24 * 30), **doc(
        "How long entry stays open, in hours (default 72); then it starts with its entrants, or is cancelled "
        "short of its minimum. The organizer may start it earlier"))
    tie_breaks = f.List(f.String(validate=v.Length(1, 32)), allow_none=True, load_default=None,
                        validate=v.Length(max=len(TIE_BREAKS)), **doc(
        "The tie-breaks after match points, in order, fixed now (default by format: swiss buchholz, "
        "median_buchholz, gin_points, direct_encounter, rating; round_robin direct_encounter, sonneborn_berger, "
        f"wins, gin_points, rating; knockout gin_points, rating). Of: {', '.join(TIE_BREAKS)}"))


class HouseBotEntrySchema(StrictSchema):
    level = WholeNumber(required=True, validate=v.Range(1, 5), **doc("The level it plays at (1-5)", example=4))


class ListQuerySchema(StrictSchema):
    status = f.String(load_default=None, validate=v.OneOf(STATUSES), **doc("open, running, finished or cancelled"))
    format = f.String(load_default=None, validate=v.OneOf(FORMATS))
    entry = f.String(load_default=None, validate=v.OneOf(ENTRY_KINDS), **doc("Who may enter"))
    limit = WholeNumber(text=True, load_default=50, validate=v.Range(1, 200))
    offset = WholeNumber(text=True, load_default=0, validate=v.Range(0, 1_000_000))


class SummarySchema(ma.Schema):
    tournament_id = f.String(required=True)
    name = f.String(required=True)
    format = f.String(required=True, validate=v.OneOf(FORMATS))
    cycles = f.Integer(required=True)
    best_of = f.Integer(required=True)
    pace = f.String(required=True, validate=v.OneOf(PACES))
    status = f.String(required=True, validate=v.OneOf(STATUSES))
    organizer = f.String(required=True)
    rules = f.Raw(required=True, **RULES)
    rated = f.Boolean(required=True)
    move_time_hours = f.Integer(required=True, allow_none=True)
    round_hours = f.Integer(required=True, allow_none=True)
    rounds = f.Integer(required=True, allow_none=True, **doc("Null until a round robin or knockout starts"))
    current_round = f.Integer(required=True, **doc("0 before the start"))
    entry = f.String(required=True, validate=v.OneOf(ENTRY_KINDS))
    house_bot = f.Boolean(required=True)
    min_entrants = f.Integer(required=True)
    max_entrants = f.Integer(required=True)
    entrants_count = f.Integer(required=True)
    tie_breaks = f.List(f.String(validate=v.OneOf(TIE_BREAKS)), required=True)
    entry_closes_at = f.String(required=True)
    round_deadline_at = f.String(required=True, allow_none=True)
    created_at = f.String(required=True)
    started_at = f.String(required=True, allow_none=True)
    finished_at = f.String(required=True, allow_none=True)


class ListingSchema(ma.Schema):
    tournaments = f.List(f.Nested(SummarySchema), required=True, **doc("Newest first"))
    next_offset = f.Integer(required=True, allow_none=True)


class EntrantSchema(ma.Schema):
    name = f.String(required=True)
    bot = f.Boolean(required=True)
    level = f.Integer(required=True, allow_none=True, **doc("The house bot's level; null for anyone else"))
    seed = f.Integer(required=True, allow_none=True, **doc("By rating at the start"))
    rating = f.Float(required=True, allow_none=True, **doc("At the start"))
    withdrawn_round = f.Integer(required=True, allow_none=True)
    place = f.Integer(required=True, allow_none=True, **doc("Once the tournament is over"))


class GameLinkSchema(ma.Schema):
    game_id = f.String(required=True)
    status = f.String(required=True)
    watch_key = f.String(required=True, **doc("Opens GET /games/{id}/public and, once over, /replay as a bearer key"))
    watch_page = f.String(required=True)
    replay_page = f.String(required=True, allow_none=True)


class PairingResultSchema(ma.Schema):
    first = f.Float(required=True, **doc("Match points: 1, 0.5 or 0"))
    second = f.Float(required=True, allow_none=True)
    played = f.Boolean(required=True, **doc("False: decided without play (a bye, a forfeit, a double loss)"))
    points = f.List(f.Integer(), required=True, allow_none=True, **doc("Gin points each scored"))


class PairingSchema(ma.Schema):
    board = f.Integer(required=True)
    first = f.String(required=True, **doc("Deals the first hand (seat 0)"))
    second = f.String(required=True, allow_none=True, **doc("Null: `first` has the bye (a walkover)"))
    series_id = f.String(required=True, allow_none=True, **doc("A knockout pairing of several matches: GET /series/{id}"))
    games = f.List(f.Nested(GameLinkSchema), required=True)
    result = f.Nested(PairingResultSchema, required=True, allow_none=True)


class PairedFromSchema(ma.Schema):
    player = f.String(required=True)
    score = f.Float(required=True)
    rating = f.Float(required=True)
    opponents = f.List(f.String(), required=True)
    byes = f.Integer(required=True)
    first_deals = f.Integer(required=True)
    second_deals = f.Integer(required=True)


class RoundSchema(ma.Schema):
    number = f.Integer(required=True)
    started_at = f.String(required=True)
    deadline_at = f.String(required=True, allow_none=True)
    finished_at = f.String(required=True, allow_none=True)
    rest = f.String(required=True, allow_none=True, **doc("A round robin of an odd count: who rests"))
    paired_from = f.List(f.Nested(PairedFromSchema), required=True, allow_none=True, **doc(
        "A Swiss: every player as the pairing saw it, best-ranked first (pair them again by the rule in "
        "docs/tournaments.md to check)"))
    pairings = f.List(f.Nested(PairingSchema), required=True)


class StandingSchema(ma.Schema):
    place = f.Integer(required=True, **doc("Players equal on every tie-break share it"))
    player = f.String(required=True)
    score = f.Float(required=True, **doc("Match points"))
    tie_breaks = f.Dict(keys=f.String(), values=f.Float(allow_none=True), required=True)
    played = f.Integer(required=True)
    won = f.Integer(required=True)
    drawn = f.Integer(required=True)
    lost = f.Integer(required=True)
    byes = f.Integer(required=True)


class CrossRoundSchema(ma.Schema):
    round = f.Integer(required=True)
    opponent = f.String(required=True, allow_none=True)
    outcome = f.String(required=True, validate=v.OneOf(OUTCOMES))
    score = f.Float(required=True)
    points_for = f.Integer(required=True)
    points_against = f.Integer(required=True)
    games = f.List(f.String(), required=True)


class CrossRowSchema(ma.Schema):
    player = f.String(required=True)
    rounds = f.List(f.Nested(CrossRoundSchema), required=True)


class BracketSlotSchema(ma.Schema):
    board = f.Integer(required=True, **doc("The slot's place in its round, in bracket order (the pairing's board)"))
    first = f.String(required=True, allow_none=True, **doc("Null while the slot feeding it is undecided"))
    second = f.String(required=True, allow_none=True, **doc(
        "Null: a bye or walkover for `first` once decided, or the slot feeding it undecided"))
    first_seed = f.Integer(required=True, allow_none=True)
    second_seed = f.Integer(required=True, allow_none=True)
    fed_by = f.List(f.Integer(), required=True, allow_none=True, **doc(
        "The boards of the round before whose winners meet here; null in the first round"))
    winner = f.String(required=True, allow_none=True, **doc("Once decided; null after a double loss"))
    decided = f.Boolean(required=True)


class BracketRoundSchema(ma.Schema):
    round = f.Integer(required=True)
    name = f.String(required=True, **doc("Final, Semi-finals, Quarter-finals or Round N"))
    slots = f.List(f.Nested(BracketSlotSchema), required=True)


class BracketSchema(ma.Schema):
    size = f.Integer(required=True, **doc("The smallest power of two at least the entrants: its byes are the difference"))
    rounds = f.List(f.Nested(BracketRoundSchema), required=True)


class TournamentSchema(SummarySchema):
    invited = f.List(f.String(), required=True)
    entrants = f.List(f.Nested(EntrantSchema), required=True)
    rounds_played = f.List(f.Nested(RoundSchema), required=True)
    standings = f.List(f.Nested(StandingSchema), required=True, **doc("Best first; empty before the start"))
    crosstable = f.List(f.Nested(CrossRowSchema), required=True)
    bracket = f.Nested(BracketSchema, required=True, allow_none=True, **doc(
        "A started knockout's whole bracket, seeded by rating (byes to the top seeds): every round's slots, "
        "the later ones filled as winners are known; null for other formats and before the start"))


class PlayerTournamentSchema(ma.Schema):
    tournament_id = f.String(required=True)
    name = f.String(required=True)
    format = f.String(required=True)
    status = f.String(required=True)
    place = f.Integer(required=True, allow_none=True)
    entrants = f.Integer(required=True)
    withdrawn = f.Boolean(required=True)
    finished_at = f.String(required=True, allow_none=True)


class PlayerTournamentsSchema(ma.Schema):
    tournaments = f.List(f.Nested(PlayerTournamentSchema), required=True)
