"""Routes of blocks (blocks.py) and reports (reports.py), and what they take and answer."""
from __future__ import annotations

import marshmallow as ma
from flask import Response
from flask_smorest import Blueprint
from marshmallow import fields as f
from marshmallow import validate as v

from ..core.fields import StrictSchema, WholeNumber, doc
from ..core.web import BEARER, bearer_token, problems, require_json_body_when_sent
from ..games import store
from ..games.table_game import MAX_SEAT
from . import accounts, blocks, reports

moderation = Blueprint("blocks", __name__, description="Blocking players, and reporting messages and players")
moderation.before_request(require_json_body_when_sent)
BLOCK_EXAMPLE = {"name": "Bob", "blocked_at": "2030-01-01T12:00:00+00:00"}
REPORT_EXAMPLE = {"report_id": 3, "reason": "abuse", "status": "open", "created_at": "2030-01-01T12:00:00+00:00"}
NAME_PARAMETER = {"in": "path", "name": "name", "required": True, "schema": {"type": "string", "maxLength": 160},
                  "description": "The player's name (compared ignoring case)"}


class BlockSchema(ma.Schema):
    name = f.String(required=True, **doc("The player blocked"))
    blocked_at = f.String(required=True, **doc("Since when (ISO 8601)"))


class BlockListSchema(ma.Schema):
    blocks = f.List(f.Nested(BlockSchema), required=True, **doc("The players you blocked, by name"))


REASON = f.String(required=True, validate=v.OneOf(reports.REASONS), **doc("Why", example="abuse"))
def _unprintable_class() -> str:
    """A regex class of the Basic Multilingual Plane's characters reports.unprintable refuses, as
    \\uXXXX ranges (Python's re and the spec's ECMA-262 read them alike)."""
    codes = [c for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF and reports.unprintable(chr(c))]
    ranges, start = [], codes[0]
    for before, code in zip(codes, codes[1:] + [None]):
        if code != before + 1:
            ranges.append(f"\\u{start:04x}" + (f"-\\u{before:04x}" if before != start else ""))
            start = code
    return "".join(ranges)


def _printable(text: str) -> None:
    found = reports.unprintable(text)
    if found is not None:
        raise ma.ValidationError(f"plain text: no control, format or separator character (U+{ord(found):04X}) but "
                                 "new lines and tabs")


DETAILS = f.String(load_default=None, allow_none=True, validate=[
    v.Length(max=reports.MAX_DETAILS),
    v.Regexp(f"^[^{_unprintable_class()}]*$", error="plain text: no control, format or separator characters but "
                                                   "new lines and tabs"),
    _printable],  # (and those beyond the BMP, which the spec's pattern cannot name: tags, U+E0001)
    **doc(f"A few words for the operator (at most {reports.MAX_DETAILS} characters; no control, format "
          "(bidi, zero-width) or separator characters but new lines and tabs)"))


class SeatReportSchema(StrictSchema):
    seat = WholeNumber(required=True, validate=v.Range(0, MAX_SEAT), **doc(
        "The seat reported (its holder): another seat of this game, a taken one", example=1))
    message_id = WholeNumber(validate=v.Range(1, 2**31 - 1), **doc(
        "One of that seat's messages, when it is a message you report (its `id`)"))
    reason = REASON
    details = DETAILS


class PlayerReportSchema(StrictSchema):
    player = f.String(required=True, validate=v.Length(1, 160), **doc("The player's name", example="Bob"))
    reason = REASON
    details = DETAILS


class ReportSchema(ma.Schema):
    report_id = f.Integer(required=True)
    reason = f.String(required=True, validate=v.OneOf(reports.REASONS))
    status = f.String(required=True, validate=v.OneOf(("open", "closed")))
    created_at = f.String(required=True)


@moderation.route("/me/blocks", methods=["GET"])
@moderation.doc(operationId="listBlocks", security=BEARER)
@moderation.response(200, BlockListSchema, example={"blocks": [BLOCK_EXAMPLE]})
@problems(moderation, "invalid-token", "account-suspended")
def list_blocks():
    """The players you blocked."""
    return {"blocks": blocks.listing(accounts.current())}


@moderation.route("/me/blocks/<name>", methods=["PUT"])
@moderation.doc(operationId="blockPlayer", security=BEARER, parameters=[NAME_PARAMETER])
@moderation.response(200, BlockSchema, example=BLOCK_EXAMPLE)
@problems(moderation, "invalid-token", "account-suspended", "player-not-found", "block-self")
def block_player(name):
    """Block a player: their challenges to you are declined at once (as you would decline them: reason `other`), you
    never meet in open challenges, and you see none of their messages. They are not told. Again: no change."""
    with store.transaction():
        return blocks.block(accounts.current(), name)


@moderation.route("/me/blocks/<name>", methods=["DELETE"])
@moderation.doc(operationId="unblockPlayer", security=BEARER, parameters=[NAME_PARAMETER])
@moderation.response(204, description="Not blocked (any more)")
@problems(moderation, "invalid-token", "account-suspended", "player-not-found", "block-self")
def unblock_player(name):
    """Remove a block (one not there: nothing to do). Their messages show again, older ones too."""
    with store.transaction():
        blocks.unblock(accounts.current(), name)
    return Response(status=204)


@moderation.route("/games/<game_id>/reports", methods=["POST"])
@moderation.doc(operationId="reportInGame", security=BEARER)
@moderation.arguments(SeatReportSchema, example={"seat": 1, "reason": "abuse", "details": "insults in the messages"})
@moderation.response(201, ReportSchema, example=REPORT_EXAMPLE)
@problems(moderation, "malformed-json", "invalid-token", "account-suspended", "payload-too-large",
          "unsupported-media-type", "validation-error", "message-not-found", "report-target-invalid",
          "report-needs-player", "too-many-reports")
def report_in_game(args, game_id):
    """Report another seat's holder (`seat`), or one of its messages (`seat` and `message_id`), to
    the operator, with a reason. Nobody else is told. A seat held by a player is reported from a
    player's seat only; 20 reports a reporter and 50 a target in 24 hours at most."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        report = reports.by_seat(game, seat, args)
        return reports.describe(report), 201


@moderation.route("/reports", methods=["POST"])
@moderation.doc(operationId="reportPlayer", security=BEARER)
@moderation.arguments(PlayerReportSchema, example={"player": "Bob", "reason": "name"})
@moderation.response(201, ReportSchema, example=REPORT_EXAMPLE)
@problems(moderation, "malformed-json", "invalid-token", "account-suspended", "payload-too-large",
          "unsupported-media-type", "validation-error", "player-not-found", "report-target-invalid",
          "too-many-reports")
def report_player(args):
    """Report a player, by name, to the operator, with a reason. Nobody else is told. 20 reports a
    reporter and 50 a target in 24 hours at most."""
    with store.transaction():
        report = reports.by_player(accounts.current(), args)
        return reports.describe(report), 201
