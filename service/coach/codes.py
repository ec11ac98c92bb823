"""Problem codes of the coach's review (routes.py): (status, meaning). Data only."""

COACH_CODES = {
    "review-not-available": (404, ("no review for this game: a table of 3 to 8 seats, Mahjong gin, other cards "
                                   "than the standard, or a match that ended before reviews were made")),
    "review-average-private": (403, ("a player's review average asked for when the player has not made its "
                                     "games public")),
}

HINT_CODES = {
    "hints-off": (403, "hints are given in unrated two-seat games against the house bot, during play"),
    "hints-in-rated-game": (403, "no hints in a rated game"),
    "hints-not-in-tournaments": (403, "no hints in a tournament's games"),
    "no-decision-now": (409, "a hint asked when the seat has no decision of two options or more to make"),
}
