"""Problem codes of the move clock: claim_timeout and vacations (deadlines.py, table_clocks.py),
raised as the engine's IllegalAction, so they answer with its status (422, or 409 for game-over).
Data only: the app factory adds them to the catalogue (core.errors.register_codes)."""

CLOCK_CODES = {
    "no-deadline": "the game has no move time (move_time_hours null): nothing to claim or pause",
    "deadline-not-passed": "claim_timeout before the opponent's deadline has passed",
    "cannot-claim-own-turn": "claim_timeout by the seat that is itself to move",
    "vacation-exhausted": "more vacation days asked than are left to this seat in this game",
    "deadline-passed": "a vacation asked after one's own deadline has passed",
}


# The replay of a finished match (replay.py, table_replay.py): (status, meaning).
REPLAY_CODES = {
    "match-not-over": (409, "a replay asked for before the match is over (it would show cards nobody may see yet)"),
    "replay-not-available": (422, ("a game whose stored moves do not replay to the state it stored (a game "
                                   "kept from an older rules engine, say)")),
}


# Messages in a game (messages.py): (status, meaning).
MESSAGE_CODES = {
    "message-empty": (422, "a message with no text (or only blanks)"),
    "message-too-long": (422, "a message of more than 500 characters"),
    "message-not-plain": (422, "a message holding a control character (a new line too), a direction override, a "
                               "character that shows nothing (zero-width, format, filler, tag) or more than 3 marks "
                               "on one letter: messages are one line of plain text"),
    "too-many-messages": (429, "the seat wrote MESSAGES_PER_SEAT messages (default 10 a minute) already: wait "
                               "Retry-After seconds"),
}
