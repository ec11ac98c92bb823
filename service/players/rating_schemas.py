"""Request and answer shapes of ratings: a player's rating, the public profile, the leaderboard
(part of openapi.yaml)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import WholeNumber, doc


class RatingSchema(ma.Schema):
    value = f.Float(required=True, **doc("Glicko-2 rating; every player starts at 1500", example=1500.0))
    deviation = f.Float(required=True, **doc("How uncertain the rating is (starts at 350, shrinks with games)",
                                             example=350.0))
    volatility = f.Float(required=True, **doc("How erratic the player's results are (starts at 0.06)",
                                              example=0.06))
    games = f.Integer(required=True, **doc("Rated matches played", example=0))
    provisional = f.Boolean(required=True, **doc("True while the deviation is over 110", example=True))


class TableRatingSchema(ma.Schema):
    mu = f.Float(required=True, **doc("OpenSkill (Plackett-Luce) skill estimate; every player starts at 25",
                                      example=25.0))
    sigma = f.Float(required=True, **doc("How uncertain mu is (starts at 25/3, shrinks with tables played)",
                                         example=8.3333))
    ordinal = f.Float(required=True, **doc("mu - 3 sigma: the table rating to compare (starts at 0)", example=0.0))
    games = f.Integer(required=True, **doc("Rated tables played", example=0))


class RatingChangeSchema(ma.Schema):
    before = f.Float(required=True)
    after = f.Float(required=True)
    delta = f.Float(required=True, **doc("after - before"))
    deviation = f.Float(required=True, **doc("The deviation after the match"))
    provisional = f.Boolean(required=True)
    level = f.Integer(allow_none=True, **doc(
        "On the house bot's own event: the level (1-5) it played at, whose rating this is (each level is "
        "rated as an identity of its own); else null", example=None))
    opponent_level = f.Integer(allow_none=True, **doc(
        "The house bot's level (1-5) you played against, whose rating yours moved against; else null",
        example=4))


class TableRatingChangeSchema(ma.Schema):
    before = f.Float(required=True, **doc("The ordinal (mu - 3 sigma) before the table"))
    after = f.Float(required=True, **doc("The ordinal after it"))
    delta = f.Float(required=True, **doc("after - before"))
    mu = f.Float(required=True, **doc("mu after the table"))
    sigma = f.Float(required=True, **doc("sigma after the table"))
    rank = f.Integer(required=True, **doc("Your side's place: 0 first; sides of equal place tied"))


class ProfileSchema(ma.Schema):
    name = f.String(required=True)
    bot = f.Boolean(required=True, **doc("A program that plays: rated in the same pool as people"))
    created_at = f.String(required=True, **doc("ISO-8601"))
    rating = f.Nested(RatingSchema, required=True, **doc("Glicko-2, from two-seat matches"))
    table_rating = f.Nested(TableRatingSchema, required=True, **doc(
        "OpenSkill, from tables of 3 to 8 seats (partners rated as a team)"))
    public_games = f.Boolean(required=True, **doc("Whether the player lets anyone watch its current games and "
                                                   "replay its finished ones (links in GET /players/{name}/games)"))


class BoardStandingSchema(ma.Schema):
    on_board = f.Boolean(required=True, **doc("Whether the player is on the leaderboard now"))
    rated_games_needed = f.Integer(required=True, **doc(
        "About how many more rated matches it takes (the minimum of 5, or a settled rating: whichever is further; "
        "counted against settled opponents, more against new ones); 0 when the matches are enough", example=6))
    eligible_from = f.String(required=True, allow_none=True, **doc(
        "ISO-8601: when the account is old enough to be on the board; null once it is",
        example="2030-01-08T12:00:00+00:00"))


class PublicProfileSchema(ProfileSchema):
    leaderboard = f.Nested(BoardStandingSchema, required=True, **doc(
        "Where the player stands against the leaderboard's rules (GET /players `rules`)"))


class LeaderboardQuerySchema(ma.Schema):
    sort = f.String(required=True, validate=v.OneOf(("rating",)),
                    **doc("Only `rating`: highest first (ties by name)", example="rating"))
    limit = WholeNumber(text=True, load_default=50, validate=v.Range(1, 200), **doc("At most this many players"))
    offset = WholeNumber(text=True, load_default=0, validate=v.Range(0, 2**31 - 1), **doc("Skip this many"))


class LeaderboardRowSchema(ProfileSchema):
    rank = f.Integer(required=True, **doc("1 for the highest rating"))


class BoardRulesSchema(ma.Schema):
    min_rated_games = f.Integer(required=True, **doc("Rated matches a player needs to be on the board", example=5))
    max_deviation = f.Float(required=True, **doc("The rating must be settled: its deviation at most this (not "
                                                 "provisional)", example=110.0))
    typical_rated_games = f.Integer(required=True, **doc(
        "About how many rated matches a new account takes to settle its rating that far, against settled "
        "opponents (more against new players): when a newcomer can expect to appear", example=11))
    min_account_age_days = f.Integer(required=True, **doc("Days an account must exist to be on the board", example=7))
    min_target = f.Integer(required=True, **doc("A match is rated only when played to at least this many points",
                                                example=100))
    pair_rated_per_day = f.Integer(required=True, **doc(
        "Rated matches between the same two players in 24 hours: those past this many are played unrated (the "
        "house bot's levels excepted)", example=3))
    forfeits_rated = f.Boolean(required=True, **doc(
        "Always true: a rated match resigned or lost on time is a loss, whatever the hand", example=True))


class LeaderboardSchema(ma.Schema):
    players = f.List(f.Nested(LeaderboardRowSchema), required=True)
    rules = f.Nested(BoardRulesSchema, required=True, **doc("What it takes to be rated and on the board"))
    next_offset = f.Integer(required=True, allow_none=True, **doc("Pass as ?offset= for the next page; null: "
                                                                   "this was the last"))


class SeatRatingChangeSchema(ma.Schema):
    seat = f.Integer(required=True)
    player = f.String(required=True, **doc("The player holding the seat"))
    level = f.Integer(required=True, allow_none=True, **doc(
        "The house bot's level (1-5) when it held the seat at one: the rating moved was that level's, each "
        "level being rated as an identity of its own, not the house account's; else null", example=4))
    label = f.String(required=True, **doc("Whose rating moved, to show: the player's name, or the house bot's "
                                          "level as 'House (level 4)'", example="House (level 4)"))
    kind = f.String(required=True, validate=v.OneOf(("rating", "table_rating")),
                    **doc("rating: Glicko-2 (two seats), its value; table_rating: OpenSkill, its ordinal"))
    before = f.Float(required=True)
    after = f.Float(required=True)
    delta = f.Float(required=True, **doc("after - before"))


class GameRatingsSchema(ma.Schema):
    rated = f.Boolean(required=True, **doc(
        "Whether the game moves ratings: while it is played, whether it will when it ends (every seat a "
        "player's, not made with rated: false, a target of at least GET /players `rules.min_target`); once over, "
        "whether it did (not past `rules.pair_rated_per_day` matches of the same two players in 24 hours)"))
    changes = f.List(f.Nested(SeatRatingChangeSchema), required=True, **doc(
        "Once a rated game is over: what it did to each seat's rating, by seat; empty before"))
