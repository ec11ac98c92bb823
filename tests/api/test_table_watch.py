"""Watch links at tables of three and four seats (issue 15 at issue 14's tables): a whole match
played over HTTP with a watcher reading the public view after every move, which never holds a card
of a hand in play (a board's hands and stock) nor the deck of a deal not over; links listed and
revoked as at two seats; the invitation says how many play."""
from __future__ import annotations

import pytest
import yaml

from .helpers import act, auth, cards_in, stored_game
from .table_helpers import mover_and_action, open_deals, start_table
from .test_openapi import generated, spec_app, validator_for  # noqa: F401 (fixtures)
from .test_tables import poster, views_of

SEAT_ONLY = {"seat", "side", "partners", "my_board", "legal_actions", "can_resign"}


def watch(client, game_id: str, key: str):
    return client.get(f"/games/{game_id}/public", headers=auth(key))


def hidden_on(state: dict, index: int) -> set[str]:
    """Every card of board `index`'s hand in play a watcher may not see: both hands (even a card
    taken from the pile: it is in a hand now) and the stock."""
    boards = state["table"]["boards"]
    board = boards[index] if index < len(boards) else None
    if board is None or board["match"]["phase"] in ("awaiting_deal", "match_over"):
        return set()
    match = board["match"]
    return set(match["stock"]) | set(match["hands"][0]) | set(match["hands"][1])


def assert_public(body: dict, state: dict) -> None:
    """Board by board (each board has its own deck, so a card's name is only secret on its own
    board): no hand or stock card in the board's public part; none of any board in the rest."""
    in_play = range(len(state["table"]["boards"]))
    everything = set().union(*(hidden_on(state, i) for i in in_play))
    for board in body["boards"]:
        if board is None:
            continue
        leaked = cards_in(board) & hidden_on(state, board["board"])
        assert not leaked, f"board {board['board']}'s public part shows {sorted(leaked)}"
        match = state["table"]["boards"][board["board"]]["match"]
        assert board["card_counts"] == {str(s): len(match["hands"][i]) for i, s in enumerate(board["seats"])}
    rest = {k: v for k, v in body.items() if k not in ("boards", "last_hand", "revealed_deals")}
    assert not cards_in(rest) & everything, f"the watcher was shown {sorted(cards_in(rest) & everything)}"
    open_ = open_deals(state)
    assert not open_ & {d["hand"] for d in body["revealed_deals"]}, "the deck of a deal in play was shown"
    assert body["last_hand"] is None or body["last_hand"]["hand"] not in open_


@pytest.mark.parametrize("seats, fmt", [(3, "rotation"), (4, "partnership")])
def test_a_watcher_follows_a_whole_table_match_and_never_sees_a_hand_in_play(app, client, generated, seats, fmt):
    public_views = validator_for(yaml.safe_load(generated), "PublicTableView")
    game = start_table(poster(client), seats)
    made = client.post(f"/games/{game['id']}/watch-links", json={}, headers=auth(game["tokens"][seats - 1]))
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["created_by_seat"] == seats - 1
    key, moves, piles = made.get_json()["key"], 0, 0
    for _ in range(4000):
        response = watch(client, game["id"], key)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        public_views.validate(body)
        assert body["format"] == fmt and not SEAT_ONLY & set(body)
        if body["status"] != "finished":
            assert_public(body, stored_game(app, game["id"]).state)
            piles += sum(len(board["discard_pile"]) for board in body["boards"] if board)
        views = views_of(client, game)
        # The watcher sees what every seat sees alike: each board's public part, scores, the sheet.
        assert body["boards"] == views[0]["boards"] and body["scores"] == views[0]["scores"]
        assert body["to_move"] == views[0]["to_move"] and body["version"] == views[0]["version"]
        if body["status"] == "finished":
            break
        seat, action = mover_and_action(views)
        assert act(client, game, seat, action).status_code == 200
        moves += 1
    else:
        pytest.fail("the match did not end")
    assert moves and piles, "the watcher saw no card at all: the scan proved nothing"
    assert body["result"]["reason"] == "target" and body["result"]["winner_seats"]
    assert body["scores"]["sheet"] and body["revealed_deals"] and body["last_hand"]["hands"]
    if fmt == "rotation":
        assert "sitting_out" in body
    else:
        assert body["team_size"] == 2


def test_table_watch_links_are_listed_and_revoked_by_any_seat(app, client):
    game = start_table(poster(client), 4)
    other = start_table(poster(client), 3)
    made = client.post(f"/games/{game['id']}/watch-links", json={}, headers=auth(game["tokens"][2])).get_json()
    listed = client.get(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][1])).get_json()["links"]
    assert [link["id"] for link in listed] == [made["id"]] and "key" not in listed[0]
    assert watch(client, game["id"], made["key"]).status_code == 200
    refused = watch(client, other["id"], made["key"])  # another table's key
    assert refused.status_code == 401 and refused.get_json()["code"] == "invalid-watch-key"
    revoked = client.delete(f"/games/{game['id']}/watch-links/{made['id']}", headers=auth(game["tokens"][3]))
    assert revoked.status_code == 204
    response = watch(client, game["id"], made["key"])
    assert response.status_code == 401 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "invalid-watch-key"
    assert client.get(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][0])).get_json()["links"] == []


def test_a_table_waiting_for_players_shows_the_watcher_no_board(client):
    status, created = poster(client)("/games", {"name": "Ann", "seats": 3})
    assert status == 201
    made = client.post(f"/games/{created['game_id']}/watch-links", json={}, headers=auth(created["token"]))
    body = watch(client, created["game_id"], made.get_json()["key"]).get_json()
    assert body["status"] == "waiting_for_opponent" and body["seats"] == 3
    assert [p["name"] for p in body["players"]] == ["Ann", None, None]
    assert all(board is None or board["discard_pile"] == [] for board in body["boards"])


@pytest.mark.parametrize("seats, fmt", [(2, None), (3, "rotation"), (4, "partnership")])
def test_the_invitation_says_how_many_play_and_which_seat_it_opens(client, seats, fmt):
    status, created = poster(client)("/games", {"name": "Ann", "seats": seats})
    assert status == 201
    invites = created.get("invites") or [{"seat": 1, "invite_code": created["invite_code"]}]
    for invite in invites:
        read = client.post(f"/games/{created['game_id']}/invitation", json={"invite_code": invite["invite_code"]})
        assert read.status_code == 200, read.get_json()
        body = read.get_json()
        assert (body["seats"], body["format"], body["seat"], body["inviter"]) == (seats, fmt, invite["seat"], "Ann")
