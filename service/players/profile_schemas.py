"""Answer shapes of a player's public profile beyond the rating: its rating history, its record
against each opponent, its games (part of openapi.yaml)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import StrictSchema, WholeNumber, doc
from .schemas import JsonBoolean

RESULTS = ("won", "lost", "drawn")
NEXT_OFFSET = doc("Pass as ?offset= for the next page; null: this was the last")


class ProfilePageQuerySchema(ma.Schema):
    limit = WholeNumber(text=True, load_default=50, validate=v.Range(1, 200), **doc("At most this many rows"))
    offset = WholeNumber(text=True, load_default=0, validate=v.Range(0, 2**31 - 1), **doc("Skip this many"))


class ProfileGamesQuerySchema(ProfilePageQuerySchema):
    status = f.String(validate=v.OneOf(("active", "finished")),
                      **doc("Only current (`active`) or only `finished` games; absent: both", example="finished"))


class OpponentNameSchema(ma.Schema):
    name = f.String(required=True, **doc("The opponent's player name", example="Bob"))
    bot = f.Boolean(required=True, **doc("Whether the opponent is a bot"))


class RatedOpponentSchema(OpponentNameSchema):
    level = f.Integer(required=True, allow_none=True, **doc(
        "The house bot's level (1-5) when the opponent was the house bot at one: the player was rated against "
        "that level's rating (each level is rated as an identity of its own); else null", example=None))
    label = f.String(required=True, **doc("The opponent to show: its name, or the house bot's level as "
                                          "'House (level 4)'", example="Bob"))


class RatedMatchSchema(ma.Schema):
    game_id = f.String(required=True)
    at = f.String(required=True, **doc("When the match ended and was rated (ISO-8601)"))
    opponent = f.Nested(RatedOpponentSchema, required=True)
    level = f.Integer(required=True, allow_none=True, **doc(
        "Only in the house bot's history: the level it played at, whose rating `before` and `after` are "
        "(not the house account's); else null"))
    result = f.String(required=True, validate=v.OneOf(RESULTS), **doc("The player's result"))
    before = f.Float(required=True, **doc("The rating before the match"))
    after = f.Float(required=True, **doc("The rating after it"))
    delta = f.Float(required=True, **doc("after - before"))
    deviation = f.Float(required=True, **doc("The deviation after the match"))


class RatingHistorySchema(ma.Schema):
    matches = f.List(f.Nested(RatedMatchSchema), required=True, **doc("Rated matches, newest first"))
    next_offset = f.Integer(required=True, allow_none=True, **NEXT_OFFSET)


class OpponentRecordSchema(RatedOpponentSchema):
    won = f.Integer(required=True, **doc("Rated matches the player won against this opponent"))
    lost = f.Integer(required=True)
    drawn = f.Integer(required=True)
    games = f.Integer(required=True, **doc("won + lost + drawn"))


class RecordSchema(ma.Schema):
    opponents = f.List(f.Nested(OpponentRecordSchema), required=True,
                       **doc("One row per opponent met in rated matches (the house bot: one per level played), the most "
                              "played first (ties by name, then level)"))
    next_offset = f.Integer(required=True, allow_none=True, **NEXT_OFFSET)


class SeatHolderSchema(ma.Schema):
    seat = f.Integer(required=True)
    name = f.String(required=True, allow_none=True, **doc("The seat's display name"))
    player = f.String(required=True, allow_none=True, **doc("The player's account name; null: an anonymous seat"))
    bot = f.Boolean(required=True, allow_none=True, **doc("Whether that player is a bot; null: no player"))


class ProfileScoreSchema(ma.Schema):
    player = f.Integer(required=True, **doc("The player's (its side's) hand points in the current game; once it "
                                                  "closed, its final total with the bonuses"))
    opponents = f.Integer(required=True, **doc("The other side's (at a table: the best other side's)"))


class ProfileRatingChangeSchema(ma.Schema):
    before = f.Float(required=True)
    after = f.Float(required=True)
    delta = f.Float(required=True, **doc("after - before"))


class ProfileLinksSchema(ma.Schema):
    watch = f.String(required=True, allow_none=True, **doc(
        "A current game's watch page, with a watch key in the fragment: only when the player made its "
        "games public (`public_games`); else null"))
    replay = f.String(required=True, allow_none=True, **doc(
        "A finished match's replay page, with a watch key in the fragment: only when the player made "
        "its games public; else null"))


class ProfileGameSchema(ma.Schema):
    game_id = f.String(required=True)
    status = f.String(required=True, validate=v.OneOf(("active", "finished")))
    seats = f.Integer(required=True, **doc("How many seats the game has: 3 or more is a table"))
    seat = f.Integer(required=True, **doc("The player's seat"))
    updated_at = f.String(required=True, **doc("When the game last changed; for a finished game, when it ended"))
    opponents = f.List(f.Nested(SeatHolderSchema), required=True, **doc("Every other seat"))
    result = f.String(required=True, allow_none=True, validate=v.OneOf(RESULTS),
                      **doc("The player's result (at a table, its side's); null while the game goes on"))
    score = f.Nested(ProfileScoreSchema, required=True)
    rating_change = f.Nested(ProfileRatingChangeSchema, required=True, allow_none=True,
                             **doc("What the match did to the player's rating; null: not rated (yet)"))
    links = f.Nested(ProfileLinksSchema, required=True)


class ProfileGamesSchema(ma.Schema):
    games = f.List(f.Nested(ProfileGameSchema), required=True, **doc("The most recently changed first"))
    next_offset = f.Integer(required=True, allow_none=True, **NEXT_OFFSET)


class AccountPatchSchema(StrictSchema):
    public_games = JsonBoolean(required=True, **doc(
        "Let anyone who opens your profile watch your current games and replay your finished ones (a watch "
        "link on each; turning it off revokes them all)", example=True))
