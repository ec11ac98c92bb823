"""A finished two-seat match reviewed decision by decision, and a hint at the decision now.

The match is walked through the engine from its `Transcript` (first dealer, cuts, stored decks
and the actions, as the replay walks it); before each decision worth weighing (weighing.reviewed)
the seat's view alone (knowledge.seat_view) is weighed (weighing.weigh) with a seed made of the
review's seed, the hand and the decision's number, so a review is the same every time it is
made with the same seed and deals, and never reads the opponent's cards or the stock's order.

Labels, as chess sites name them, on the points given away (the best option's mean less the
chosen one's, for this hand) when that is more than two standard errors, so that noise is never
called a mistake: an inaccuracy from 2 points, a mistake from 5, a blunder from 10 (a typical
hand is worth 15 to 30 points: docs/coach.md gives the measured spread). "best" is a choice within
one standard error of the best option."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..actions import action_from_dict
from ..match import Match
from ..options import Rules
from .knowledge import PublicRecord, seat_view
from .weighing import reviewed, weigh

VERSION = 1
DEFAULT_DEALS = 32
LABELS = ((10.0, "blunder"), (5.0, "mistake"), (2.0, "inaccuracy"))
SIGNIFICANT_SE = 2.0


class NotReviewable(ValueError):
    """A match the coach does not review: `code` says why."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code, self.detail = code, detail


@dataclass
class Transcript:
    """What the engine needs to walk a match again: as games/replay.py reads it from the store."""
    rules: dict
    first_dealer: int | None
    decks: dict  # hand number -> 52 cards
    moves: list  # (seat, action dict); claim_timeout carries the losing seat
    cuts: list = field(default_factory=list)  # (seat 0's card, seat 1's)
    knock_cards: dict = field(default_factory=dict)  # hand number -> a second deck's knock card


def check_reviewable(rules: dict) -> Rules:
    parsed = Rules.from_dict(rules)
    if parsed.mahjong:
        raise NotReviewable("review-not-available", "Mahjong gin is not reviewed (yet)")
    if parsed.runs != "ace_low" or parsed.card_values != "standard":
        raise NotReviewable("review-not-available", "only the standard cards (ace low, faces 10) are reviewed")
    return parsed


def walk(transcript: Transcript, stop_before: int | None = None):
    """Yield (match, seat, action, record, index) before each move, the record being the hand's
    public record so far; `stop_before`: stop at that move's number (a hint's 'now')."""
    rules = check_reviewable(transcript.rules)
    match = Match.new(rules, None if transcript.cuts else transcript.first_dealer)
    for c0, c1 in transcript.cuts:
        match.cut(c0, c1)
    record, hand = PublicRecord(), None
    for index, (seat, action) in enumerate(transcript.moves):
        _deal_if_due(match, transcript)
        if match.hand_number != hand:
            record, hand = PublicRecord(), match.hand_number
        if stop_before is not None and index >= stop_before:
            break
        yield match, seat, action, record, index
        top = str(match.discard_pile[-1]) if match.discard_pile else None
        kind = action.get("type")
        if kind == "claim_timeout":  # the seat that lost, when the store says; else the one to move
            match.forfeit(match.to_move if seat is None else seat, "timeout")
        elif kind == "resign":
            match.forfeit(seat, "resign")
        else:
            match.apply(seat, action_from_dict(action))
        record.note(seat, action, top)
    else:
        _deal_if_due(match, transcript)
        if match.hand_number != hand:
            record = PublicRecord()
    if stop_before is not None:
        yield match, None, None, record, len(transcript.moves)


def _deal_if_due(match: Match, transcript: Transcript) -> None:
    while match.needs_deal and not match.is_over:
        hand = match.hand_number + 1
        if hand not in transcript.decks:
            return  # the transcript stops here (a hint's, or a match cut short)
        match.deal(transcript.decks[hand], transcript.knock_cards.get(hand))


def label(given_away: float, se: float) -> str:
    if given_away <= se:
        return "best"
    if given_away > SIGNIFICANT_SE * se:
        for threshold, name in LABELS:
            if given_away >= threshold:
                return name
    return "good"


def decisions(transcript: Transcript) -> int:
    """How many decisions a review weighs (its progress' total)."""
    return sum(1 for match, seat, action, record, _ in walk(transcript)
               if match.to_move == seat and reviewed(seat_view(match, seat, record)))


def review_match(transcript: Transcript, seed: str, deals: int = DEFAULT_DEALS, seconds: float | None = None,
                 match_seconds: float | None = None, clock=None, progress=None) -> dict:
    """The review: each decision weighed, then per hand and per match each seat's summary.
    `seconds` a decision and `match_seconds` in all cap the CPU time by `clock()` (the caller's);
    past the match's budget each decision gets two deals (the figures say how many they had)."""
    total = decisions(transcript) if progress else None
    rows, started = [], clock() if clock else None
    for match, seat, action, record, index in walk(transcript):
        if match.to_move != seat or action.get("type") in ("resign", "claim_timeout"):
            continue
        view = seat_view(match, seat, record)
        if not reviewed(view):
            continue
        spent = clock() - started if clock else 0.0
        over = match_seconds is not None and spent >= match_seconds
        weighing = weigh(view, f"{seed}:{view.hand_number}:{index}", 2 if over else deals, action,
                         seconds, clock)
        chosen = weighing.of(action)
        rows.append({
            "move": index, "hand": view.hand_number, "seat": seat, "phase": view.phase,
            "hand_cards": list(view.hand), "top": view.pile[-1] if view.pile else None,
            "chosen": action, "best": weighing.best.action, "best_expected": weighing.best.expected,
            "chosen_expected": chosen.expected, "given_away": chosen.behind, "se": chosen.se,
            "label": label(chosen.behind, chosen.se), "deals": weighing.deals,
            "options": [{"action": f.action, "expected": f.expected, "behind": f.behind, "se": f.se}
                        for f in weighing.figures]})
        if progress:
            progress(len(rows), total)
    hands = sorted({row["hand"] for row in rows})
    return {"version": VERSION, "seed": seed, "deals": deals, "decisions": rows,
            "hands": [{"hand": h, "seats": [summary([r for r in rows if r["hand"] == h and r["seat"] == s])
                                            for s in (0, 1)]} for h in hands],
            "match": {"seats": [summary([r for r in rows if r["seat"] == s]) for s in (0, 1)]}}


def summary(rows: list[dict]) -> dict:
    """A seat's figures over some decisions: points given away in all and a decision, the share of
    choices within one standard error of the best, and each label's count."""
    count = len(rows)
    given = round(sum(r["given_away"] for r in rows), 2)
    counts = {name: sum(1 for r in rows if r["label"] == name) for name in ("inaccuracy", "mistake", "blunder")}
    return {"decisions": count, "given_away": given,
            "given_away_per_decision": round(given / count, 2) if count else 0.0,
            "accuracy": round(sum(1 for r in rows if r["label"] == "best") / count, 3) if count else None,
            **counts}


def hint(transcript: Transcript, seat: int, seed: str, deals: int = DEFAULT_DEALS, seconds: float | None = None,
         clock=None) -> dict | None:
    """The best option at the seat's decision now (the transcript so far), from its view alone;
    None when it is not the seat's decision, or it has one option only."""
    *_, (match, _, _, record, index) = walk(transcript, stop_before=len(transcript.moves))
    if match.to_move != seat or match.is_over:
        return None
    view = seat_view(match, seat, record)
    if not reviewed(view):
        return None
    weighing = weigh(view, f"{seed}:{view.hand_number}:{index}", deals, None, seconds, clock)
    return {"best": weighing.best.action, "expected": weighing.best.expected, "deals": weighing.deals,
            "options": [{"action": f.action, "expected": f.expected, "behind": f.behind, "se": f.se}
                        for f in weighing.figures]}
