"""Matches played by the engine itself for the coach's tests and bench (bench/review_quality.py):
both seats follow the reference policy (hands.py), each decision replaced now and then by a random
legal one (`blunders`), so that reviews have bad choices to find. Seeded; returns the Transcript
a review reads, and the decks dealt."""
from __future__ import annotations

import random

from ..actions import action_from_dict
from ..cards import full_deck
from ..match import Match
from ..options import Rules
from .hands import best_discard, bit, bits, cards, reference_takes, reference_throw
from .review import Transcript


def policy(match: Match, seat: int) -> dict:
    """The reference bot's action for the seat now (only its own cards and the pile are read)."""
    legal = [a.to_dict() for a in match.legal_actions(seat)]
    kinds = {a["type"] for a in legal}
    hand = bits(match.hands[seat])
    top = bit(match.discard_pile[-1]) if match.discard_pile else 0
    if "big_gin" in kinds:
        return {"type": "big_gin"}
    if kinds & {"discard", "knock"}:
        taken = bit(match.taken) if match.taken else 0
        left, card = best_discard(hand, taken)
        knock = {"type": "knock", "discard": _text(card)}
        stock = len(match.stock)
        if knock in legal and (left == 0 or stock >= 27 or stock <= 2):
            return knock
        card = reference_throw(hand, taken, bits(match.discard_pile), bits(match.known[1 - seat]))
        action = {"type": "discard", "card": _text(card)}
        return action if action in legal else legal[0]
    wants = bool(top) and reference_takes(hand, top)
    for action in legal:
        if wants and (action["type"] == "take_upcard" or action.get("from") == "discard"):
            return action
    for action in legal:
        if action["type"] == "pass" or action.get("from") == "stock":
            return action
    return legal[0]


def _text(card: int) -> str:
    return cards(card)[0]


def play_match(seed: int, blunders: float = 0.1, rules: dict | None = None, max_hands: int = 30) -> Transcript:
    rng = random.Random(seed)
    rules = rules or {}
    match = Match.new(Rules.from_dict(rules), rng.randrange(2))
    transcript = Transcript(rules=rules, first_dealer=match.first_dealer, decks={}, moves=[])
    while not match.is_over:
        if match.needs_deal:
            if match.hand_number >= max_hands:
                break
            deck = [str(c) for c in full_deck()]
            rng.shuffle(deck)
            transcript.decks[match.hand_number + 1] = deck
            match.deal(deck)
            continue
        seat = match.to_move
        legal = [a.to_dict() for a in match.legal_actions(seat)]
        action = rng.choice(legal) if rng.random() < blunders else policy(match, seat)
        if action["type"] == "big_gin" or (action["type"] == "knock" and rng.random() < blunders):
            action = policy(match, seat)
        match.apply(seat, action_from_dict(action))
        transcript.moves.append((seat, action))
    return transcript
