"""Problem codes of series: (HTTP status, when it happens). Data only: the app factory adds them to
the catalogue (core.errors.register_codes)."""

SERIES_CODES = {
    "invalid-series": (422, "the series' format does not hold together: best of an odd number of games 1 to 99, "
                            "or a points target 10 to 100000 (see field)"),
    "series-not-found": (404, "no such series, or not one of this player's"),
    "series-closed": (409, "the series offer was accepted or declined already"),
    "not-in-series": (404, "this game is not a game of any series"),
}
