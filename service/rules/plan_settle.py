"""Settling a plan (plans.py) on a match or a table: judged whole before anything is played, then
turned into the engine's actions, with what each condition decided and why (docs/plans.md).

`settle_plan(game, seat, plan)` never changes `game`. It first checks what the plan says against
the seat's turn, the rules and the seat's hand; a plan that draws from the stock is then played on
a copy once for every card the seat cannot see (in the deck's order, so the answer depends only
on what the seat knows), and any card that would make a step illegal refuses the whole plan,
naming that card. Only then is it played on a copy with the real draw: `actions` are the moves to
apply in order (each through the one move path, like any move), `after` the copy they lead to.
The decisions and the drawn card are the seat's alone; the opponent learns only the moves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action, BigGin, Discard, Draw, Knock, LayMeld, Pass, TakeUpcard
from .cards import Card, full_deck, parse_cards
from .errors import IllegalAction, check_seat
from .judgments import Turn, gin_move, keeping_drawn, knock_move, least_left, worst
from .legality import PHASE_WORDS
from .match import Match
from .plan_rules import (DeclareBigGin, DiscardCard, DiscardDrawn, DiscardWorst, GinIfPossible, KnockIf,
                         KnockWith, Rule)
from .plans import Plan
from .tables import Table


@dataclass(frozen=True)
class Decision:
    """What one rule decided: `played` (it made the turn's last move) and why."""
    rule: Rule
    played: bool
    why: str

    def to_dict(self) -> dict:
        return {"rule": str(self.rule), "played": self.played, "why": self.why}


@dataclass(frozen=True)
class Settlement:
    """A plan settled: the moves, the decisions, the card the stock gave, and the answer's
    sentences. All of it is for the seat only; `after` is the game once the moves are played."""
    plan: Plan
    actions: tuple[Action, ...]
    decisions: tuple[Decision, ...]
    drawn: Card | None
    told: tuple[str, ...]
    after: Any = field(default=None, compare=False, repr=False)

    def answer(self) -> str:
        text = "; ".join(self.told)
        return text[:1].upper() + text[1:] + "."

    def to_dict(self) -> dict:
        return {"plan": str(self.plan), "actions": [a.to_dict() for a in self.actions],
                "drawn": str(self.drawn) if self.drawn else None,
                "decisions": [d.to_dict() for d in self.decisions], "answer": self.answer()}


def board_of(game, seat: int) -> tuple[Match, int]:
    """The two-player match `seat` plays on, and its seat there (a table's board, or the match)."""
    if isinstance(game, Table):
        board = game.board_of(seat)
        if game.is_over:
            raise IllegalAction("game-over", "the match is over; no plan can be played")
        if board is None:
            raise IllegalAction("not-your-turn", f"seat {seat} plays on no board now")
        return game.boards[board]["match"], game.boards[board]["seats"].index(seat)
    return game, check_seat(seat)


def settle_plan(game: Match | Table, seat: int, plan: Plan) -> Settlement:
    """Judge `plan` whole for `seat`, then settle it (module docstring). IllegalAction names the
    first thing that makes it unplayable, with the engine's code, and nothing is played."""
    if not isinstance(plan, Plan):
        raise IllegalAction("invalid-plan", f"not a plan: {plan!r}")
    match, local = board_of(game, seat)
    first = _check_plan(match, local, plan)
    if plan.draw == "stock" and (plan.table or plan.rules):  # (a bare draw has nothing to try)
        base = match.to_dict()
        for card in unseen(match, local):
            try:
                _play(_drawing(base, local, card), local, plan, first, final=False)
            except IllegalAction as exc:
                raise IllegalAction(exc.code, f"if you drew {card}: {exc.message}") from None
    copy = game.from_dict(game.to_dict())
    return _play(copy, seat, plan, first, final=True)


def unseen(match: Match, seat: int) -> list[Card]:
    """The cards `seat` cannot see, in the deck's order: the stock's and the opponent's unknown."""
    seen = set(match.hands[seat]) | set(match.discard_pile) | set(match.known[1 - seat])
    for meld in getattr(match, "table", ()):  # Mahjong gin's table is face up
        seen |= set(parse_cards(meld["cards"]))
    return [card for card in full_deck() if card not in seen]


def _drawing(base: dict, seat: int, card: Card) -> Match:
    """The match of `base` with `card` on top of the stock: from the stock, or swapped with the
    stock's top from the opponent's hand (cards the seat cannot tell apart)."""
    text = str(card)
    stock, hands = list(base["stock"]), list(base["hands"])
    if text in stock:
        stock.remove(text)
        stock.insert(0, text)
    else:
        other = list(hands[1 - seat])
        other[other.index(text)], stock[0] = stock[0], text
        hands[1 - seat] = other
    return Match.from_dict({**base, "stock": stock, "hands": hands})


def _check_plan(match: Match, seat: int, plan: Plan) -> Action | None:
    """What can be judged before any card moves; returns the plan's first action (its draw)."""
    if match.phase == "match_over":
        raise IllegalAction("game-over", "the match is over; no plan can be played")
    if match.to_move is None:
        raise IllegalAction("wrong-phase", f"no hand is in play ({PHASE_WORDS[match.phase]})")
    if match.to_move != seat:
        raise IllegalAction("not-your-turn", f"it is the other seat's turn, in {PHASE_WORDS[match.phase]}")
    rules = match.rules
    if not rules.knocking_allowed and any(isinstance(r, KnockIf) for r in plan.rules):
        raise IllegalAction("knocking-not-allowed", "only gin ends a hand in these rules: write 'gin if "
                            "possible' instead of 'knock if ...'")
    if not rules.big_gin and any(isinstance(r, DeclareBigGin) for r in plan.rules):
        raise IllegalAction("big-gin-not-allowed", "these rules have no Big Gin")
    if plan.table and not rules.mahjong:
        raise IllegalAction("wrong-phase", "meld and add are moves of Mahjong gin only")
    first = _first_action(match, plan)
    if first is None and match.phase != "discard":
        begin = "draw stock or take" if match.phase == "draw" else "take or pass"
        raise IllegalAction("wrong-phase", f"the plan begins after the draw, but this is "
                            f"{PHASE_WORDS[match.phase]}: begin it with {begin}")
    if first is not None:
        match.check(seat, first)
    taken = match.discard_pile[-plan.count:] if plan.draw == "pile" else []
    if plan.top is not None and taken != [plan.top]:
        raise IllegalAction("ambiguous-plan", f"the top of the discard pile is "
                            f"{taken[-1] if taken else 'nothing'}, not {plan.top}")
    for card in plan.cards_named():
        if card not in match.hands[seat] and card not in taken:
            raise IllegalAction("card-not-in-hand", f"{card} is not in your hand")
    return first


def _first_action(match: Match, plan: Plan) -> Action | None:
    if plan.draw == "stock":
        return Draw("stock")
    if plan.draw == "pass":
        return Pass()
    if plan.draw == "pile" and match.phase == "upcard_offer":
        if plan.count > 1:
            raise IllegalAction("wrong-phase", "in the upcard offer only the upcard may be taken")
        return TakeUpcard()
    return Draw("discard", plan.count) if plan.draw == "pile" else None


def _play(game, seat: int, plan: Plan, first: Action | None, final: bool) -> Settlement:
    """Play `plan` on `game` (a copy): every move applied, or with `final` False the last only
    checked (a hypothetical draw needs no scoring)."""
    actions: list[Action] = []
    told: list[str] = []
    drawn = None
    if first is not None:
        events = game.apply(seat, first)
        actions.append(first)
        drawn, sentence = _drew(first, events)
        told.append(sentence)
    match, local = board_of(game, seat)
    for step in plan.table:
        game.apply(seat, step)
        actions.append(step)
        told.append(f"you laid {' '.join(map(str, step.cards))} on the table" if isinstance(step, LayMeld)
                    else f"you added {step.card} to meld {step.meld + 1}")
    decisions: list[Decision] = []
    if plan.rules:
        action, decisions = decide(plan.rules, match, local, drawn)
        told += [d.why for d in decisions]
        if not (decisions and decisions[-1].played and isinstance(decisions[-1].rule, DiscardDrawn)):
            told.append(_did(match, local, action))  # (a thrown drawn card is said by its decision)
        if final:
            game.apply(seat, action)
        else:
            match.check(local, action)
        actions.append(action)
    return Settlement(plan, tuple(actions), tuple(decisions), drawn, tuple(told), game if final else None)


def _drew(first: Action, events: list[dict]) -> tuple[Card | None, str]:
    event = events[0]
    if isinstance(first, Pass):
        return None, "you passed"
    if isinstance(first, TakeUpcard):
        return None, f"you took the upcard {event['card']}"
    if first.source == "discard":
        return None, f"you took {' '.join(event.get('cards') or [event['card']])} from the discard pile"
    card = Card.parse(next(iter(event["private"].values()))["card"])
    return card, f"you drew {card} from the stock"


def _did(match: Match, seat: int, action: Action) -> str:
    if isinstance(action, BigGin):
        return "you declared Big Gin"
    if isinstance(action, Knock):
        left = match.scheme.deadwood_without(match.hands[seat], action.discard)
        return (f"you went gin, discarding {action.discard} face down" if left == 0 else
                f"you knocked with {left} points of deadwood, discarding {action.discard} face down")
    if len(match.hands[seat]) == 1:
        return f"you threw your last card, {action.card}, and went out"
    return f"you threw {action.card}"


def decide(rules: tuple[Rule, ...], match: Match, seat: int, drawn: Card | None) -> tuple[Action, list[Decision]]:
    """The move `rules` make on `match` (after the draw), and the decisions on the way. The move
    is not checked here; an unconditional rule that names no move raises IllegalAction."""
    return _decide(rules, Turn(match, seat), drawn, None)


def _decide(rules: tuple[Rule, ...], turn: Turn, drawn: Card | None, keep: Card | None) -> tuple[Action, list[Decision]]:
    """`decide` on a turn read once; `keep`: a card that may not be thrown (the drawn card, while
    judging whether to keep it)."""
    decisions: list[Decision] = []
    for i, rule in enumerate(rules):
        if isinstance(rule, DiscardDrawn) and rule.unless_melds:
            return _unless_melds(rule, rules[i + 1:], turn, drawn, decisions)
        if isinstance(rule, KnockIf):
            action, why = knock_move(turn, rule.at_most, keep)
        elif isinstance(rule, GinIfPossible):
            action = gin_move(turn, keep)
            why = "you can go gin" if action else _no_gin(turn, keep)
        elif isinstance(rule, DiscardWorst):
            throw = worst(turn, keep)
            if throw is None:  # no plain discard is allowed: the engine says why
                other = next((c for c in turn.hand if c != keep), None)
                if other is not None:
                    turn.match.check(turn.seat, Discard(other))
                raise IllegalAction("wrong-phase", "no card may be discarded now")
            ties = f" (so would {' '.join(map(str, throw.tied))}: the higher card goes)" if throw.tied else ""
            why = f"discard worst: throwing {throw.card} leaves {throw.left} points of deadwood{ties}"
            return Discard(throw.card), decisions + [Decision(rule, True, why)]
        else:
            return _unconditional(rule, turn, drawn, keep), decisions
        decisions.append(Decision(rule, action is not None, f"{rule}: {why}"))
        if action is not None:
            return action, decisions
    raise AssertionError("a plan's last rule always decides")  # Plan refuses any other


def _unless_melds(rule: Rule, rest: tuple[Rule, ...], turn: Turn, drawn: Card,
                  decisions: list[Decision]) -> tuple[Action, list[Decision]]:
    """`discard drawn unless it melds`: keep the drawn card when keeping it and playing the rest
    leaves strictly less deadwood than throwing it (and the rest can be played)."""
    try:
        outcome, later = _decide(rest, turn, drawn, keep=drawn)
        turn.match.check(turn.seat, outcome)
    except IllegalAction as exc:
        decisions.append(Decision(rule, True, f"keeping {drawn} leaves no way to play the rest of the plan "
                                  f"({exc.message}), so you threw it"))
        return Discard(drawn), decisions
    verdict = keeping_drawn(turn.match, turn.seat, drawn, outcome)
    if verdict.lowers:
        return outcome, decisions + [Decision(rule, False, verdict.why() + ", so you kept it")] + later
    return Discard(drawn), decisions + [Decision(rule, True, verdict.why() + ", so you threw it")]


def _unconditional(rule: Rule, turn: Turn, drawn: Card | None, keep: Card | None) -> Action:
    if isinstance(rule, DiscardCard):
        return Discard(rule.card)
    if isinstance(rule, DiscardDrawn):
        return Discard(drawn)
    if isinstance(rule, KnockWith):
        return Knock(rule.card)
    if isinstance(rule, DeclareBigGin):
        return BigGin()
    if rule.card is not None:  # gin 7H: a knock with that card, leaving nothing
        left = turn.lefts[rule.card]
        if left:
            raise IllegalAction("deadwood-over-limit", f"gin {rule.card} leaves {left} points of deadwood; gin "
                                f"needs none (write knock {rule.card} to knock)")
        return Knock(rule.card)
    action = gin_move(turn, keep)
    if action is None:
        raise IllegalAction("deadwood-over-limit", f"gin: {_no_gin(turn, keep)}")
    return action


def _no_gin(turn: Turn, keep: Card | None) -> str:
    least = least_left(turn, keep)
    return (f"no discard leaves you without deadwood (the least is {least.left}, throwing {least.card})"
            if least else "no card may leave your hand now")
