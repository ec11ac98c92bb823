"""A seat's own settings: how it is told about its game, and vacation days that pause its clock;
and the one-click unsubscribe every mail offers (RFC 8058)."""
from __future__ import annotations

import re

from flask_smorest import Blueprint

from ..core.errors import Problem
from ..core.web import BEARER, ETAG_HEADER, bearer_token, etag_headers, problems, require_json_body
from ..games import clocks, deadlines, store, table_clocks, views
from ..games.contact_fields import ContactOutSchema
from ..games.models import utcnow
from . import contact_changes, contacts
from .consent import unsubscribing
from .mail import one_click
from .schemas import ContactSchema, UnsubscribedSchema, VacationOutSchema, VacationSchema

# "notify": the tag openapi.yaml groups these operations by, part of the published contract.
contact_settings = Blueprint("notify", __name__, description="Contact settings, vacations")
contact_settings.before_request(require_json_body)


CONTACT_EXAMPLE = {"email": "ann@example.org", "mail_mode": "turn", "webhook_url": "https://bot.example/gin"}


@contact_settings.route("/games/<game_id>/contact", methods=["GET"])
@contact_settings.doc(operationId="getContact", security=BEARER)
@contact_settings.response(200, ContactOutSchema)
@problems(contact_settings, "invalid-token")
def get_contact(game_id):
    """Your seat's contact settings (the webhook secret is never shown again)."""
    game, seat = store.read_seat(game_id, bearer_token())
    return contacts.public(contacts.contact_of(game.id, seat))


@contact_settings.route("/games/<game_id>/contact", methods=["PATCH"])
@contact_settings.doc(operationId="updateContact", security=BEARER)
@contact_settings.arguments(ContactSchema, example=CONTACT_EXAMPLE)
@contact_settings.response(200, ContactOutSchema)
@problems(contact_settings, "malformed-json", "invalid-token", "unsupported-media-type", "validation-error",
          "too-many-confirmations")
def patch_contact(fields, game_id):
    """Change your seat's contact settings: only the fields sent change; null clears one. Setting
    webhook_url answers with a new signing secret, shown this once. A new email gets only a
    confirmation mail until its owner replies `confirm` to it (see email_status)."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        return contact_changes.apply(game, store.load_match(game), seat, fields, deadlines.now())


@contact_settings.route("/games/<game_id>/vacation", methods=["POST"])
@contact_settings.doc(operationId="takeVacation", security=BEARER)
@contact_settings.arguments(VacationSchema, example={"days": 3})
@contact_settings.response(200, VacationOutSchema, headers=ETAG_HEADER)
@problems(contact_settings, "malformed-json", "invalid-token", "unsupported-media-type", "validation-error",
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


# Its own blueprint: a mail client's one-click POST carries a form body (RFC 8058), not JSON.
unsubscribe = Blueprint("unsubscribe", __name__, description="One-click unsubscribing from mail (RFC 8058)")
_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
ONE_CLICK_BODY = {"required": False, "content": {"application/x-www-form-urlencoded": {"schema": {
    "type": "object", "properties": {"List-Unsubscribe": {"type": "string", "enum": ["One-Click"]}}},
    "example": {"List-Unsubscribe": "One-Click"}}}}


@unsubscribe.route("/unsubscribe/<key>", methods=["POST"])
@unsubscribe.doc(operationId="unsubscribeOneClick", requestBody=ONE_CLICK_BODY)
@unsubscribe.response(200, UnsubscribedSchema)
@problems(unsubscribe, "unknown-unsubscribe-key")
def unsubscribe_one_click(key):
    """The URL of a mail's List-Unsubscribe header: a mail client POSTs to it when its reader
    presses unsubscribe (the body, `List-Unsubscribe=One-Click`, may be left out). The key in the
    URL says what stops: the address gets no more mail from the service (every mail's key), or no
    more daily digests (the digest's). Saying it twice is no error."""
    if not _KEY.match(key):
        raise Problem("unknown-unsubscribe-key", "no mail of this service carries that unsubscribe key")
    with store.transaction():
        done = unsubscribing.follow(key, deadlines.now())
    if done is None:
        raise Problem("unknown-unsubscribe-key", "no mail of this service carries that unsubscribe key "
                      "(or it is older than the keys are kept: reply `stop` to a newer mail)")
    return {"result": done, "one_click": one_click.POST_VALUE}
