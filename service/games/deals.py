"""Fair deals anyone can check: a cryptographic shuffle, committed to before play, revealed after.

The commitment recipe (also in docs/api.md, "Fair deals you can check"):

    commitment = hex(sha256(ascii(salt_hex + ":" + " ".join(deck))))

where `salt_hex` is 64 lower-case hex digits (32 random bytes) and `deck` is the 52 cards in the
order dealt (index 0 first), each as rank+suit text like "TD", separated by single spaces.
"""
from __future__ import annotations

import hashlib
import secrets

from ..rules import full_deck

_rng = secrets.SystemRandom()


def shuffled_deck() -> list[str]:
    deck = [str(card) for card in full_deck()]
    _rng.shuffle(deck)
    return deck


def new_salt() -> str:
    return secrets.token_hex(32)


def cut_for_first_dealer(match) -> list[dict]:
    """The cut for the first dealer (rules first_dealer_by), until it decides: each try from a
    freshly shuffled pack, its top card seat 0's and the next seat 1's. The cards are shown to
    both seats at once (the cut events, the view's `cuts`): nothing is hidden, so nothing to commit."""
    events: list[dict] = []
    while match.needs_cut:
        pack = shuffled_deck()
        events += match.cut(pack[0], pack[1])
    return events


def commitment(salt_hex: str, deck: list[str]) -> str:
    return hashlib.sha256((salt_hex + ":" + " ".join(deck)).encode("ascii")).hexdigest()
