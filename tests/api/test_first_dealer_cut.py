"""The first dealer by the cut through the HTTP API (issue 25, finding 14): the cards come from the
shuffle the deals use, are recorded as events and in both seats' views, and decide the dealer as
001 (the lower card deals) or 002 (the higher card chooses) says; a cut game replays."""
from __future__ import annotations

from service.games import deals
from service.rules import full_deck

from .helpers import act, auth, create, new_game, stored_game, view
from .test_replay import play_out
from .test_text_options import rules_choice

RANKS = "A23456789TJQK"


def events(client, game, seat) -> list[dict]:
    return client.get(f"/games/{game['id']}/events", headers=auth(game["tokens"][seat])).get_json()["events"]


def pack_with(first: str, second: str) -> list[str]:
    """A shuffled pack's order with these two cards on top (the cut draws the top two)."""
    return [first, second] + [str(c) for c in full_deck() if str(c) not in (first, second)]


def test_the_cut_is_offered_in_the_contract(client):
    assert rules_choice(client)["first_dealer_by"]["enum"] == ["random", "cut_lower_deals", "cut_higher_chooses"]


def test_001_the_lower_card_deals_from_the_deals_own_shuffle(client, app):
    game = new_game(client, rules={"preset": "pagat_variations"})
    seen = [view(client, game, seat) for seat in (0, 1)]
    [cut] = seen[0]["cuts"][-1:]
    assert seen[0]["cuts"] == seen[1]["cuts"] and cut["0"] != cut["1"]  # both seats see the same cut
    low, high = sorted((0, 1), key=lambda seat: RANKS.index(cut[str(seat)][0]))
    assert seen[0]["dealer"] == low and seen[0]["hand_number"] == 1 and len(seen[0]["hand"]) == 10
    assert stored_game(app, game["id"]).first_dealer == low
    history = events(client, game, 1)
    kinds = [e["type"] for e in history]
    assert kinds[:len(seen[0]["cuts"])] == ["cut"] * len(seen[0]["cuts"]) and "deal" in kinds
    assert history[len(seen[0]["cuts"]) - 1]["cards"] == cut and history[len(seen[0]["cuts"]) - 1]["dealer"] == low
    assert all(e["outcome"] == "tie" for e in history[:len(seen[0]["cuts"]) - 1])


def test_001_a_tie_is_cut_again(client, monkeypatch):
    # The only way to make the shuffle give two cards of one rank on purpose: stack its first packs.
    real = deals.shuffled_deck
    packs = iter([pack_with("7H", "7C"), pack_with("9D", "2C")])
    monkeypatch.setattr(deals, "shuffled_deck", lambda: next(packs, None) or real())
    game = new_game(client, rules={"preset": "pagat_variations"})
    seen = view(client, game, 0)
    assert seen["cuts"] == [{"0": "7H", "1": "7C"}, {"0": "9D", "1": "2C"}] and seen["dealer"] == 1
    cuts = [e for e in events(client, game, 0) if e["type"] == "cut"]
    assert [(e["outcome"], e["dealer"]) for e in cuts] == [("tie", None), ("deals", 1)]


def test_002_the_higher_card_chooses_who_deals(client, monkeypatch):
    real = deals.shuffled_deck
    packs = iter([pack_with("QH", "QS")])  # one rank: spades beat hearts, so seat 1 chooses
    monkeypatch.setattr(deals, "shuffled_deck", lambda: next(packs, None) or real())
    game = new_game(client, rules={"preset": "poker_tj", "first_dealer_by": "cut_higher_chooses"})
    chooser = view(client, game, 1)
    assert (chooser["phase"], chooser["to_move"], chooser["dealer"], chooser["hand"]) == ("dealer_choice", 1, None, [])
    assert chooser["legal_actions"] == [{"type": "choose_dealer", "deal": True}, {"type": "choose_dealer", "deal": False}]
    assert view(client, game, 0)["cuts"] == [{"0": "QH", "1": "QS"}]
    refused = act(client, game, 0, {"type": "choose_dealer", "deal": True})
    assert refused.status_code == 409 and refused.get_json()["code"] == "not-your-turn"
    malformed = act(client, game, 1, {"type": "choose_dealer", "deal": "yes"})
    assert malformed.status_code == 400 and malformed.get_json()["code"] == "invalid-action"
    chosen = act(client, game, 1, {"type": "choose_dealer", "deal": False})
    assert chosen.status_code == 200, chosen.get_json()
    after = chosen.get_json()
    assert (after["dealer"], after["hand_number"], after["phase"], after["to_move"]) == (0, 1, "upcard_offer", 1)
    kinds = [e["type"] for e in events(client, game, 0)]
    assert kinds[:3] == ["cut", "choose_dealer", "deal"]


def test_a_cut_game_replays_from_its_cut(client):
    game = new_game(client, rules={"preset": "poker_tj", "first_dealer_by": "cut_higher_chooses", "target": 10})
    play_out(client, game)
    body = client.get(f"/games/{game['id']}/replay", headers=auth(game["tokens"][0]))
    assert body.status_code == 200, body.get_json()
    steps = body.get_json()["steps"]
    assert steps[0]["events"][0]["type"] == "cut" and steps[1]["action"]["type"] == "choose_dealer"


def test_a_table_refuses_the_cut_naming_the_option(client):
    response = client.post("/games", json={"name": "Ann", "seats": 4, "rules": {"first_dealer_by": "cut_lower_deals"}})
    assert response.status_code == 422 and response.get_json()["option"] == "first_dealer_by"
    assert create(client, rules={"first_dealer_by": "cut_lower_deals"})["game"]["dealer"] is None
