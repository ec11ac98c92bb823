"""A seat's own settings: how it is told about its game, and vacation days that pause its clock."""
from __future__ import annotations

from flask_smorest import Blueprint

from ..core.web import BEARER, ETAG_HEADER, bearer_token, etag_headers, problems
from ..games import clocks, deadlines, store, table_clocks, views
from ..games.contact_fields import ContactOutSchema
from ..games.models import utcnow
from . import contact_changes, contacts
from .schemas import ContactSchema, VacationOutSchema, VacationSchema

settings = Blueprint("notify", __name__, description="Contact settings, vacations")


@settings.before_request
def require_json_body():
    from ..games.routes import (
        require_json_body as check,  # the games blueprint's check, shared
    )
    return check()


CONTACT_EXAMPLE = {"email": "ann@example.org", "mail_mode": "turn", "webhook_url": "https://bot.example/gin"}


@settings.route("/games/<game_id>/contact", methods=["GET"])
@settings.doc(operationId="getContact", security=BEARER)
@settings.response(200, ContactOutSchema)
@problems(settings, "invalid-token")
def get_contact(game_id):
    """Your seat's contact settings (the webhook secret is never shown again)."""
    game, seat = store.read_seat(game_id, bearer_token())
    return contacts.public(contacts.contact_of(game.id, seat))


@settings.route("/games/<game_id>/contact", methods=["PATCH"])
@settings.doc(operationId="updateContact", security=BEARER)
@settings.arguments(ContactSchema, example=CONTACT_EXAMPLE)
@settings.response(200, ContactOutSchema)
@problems(settings, "malformed-json", "invalid-token", "unsupported-media-type", "validation-error",
          "too-many-confirmations")
def patch_contact(fields, game_id):
    """Change your seat's contact settings: only the fields sent change; null clears one. Setting
    webhook_url answers with a new signing secret, shown this once. A new email gets only a
    confirmation mail until its owner replies `confirm` to it (see email_status)."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        return contact_changes.apply(game, store.load_match(game), seat, fields, deadlines.now())


@settings.route("/games/<game_id>/vacation", methods=["POST"])
@settings.doc(operationId="takeVacation", security=BEARER)
@settings.arguments(VacationSchema, example={"days": 3})
@settings.response(200, VacationOutSchema, headers=ETAG_HEADER)
@problems(settings, "malformed-json", "invalid-token", "unsupported-media-type", "validation-error",
          "game-not-started", "game-over", "no-deadline", "vacation-exhausted", "deadline-passed")
def take_vacation(args, game_id):
    """Pause your own move clock for some days (at most VACATION_DAYS_PER_GAME in all, per game).
    The deadline moves, so the game's version (ETag) changes."""
    moment = deadlines.now()
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        match = store.started_match(game)
        clocks.take_vacation(game.id, match, seat, args["days"], moment)
        game.updated_at = utcnow()  # an UPDATE, so the version (the ETag) moves on with the deadline
        views.publish_views(game, match)  # the views show the new deadline
        own = table_clocks.own_deadline(game.id, seat) if table_clocks.is_table(match) else None
        deadline = own or deadlines.deadline_of(game.id)  # at a table: the caller's own while it is to move
        body = {**deadlines.vacation_summary(game.id, seat, moment),
                "deadline": deadline.isoformat() if deadline else None}
    return body, 200, etag_headers(game.version)

