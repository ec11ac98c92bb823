"""A misdeal (a dealt hand that could knock, under rules that say so) is dealt again at once by
the service, its deck revealed, and play goes on. The shuffle is random, so the test hands the
service one stacked deck first (the only way to cause a misdeal on purpose)."""
from __future__ import annotations

from service.games import deals
from service.rules import full_deck

from .helpers import auth, create, view


def stacked_deck() -> list[str]:
    """Clubs A-T to the non-dealer (gin as dealt), the rest in order."""
    clubs = [f"{rank}C" for rank in "A23456789T"]
    rest = [str(card) for card in full_deck() if str(card) not in clubs]
    deck = []
    for index in range(52):
        deck.append(clubs.pop(0) if index < 20 and index % 2 == 0 else rest.pop(0))
    return deck


def test_a_misdeal_is_dealt_again_and_play_goes_on(client, monkeypatch):
    real = deals.shuffled_deck
    decks = iter([stacked_deck()])
    monkeypatch.setattr(deals, "shuffled_deck", lambda: next(decks, None) or real())
    created = create(client, rules={"preset": "wikipedia"})
    joined = client.post(f"/games/{created['game_id']}/join", json={"invite_code": created["invite_code"], "name": "Bob"})
    assert joined.status_code == 201, joined.get_json()
    game = {"id": created["game_id"], "tokens": {0: created["token"], 1: joined.get_json()["token"]}}
    seen = view(client, game, 0)
    assert seen["hand_number"] == 2 and seen["phase"] == "upcard_offer" and seen["to_move"] is not None
    assert [deal["hand"] for deal in seen["revealed_deals"]] == [1]  # the misdealt deck, open to check
    assert seen["revealed_deals"][0]["deck"] == stacked_deck()
    events = client.get(f"/games/{game['id']}/events", headers=auth(game["tokens"][1])).get_json()["events"]
    assert [e["type"] for e in events][:3] == ["deal", "hand_void", "deal"]
    assert "misdeal" in str(events[1])
    moved = client.post(f"/games/{game['id']}/actions", json={"type": "pass"},
                        headers=auth(game["tokens"][seen["to_move"]]))
    assert moved.status_code == 200
