"""The coach's settings (core.settings: app.config, then the environment, then these defaults).
A review weighs each decision over COACH_DEALS sampled deals (about 0.2 s of CPU on one core of
the reference machine), stopping early past COACH_DECISION_SECONDS of CPU; past COACH_MATCH_SECONDS
for the match, each decision left gets two deals (its figures say so). docs/operations.md."""
from __future__ import annotations

from ..core import settings
from ..core.settings import setting  # noqa: F401  (the coach's modules read their settings through here)

DEFAULTS = {
    "COACH_DEALS": 32,
    "COACH_DECISION_SECONDS": 0.25,
    "COACH_MATCH_SECONDS": 120.0,
    "COACH_QUEUE_PER_PLAYER": 3,  # reviews waiting at once for one player's games; more are skipped
    "COACH_LEASE_SECONDS": 60.0,  # a running review not renewed for this long is taken up again
}
settings.register(DEFAULTS, {"COACH_DEALS": int, "COACH_DECISION_SECONDS": float, "COACH_MATCH_SECONDS": float,
                             "COACH_QUEUE_PER_PLAYER": int, "COACH_LEASE_SECONDS": float})
