"""Problem codes of tournaments: (HTTP status, when it happens). Data only: the app factory adds them
to the catalogue (core.errors.register_codes)."""

TOURNAMENT_CODES = {
    "unknown-format": (422, "format is none of swiss, round_robin, knockout"),
    "invalid-tournament": (422, "the tournament does not hold together: entrants 3 to 128 with min <= max, rounds "
                                "for a Swiss only, cycles for a round robin only, best_of for a knockout only, "
                                "all_at_once for a round robin only, a round deadline of at least one move time, "
                                "invitations only for entry by invitation (see field)"),
    "too-many-rounds": (422, "a Swiss may have at most one round fewer than its minimum entrants"),
    "invalid-tie-breaks": (422, "a tie-break unknown, repeated, or not for this format (Buchholz is for Swiss)"),
    "tournament-not-found": (404, "no such tournament"),
    "tournament-full": (409, "the tournament has its maximum entrants already"),
    "entry-closed": (409, "the tournament's entry window has closed (it starts, or is cancelled, shortly)"),
    "tournament-started": (409, "the tournament has started (or finished): entry, leaving and cancelling are over"),
    "tournament-cancelled": (409, "the tournament was cancelled"),
    "tournament-not-running": (409, "the tournament is not being played: a withdrawal is from a running one"),
    "not-admitted": (403, "the tournament is for people only, bots only, or by invitation, and this player is not "
                          "one it admits (the house bot is entered by the organizer)"),
    "entry-refused": (403, "a block stands between this player and the organizer or an entrant"),
    "already-entered": (409, "this player is entered in the tournament already"),
    "not-entered": (409, "this player is not entered in the tournament (or withdrew already)"),
    "not-organizer": (403, "only the tournament's organizer may do this"),
    "not-enough-entrants": (409, "the tournament has fewer entrants than its minimum: it cannot start yet"),
    "house-bot-not-allowed": (409, "the tournament does not admit the house bot's levels, or this server runs no "
                                   "house bot"),
    "too-many-tournaments-created": (429, "the player created TOURNAMENTS_CREATED_PER_DAY tournaments in the last "
                                          "24 hours"),
    "too-many-tournament-entries": (409, "the player is entered in TOURNAMENTS_ENTERED_MAX open or running "
                                         "tournaments already"),
}
