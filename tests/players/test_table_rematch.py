"""Tables between players (issue 15 at issue 14's tables): a table created and joined with player
tokens binds every seat; its players' streams hear the table's moves as each seat may see them;
when it is over any seat offers a rematch, every other seat must accept (202 until the last does),
the new table keeps every player in their seat; one decline ends it for all."""
from __future__ import annotations

import pytest

from ..api.helpers import auth, cards_in, stored_game
from ..api.table_helpers import board_secrets, mover_and_action
from .support import accepted_game, events_of, new_player, play_one
from .test_players import count

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eli", "Flo"]


def players_table(client, seats: int, rules: dict | None = None) -> tuple[list[dict], dict]:
    """Players in seats 0.. of a table made with POST /me/games and joined by player token."""
    players = [new_player(client, name) for name in NAMES[:seats]]
    made = client.post("/me/games", json={"seats": seats, "rules": rules or {"target": 25}, "move_time_hours": 24},
                       headers=auth(players[0]["token"]))
    assert made.status_code == 201, made.get_json()
    made = made.get_json()
    assert [i["seat"] for i in made["invites"]] == list(range(1, seats)) and made["game"]["format"]
    for invite in reversed(made["invites"]):  # the seat is the code's, whatever the order of joining
        joined = client.post(f"/me/games/{made['game_id']}/join", json={"invite_code": invite["invite_code"]},
                             headers=auth(players[invite["seat"]]["token"]))
        assert joined.status_code == 201 and joined.get_json()["seat"] == invite["seat"], joined.get_json()
    assert joined.get_json()["game"]["status"] == "active" and joined.get_json()["game"]["seats"] == seats
    return players, {"id": made["game_id"], "tokens": {s: p["token"] for s, p in enumerate(players)}}


def view(client, game_id: str, player: dict) -> dict:
    answer = client.get(f"/games/{game_id}", headers=auth(player["token"]))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def resign(client, game_id: str, player: dict) -> None:
    answer = client.post(f"/games/{game_id}/actions", json={"type": "resign"}, headers=auth(player["token"]))
    assert answer.status_code == 200 and answer.get_json()["status"] == "finished", answer.get_json()


def kinds(app, player: dict) -> list[str]:
    return [e["type"] for e in events_of(app, player)]


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_table_rematch_accepted_by_every_seat_makes_the_table_again(client, app, seats):
    players, old = players_table(client, seats)
    for player in players:
        assert kinds(app, player).count("game_started") == 1
    resign(client, old["id"], players[1])
    early = client.post(f"/challenges/{'x' * 22}/accept", headers=auth(players[0]["token"]))
    assert early.status_code == 404
    offer = client.post(f"/games/{old['id']}/rematch", headers=auth(players[2]["token"]))  # any seat offers
    assert offer.status_code == 201, offer.get_json()
    offer = offer.get_json()
    assert offer["to"] is None and offer["from"] == "Cy" and offer["move_time_hours"] == 24
    assert offer["seats"] == [{"seat": s, "player": NAMES[s], "answer": "offered" if s == 2 else "pending"}
                              for s in range(seats)]
    others = [p for s, p in enumerate(players) if s != 2]
    for player in others:
        assert kinds(app, player)[-1] == "rematch_offered"
        listed = client.get("/challenges", headers=auth(player["token"])).get_json()
        assert [c["challenge_id"] for c in listed["to_me"]] == [offer["challenge_id"]] and listed["open"] == []
    # A player of no seat neither sees nor answers it; the offerer does not accept their own.
    stranger = new_player(client, "Zoe")
    assert client.get("/challenges", headers=auth(stranger["token"])).get_json()["open"] == []
    for who, code in ((stranger, "challenge-not-found"), (players[2], "challenge-to-self")):
        refused = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(who["token"]))
        assert refused.get_json()["code"] == code
    # Every seat but the last: 202, the acceptance noted, no game yet (twice is harmless).
    games = count(app, "games")
    for player in others[:-1] + [others[0]]:
        waiting = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(player["token"]))
        assert waiting.status_code == 202, waiting.get_json()
        assert waiting.get_json()["status"] == "pending" and waiting.get_json()["game_id"] is None
        answers = {s["seat"]: s["answer"] for s in waiting.get_json()["seats"]}
        assert answers[players.index(player)] == "accepted"
    assert count(app, "games") == games and answers[players.index(others[-1])] == "pending"
    last = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(others[-1]["token"]))
    assert last.status_code == 201, last.get_json()
    made = last.get_json()
    new_id = made["game_id"]
    assert made["seat"] == players.index(others[-1]) and made["challenge"]["status"] == "accepted"
    assert made["game"]["format"] == ("rotation" if seats == 3 else "partnership")
    assert made["game"]["status"] == "active" and count(app, "games") == games + 1
    # The same rules, move time and seats (so the partnerships kept); every seat bound to its player.
    assert stored_game(app, new_id).rules == stored_game(app, old["id"]).rules
    for seat, player in enumerate(players):
        mine = view(client, new_id, player)
        assert mine["seat"] == seat and [p["name"] for p in mine["players"]] == NAMES[:seats]
        assert mine["my_board"] is not None or seat == mine.get("sitting_out")
        assert kinds(app, player).count("game_started") == 2
        if player is not others[-1]:
            assert "challenge_accepted" in kinds(app, player)
        started = [e for e in events_of(app, player) if e["type"] == "game_started"][-1]
        assert started["game_id"] == new_id and started["players"] == NAMES[:seats]
        mine_listed = client.get("/me/games", headers=auth(player["token"])).get_json()["games"]
        assert {g["game_id"]: g["seat"] for g in mine_listed} == {old["id"]: seat, new_id: seat}
    links = client.get(f"/games/{old['id']}/rematch", headers=auth(players[3 % seats]["token"])).get_json()
    assert links["rematch"]["game_id"] == new_id and links["rematch"]["status"] == "accepted"
    assert client.get(f"/games/{new_id}/rematch", headers=auth(players[0]["token"])).get_json()["rematch_of"] \
        == old["id"]
    again = client.post(f"/games/{old['id']}/rematch", headers=auth(players[0]["token"]))
    assert again.status_code == 409 and again.get_json()["code"] == "rematch-unavailable"


def test_one_decline_ends_a_table_rematch_for_every_seat(client, app):
    players, old = players_table(client, 4)
    resign(client, old["id"], players[0])
    offer = client.post(f"/games/{old['id']}/rematch", headers=auth(players[0]["token"])).get_json()
    assert client.post(f"/challenges/{offer['challenge_id']}/accept",
                       headers=auth(players[1]["token"])).status_code == 202
    games = count(app, "games")
    declined = client.post(f"/challenges/{offer['challenge_id']}/decline", json={"reason": "busy"},
                           headers=auth(players[3]["token"]))
    assert declined.status_code == 200 and declined.get_json()["status"] == "declined"
    for player in players[:3]:  # the offerer, the one who accepted and the one yet to answer
        told = [e for e in events_of(app, player) if e["type"] == "challenge_declined"]
        assert [(e["by"], e["reason"], e["rematch_of"]) for e in told] == [("Dee", "busy", old["id"])]
    late = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(players[2]["token"]))
    assert late.status_code == 409 and late.get_json()["code"] == "challenge-closed"
    assert count(app, "games") == games
    assert client.get("/challenges", headers=auth(players[2]["token"])).get_json()["to_me"] == []


def test_a_table_rematch_refusals_change_nothing(client, app):
    players, old = players_table(client, 3)
    early = client.post(f"/games/{old['id']}/rematch", headers=auth(players[1]["token"]))
    assert early.status_code == 409 and early.get_json()["code"] == "rematch-unavailable"
    resign(client, old["id"], players[2])
    offer = client.post(f"/games/{old['id']}/rematch", headers=auth(players[1]["token"])).get_json()
    stranger = new_player(client, "Eve")
    for who, body, code in ((stranger, {"reason": "busy"}, "challenge-not-found"),
                            (players[0], {"reason": "bored"}, "validation-error")):
        refused = client.post(f"/challenges/{offer['challenge_id']}/decline", json=body, headers=auth(who["token"]))
        assert refused.status_code in (404, 422) and refused.get_json()["code"] == code
    cancelled = client.post(f"/challenges/{offer['challenge_id']}/cancel", headers=auth(players[1]["token"]))
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"
    for player in (players[0], players[2]):
        assert kinds(app, player)[-1] == "challenge_cancelled"
    # A table with a seat no player holds offers no rematch.
    ann = new_player(client, "Fay")
    made = client.post("/me/games", json={"seats": 3}, headers=auth(ann["token"])).get_json()
    tokens = {0: ann["token"]}
    for invite in made["invites"]:
        joined = client.post(f"/games/{made['game_id']}/join", json={"invite_code": invite["invite_code"],
                                                                       "name": f"P{invite['seat']}"}).get_json()
        tokens[invite["seat"]] = joined["token"]
    client.post(f"/games/{made['game_id']}/actions", json={"type": "resign"}, headers=auth(tokens[1]))
    refused = client.post(f"/games/{made['game_id']}/rematch", headers=auth(ann["token"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "rematch-unavailable"


def test_a_tables_stream_shows_each_player_only_what_their_seat_may_see(client, app):
    players, game = players_table(client, 4, rules={"target": 100})
    seen = {s: len(events_of(app, p)) for s, p in enumerate(players)}
    for _ in range(60):
        views = {s: view(client, game["id"], p) for s, p in enumerate(players)}
        seat, action = mover_and_action(views)
        answer = client.post(f"/games/{game['id']}/actions", json=action, headers=auth(players[seat]["token"]))
        assert answer.status_code == 200, answer.get_json()
        state = stored_game(app, game["id"]).state
        for watcher, player in enumerate(players):
            new = events_of(app, player)[seen[watcher]:]
            seen[watcher] += len(new)
            for event in new:
                moved = event.get("events", []) if event["type"] == "opponent_moved" else []
                for item in moved:
                    if "board" in item and item["hand"] in {d for d in state["board_hands"] if d}:
                        leaked = cards_in(item) & board_secrets(state, watcher, item["board"])
                        assert not leaked, (watcher, item)
                if event["type"] == "your_turn":
                    assert watcher in event["view"]["to_move"]
    turns = [e for e in events_of(app, players[3]) if e["type"] == "your_turn"]
    assert turns, "a seat of the second board hears its turns too"


def test_a_table_rematch_expires_as_a_two_seat_one_does(client, app):
    from datetime import datetime, timedelta, timezone

    from service.core.extensions import db
    from service.players.models import Challenge
    players, old = players_table(client, 3)
    resign(client, old["id"], players[0])
    offer = client.post(f"/games/{old['id']}/rematch", headers=auth(players[0]["token"])).get_json()
    assert client.post(f"/challenges/{offer['challenge_id']}/accept",
                       headers=auth(players[1]["token"])).status_code == 202
    with app.app_context():
        db.session.get(Challenge, offer["challenge_id"]).expires_at = datetime.now(timezone.utc) - timedelta(minutes=1)
        db.session.commit()
    games = count(app, "games")
    late = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(players[2]["token"]))
    assert late.status_code == 410 and late.get_json()["code"] == "challenge-expired"
    assert count(app, "games") == games
    listed = client.get(f"/games/{old['id']}/rematch", headers=auth(players[2]["token"])).get_json()
    assert listed["rematch"]["status"] == "expired" and listed["rematch"]["game_id"] is None


@pytest.mark.parametrize("seats", [3, 4])
def test_my_games_at_a_table_shows_every_mover_its_turn_first_and_its_board_opponent(client, seats):
    """/me/games at a table: `your_turn` for every seat to move (one per board, not only the one
    the games row names), such a table listed before the player's other active games, `opponent`
    the seat on the player's board now (all null while sitting out), `seats` the table's size."""
    players, table = players_table(client, seats)
    others = {}
    for seat, player in enumerate(players):  # each player also has a two-seat game where it waits
        other = accepted_game(client, player, new_player(client, f"Rival{seat}"))
        while client.get(f"/games/{other['id']}", headers=auth(player["token"])).get_json()["to_move"] == \
                other["seats"][player["name"]]:
            play_one(client, other)
        others[seat] = other["id"]
    movers = view(client, table["id"], players[0])["to_move"]
    assert len(movers) == (1 if seats == 3 else 2)
    for seat, player in enumerate(players):
        listed = client.get("/me/games", headers=auth(player["token"])).get_json()["games"]
        mine, other = ({g["game_id"]: g for g in listed}[game] for game in (table["id"], others[seat]))
        assert mine["seat"] == seat and mine["seats"] == seats and other["seats"] == 2
        assert mine["your_turn"] is (seat in movers) and other["your_turn"] is False
        if seat in movers:  # its turn first
            assert listed[0]["game_id"] == table["id"]
        board = view(client, table["id"], player)["my_board"]
        facing = next(s for s in board["seats"] if s != seat) if board else None
        expected = {"name": NAMES[facing], "player": NAMES[facing], "bot": False} if board else \
            {"name": None, "player": None, "bot": None}
        assert mine["opponent"] == expected
        assert other["opponent"]["name"] == f"Rival{seat}"
