"""Routes of tournaments: make one, enter and leave it, control it (the organizer), withdraw, and read
it (anyone: tournaments are public events)."""
from __future__ import annotations

from flask_smorest import Blueprint

from ..core.errors import Problem
from ..core.web import BEARER, problems, require_json_body_when_sent
from ..games import deadlines, store
from ..players import accounts
from ..rules import Rules
from . import describe, entry
from .examples import KNOCKOUT_EXAMPLE, LISTING_EXAMPLE, OPEN_EXAMPLE, PLAYER_TOURNAMENTS_EXAMPLE, TOURNAMENT_EXAMPLE
from .schemas import (
    HouseBotEntrySchema,
    ListingSchema,
    ListQuerySchema,
    NewTournamentSchema,
    PlayerTournamentsSchema,
    TournamentSchema,
)

tournament_routes = Blueprint("tournaments", __name__, description="Tournaments: Swiss, round robin and knockout")
tournament_routes.before_request(require_json_body_when_sent)

ENTRY_PROBLEMS = ("invalid-token", "malformed-json", "unsupported-media-type", "tournament-not-found",
                  "tournament-cancelled", "tournament-started", "entry-closed")


def _answer(t) -> dict:
    return describe.describe(t)


@tournament_routes.route("/tournaments", methods=["POST"])
@tournament_routes.doc(operationId="createTournament", security=BEARER)
@tournament_routes.arguments(NewTournamentSchema, example={"name": "Winter Swiss", "format": "swiss", "rounds": 5,
                                                           "rules": {"preset": "standard", "target": 100},
                                                           "min_entrants": 6, "max_entrants": 32,
                                                           "round_hours": 336, "entry_hours": 168})
@tournament_routes.response(201, TournamentSchema, example=OPEN_EXAMPLE)
@problems(tournament_routes, "invalid-token", "malformed-json", "payload-too-large", "unsupported-media-type",
          "validation-error", "invalid-option", "unknown-format", "invalid-tournament", "too-many-rounds",
          "invalid-tie-breaks", "unknown-player", "too-many-tournaments-created")
def create_tournament(args):
    """Make a tournament (with your player token; you are its organizer, not an entrant unless you join):
    its format, rules, rounds, pace, entry window and who may enter, and its tie-breaks, all fixed now."""
    rules = Rules.from_dict(args["rules"])
    with store.transaction():
        t = entry.create(accounts.current(), args, rules, deadlines.now())
        body = _answer(t)
    return body, 201


@tournament_routes.route("/tournaments", methods=["GET"])
@tournament_routes.doc(operationId="listTournaments")
@tournament_routes.arguments(ListQuerySchema, location="query")
@tournament_routes.response(200, ListingSchema, example=LISTING_EXAMPLE)
@problems(tournament_routes, "validation-error")
def list_tournaments(query):
    """Tournaments, newest first: filter by status (open, running, finished, cancelled), format and who
    may enter (e.g. `?status=open&entry=bots`); paged with limit and offset. No token needed."""
    return describe.listing(query["status"], query["format"], query["entry"], query["limit"], query["offset"])


@tournament_routes.route("/tournaments/<tournament_id>", methods=["GET"])
@tournament_routes.doc(operationId="getTournament")
@tournament_routes.response(200, TournamentSchema, examples={
    "swiss": {"summary": "A Swiss in its second round", "value": TOURNAMENT_EXAMPLE},
    "knockout": {"summary": "A knockout of three: a bye, a semi-final played, the final to play",
                 "value": KNOCKOUT_EXAMPLE}})
@problems(tournament_routes, "tournament-not-found")
def get_tournament(tournament_id):
    """The tournament: entrants, every round's pairings (a Swiss's with the standings they were made
    from), each game's watch and replay links, the standings and the crosstable. No token needed."""
    return _answer(entry.find(tournament_id))


def _control(name: str, operation: str, doc: str, act, *codes: str, status: int = 200, example=TOURNAMENT_EXAMPLE):
    """A POST /tournaments/{id}/<name> route taking no body: `act(tournament_id, player, now)`."""
    def route(tournament_id):
        with store.transaction():
            t = act(tournament_id, accounts.current(), deadlines.now())
            body = _answer(t)
        return body, status
    route.__name__, route.__doc__ = operation, doc
    route = problems(tournament_routes, *codes)(route)
    route = tournament_routes.response(status, TournamentSchema, example=example)(route)
    route = tournament_routes.doc(operationId=operation, security=BEARER)(route)
    tournament_routes.route(f"/tournaments/<tournament_id>/{name}", methods=["POST"])(route)


_control("join", "joinTournament", "Enter a tournament open for entry (with your player token).", entry.join,
         *ENTRY_PROBLEMS, "already-entered", "not-admitted", "entry-refused", "tournament-full",
         "too-many-tournament-entries", example=OPEN_EXAMPLE)
_control("leave", "leaveTournament", "Leave a tournament before it starts.", entry.leave, *ENTRY_PROBLEMS,
         "not-entered", example=OPEN_EXAMPLE)
_control("withdraw", "withdrawTournament",
         "Withdraw from a running tournament: the games you are playing in it are resigned; a Swiss pairs you no "
         "more, a round robin forfeits your remaining games (those played stand), a knockout pairing is lost.",
         entry.withdraw, "invalid-token", "malformed-json", "unsupported-media-type", "tournament-not-found",
         "tournament-not-running", "not-entered")
_control("start", "startTournament", "Start it now (the organizer), once it has its minimum entrants.",
         entry.start_early, "invalid-token", "malformed-json", "unsupported-media-type", "tournament-not-found",
         "not-organizer", "tournament-cancelled", "tournament-started", "not-enough-entrants")
_control("cancel", "cancelTournament", "Cancel it before it starts (the organizer); each entrant is told.",
         entry.cancel, "invalid-token", "malformed-json", "unsupported-media-type", "tournament-not-found",
         "not-organizer", "tournament-cancelled", "tournament-started", example={**OPEN_EXAMPLE, "status": "cancelled"})


@tournament_routes.route("/tournaments/<tournament_id>/house-bot", methods=["POST"])
@tournament_routes.doc(operationId="enterHouseBot", security=BEARER)
@tournament_routes.arguments(HouseBotEntrySchema, example={"level": 4})
@tournament_routes.response(200, TournamentSchema, example=OPEN_EXAMPLE)
@problems(tournament_routes, *ENTRY_PROBLEMS, "payload-too-large", "validation-error", "not-organizer",
          "house-bot-not-allowed", "already-entered", "entry-refused", "tournament-full",
          "too-many-tournament-entries")
def enter_house_bot(args, tournament_id):
    """Enter the house bot at a level (the organizer, when the tournament admits it; once per tournament)."""
    with store.transaction():
        t = entry.enter_house_bot(tournament_id, accounts.current(), args["level"], deadlines.now())
        body = _answer(t)
    return body


@tournament_routes.route("/tournaments/<tournament_id>/house-bot", methods=["DELETE"])
@tournament_routes.doc(operationId="removeHouseBot", security=BEARER)
@tournament_routes.response(200, TournamentSchema, example=OPEN_EXAMPLE)
@problems(tournament_routes, "invalid-token", "tournament-not-found", "tournament-cancelled", "tournament-started",
          "entry-closed", "not-organizer", "not-entered")
def remove_house_bot(tournament_id):
    """Take the house bot out again, before the start (the organizer)."""
    with store.transaction():
        t = entry.remove_house_bot(tournament_id, accounts.current(), deadlines.now())
        body = _answer(t)
    return body


@tournament_routes.route("/players/<name>/tournaments", methods=["GET"])
@tournament_routes.doc(operationId="getPlayerTournaments")
@tournament_routes.response(200, PlayerTournamentsSchema, example=PLAYER_TOURNAMENTS_EXAMPLE)
@problems(tournament_routes, "player-not-found")
def player_tournaments(name):
    """The tournaments a player entered, newest first, with the place once each was over. No token needed."""
    player = accounts.by_name(name) if len(name) <= 40 else None
    if player is None:
        raise Problem("player-not-found", f"no player is called {name!r}")
    return {"tournaments": describe.of_player(player)}
