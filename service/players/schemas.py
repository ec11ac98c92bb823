"""Request and answer shapes of players, challenges, rematches, watch links and the player's stream
(part of openapi.yaml)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import EmailField, NameField, StrictSchema, WholeNumber, doc, no_controls
from ..core.openapi import DOC_KEY, ref
from ..games.fields import Documented, RulesChoiceField, seat_field, view_kind
from ..games.schemas import MOVE_TIME_HOURS, VIEW_DOC, SeatInviteSchema, view_union
from ..games.table_game import SEAT_COUNTS
from ..games.table_schemas import (
    FORMATS,
    SEATS,
    TABLE_SEAT_COUNTS,
    PublicBoardSchema,
    TableHandRecordSchema,
    TablePlayerSchema,
    TableResultSchema,
    TableScoresSchema,
    table_seat,
)
from ..games.view_schemas import RevealedDealSchema, TableMeldSchema
from .challenges import DECLINE_REASONS, OPPONENT_KINDS
from .rating_schemas import RatingSchema, TableRatingSchema

RULES_CHOICE = doc("A preset from RULES.md plus option overrides; an unknown option or a value out of range "
                    "is refused (422 invalid-option, naming the option)",
                    example={"preset": "standard", "target": 100}, **{DOC_KEY: ref("RulesChoice")})
RULES = doc("Every rules option's value, plus the preset", **{DOC_KEY: ref("Rules")})


def _email(text: str) -> None:
    from ..notify.consent.addresses import check_email
    try:
        check_email(text)
    except ValueError as exc:
        raise ma.ValidationError(str(exc)) from None


class JsonBoolean(f.Boolean):
    """true or false only: marshmallow's Boolean takes 0, 1 and "yes" too (1 == True in Python)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class NewPlayerSchema(StrictSchema):
    name = NameField()
    email = EmailField("Optional; kept with the account, never shown to others", allow_none=True, validate=[_email])
    bot = JsonBoolean(load_default=False, **doc("True for a program that plays: challenges can ask for bots "
                                               "only or humans only"))


class AccountSchema(ma.Schema):
    id = f.Integer(required=True)
    name = f.String(required=True)
    email = f.String(required=True, allow_none=True)
    bot = f.Boolean(required=True)
    created_at = f.String(required=True, **doc("ISO-8601"))
    token_created_at = f.String(required=True, allow_none=True,
                                **doc("When the current player token was made; null: revoked"))
    rating = f.Nested(RatingSchema, required=True, **doc("Your Glicko-2 rating (two-seat matches)"))
    table_rating = f.Nested(TableRatingSchema, required=True, **doc(
        "Your OpenSkill table rating (tables of 3 to 8 seats, partners as a team)"))
    public_games = f.Boolean(required=True, **doc("Whether your profile links your games to watch and replay "
                                                   "(PATCH /me to change)"))


class HouseLevelSchema(ma.Schema):
    level = f.Integer(required=True, **doc("The level (1-5) to ask for in the challenge (`level`)", example=4))
    label = f.String(required=True, **doc("How the level is named: the bot's name and the level",
                                          example="House (level 4)"))
    rating = f.Nested(RatingSchema, required=True, **doc(
        "The level's own Glicko-2 rating: each level is rated as an identity of its own, moved by rated "
        "matches against the house bot at that level (the house account's rating is not)"))


class HouseBotSchema(ma.Schema):
    name = f.String(required=True, **doc("The house bot's player name: challenge it (`to`) to play the computer"))
    bot = f.Boolean(required=True, **doc("Always true"))
    levels = f.List(f.Nested(HouseLevelSchema), required=True, **doc(
        "Its levels, 1 (a beginner) to 5 (the strongest), each with the rating players earned against it"))


class PlayerTokenSchema(ma.Schema):
    token = f.String(required=True, **doc("The player token. Shown once: keep it. Send it as "
                                           "`Authorization: Bearer <token>` to /me, /challenges and the game "
                                           "routes of every seat the player holds"))
    player = f.Nested(AccountSchema, required=True)


class GameLinksSchema(ma.Schema):
    game = f.String(required=True)
    actions = f.String(required=True)
    events = f.String(required=True)
    stream = f.String(required=True)


class RivalSchema(ma.Schema):
    name = f.String(required=True, allow_none=True, **doc("The seat's display name; null while waiting"))
    player = f.String(required=True, allow_none=True, **doc("The player's account name, if a player holds it"))
    bot = f.Boolean(required=True, allow_none=True, **doc("Whether that player is a bot; null: no player"))


class ScoreSchema(ma.Schema):
    you = f.Integer(required=True)
    opponent = f.Integer(required=True)


class MyGameSchema(ma.Schema):
    game_id = f.String(required=True)
    seat = table_seat("Your seat: 0 (who created the game), 1, ... (up to 7 at a table of eight)", required=True)
    seats = f.Integer(required=True, validate=v.OneOf(SEAT_COUNTS),
                      **doc("How many seats the game has: 3 or more is a table"))
    status = f.String(required=True, validate=v.OneOf(("waiting_for_opponent", "active", "finished")))
    version = f.Integer(required=True)
    your_turn = f.Boolean(required=True, **doc("Whether your seat may act now (at a table: it is one of "
                                                  "the seats to move, one per board)"))
    phase = f.String(required=True, allow_none=True)
    opponent = f.Nested(RivalSchema, required=True, **doc(
        "Who your seat plays; at a table the seat on your board now (every field null while you sit out)"))
    score = f.Nested(ScoreSchema, required=True, **doc(
        "The current game's hand points; once it closed, its final total with the bonuses (Hollywood: the newest column)"))
    deadline = f.String(required=True, allow_none=True, **doc("ISO-8601: when the seat to move runs out of time"))
    links = f.Nested(GameLinksSchema, required=True)


class MyGamesSchema(ma.Schema):
    games = f.List(f.Nested(MyGameSchema), required=True)
    next_offset = f.Integer(required=True, allow_none=True, **doc("Pass as ?offset= for the next page; null: "
                                                                   "this was the last"))


class PageQuerySchema(ma.Schema):
    limit = WholeNumber(text=True, load_default=50, validate=v.Range(1, 200), **doc("At most this many games"))
    offset = WholeNumber(text=True, load_default=0, validate=v.Range(0, 2**31 - 1), **doc("Skip this many"))


class NewGameSchema(StrictSchema):
    rules = RulesChoiceField(load_default=dict, **RULES_CHOICE)
    move_time_hours = MOVE_TIME_HOURS
    seats = WholeNumber(load_default=2, validate=v.OneOf(SEAT_COUNTS), **doc(
        "How many players, as in POST /games: 2 (the default) or a table; each other seat has its own "
        "invite code (`invites`), which a player joins with POST /me/games/{game_id}/join", example=2))
    rated = JsonBoolean(**doc("false: the game moves nobody's rating. Default: rated when the target is at least "
                              "the minimum (GET /players `rules.min_target`, 100) and every seat is taken by a "
                              "player; true with a lower target is refused (rated-target-too-low)", example=True))


class JoinAsPlayerSchema(StrictSchema):
    invite_code = f.String(required=True, validate=v.Length(1, 100),
                           **doc("The invite code the creator received", example="q3Jw..."))


class SeatedSchema(ma.Schema):
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=SEATS, **doc("Your seat: 0 when creating; joining, the seat the "
                                                           "invite code opens"))
    token = f.String(required=True, **doc("The seat's own bearer token (the player token opens the seat too). "
                                           "Shown once"))
    invite_code = f.String(**doc("Creating only: give this to the opponent (seat 1); it works once"))
    invites = f.List(f.Nested(SeatInviteSchema), **doc("Creating a table only: an invite code per seat to fill"))
    links = f.Nested(GameLinksSchema, required=True)
    game = Documented(VIEW_DOC, required=True, metadata={"description": "Your view"})


class NewChallengeSchema(StrictSchema):
    to = f.String(allow_none=True, validate=[v.Length(1, 40), no_controls],
                  **doc("The name of the player challenged; null or absent: an open challenge anyone may take",
                         example="Bob"))
    rules = RulesChoiceField(load_default=dict, **RULES_CHOICE)
    move_time_hours = MOVE_TIME_HOURS
    opponent = f.String(load_default="any", validate=v.OneOf(OPPONENT_KINDS),
                        **doc("Who may accept: any player, bots only, humans only"))
    expires_in_hours = WholeNumber(load_default=72, validate=v.Range(1, 24 * 30),
                                   **doc("The challenge lapses after this many hours (default 72)"))
    rated = JsonBoolean(**doc("false: the match moves nobody's rating. Default: rated when the target is at "
                              "least the minimum (GET /players `rules.min_target`, 100); true with a lower target "
                              "is refused (rated-target-too-low)"))
    level = WholeNumber(validate=v.Range(1, 5), **doc(
        "To the house bot only (`to` its name): the level it plays at, 1 (a beginner) to 5 (the strongest); "
        "default 3, the reference bot. Refused (`level-not-house-bot`) in any other challenge"))
    # (No field example: the request example made of the fields' examples challenges Bob, not the bot.)


class RematchSeatSchema(ma.Schema):
    seat = f.Integer(required=True, validate=SEATS)
    player = f.String(required=True, **doc("The player holding the seat (in the new game too)"))
    answer = f.String(required=True, validate=v.OneOf(("offered", "pending", "accepted")),
                      **doc("offered: the seat that offered it; pending: not answered yet"))


class ChallengeSchema(ma.Schema):
    challenge_id = f.String(required=True)
    from_ = f.String(required=True, data_key="from", attribute="from", **doc("The challenger's name"))
    to = f.String(required=True, allow_none=True, **doc("The player challenged; null: open"))
    rules = f.Raw(required=True, **RULES)
    move_time_hours = f.Integer(required=True, allow_none=True)
    opponent = f.String(required=True, validate=v.OneOf(OPPONENT_KINDS))
    status = f.String(required=True, validate=v.OneOf(("pending", "accepted", "declined", "cancelled", "expired")))
    reason = f.String(required=True, allow_none=True, validate=v.OneOf(DECLINE_REASONS),
                      **doc("Declined only: the reason code"))
    game_id = f.String(required=True, allow_none=True, **doc("Accepted only: the game made"))
    rematch_of = f.String(required=True, allow_none=True, **doc("A rematch: the finished game it follows"))
    rated = f.Boolean(required=True, **doc("Whether the match moves the players' ratings (a rematch: as the "
                                           "game it follows)"))
    level = f.Integer(required=True, allow_none=True, validate=v.Range(1, 5), **doc(
        "A challenge to the house bot: the level it plays at (1-5); null for any other"))
    seats = f.List(f.Nested(RematchSeatSchema), required=True, allow_none=True, **doc(
        "A rematch at a table only (then `to` is null): every seat, its player and answer; the game is made "
        "when all have accepted, and one decline ends it"))
    created_at = f.String(required=True)
    expires_at = f.String(required=True)


class ChallengeQuerySchema(ma.Schema):
    limit = WholeNumber(text=True, load_default=50, validate=v.Range(1, 200),
                        **doc("At most this many challenges, across the three lists"))
    # 16 digits of microseconds since 1970 reach the year 2286: no cursor overflows a datetime
    cursor = f.String(validate=v.Regexp(r"^[0-9]{1,16}\.[A-Za-z0-9_-]{1,32}$"),
                      **doc("next_cursor of the page before: the challenges older than that page"))


class ChallengeListSchema(ma.Schema):
    to_me = f.List(f.Nested(ChallengeSchema), required=True, **doc("Pending challenges naming you"))
    open = f.List(f.Nested(ChallengeSchema), required=True, **doc("Pending open challenges you may accept "
                                                                   "(for any player, or for your kind)"))
    mine = f.List(f.Nested(ChallengeSchema), required=True, **doc("Your own pending challenges"))
    next_cursor = f.String(required=True, allow_none=True, **doc(
        "Pass as cursor for older challenges; null on the last page"))


class DeclineSchema(StrictSchema):
    reason = f.String(required=True, validate=v.OneOf(DECLINE_REASONS),
                      **doc("Why, as a code the challenger's program can read", example="busy"))


class AcceptedSchema(ma.Schema):
    challenge = f.Nested(ChallengeSchema, required=True)
    game_id = f.String(required=True)
    seat = f.Integer(required=True, validate=SEATS, **doc("Your seat"))
    links = f.Nested(GameLinksSchema, required=True)
    game = Documented(VIEW_DOC, required=True, metadata={"description": "Your view of the new game"})


class RematchSchema(ma.Schema):
    rematch_of = f.String(required=True, allow_none=True, **doc("The game this one is a rematch of"))
    rematch = f.Nested(ChallengeSchema, required=True, allow_none=True,
                       **doc("The rematch offered after this game (its game_id once accepted)"))


class SeatRematchSchema(ma.Schema):
    """A rematch between seats that are not both players' (POST /games/{game_id}/seat-rematch)."""
    available = f.Boolean(required=True, **doc(
        "This game offers one: a two-seat match is over and its seats are not both players' (between "
        "players a rematch is a challenge: /games/{game_id}/rematch)"))
    game_id = f.String(required=True, allow_none=True, **doc("The rematch's game, once offered"))
    offered_by = seat_field("The seat that offered it", required=True, allow_none=True)
    accepted = f.Boolean(required=True, **doc("The other seat took the rematch's second seat"))
    declined = f.Boolean(required=True, **doc("The other seat declined it (POST /games/{game_id}/seat-rematch/decline)"))
    reason = f.String(required=True, allow_none=True, validate=v.OneOf(DECLINE_REASONS), **doc(
        "Declined with a reason: its code; null otherwise"))


class SeatRematchDeclineSchema(StrictSchema):
    """Declining a seat rematch: a reason is optional (no body at all declines without one)."""
    reason = f.String(validate=v.OneOf(DECLINE_REASONS), **doc(
        "Why, as a code the offering seat's program can read (as a challenge's decline)", example="busy"))


class SeatRematchSeatSchema(ma.Schema):
    """A seat of the rematch: offering takes its seat 0, accepting its seat 1 (and deals)."""
    game_id = f.String(required=True)
    seat = seat_field(required=True)
    token = f.String(required=True, **doc("The bearer token of that seat in the rematch. Shown once: keep it"))
    game = Documented(VIEW_DOC, required=True, metadata={"description": "That seat's view of the rematch"})


class WatchLinkSchema(ma.Schema):
    id = f.String(required=True)
    created_by_seat = seat_field(required=True)
    created_at = f.String(required=True)


class NewWatchLinkSchema(WatchLinkSchema):
    key = f.String(required=True, **doc("The watch key. Shown once. The watcher sends it as "
                                         "`Authorization: Bearer <key>` to GET /games/{game_id}/public"))
    url = f.String(required=True, **doc("The public view's path"))


class WatchLinkListSchema(ma.Schema):
    links = f.List(f.Nested(WatchLinkSchema), required=True)


class PublicViewSchema(ma.Schema):
    """What anyone may see of a game: never a card of a hand in play, nor the stock."""

    kind = view_kind("game")
    game_id = f.String(required=True)
    version = f.Integer(required=True)
    status = f.String(required=True)
    players = f.List(f.Dict(), required=True, **doc("[{seat, name}]"))
    deadline = f.String(required=True, allow_none=True)
    deal_commitment = f.String(required=True, allow_none=True)
    revealed_deals = f.List(f.Dict(), required=True, **doc("Finished hands' decks, as in GameView"))
    phase = f.String(required=True)
    to_move = f.Integer(required=True, allow_none=True)
    dealer = f.Integer(required=True, allow_none=True)
    hand_number = f.Integer(required=True)
    discard_pile = f.List(f.String(), required=True)
    stock_count = f.Integer(required=True)
    card_counts = f.List(f.Integer(), required=True, **doc("Cards in each seat's hand"))
    knock_limit = f.Integer(required=True, allow_none=True)
    multiplier = f.Integer(required=True)
    scores = f.Raw(required=True, **doc("As in GameView"))
    last_hand = f.Raw(required=True, allow_none=True, **doc("The last finished hand's record, both hands shown"))
    result = f.Raw(required=True, allow_none=True, **doc("The match's result, once over"))
    rules = f.Raw(required=True, **RULES)
    table = f.List(f.Nested(TableMeldSchema), **doc(
        "Mahjong gin only: the melds on the table (public), with who put each card there, as in GameView"))


class PublicTableViewSchema(ma.Schema):
    """What anyone may see of a table of 3, 4, 6 or 8 seats: every board's public part (the one
    every seat sees), the sides' scores and the finished hands; never a card of a hand in play, a
    stock, nor the deck of a deal not over. Fields as in TableView."""

    kind = view_kind("table")
    game_id = f.String(required=True)
    version = f.Integer(required=True)
    status = f.String(required=True)
    players = f.List(f.Nested(TablePlayerSchema), required=True)
    deadline = f.String(required=True, allow_none=True, **doc("When the seat `on_clock` must act, or null"))
    deal_commitment = f.String(required=True, allow_none=True, **doc("Always null: each board carries its own"))
    revealed_deals = f.List(f.Nested(RevealedDealSchema), required=True, **doc("Finished deals' decks only"))
    format = f.String(required=True, validate=v.OneOf(FORMATS))
    seats = f.Integer(required=True, validate=v.OneOf(TABLE_SEAT_COUNTS))
    sides = f.List(f.List(f.Integer(validate=SEATS)), required=True)
    to_move = f.List(f.Integer(validate=SEATS), required=True, **doc("Every seat that may act now"))
    needs_deal = f.List(f.Integer(), required=True)
    on_clock = f.Integer(required=True, allow_none=True, validate=SEATS)
    boards = f.List(f.Nested(PublicBoardSchema, allow_none=True), required=True,
                    **doc("Every board's public part; null for a board that waits for the round or is over"))
    scores = f.Nested(TableScoresSchema, required=True)
    last_hand = f.Nested(TableHandRecordSchema, required=True, allow_none=True,
                         **doc("The last decided hand's record, both hands shown (it is over)"))
    result = f.Nested(TableResultSchema, required=True, allow_none=True)
    rules = f.Raw(required=True, **RULES)
    sitting_out = f.Integer(allow_none=True, validate=SEATS, **doc("rotation only: the seat sitting out"))
    round = f.Integer(**doc("partnership only"))
    team_size = f.Integer(**doc("partnership only"))


# GET /games/{id}/public answers one or the other, told apart by `kind`.
PUBLIC_VIEW_DOC = view_union("PublicView", "PublicTableView")
