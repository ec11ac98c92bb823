"""Messages in a game, blocks and reports (issue 26): messages through the API and the streams'
stored events, markup kept as text, the rate limit per seat, a blocked player's challenges refused as
an unknown name's and its messages hidden, open challenges between them hidden, reports filed, and
every bad input answered with a problem that changes nothing."""
from __future__ import annotations

import pytest

from ..api.helpers import auth, new_game
from .support import accepted_game, challenge, events_of, new_player
from .test_players import count


def say(client, game_id: str, token: str, text, status: int = 201) -> dict:
    response = client.post(f"/games/{game_id}/messages", json={"text": text}, headers=auth(token))
    assert response.status_code == status, response.get_json()
    return response.get_json()


def listed(client, game_id: str, token: str, **query) -> list[dict]:
    response = client.get(f"/games/{game_id}/messages", query_string=query, headers=auth(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()["messages"]


@pytest.fixture
def players_game(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    return ann, bob, accepted_game(client, ann, bob)


def test_a_seat_writes_and_both_seats_read_it_as_sent(client, players_game):
    ann, bob, game = players_game
    written = say(client, game["id"], ann["token"], "  Good luck <b>Bob</b> & see https://x.example  ")
    assert written["text"] == "Good luck <b>Bob</b> & see https://x.example"  # kept as sent, only trimmed
    assert (written["seat"], written["name"]) == (game["seats"]["Ann"], "Ann")
    for token in (ann["token"], bob["token"]):
        assert [m["text"] for m in listed(client, game["id"], token)] == [written["text"]]
    # Each player's stream tells the message, on the seat it holds.
    told = [e for e in events_of(client.application, bob) if e["type"] == "message"]
    assert [(e["seat"], e["message"]["text"]) for e in told] == [(game["seats"]["Bob"], written["text"])]


def test_messages_page_by_after_and_a_watcher_or_stranger_reads_none(client, players_game):
    ann, bob, game = players_game
    ids = [say(client, game["id"], ann["token"] if n % 2 else bob["token"], f"line {n}")["id"] for n in range(5)]
    first = client.get(f"/games/{game['id']}/messages", query_string={"limit": 2},
                       headers=auth(ann["token"])).get_json()
    assert [m["id"] for m in first["messages"]] == ids[:2] and first["next_after"] == ids[1]
    assert [m["id"] for m in listed(client, game["id"], ann["token"], after=ids[1])] == ids[2:]
    other = new_game(client, names=("Cy", "Dee"))  # a seat of another game opens nothing here
    response = client.get(f"/games/{game['id']}/messages", headers=auth(other["tokens"][0]))
    assert response.status_code == 401 and response.get_json()["code"] == "invalid-token"
    assert client.get(f"/games/{game['id']}/messages").status_code == 401
    # A watcher never reads them: a watch key opens the public view, not the messages.
    key = client.post(f"/games/{game['id']}/watch-links", headers=auth(ann["token"])).get_json()["key"]
    assert client.get(f"/games/{game['id']}/public", headers=auth(key)).status_code == 200
    assert "line 0" not in client.get(f"/games/{game['id']}/public", headers=auth(key)).get_data(as_text=True)
    assert client.get(f"/games/{game['id']}/messages", headers=auth(key)).status_code == 401


def test_an_anonymous_two_seat_game_has_messages_too(client):
    game = new_game(client)
    say(client, game["id"], game["tokens"][0], "hello")
    assert [m["name"] for m in listed(client, game["id"], game["tokens"][1])] == ["Ann"]


@pytest.mark.parametrize("body, code", [
    ({"text": ""}, "message-empty"),
    ({"text": "   "}, "message-empty"),
    ({"text": "x" * 501}, "message-too-long"),
    ({"text": "x" * 500 + " "}, "message-too-long"),  # judged as sent
    ({"text": "\thi"}, "message-not-plain"),
    ({"text": "two\nlines"}, "message-not-plain"),
    ({"text": "bell\x07"}, "message-not-plain"),
    ({"text": "\u202eevil"}, "message-not-plain"),
    ({"text": 7}, "validation-error"),
    ({}, "validation-error"),
    ({"text": "hi", "to": "Bob"}, "validation-error"),
])
def test_a_bad_message_is_a_problem_that_stores_nothing(client, players_game, body, code):
    ann, _, game = players_game
    response = client.post(f"/games/{game['id']}/messages", json=body, headers=auth(ann["token"]))
    assert response.status_code == 422 and response.get_json()["code"] == code
    assert count(client.application, "game_messages") == 0


def test_five_hundred_characters_are_taken(client, players_game):
    ann, _, game = players_game
    assert len(say(client, game["id"], ann["token"], "é" * 500)["text"]) == 500


def test_a_seat_past_its_rate_is_refused_and_the_other_seat_still_writes(client, players_game, monkeypatch):
    ann, bob, game = players_game
    monkeypatch.setitem(client.application.config, "MESSAGES_PER_SEAT", "3 per hour")
    for n in range(3):
        say(client, game["id"], ann["token"], f"spam {n}")
    refused = client.post(f"/games/{game['id']}/messages", json={"text": "one more"}, headers=auth(ann["token"]))
    assert refused.status_code == 429 and refused.get_json()["code"] == "too-many-messages"
    assert refused.headers["Retry-After"] == "3600"
    say(client, game["id"], bob["token"], "my turn to talk")
    assert count(client.application, "game_messages") == 4


def test_a_blocked_players_messages_are_hidden_from_the_blocker_only(client, players_game):
    ann, bob, game = players_game
    assert client.put("/me/blocks/bob", headers=auth(ann["token"])).get_json()["name"] == "Bob"
    said = say(client, game["id"], bob["token"], "you will never read this")  # Bob is not told
    say(client, game["id"], ann["token"], "hello?")
    assert [m["text"] for m in listed(client, game["id"], ann["token"])] == ["hello?"]
    assert [m["text"] for m in listed(client, game["id"], bob["token"])] == [said["text"], "hello?"]
    assert not [e for e in events_of(client.application, ann) if e["type"] == "message"
                and e["message"]["seat"] == said["seat"]]
    # Unblocked, the older messages show again.
    assert client.delete("/me/blocks/Bob", headers=auth(ann["token"])).status_code == 204
    assert [m["text"] for m in listed(client, game["id"], ann["token"])] == [said["text"], "hello?"]


def test_blocks_are_listed_and_bad_names_change_nothing(client):
    ann, _ = new_player(client, "Ann"), new_player(client, "Bob")
    for _ in range(2):  # twice: the same one block
        assert client.put("/me/blocks/Bob", headers=auth(ann["token"])).status_code == 200
    assert [b["name"] for b in client.get("/me/blocks", headers=auth(ann["token"])).get_json()["blocks"]] == ["Bob"]
    for method, name, status, code in (("put", "Nobody", 404, "player-not-found"), ("put", "ann", 422, "block-self"),
                                       ("put", "B%00b", 404, "player-not-found"),
                                       ("delete", "Nobody", 404, "player-not-found")):
        response = getattr(client, method)(f"/me/blocks/{name}", headers=auth(ann["token"]))
        assert (response.status_code, response.get_json()["code"]) == (status, code)
    assert client.put("/me/blocks/Bob").status_code == 401
    assert count(client.application, "blocks") == 1


def test_a_blocked_players_challenge_is_declined_as_the_blocker_would_decline_it(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    client.put("/me/blocks/Bob", headers=auth(ann["token"]))
    blocked = client.post("/challenges", json={"to": "Ann"}, headers=auth(bob["token"]))
    # Something true that tells no block: Ann does not play Bob. Not "no player is called Ann",
    # which her profile would belie.
    assert blocked.status_code == 201, blocked.get_json()
    answer = blocked.get_json()
    assert (answer["status"], answer["reason"], answer["to"]) == ("declined", "other", "Ann")
    assert "block" not in blocked.get_data(as_text=True).lower()
    told = [e for e in events_of(client.application, bob) if e["type"] == "challenge_declined"]
    assert [(e["by"], e["reason"]) for e in told] == [("Ann", "other")]
    # Ann is never shown it.
    assert client.get("/challenges", headers=auth(ann["token"])).get_json()["to_me"] == []
    assert not [e for e in events_of(client.application, ann) if e["type"] == "challenge_received"]
    unknown = client.post("/challenges", json={"to": "Zed"}, headers=auth(bob["token"]))
    assert (unknown.status_code, unknown.get_json()["code"]) == (422, "unknown-player")
    # Ann may still challenge Bob (she knows she blocked him).
    challenge(client, ann, "Bob")


def test_a_blocked_player_cannot_offer_the_blocker_a_rematch(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    resigned = client.post(f"/games/{game['id']}/actions", json={"type": "resign"}, headers=auth(bob["token"]))
    assert resigned.status_code == 200 and resigned.get_json()["status"] == "finished"
    client.put("/me/blocks/Bob", headers=auth(ann["token"]))
    refused = client.post(f"/games/{game['id']}/rematch", headers=auth(bob["token"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "rematch-unavailable", refused.get_json()
    assert "block" not in refused.get_json()["detail"]  # never told
    assert count(client.application, "challenges") == 1  # the first one only
    # Ann may (she knows she blocked him), as she may challenge him.
    assert client.post(f"/games/{game['id']}/rematch", headers=auth(ann["token"])).status_code == 201


def test_blocked_players_never_meet_in_open_challenges(client):
    ann, bob, cid = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Cid")
    client.put("/me/blocks/Bob", headers=auth(ann["token"]))
    from_bob, from_ann = challenge(client, bob, None), challenge(client, ann, None)

    def open_ids(player):
        return {c["challenge_id"] for c in client.get("/challenges", headers=auth(player["token"])).get_json()["open"]}
    assert open_ids(ann) == set() and open_ids(bob) == set()  # neither sees the other's
    assert open_ids(cid) == {from_bob["challenge_id"], from_ann["challenge_id"]}
    for player, offer in ((ann, from_bob), (bob, from_ann)):
        refused = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(player["token"]))
        assert refused.status_code == 404 and refused.get_json()["code"] == "challenge-not-found"
    assert count(client.application, "games") == 0


def test_a_seat_reports_a_message_and_a_player_reports_a_player(client, players_game):
    ann, bob, game = players_game
    rude = say(client, game["id"], bob["token"], "rude words")
    response = client.post(f"/games/{game['id']}/reports", json={"seat": rude["seat"], "message_id": rude["id"],
                                                                 "reason": "abuse", "details": "not nice"},
                           headers=auth(ann["token"]))
    assert response.status_code == 201 and response.get_json()["status"] == "open"
    response = client.post("/reports", json={"player": "bob", "reason": "name"}, headers=auth(ann["token"]))
    assert response.status_code == 201
    from service.core.extensions import db
    from service.players.models import Report
    with client.application.app_context():
        rows = db.session.query(Report).order_by(Report.id).all()
        assert [(r.reported_name, r.message_text, r.reason, r.reporter_name) for r in rows] == [
            ("Bob", "rude words", "abuse", "Ann"), ("Bob", None, "name", "Ann")]


@pytest.mark.parametrize("body, status, code", [
    ({"reason": "abuse"}, 422, "validation-error"),  # no seat
    ({"seat": 1, "reason": "bored"}, 422, "validation-error"),
    ({"seat": 1, "reason": "abuse", "details": "x" * 501}, 422, "validation-error"),
    ({"seat": 1, "reason": "abuse", "details": "nul \x00 here"}, 422, "validation-error"),
    ({"seat": 9, "reason": "abuse"}, 422, "validation-error"),
    ({"seat": "other", "message_id": 999999, "reason": "abuse"}, 404, "message-not-found"),
    ({"seat": "own", "reason": "abuse"}, 409, "report-target-invalid"),
    ({"seat": "other", "message_id": "own", "reason": "abuse"}, 404, "message-not-found"),  # Ann's, not Bob's
    ({"seat": "own", "message_id": "own", "reason": "abuse"}, 409, "report-target-invalid"),
])
def test_a_bad_report_is_a_problem_that_stores_nothing(client, players_game, body, status, code):
    ann, _, game = players_game
    own = say(client, game["id"], ann["token"], "mine")
    seats = {"own": game["seats"]["Ann"], "other": game["seats"]["Bob"]}
    body = {**body, **({"seat": seats[body["seat"]]} if body.get("seat") in seats else {}),
            **({"message_id": own["id"]} if body.get("message_id") == "own" else {})}
    response = client.post(f"/games/{game['id']}/reports", json=body, headers=auth(ann["token"]))
    assert (response.status_code, response.get_json()["code"]) == (status, code)
    for bad in ({"player": "Nobody", "reason": "spam"}, {"player": "Ann", "reason": "spam"},
                {"player": "B\x00b", "reason": "spam"}):
        assert client.post("/reports", json=bad, headers=auth(ann["token"])).status_code in (404, 409)
    assert count(client.application, "reports") == 0


def test_at_a_table_every_seat_reads_every_seats_messages(client):
    from ..api.table_helpers import start_table

    def post(path, body):
        answer = client.post(path, json=body)
        return answer.status_code, answer.get_json()
    table = start_table(post, 4)
    for seat in (0, 3):
        say(client, table["id"], table["tokens"][seat], f"from seat {seat}")
    for seat in range(4):
        assert [(m["seat"], m["name"]) for m in listed(client, table["id"], table["tokens"][seat])] == [
            (0, "Ann"), (3, "P3")]
