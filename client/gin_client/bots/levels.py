"""The house bot's five levels: `decide(view, level, rng, memory, think_seconds) -> reference.Decision`.

    1  a beginner: takes a pile card only now and then when it makes a meld, throws a deadwood card
       at random, notices it may knock only half the time and never holds for gin
    2  a casual player: the reference bot's draws, now and then the second-best discard, knocks as
       soon as it may
    3  the reference bot (reference.decide), unchanged
    4  reads the table: what the opponent took, threw and passed on (model.py) tells which
       discards feed it and which draws are still live; knocks when the undercut risk, from
       sampled opponent hands, is low, and holds for gin when gin is near and the hand young
    5  level 4, with look-ahead where it pays (search.py): when it may knock, and when it may
       take the pile's top, it plays each option out to the hand's end over the same sampled deals
       (opponent hands and stock orders consistent with the view and with the opponent's discards,
       both sides playing the reference policy), within `think_seconds` per decision, and leaves
       level 4's choice only for an option that scores clearly more: knock or play on (and with
       which discard), take or draw

Every level decides from the seat's own view (and, for 4 and 5, a Memory of its own earlier moves
in the hand): never from the stock's order or the opponent's hand. Mahjong gin, the first-dealer
choice and big gin are played by the reference bot at every level.
"""
from __future__ import annotations

import random
import time

from ..cli.cards import deadwood
from . import reference, search
from .model import Memory, Model, best_discard
from .reference import Decision

LEVELS = (1, 2, 3, 4, 5)
DEFAULT_LEVEL = 3
DEFAULT_THINK_SECONDS = 0.5
DESCRIPTIONS = {
    1: "a beginner: random among sensible moves, misses chances to knock and never waits for gin",
    2: "a casual player: takes what helps, sometimes throws the wrong card, knocks as soon as it can",
    3: "the reference bot: greedy, knocks early or holds for gin",
    4: "reads the table: what you took, threw and passed; weighs the undercut before knocking",
    5: "level 4 plus look-ahead: plays out sampled hands of yours to decide when to knock and what to take",
}


def decide(view: dict, level: int = DEFAULT_LEVEL, rng: random.Random | None = None,
           memory: Memory | None = None, think_seconds: float | None = DEFAULT_THINK_SECONDS,
           rollouts: int | None = None) -> Decision:
    """The move at `level` for this view (one of its legal actions). `rng`: the level's chance
    (seed it for a repeatable decision); `memory`: this game's Memory (levels 4 and 5 read it);
    level 5 samples deals until `think_seconds` pass, or exactly `rollouts` deals when given."""
    if level not in LEVELS:
        raise ValueError(f"no level {level!r}: choose one of {LEVELS}")
    rng = rng or random.Random()
    if memory is not None:
        memory.observe(view)
    # The budget is the whole decision's: the search gets what the model and scoring leave of it.
    until = None if think_seconds is None else time.perf_counter() + think_seconds
    decision = _decide(view, level, rng, memory, until, rollouts)
    if memory is not None:
        memory.record(decision.action)
    return decision


def _decide(view, level, rng, memory, until, rollouts) -> Decision:
    legal = [a for a in view.get("legal_actions") or [] if a.get("type") != "resign"]
    kinds = {a["type"] for a in legal}
    if level == 3 or "table" in view or kinds & {"big_gin", "choose_dealer"} or not legal:
        return reference.decide(view)
    hand = list(view.get("hand") or [])
    before = reference.held_deadwood(hand)
    if kinds & {"discard", "knock"}:
        if level == 1:
            return _beginner_discard(view, hand, legal, before, rng)
        if level == 2:
            return _casual_discard(view, hand, legal, before, rng)
        return _reading_discard(view, hand, legal, before, rng, memory, level, until, rollouts)
    if level == 1 and rng.random() < 0.5:  # half the time it does not look at the pile at all
        return _draw_blind(legal, before)
    sources = {a.get("from"): a for a in legal if a["type"] == "draw"}
    if level == 5 and {"stock", "discard"} <= set(sources):
        return _searched_draw(view, sources, before, rng, memory, until, rollouts)
    return reference.decide(view)


# -- levels 1 and 2 -------------------------------------------------------------------------------

def _draw_blind(legal: list[dict], before: int) -> Decision:
    for action in legal:
        if action["type"] == "draw" and action.get("from") == "stock":
            return Decision(action, before, None, "draws without looking at the pile")
    passes = [a for a in legal if a["type"] == "pass"]
    return Decision(passes[0] if passes else legal[0], before, None, "does not want the upcard")


def _beginner_discard(view, hand, legal, before, rng) -> Decision:
    knocks = {a["discard"]: a for a in legal if a["type"] == "knock"}
    discards = {a["card"]: a for a in legal if a["type"] == "discard"}
    if knocks and (not discards or rng.random() < 0.5):  # sees it may knock half the time, any knock will do
        card = rng.choice(sorted(knocks))
        return Decision(knocks[card], before, deadwood([c for c in hand if c != card]), "knocks")
    _, dead, _ = reference.arrange(hand)
    loose = [c for c in dead if c in discards] or sorted(discards)
    card = rng.choice(loose)
    return Decision(discards[card], before, deadwood([c for c in hand if c != card]), f"throws {card}")


def _casual_discard(view, hand, legal, before, rng) -> Decision:
    knocks = {a["discard"]: a for a in legal if a["type"] == "knock"}
    discards = {a["card"]: a for a in legal if a["type"] == "discard"}
    if knocks:  # knocks the first time it may, with the card that leaves the least
        left, card = min((deadwood([c for c in hand if c != k]), k) for k in knocks)
        return Decision(knocks[card], before, left, "gin" if left == 0 else f"knock with {left}")
    ranked = sorted(discards, key=lambda c: reference.discard_cost(c, hand, view))
    card = ranked[1] if len(ranked) > 1 and rng.random() < 0.3 else ranked[0]
    return Decision(discards[card], before, deadwood([c for c in hand if c != card]), f"throws {card}")


# -- levels 4 and 5 -------------------------------------------------------------------------------

def _reading_discard(view, hand, legal, before, rng, memory, level, until, rollouts) -> Decision:
    model = Model(view, memory)
    chance = model.held_chance()
    knocks = {a["discard"]: a for a in legal if a["type"] == "knock"}
    discards = {a["card"]: a for a in legal if a["type"] == "discard"}
    scored = sorted((_discard_score(model, chance, hand, c), c) for c in discards)
    if level == 5 and discards and knocks:  # where sampling pays: the knock, and the discard beside it
        return _searched_discard(model, hand, discards, knocks, [c for _, c in scored[:3]], before, rng,
                                 until, rollouts)
    if knocks:
        left, card = min((deadwood([c for c in hand if c != k]), k) for k in knocks)
        if left == 0 or not discards:
            return Decision(knocks[card], before, left, "gin" if left == 0 else "must knock")
        rest = [c for c in hand if c != card]
        risk = model.undercut_chance(rest, rng)
        if _knock_now(model, rest, left, risk):
            return Decision(knocks[card], before, left, f"knock with {left} (undercut risk {risk:.0%})")
        why = f"holds on ({risk:.0%} undercut risk)"
    else:
        why = "reads the table"
    return _discard_decision(discards, hand, before, scored[0][1], why)


def _discard_decision(discards, hand, before, card, why) -> Decision:
    return Decision(discards[card], before, deadwood([c for c in hand if c != card]), f"{why}: {card}")


def _discard_score(model: Model, chance: dict, hand: list[str], card: str) -> float:
    """Lower is a better discard: the reference bot's cost (deadwood left, live partners kept),
    plus the chance the card completes a meld for the opponent as the model reads its hand, less
    the live outs the rest keeps."""
    rest = [c for c in hand if c != card]
    return reference.discard_cost(card, hand, model.view) + 2.0 * model.feed_risk(card, chance) \
        - 0.25 * model.outs(rest, chance)


def _knock_now(model: Model, rest: list[str], left: int, risk: float) -> bool:
    """Knock now, or play on? When the reference bot would (the hand's first turns, the last
    ones) unless sampled opponent hands say an undercut is likely; in between, only when an
    undercut is very unlikely and gin is not a card or two away."""
    if reference.should_knock(left, model.view, None):
        return risk < 0.6
    if left <= 3 and model.stock >= 16 and _gin_outs(model, rest) >= 3:
        return False  # hold for gin: it is near, and the opponent's hand is young
    return risk <= 0.05 and left <= 6


def _gin_outs(model: Model, rest: list[str]) -> int:
    return sum(1 for u in model.unseen if best_discard(rest + [u])[0] == 0)


# -- level 5: sampled deals played out (search.py) --------------------------------------------

def _searched_discard(model, hand, discards, knocks, candidates, before, rng, until, deals) -> Decision:
    """Level 4's three best discards, and the knock when one is allowed, each played out over the
    same sampled deals: the option with the most points on average."""
    mine, pile, scoring = search.bits(hand), [search.bit(c) for c in model.pile], search.Scoring(model)
    options = {}
    for card in candidates:
        thrown = search.bit(card)
        options[("discard", card)] = (lambda theirs, stock, thrown=thrown:
                                      search.play_out(mine ^ thrown, theirs, stock, pile + [thrown], True, scoring))
    if knocks:
        left, card = min((deadwood([c for c in hand if c != k]), k) for k in knocks)
        if left == 0:
            return Decision(knocks[card], before, 0, "gin")
        kept = mine ^ search.bit(card)
        options[("knock", card)] = lambda theirs, stock: scoring.settle(kept, left, theirs)
    if len(options) == 1:
        (kind, card), = options
    else:
        kind, card = search.weigh(options, model, rng, _left(until), deals, margin=1.0)
    left = deadwood([c for c in hand if c != card])
    if kind == "knock":
        return Decision(knocks[card], before, left, f"knock with {left}: better than playing on in sampled deals")
    return Decision(discards[card], before, left, f"throws {card}: best in sampled deals")


def _searched_draw(view, sources, before, rng, memory, until, deals) -> Decision:
    """Take the pile's top or draw, each played out over the same sampled deals."""
    model = Model(view, memory)
    mine, scoring = search.bits(model.hand), search.Scoring(model)
    pile = [search.bit(c) for c in model.pile]
    options = {source: (lambda theirs, stock, source=source:
                        search.play_out(mine, theirs, stock, list(pile), False, scoring,
                                        "pile" if source == "discard" else "stock"))
               for source in ("stock", "discard")}
    if reference.decide(view).action.get("from") == "discard":  # the reference bot's choice first: it wins ties
        options = dict(reversed(list(options.items())))
    source = search.weigh(options, model, rng, _left(until), deals, margin=2.0)
    top = model.pile[-1] if model.pile else None
    return Decision(sources[source], before, None, f"takes {top}" if source == "discard" else "draws from the stock")


def _left(until: float | None) -> float | None:
    """The time left of the decision's budget for the search (the model and level 4's scoring took some)."""
    return None if until is None else max(0.0, until - time.perf_counter())
