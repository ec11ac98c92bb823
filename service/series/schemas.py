"""Request and answer shapes of series (part of openapi.yaml)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import StrictSchema, WholeNumber, doc, no_controls
from ..games.fields import RulesChoiceField
from ..games.schemas import MOVE_TIME_HOURS
from ..players.schemas import RULES, RULES_CHOICE, GameLinksSchema, JsonBoolean
from .play import DEFAULT_PRESET, KINDS, STATUSES


class NewSeriesSchema(StrictSchema):
    to = f.String(required=True, validate=[v.Length(1, 40), no_controls],
                  **doc("The player the series is offered to (they accept or decline it)", example="Bob"))
    kind = f.String(load_default="best_of", validate=v.OneOf(KINDS), **doc(
        "best_of: the first to win a majority of `matches` games wins (000's tournament: best of five, "
        "each game to 250); points: each game's final totals accumulate until a player reaches `target`"))
    matches = WholeNumber(allow_none=True, load_default=None, validate=v.Range(1, 99), **doc(
        "best_of only: an odd number of games, 1 to 99 (default 5)", example=5))
    target = WholeNumber(allow_none=True, load_default=None, validate=v.Range(10, 100000), **doc(
        "points only: the series total to reach (default 500), e.g. 500"))  # no example: best_of's is `matches`
    exactly_50_loses = JsonBoolean(load_default=False, **doc(
        "points only: a player exactly 50 ahead at the series' end loses it (000's variation); for single "
        "games, the rules option of the same name"))
    rules = RulesChoiceField(load_default=lambda: {"preset": DEFAULT_PRESET}, **{
        **RULES_CHOICE, "metadata": {**RULES_CHOICE["metadata"], "example": {"preset": DEFAULT_PRESET},
                                     "description": "Each game's rules (default the preset wikipedia_tournament: "
                                                    "000's tournament games to 250). " +
                                                    RULES_CHOICE["metadata"]["description"]}})
    move_time_hours = MOVE_TIME_HOURS


class SeriesGameResultSchema(ma.Schema):
    winner = f.String(required=True, allow_none=True, **doc("The player who won the game; null: a draw"))
    reason = f.String(required=True, allow_none=True, **doc("target, resign or timeout (as the game's result)"))
    totals = f.List(f.Integer(), required=True, **doc("Final totals by seat (see seating)"))


class SeriesGameSchema(ma.Schema):
    number = f.Integer(required=True, **doc("1, 2, ... in the order played"))
    game_id = f.String(required=True)
    status = f.String(required=True, validate=v.OneOf(("waiting_for_opponent", "active", "finished")))
    seating = f.List(f.String(), required=True, **doc("The player at seat 0, at seat 1 (they change seats "
                                                       "each game)"))
    result = f.Nested(SeriesGameResultSchema, required=True, allow_none=True, **doc("Once the game is over"))
    links = f.Nested(GameLinksSchema, required=True, **doc("The game's routes (the players' tokens open them)"))


class StandingsRowSchema(ma.Schema):
    player = f.String(required=True)
    played = f.Integer(required=True)
    won = f.Integer(required=True)
    lost = f.Integer(required=True)
    drawn = f.Integer(required=True)
    points = f.Integer(required=True, **doc("The games' final totals added up"))
    net = f.Integer(required=True, **doc("Points scored less points conceded"))


class StandingsSchema(ma.Schema):
    rows = f.List(f.Nested(StandingsRowSchema), required=True,
                  **doc("Best first: by games won then points (points series: by points)"))
    matches_played = f.Integer(required=True)
    leader = f.String(required=True, allow_none=True, **doc("Who is ahead now; null while level"))
    over = f.Boolean(required=True, **doc("Whether the series is decided (or every game played)"))
    winner = f.String(required=True, allow_none=True, **doc("The series' winner once decided"))
    exactly_50_rule = f.Boolean(required=True, **doc("True when exactly_50_loses decided the series"))


class SeriesSchema(ma.Schema):
    series_id = f.String(required=True)
    status = f.String(required=True, validate=v.OneOf(STATUSES), **doc(
        "offered (until the other player accepts or declines), playing, decided, declined"))
    players = f.List(f.String(), required=True, **doc("The offerer, then the player offered the series"))
    kind = f.String(required=True, validate=v.OneOf(KINDS))
    matches = f.Integer(required=True, allow_none=True, **doc("best_of: games at most; null for points"))
    target = f.Integer(required=True, allow_none=True, **doc("points: the series target; null for best_of"))
    exactly_50_loses = f.Boolean(required=True)
    rules = f.Raw(required=True, **RULES)
    move_time_hours = f.Integer(required=True, allow_none=True)
    created_at = f.String(required=True, **doc("ISO-8601"))
    current_game = f.String(required=True, allow_none=True, **doc("The game being played; null unless playing"))
    games = f.List(f.Nested(SeriesGameSchema), required=True, **doc("In the order played; the next is made, "
                                                                     "and added here, when one ends"))
    standings = f.Nested(StandingsSchema, required=True)
