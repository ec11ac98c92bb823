"""Problem codes of players, challenges, rematches and watch links: (HTTP status, when it happens).
Data only: the app factory adds
them to the catalogue (core.errors.register_codes)."""

PLAYER_CODES = {
    "name-taken": (409, "another player has this name (names are compared ignoring case)"),
    "name-confusable": (409, "the name looks like another player's (Unicode TR39's skeleton: a Cyrillic о for an "
                             "o, a full-width letter, I for l; accents, spaces and signs ignored, digits read as "
                             "letters)"),
    "name-reserved": (409, "the name is the house bot's (HOUSE_BOT_NAME) or looks like it: only the house bot's own "
                           "process (a bot registered from the service's host) may take it"),
    "name-not-allowed": (422, "the name holds invisible characters (zero-width, format or blank ones), letters "
                              "of more than one script, / or \\, or only dots"),
    "unknown-player": (422, "no player has the name given in `to`, or (a challenge for bots or humans only) none "
                            "of that kind: the two answer alike"),
    "too-many-pending-offers": (409, "the player holds CHALLENGES_PENDING_MAX pending challenges and series offers "
                                     "already: cancel one or wait for answers"),
    "too-many-offers-to-player": (409, "the player named holds CHALLENGES_FROM_ONE_MAX pending challenges and series "
                                       "offers from this sender already"),
    "player-not-found": (404, "no player has this name (GET /players/{name})"),
    "challenge-to-self": (422, "a challenge (or its acceptance) needs two different players"),
    "challenge-not-found": (404, "no such challenge, or not one this player may see"),
    "challenge-closed": (409, "the challenge was already accepted, declined or cancelled"),
    "challenge-expired": (410, "the challenge expired before it was accepted"),
    "opponent-kind-mismatch": (409, "the challenge is for bots only or humans only, and this player is not one"),
    "already-seated": (409, "this player already holds a seat of this game"),
    "rematch-unavailable": (409, "a rematch needs a finished match and is offered once: a challenge when every seat "
                                 "is a player's, a seat rematch (two seats) otherwise"),
    "rematch-not-offered": (409, "no seat rematch of this game was offered: nothing to decline"),
    "rematch-own-offer": (409, "the seat that offered a seat rematch may not decline it (the other seat answers)"),
    "rematch-answered": (409, "the seat rematch was accepted or declined already"),
    "level-not-house-bot": (422, "a challenge's `level` is for the house bot only (GET /house-bot), not another "
                                 "player or an open challenge"),
    "rated-target-too-low": (422, "a rated match plays to at least RATED_MIN_TARGET points (GET /players "
                                  "`rules.min_target`): raise the target or ask rated: false"),
    "house-bot-games-max": (409, "the player holds HOUSE_BOT_GAMES_PER_PLAYER games and challenges with the house "
                                 "bot already: finish one first"),
    "no-house-bot": (404, "this server runs no house bot (or it has not registered its account yet)"),
    "account-suspended": (403, "an operator suspended this player: its token and every seat bound to it open "
                               "nothing until it is unsuspended"),
    "too-many-watch-links": (409, "the game holds WATCH_LINKS_PER_GAME live watch links already: revoke one first"),
    "invalid-watch-key": (401, "the watch key is missing, revoked, or not one of this game's"),
    "block-self": (422, "a player cannot block (or unblock) itself"),
    "message-not-found": (404, "the seat reported wrote no message of this id in this game (or none this seat "
                               "sees)"),
    "report-needs-player": (403, "a seat held by a player is reported from a player's seat, not an anonymous one"),
    "too-many-reports": (429, "the reporter filed REPORTS_PER_REPORTER_DAY reports, or the target drew "
                              "REPORTS_PER_TARGET_DAY, in the last 24 hours (Retry-After)"),
    "report-target-invalid": (409, "a report names another seat of the game (a taken one) or another player, not "
                                   "oneself"),
}
