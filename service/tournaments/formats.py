"""What a tournament may be, checked before anything is stored: its format, its entrants' bounds, its
rounds and its tie-breaks. Pure: no Flask, no database (an import-linter contract holds it so).

A tournament's rules are fixed when it is created: the format, the number of rounds (asked for a
Swiss, computed for the others), the tie-breaks in their order. A refusal is a FormatError whose
`code` is a stable problem code and whose `field` names the request's field at fault.
"""
from __future__ import annotations

import math

SWISS, ROUND_ROBIN, KNOCKOUT = "swiss", "round_robin", "knockout"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)
ENTRY_KINDS = ("anyone", "people", "bots", "invitation")
PACES = ("rounds", "all_at_once")  # a round robin may start every game at once (ICCF's way)
MIN_ENTRANTS, MAX_ENTRANTS = 3, 128
BEST_OF = (1, 3, 5, 7)  # a knockout pairing: one match, or a best-of series of matches

GIN_POINTS, BUCHHOLZ, MEDIAN_BUCHHOLZ = "gin_points", "buchholz", "median_buchholz"
SONNEBORN_BERGER, WINS, DIRECT_ENCOUNTER, RATING = "sonneborn_berger", "wins", "direct_encounter", "rating"
TIE_BREAKS = (GIN_POINTS, BUCHHOLZ, MEDIAN_BUCHHOLZ, SONNEBORN_BERGER, WINS, DIRECT_ENCOUNTER, RATING)
# Which tie-breaks mean something in each format (FIDE C.07: Buchholz is not for round robins, where
# everyone meets everyone; a knockout ranks by the round reached, then by what tells apart players
# knocked out in the same round).
ALLOWED_TIE_BREAKS = {
    SWISS: TIE_BREAKS,
    ROUND_ROBIN: (GIN_POINTS, SONNEBORN_BERGER, WINS, DIRECT_ENCOUNTER, RATING),
    KNOCKOUT: (GIN_POINTS, WINS, RATING),
}
DEFAULT_TIE_BREAKS = {
    SWISS: (BUCHHOLZ, MEDIAN_BUCHHOLZ, GIN_POINTS, DIRECT_ENCOUNTER, RATING),
    ROUND_ROBIN: (DIRECT_ENCOUNTER, SONNEBORN_BERGER, WINS, GIN_POINTS, RATING),
    KNOCKOUT: (GIN_POINTS, RATING),
}


class FormatError(ValueError):
    """A tournament that cannot be held as asked; `code` is stable, `field` names the request's field."""

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


def most_swiss_rounds(entrants: int) -> int:
    """The most rounds a Swiss of this many entrants may have: one fewer than the entrants, so that
    every round can pair players who have not met (an odd count sits one out each round)."""
    return entrants - 1


def rounds_for(form: str, entrants: int, cycles: int = 1, swiss_rounds: int | None = None) -> int:
    """How many rounds a tournament of `entrants` plays: a Swiss its own number; a round robin every
    Berger round of every cycle (an odd count adds a round, one player resting each); a knockout
    one round per halving of the bracket."""
    if form == SWISS:
        return swiss_rounds
    if form == ROUND_ROBIN:
        return cycles * (entrants - 1 if entrants % 2 == 0 else entrants)
    return max(1, math.ceil(math.log2(entrants)))


def check(form: str, min_entrants: int, max_entrants: int, rounds: int | None, cycles: int, best_of: int,
          pace: str, tie_breaks: list[str] | None) -> tuple[str, ...]:
    """Refuse what does not hold together (FormatError); return the tie-breaks (the format's default
    when none were given)."""
    if form not in FORMATS:
        raise FormatError("unknown-format", f"format must be one of {', '.join(FORMATS)}, not {form!r}", "format")
    if not MIN_ENTRANTS <= min_entrants <= max_entrants <= MAX_ENTRANTS:
        raise FormatError("invalid-tournament", f"entrants: {MIN_ENTRANTS} <= min_entrants <= max_entrants <= "
                                                f"{MAX_ENTRANTS}", "min_entrants")
    if form == SWISS:
        if rounds is None:
            raise FormatError("invalid-tournament", "a Swiss needs its number of `rounds`", "rounds")
        if not 1 <= rounds <= most_swiss_rounds(min_entrants):
            raise FormatError("too-many-rounds", f"a Swiss of at least {min_entrants} entrants may have 1 to "
                                                 f"{most_swiss_rounds(min_entrants)} rounds (one fewer than its "
                                                 f"fewest entrants), not {rounds}", "rounds")
    elif rounds is not None:
        raise FormatError("invalid-tournament", f"a {form.replace('_', ' ')} computes its rounds from the "
                                                "entrants: leave `rounds` out", "rounds")
    if cycles != 1 and form != ROUND_ROBIN or cycles not in (1, 2):
        raise FormatError("invalid-tournament", "cycles: 1 or 2, for a round robin only (2: every pair plays "
                                                "twice, the first deal swapped)", "cycles")
    if best_of not in BEST_OF or best_of != 1 and form != KNOCKOUT:
        raise FormatError("invalid-tournament", f"best_of: one of {', '.join(map(str, BEST_OF))}, and more than 1 "
                                                "for a knockout only", "best_of")
    if pace not in PACES or pace == "all_at_once" and form != ROUND_ROBIN:
        raise FormatError("invalid-tournament", "pace: rounds, or all_at_once for a round robin only", "pace")
    return check_tie_breaks(form, tie_breaks)


def check_tie_breaks(form: str, tie_breaks: list[str] | None) -> tuple[str, ...]:
    if tie_breaks is None:
        return DEFAULT_TIE_BREAKS[form]
    allowed = ALLOWED_TIE_BREAKS[form]
    for name in tie_breaks:
        if name not in allowed:
            raise FormatError("invalid-tie-breaks", f"a {form.replace('_', ' ')} may use the tie-breaks "
                                                    f"{', '.join(allowed)}; not {name!r}", "tie_breaks")
    if len(set(tie_breaks)) != len(tie_breaks):
        raise FormatError("invalid-tie-breaks", "each tie-break once", "tie_breaks")
    return tuple(tie_breaks)
