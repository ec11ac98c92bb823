"""A whole match through the HTTP API, from both seats, checking after every answer that no seat
is shown a card it may not see; then the fair-deal commitments are checked and the match replayed."""
from __future__ import annotations

import hashlib

from service.rules import Match, Rules, full_deck

from .helpers import (act, assert_hides_secrets, auth, cards_in, choose, new_game, replay, secret_cards,
                      stored_game, view)


def fetch_events(client, game, seat, after=0, limit=100) -> list[dict]:
    events = []
    while True:
        response = client.get(f"/games/{game['id']}/events?after={after}&limit={limit}",
                              headers=auth(game["tokens"][seat]))
        assert response.status_code == 200, response.get_json()
        page = response.get_json()
        events += page["events"]
        if page["next_after"] is None:
            return events
        after = page["next_after"]


def play_to_the_end(client, app, game, limit=2000):
    """Play with `choose` from both seats; check every answer and every new event."""
    posted, commitments, cursors = [], {}, {0: 0, 1: 0}
    current = view(client, game, 0)
    for _ in range(limit):
        state = stored_game(app, game["id"]).state
        for seat in (0, 1):
            seen = current if current["seat"] == seat else view(client, game, seat)
            assert_hides_secrets(seen, state, seat)
            commitments.setdefault(seen["hand_number"], seen["deal_commitment"])
            assert commitments[seen["hand_number"]] == seen["deal_commitment"]
            new = fetch_events(client, game, seat, after=cursors[seat])
            cursors[seat] = new[-1]["seq"] if new else cursors[seat]
            if state["phase"] != "match_over":
                current_hand = [e for e in new if e.get("hand") == state["hand_number"]]
                leaked = cards_in(current_hand) & secret_cards(state, seat)
                assert not leaked, f"seat {seat}'s events show {sorted(leaked)}"
            if seen["to_move"] == seat:
                mover_view = seen
        if state["phase"] == "match_over":
            return posted, commitments
        action = choose(mover_view)
        response = act(client, game, mover_view["seat"], action)
        assert response.status_code == 200, (action, response.get_json())
        current = response.get_json()
        posted.append((mover_view["seat"], action))
    raise AssertionError("the match did not end")


def actions_from_events(events: list[dict]) -> list[tuple[int, dict]]:
    """What an auditor reads off the fully revealed event log."""
    actions = []
    for index, event in enumerate(events):
        kind = event["type"]
        if kind in ("take_upcard", "pass", "big_gin", "resign"):
            actions.append((event["seat"], {"type": kind}))
        elif kind == "draw":
            actions.append((event["seat"], {"type": "draw", "from": event["from"]}))
        elif kind == "discard":
            actions.append((event["seat"], {"type": "discard", "card": event["card"]}))
        elif kind == "knock":
            record = next(e for e in events[index:] if e["type"] == "hand_end")["record"]
            actions.append((event["seat"], {"type": "knock", "discard": event["discard"],
                                            "melds": record["knocker_melds"]}))
    return actions


def test_a_whole_match_hides_what_it_must_and_can_be_audited(client, app):
    game = new_game(client, rules={"target": 60})
    posted, commitments = play_to_the_end(client, app, game)
    stored = stored_game(app, game["id"])
    final = view(client, game, 0)
    assert final["status"] == stored.status == "finished" and final["result"]["winner"] in (0, 1)
    assert final["legal_actions"] == []
    hands = final["hand_number"]
    # A match to 60 usually takes several hands, but one gin against a full hand can end it in one.
    assert hands >= 1 and stored.version == 2 + len(posted)  # every action moved the version once

    # Every deal is revealed once the match is over, and matches the commitment shown during play.
    decks = {}
    for deal in final["revealed_deals"]:
        recomputed = hashlib.sha256((deal["salt"] + ":" + " ".join(deal["deck"])).encode("ascii")).hexdigest()
        assert recomputed == deal["commitment"] == commitments[deal["hand"]]
        assert sorted(deal["deck"]) == sorted(str(card) for card in full_deck()) and len(deal["salt"]) == 64
        decks[deal["hand"]] = deal["deck"]
    assert sorted(decks) == list(range(1, hands + 1))

    # After the match the whole log is visible to both seats, and the same for both.
    events = {seat: fetch_events(client, game, seat, limit=7) for seat in (0, 1)}
    assert events[0] == events[1]
    deals = [e for e in events[0] if e["type"] == "deal"]
    first_dealer = deals[0]["dealer"]

    # Each revealed deck reproduces the hands that were dealt from it.
    for deal in deals:
        check = Match.new(Rules.from_dict(final["rules"]), deal["dealer"])
        check.deal(decks[deal["hand"]])
        assert deal["cards"] == {str(s): check.view(s)["hand"] for s in (0, 1)}
        assert deal["upcard"] == check.view(0)["discard_pile"][0]

    # Replaying the decks with the actions read off the log reproduces the stored match exactly.
    audited = actions_from_events(events[0])
    assert [a for _, a in audited if a["type"] != "knock"] == [a for _, a in posted if a["type"] != "knock"]
    for actions in (audited, posted):
        rebuilt = replay(final["rules"], first_dealer, decks, actions)
        assert rebuilt == Match.from_dict(stored.state)


def test_history_is_redacted_for_the_opponent_until_the_hand_ends(client, app):
    game = new_game(client)
    seat = game["view"]["to_move"]
    assert act(client, game, seat, {"type": "pass"}).status_code == 200
    assert act(client, game, 1 - seat, {"type": "pass"}).status_code == 200
    response = act(client, game, seat, {"type": "draw", "from": "stock"})
    mine = fetch_events(client, game, seat)[-1]
    theirs = fetch_events(client, game, 1 - seat)[-1]
    assert mine["type"] == theirs["type"] == "draw" and mine["seat"] == seat
    assert mine["card"] in response.get_json()["hand"]
    assert "card" not in theirs and theirs["from"] == "stock"
    own_deal = fetch_events(client, game, 1 - seat)[0]
    assert list(own_deal["cards"]) == [str(1 - seat)]  # only its own dealt cards
    # The hand ends (a resignation here): now both see the draw's card and both dealt hands.
    assert act(client, game, seat, {"type": "resign"}).status_code == 200
    theirs = [e for e in fetch_events(client, game, 1 - seat) if e["type"] == "draw"][-1]
    assert theirs["card"] == mine["card"]
    assert sorted(fetch_events(client, game, 1 - seat)[0]["cards"]) == ["0", "1"]


def test_events_are_paged(client):
    game = new_game(client)
    seat = game["view"]["to_move"]
    act(client, game, seat, {"type": "pass"})
    act(client, game, 1 - seat, {"type": "pass"})
    act(client, game, seat, {"type": "draw", "from": "stock"})
    page = client.get(f"/games/{game['id']}/events?limit=2", headers=auth(game["tokens"][0])).get_json()
    assert [e["seq"] for e in page["events"]] == [1, 2] and page["next_after"] == 2
    rest = client.get(f"/games/{game['id']}/events?after=2&limit=2", headers=auth(game["tokens"][0])).get_json()
    assert [e["seq"] for e in rest["events"]] == [3, 4] and rest["next_after"] is None
    assert [e["type"] for e in page["events"] + rest["events"]] == ["deal", "pass", "pass", "draw"]
    empty = client.get(f"/games/{game['id']}/events?after=4", headers=auth(game["tokens"][0])).get_json()
    assert empty == {"events": [], "next_after": None}
    foreign = client.get(f"/games/{game['id']}/events", headers=auth("nope"))
    assert foreign.status_code == 401 and foreign.get_json()["code"] == "invalid-token"
