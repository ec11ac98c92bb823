"""The coach's play-outs follow the reference bot's policy through a copy (service/rules/coach/hands.py:
the service may not import the client, nor the client the service). This keeps the copy true: on
seeded random hands both sides' deadwood, best discard, throw and take agree."""
from __future__ import annotations

import random

from gin_client.bots import search
from service.rules import full_deck
from service.rules.coach import hands

DECK = [str(card) for card in full_deck()]


def test_the_coachs_copy_of_the_reference_policy_decides_as_the_bot_does():
    rng = random.Random(41)
    assert [hands.bit(card) for card in DECK] == [search.bit(card) for card in DECK]
    for _ in range(2000):
        dealt = rng.sample(DECK, 24)
        hand, top = search.bits(dealt[:10]), search.bit(dealt[10])
        gone, feeding = search.bits(dealt[11:17]), search.bits(dealt[17:24])
        eleven = hand | top
        assert hands.deadwood(hand) == search.deadwood(hand)
        assert hands.best_discard(eleven, top) == search.best_discard(eleven, top)
        assert hands.reference_throw(eleven, top, gone, feeding) == search.reference_throw(eleven, top, gone, feeding)
        assert hands.reference_takes(hand, top) == search.reference_takes(hand, top)
