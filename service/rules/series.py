"""Tournament play: a series of matches between the same two players, as a record of finished
match results with standings computed from them (RULES.md "Tournaments and series").

- `best_of` (000: "In tournament rules the game is played in best of five with 250 points per
  game"): the first to win a majority of the matches wins the series.
- `points` (000's multi-match: "match scores are reset to zero with the start of each match,
  while game scores accumulate until a predetermined winning score is reached, perhaps 500 or
  higher"): each match's final totals, bonuses included, accumulate until a player reaches the
  series target; then the higher cumulative total wins.
- `exactly_50_loses` (000: "if a match ends with one player in the lead by exactly 50 points,
  that player automatically loses"): for a match it is the rules option of that name; for a
  points series, a player exactly 50 ahead at the series' end loses it.

The engine plays no match here: the caller plays each one as a `Match` and records its result.
"""
from __future__ import annotations

from .options import Rules
from .plain import plain_copy

KINDS = ("best_of", "points")


class SeriesError(ValueError):
    """A result that cannot be recorded, or a series built wrong. `code` is stable."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Series:
    def __init__(self, players: list[str], kind: str = "best_of", matches: int = 5, target: int = 500,
                 rules: Rules | None = None, exactly_50_loses: bool = False):
        if len(players) != 2 or len(set(players)) != 2 or not all(isinstance(p, str) and p for p in players):
            raise SeriesError("invalid-series", "a series is between two different, named players")
        if kind not in KINDS:
            raise SeriesError("invalid-series", f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if kind == "best_of" and (type(matches) is not int or matches < 1 or matches % 2 == 0 or matches > 99):
            raise SeriesError("invalid-series", "best of an odd number of matches, 1 to 99")
        if kind == "points" and (type(target) is not int or not 10 <= target <= 100000):
            raise SeriesError("invalid-series", "a points series' target is 10 to 100000")
        self.players = list(players)
        self.kind = kind
        self.matches = matches
        self.target = target
        # Each match is played under these rules (the preset `wikipedia_tournament` for 000's).
        self.rules = rules or Rules.from_options("wikipedia_tournament")
        self.exactly_50_loses = exactly_50_loses
        self.results: list[dict] = []  # {"seating": [player at seat 0, at seat 1], "result": ...}

    @classmethod
    def best_of_five(cls, players: list[str], rules: Rules | None = None) -> "Series":
        """000's tournament: best of five matches to 250."""
        return cls(players, "best_of", 5, rules=rules or Rules.from_options("wikipedia_tournament"))

    # -- recording -------------------------------------------------------------------------------

    def next_seating(self) -> list[str]:
        """Who sits at seat 0 and 1 in the next match: the players change seats each match."""
        return self.players if len(self.results) % 2 == 0 else self.players[::-1]

    def record(self, seating: list[str], result: dict) -> dict:
        """Record a finished match (`match.result`) played with `seating`; returns the standings."""
        if self.is_over:
            raise SeriesError("series-over", "the series is decided already")
        if sorted(seating) != sorted(self.players):
            raise SeriesError("unknown-player", f"this series is between {' and '.join(self.players)}")
        if not isinstance(result, dict) or "totals" not in result or "winner" not in result:
            raise SeriesError("match-not-finished", "record a finished match's result (match.result)")
        self.results.append({"seating": list(seating), "result": plain_copy(result)})
        return self.standings()

    # -- standings -----------------------------------------------------------------------------

    def standings(self) -> dict:
        rows = {p: {"player": p, "played": 0, "won": 0, "lost": 0, "drawn": 0, "points": 0, "net": 0}
                for p in self.players}
        for entry in self.results:
            seating, result = entry["seating"], entry["result"]
            for seat, player in enumerate(seating):
                row = rows[player]
                row["played"] += 1
                row["points"] += result["totals"][seat]
                row["net"] += result["totals"][seat] - result["totals"][1 - seat]
                if result["winner"] is None:
                    row["drawn"] += 1
                elif result["winner"] == seat:
                    row["won"] += 1
                else:
                    row["lost"] += 1
        winner, exactly_50 = self._winner(rows)
        table = sorted(rows.values(), key=lambda r: (-r["won"], -r["points"], self.players.index(r["player"])))
        if self.kind == "points":
            table.sort(key=lambda r: (-r["points"], self.players.index(r["player"])))
        return {"kind": self.kind, "rows": table, "matches_played": len(self.results),
                "over": winner is not None or self._all_played(rows), "winner": winner,
                "exactly_50_rule": exactly_50}

    def _all_played(self, rows) -> bool:
        return self.kind == "best_of" and len(self.results) >= self.matches

    def _winner(self, rows) -> tuple[str | None, bool]:
        a, b = (rows[p] for p in self.players)
        if self.kind == "best_of":
            need = self.matches // 2 + 1
            for row in (a, b):
                if row["won"] >= need:
                    return row["player"], False
            if len(self.results) >= self.matches and a["won"] != b["won"]:  # draws left it short
                return (a if a["won"] > b["won"] else b)["player"], False
            return None, False
        if max(a["points"], b["points"]) < self.target or a["points"] == b["points"]:
            return None, False
        leader, trailer = (a, b) if a["points"] > b["points"] else (b, a)
        if self.exactly_50_loses and leader["points"] - trailer["points"] == 50:
            return trailer["player"], True
        return leader["player"], False

    @property
    def is_over(self) -> bool:
        return self.standings()["over"]

    @property
    def winner(self) -> str | None:
        return self.standings()["winner"]

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {"players": list(self.players), "kind": self.kind, "matches": self.matches, "target": self.target,
                "rules": self.rules.to_dict(), "exactly_50_loses": self.exactly_50_loses,
                "results": plain_copy(self.results)}

    @classmethod
    def from_dict(cls, data: dict) -> "Series":
        series = cls(data["players"], data["kind"], data["matches"], data["target"],
                     Rules.from_dict(data["rules"]), data["exactly_50_loses"])
        series.results = plain_copy(data["results"])
        return series

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Series) and self.to_dict() == other.to_dict()
