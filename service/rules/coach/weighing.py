"""One decision weighed: each option the seat had, played out over the same sampled deals
(knowledge.py, playout.py), its mean points for the seat, and for each the paired difference to
the best option with its standard error. The options are every legal one, except at a discard,
where the reference bot's five cheapest throws stand for the rest (the chosen one always among
them): a throw it rates worse than all five has never been the best in our measurements
(docs/coach.md). Knocks (each card allowed) and Big Gin are settled at once on each deal."""
from __future__ import annotations

import random
from dataclasses import dataclass

from .hands import bit, bits, reference_takes, throw_costs
from .knowledge import SeatView, sampled_deals
from .playout import Settle, play_out

DISCARD_CANDIDATES = 5
MIN_DEALS = 2


def key(action: dict) -> tuple:
    """An action's identity for comparison (a knock's melds are the layout, not the choice)."""
    return (action.get("type"), action.get("from"), action.get("card"), action.get("discard"))


@dataclass(frozen=True)
class Figure:
    action: dict
    expected: float  # mean points for the seat over the deals
    behind: float  # the best option's mean less this one's
    se: float  # standard error of that paired difference


@dataclass(frozen=True)
class Weighing:
    figures: tuple[Figure, ...]  # best first
    deals: int

    @property
    def best(self) -> Figure:
        return self.figures[0]

    def of(self, action: dict) -> Figure | None:
        return next((f for f in self.figures if key(f.action) == key(action)), None)


def reviewed(view: SeatView) -> bool:
    """A decision worth weighing: a seat with two options or more, at a phase the coach plays out."""
    return view.phase in ("upcard_offer", "draw", "discard") and len(options(view)) > 1


def options(view: SeatView, chosen: dict | None = None) -> list[dict]:
    actions = [a for a in view.actions if a["type"] != "resign"]
    if view.phase != "discard":
        return actions
    throws = {a["card"]: a for a in actions if a["type"] == "discard"}
    mine, taken = bits(view.hand), bit(view.taken) if view.taken else 0
    costs = throw_costs(mine, taken, bits(view.pile), bits(view.known))
    ranked = sorted(throws, key=lambda c: (costs.get(bit(c), 99.0), c))[:DISCARD_CANDIDATES]
    if chosen is not None and chosen.get("type") == "discard" and chosen.get("card") in throws:
        ranked = ranked if chosen["card"] in ranked else ranked + [chosen["card"]]
    return [a for a in actions if a["type"] != "discard"] + [throws[c] for c in ranked]


def _player(view: SeatView, action: dict):
    """A function (opponent hand, stock) -> the seat's points for `action`."""
    settle, mine = Settle(view), bits(view.hand)
    pile, known = [bit(c) for c in view.pile], bits(view.known)
    kind, top = action["type"], (bit(view.pile[-1]) if view.pile else 0)
    if kind == "big_gin":
        return lambda theirs, stock: settle.big_gin(mine, theirs)
    if kind == "knock":
        kept = mine ^ bit(action["discard"])
        return lambda theirs, stock: settle.knock(kept, theirs)
    if kind == "discard":
        thrown = bit(action["card"])
        return lambda theirs, stock: play_out(mine ^ thrown, theirs, stock, pile + [thrown], True, settle,
                                              took=(0, known))
    if kind == "take_upcard" or (kind == "draw" and action.get("from") == "discard"):
        return lambda theirs, stock: play_out(mine, theirs, stock, list(pile), False, settle, "pile", (0, known))
    if kind == "draw":
        return lambda theirs, stock: play_out(mine, theirs, stock, list(pile), False, settle, "stock", (0, known))
    if view.first_offer:  # a pass on the first offer: the opponent may take the upcard, else we draw
        def passed(theirs, stock):
            if reference_takes(theirs, top):
                return play_out(mine, theirs, stock, list(pile), True, settle, "pile", (0, known))
            return play_out(mine, theirs, stock, list(pile), False, settle, "stock", (0, known))
        return passed
    return lambda theirs, stock: play_out(mine, theirs, stock, list(pile), True, settle, "stock", (0, known))


def weigh(view: SeatView, seed: str, deals: int, chosen: dict | None = None,
          seconds: float | None = None, clock=None) -> Weighing:
    """Every option over `deals` sampled deals drawn with `random.Random(seed)` (the same deals for
    each option): fewer when `clock()` (a CPU clock the caller passes: the engine reads none) says
    `seconds` are spent, at least MIN_DEALS."""
    acts = options(view, chosen)
    players = [_player(view, a) for a in acts]
    totals = [[] for _ in acts]
    started = clock() if clock and seconds is not None else None
    for done, (theirs, stock) in enumerate(sampled_deals(view, random.Random(seed)), start=1):
        for play, row in zip(players, totals):
            row.append(play(theirs, list(stock)))
        if done >= deals or (started is not None and done >= MIN_DEALS and clock() - started >= seconds):
            break
    count = len(totals[0])
    means = [sum(row) / count for row in totals]
    best = max(range(len(acts)), key=lambda i: (means[i], -i))
    figures = []
    for i, action in enumerate(acts):
        diffs = [b - x for b, x in zip(totals[best], totals[i])]
        mean = sum(diffs) / count
        var = sum((d - mean) ** 2 for d in diffs) / max(1, count - 1)
        figures.append(Figure(action, round(means[i], 2), round(mean, 2), round((var / count) ** 0.5, 2)))
    figures.sort(key=lambda f: (f.behind, key(f.action) != key(acts[best])))
    return Weighing(tuple(figures), count)
