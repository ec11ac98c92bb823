"""One path makes every move (issue 23): a move in a game with a seat's contact, in a game between
two players' accounts, in a game of a series and at a table of four is recorded by the same
function as a plain move (games.moves.record, once per move), in few statements: the plain move's
(test_move_statements.py) plus what the change hooks that have work write (an outbox row, a
player's stream event). Moves by mail take the same function too (tests/notify/test_inbound.py
makes one die inside it). Counted on both databases."""
from __future__ import annotations

from collections import defaultdict

import pytest

from service.games import moves

from ..players.support import accepted_game, new_player
from .helpers import act, auth, choose, create, mover, new_game
from .table_helpers import mover_and_action, start_table
from .test_move_statements import counting

# The most statements a draw or a discard took when the paths became one (SQLite / PostgreSQL: plain
# 5 / 3, contact 9 / 10, players and series 17 / 20, a table of four 16 / 19: a move that hands the
# table's turn to another seat also updates the game's clock, one statement more; the two paths
# before took the same for plain, players and series, 11 / 13 with a contact and 19 / 22 at a table).
MOST = {"plain": 5, "contact": 10, "players": 20, "series": 20, "table of four": 19}


@pytest.fixture
def recorded(monkeypatch):
    """Every call of the move path's one recording function."""
    calls = []
    real = moves.record

    def record(*args, **kwargs):
        calls.append(args[3])  # the actor
        return real(*args, **kwargs)
    monkeypatch.setattr(moves, "record", record)
    return calls


def contact_game(client) -> dict:
    created = client.post("/games", json={"name": "Ann", "email": "ann@example.org"}).get_json()
    joined = client.post(f"/games/{created['game_id']}/join", json={
        "invite_code": created["invite_code"], "name": "Bob", "email": "bob@example.org"}).get_json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]}}


def players_game(client) -> dict:
    game = accepted_game(client, new_player(client, "Ann"), new_player(client, "Bob"))
    return {"id": game["id"], "tokens": game["tokens"]}


def series_game(client) -> dict:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    offer = client.post("/series", json={"to": "Bob", "kind": "best_of", "matches": 3},
                        headers=auth(ann["token"])).get_json()
    accepted = client.post(f"/series/{offer['series_id']}/accept", headers=auth(bob["token"]))
    assert accepted.status_code == 201, accepted.get_json()
    series = client.get(f"/series/{offer['series_id']}", headers=auth(ann["token"])).get_json()
    [entry] = [g for g in series["games"] if g["game_id"] == series["current_game"]]
    tokens = {seat: {"Ann": ann, "Bob": bob}[name]["token"] for seat, name in enumerate(entry["seating"])}
    return {"id": series["current_game"], "tokens": tokens}


GAMES = {"plain": new_game, "contact": contact_game, "players": players_game, "series": series_game}


def two_seat_moves(client, app, game, count: int) -> dict[str, list[int]]:
    by_type = defaultdict(list)
    for _ in range(count):
        seat, mine = mover(client, game)
        action = choose(mine)
        with counting(app) as statements:
            response = act(client, game, seat, action)
        assert response.status_code == 200, response.get_json()
        ended = response.get_json()["hand_number"] != mine["hand_number"]
        by_type[action["type"] + (" ending the hand" if ended else "")].append(len(statements))
    return by_type


@pytest.mark.parametrize("kind", GAMES)
def test_every_two_seat_move_takes_the_one_path_in_few_statements(client, app, recorded, kind):
    game = GAMES[kind](client)
    assert None in recorded  # the join that dealt the first hand took it too
    recorded.clear()
    counts = two_seat_moves(client, app, game, 24)
    assert len(recorded) == 24 and set(recorded) <= {0, 1}, recorded  # once per move, by its seat
    assert counts["draw"] and counts["discard"], counts
    assert max(counts["draw"] + counts["discard"]) <= MOST[kind], counts


def test_every_move_at_a_table_takes_the_one_path_in_few_statements(client, app, recorded):
    def post(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.get_json()
    table = start_table(post, 4, {"target": 1000})  # no quick gin ends the match
    assert recorded == [None], recorded  # the last join dealt the first hands: the same function
    recorded.clear()
    counts = defaultdict(list)
    for _ in range(16):
        views = {seat: client.get(f"/games/{table['id']}", headers=auth(token)).get_json()
                 for seat, token in table["tokens"].items()}
        seat, action = mover_and_action(views)
        with counting(app) as statements:
            response = client.post(f"/games/{table['id']}/actions", json=action, headers=auth(table["tokens"][seat]))
        assert response.status_code == 200, response.get_json()
        counts[action["type"]].append(len(statements))
    assert len(recorded) == 16, recorded
    assert max(counts["draw"] + counts["discard"]) <= MOST["table of four"], counts


def test_the_join_that_deals_takes_the_one_path(client, recorded):
    created = create(client)
    assert recorded == []
    response = client.post(f"/games/{created['game_id']}/join", json={"invite_code": created["invite_code"],
                                                                        "name": "Bob"})
    assert response.status_code == 201 and response.get_json()["game"]["hand_number"] == 1
    assert recorded == [None]  # no actor: the deal, recorded by the move path
