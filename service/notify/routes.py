"""A seat's own settings: how it is told about its game, and vacation days that pause its clock."""
from __future__ import annotations

from flask_smorest import Blueprint

from .. import deadlines, store
from ..errors import Problem
from ..extensions import db
from ..models import utcnow
from ..routes import require_json_body
from ..web import BEARER, bearer_token, etag_headers, problems
from . import contacts
from .schemas import ContactFields, ContactOutSchema, ContactSchema, VacationOutSchema, VacationSchema

settings = Blueprint("notify", __name__, description="Contact settings, vacations")
settings.before_request(require_json_body)

CONTACT_EXAMPLE = {"email": "ann@example.org", "mail_mode": "turn", "webhook_url": "https://bot.example/gin"}


def apply_contact(game_id: str, seat: int, fields: dict, moment) -> dict:
    """Store the given contact fields for the seat; the answer body (with a new secret, once)."""
    try:
        contact, secret = contacts.set_contact(game_id, seat, moment, **fields)
    except ValueError as exc:
        raise Problem("validation-error", str(exc), errors={"json": {"contact": [str(exc)]}}) from None
    return contacts.public(contact, secret)


@settings.route("/games/<game_id>/contact", methods=["GET"])
@settings.doc(security=BEARER)
@settings.response(200, ContactOutSchema)
@problems(settings, "invalid-token")
def get_contact(game_id):
    """Your seat's contact settings (the webhook secret is never shown again)."""
    game, seat = store.read_seat(game_id, bearer_token())
    return contacts.public(contacts.contact_of(game.id, seat))


@settings.route("/games/<game_id>/contact", methods=["PATCH"])
@settings.doc(security=BEARER)
@settings.arguments(ContactSchema, example=CONTACT_EXAMPLE)
@settings.response(200, ContactOutSchema)
@problems(settings, "malformed-json", "invalid-token", "unsupported-media-type", "validation-error")
def patch_contact(fields, game_id):
    """Change your seat's contact settings: only the fields sent change; null clears one. Setting
    webhook_url answers with a new signing secret, shown this once."""
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        return apply_contact(game.id, seat, fields, deadlines.now())


@settings.route("/games/<game_id>/vacation", methods=["POST"])
@settings.doc(security=BEARER)
@settings.arguments(VacationSchema, example={"days": 3})
@settings.response(200, VacationOutSchema, headers={"ETag": {"schema": {"type": "string"}}})
@problems(settings, "malformed-json", "invalid-token", "unsupported-media-type", "validation-error",
          "game-not-started", "game-over", "no-deadline", "vacation-exhausted", "deadline-passed")
def take_vacation(args, game_id):
    """Pause your own move clock for some days (at most VACATION_DAYS_PER_GAME in all, per game).
    The deadline moves, so the game's version (ETag) changes."""
    moment = deadlines.now()
    with store.transaction():
        game, seat = store.lock_seat(game_id, bearer_token())
        match = store.started_match(game)
        deadlines.take_vacation(game.id, match, seat, args["days"], moment)
        game.updated_at = utcnow()  # an UPDATE, so the version (the ETag) moves on with the deadline
        db.session.flush()
        body = {**deadlines.vacation_summary(game.id, seat, moment),
                "deadline": _iso(deadlines.deadline_of(game.id))}
    return body, 200, etag_headers(game.version)


def _iso(moment):
    return moment.isoformat() if moment else None


def on_seat_taken(game_id: str, seat: int, args: dict, moment) -> dict | None:
    """At creation or join: store the contact fields given, if any; the answer's `contact`."""
    fields = {name: args[name] for name in ContactFields().fields if name in args}
    return apply_contact(game_id, seat, fields, moment) if fields else None
