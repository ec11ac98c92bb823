"""Constants shared with modules that must stay import-free (errors.py, schemas.py).

Problem codes of the move clock (raised as IllegalAction, so they answer with its status: 422,
or 409 for game-over). Imported by service/errors.py into the catalogue; imports nothing."""

CLOCK_CODES = {
    "no-deadline": "the game has no move time (move_time_hours null): nothing to claim or pause",
    "deadline-not-passed": "claim_timeout before the opponent's deadline has passed",
    "cannot-claim-own-turn": "claim_timeout by the seat that is itself to move",
    "vacation-exhausted": "more vacation days asked than are left to this seat in this game",
    "deadline-passed": "a vacation asked after one's own deadline has passed",
}

MAIL_MODES = ("turn", "digest", "off")

# Service codes of contact settings: (HTTP status, when it happens).
MAIL_CODES = {
    "too-many-confirmations": (429, "setting this email would send one confirmation mail too many (per game, "
                                    "per address or per client a day); nothing was changed"),
    "too-many-invitations": (429, "invite_email would send one invitation too many today (per inviting address "
                                  "or client, INVITES_PER_SENDER_PER_DAY); nothing was changed"),
    "invitation-refused": (422, "invite_email names an address that asked for no mail from this service, or "
                                "the inviter's own; nothing was changed"),
}
