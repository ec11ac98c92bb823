"""A player's profile (issue 26): the rating history, the record against each opponent and the games,
from rated matches played through the API; watch and replay links only once the player made its
games public (PATCH /me), which no other key opens and turning it off revokes; bad input refused."""
from __future__ import annotations

import pytest

from ..admin.support import admin
from ..api.helpers import auth
from .support import accepted_game, new_player, play_one
from .test_ratings import play_until_a_hand_ended, resign


def rated_match(client, winner: dict, loser: dict) -> str:
    """A rated match the loser resigns after its first hand: a loss like any other."""
    game = accepted_game(client, winner, loser)
    play_until_a_hand_ended(client, game)
    resign(client, game, game["seats"][loser["name"]])
    return game["id"]


@pytest.fixture
def three_matches(client):
    ann, bob, cy = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Cy", bot=True)
    games = [rated_match(client, ann, bob), rated_match(client, bob, ann), rated_match(client, ann, cy)]
    current = accepted_game(client, ann, bob)
    play_one(client, current)
    return {"ann": ann, "bob": bob, "cy": cy, "games": games, "current": current["id"]}


def test_the_history_lists_each_rated_match_newest_first_chained_before_to_after(client, three_matches):
    body = client.get("/players/Ann/rating-history").get_json()
    matches = body["matches"]
    assert [m["game_id"] for m in matches] == three_matches["games"][::-1] and body["next_offset"] is None
    no_level = {"level": None}
    assert [(m["opponent"], m["result"], m["level"]) for m in matches] == [
        ({"name": "Cy", "bot": True, "label": "Cy", **no_level}, "won", None),
        ({"name": "Bob", "bot": False, "label": "Bob", **no_level}, "lost", None),
        ({"name": "Bob", "bot": False, "label": "Bob", **no_level}, "won", None)]
    oldest_first = matches[::-1]
    assert oldest_first[0]["before"] == 1500.0
    for earlier, later in zip(oldest_first, oldest_first[1:]):
        assert later["before"] == earlier["after"]  # each match starts from the one before
    for m in matches:
        assert m["delta"] == round(m["after"] - m["before"], 2) and (m["delta"] > 0) == (m["result"] == "won")
    assert oldest_first[-1]["after"] == client.get("/players/Ann").get_json()["rating"]["value"]
    # Paged: two, then the last one.
    first = client.get("/players/Ann/rating-history?limit=2").get_json()
    assert [m["game_id"] for m in first["matches"]] == [m["game_id"] for m in matches[:2]]
    assert first["next_offset"] == 2
    rest = client.get("/players/Ann/rating-history?limit=2&offset=2").get_json()
    assert rest["matches"] == matches[2:] and rest["next_offset"] is None


def test_the_record_counts_each_opponent_most_played_first(client, three_matches):
    body = client.get("/players/Ann/record").get_json()
    no_level = {"level": None}
    assert body == {"opponents": [
        {"name": "Bob", "bot": False, "label": "Bob", **no_level, "won": 1, "lost": 1, "drawn": 0, "games": 2},
        {"name": "Cy", "bot": True, "label": "Cy", **no_level, "won": 1, "lost": 0, "drawn": 0, "games": 1}],
        "next_offset": None}
    assert client.get("/players/Cy/record").get_json()["opponents"] == [
        {"name": "Ann", "bot": False, "label": "Ann", **no_level, "won": 0, "lost": 1, "drawn": 0, "games": 1}]
    paged = client.get("/players/Ann/record?limit=1&offset=1").get_json()
    assert [row["name"] for row in paged["opponents"]] == ["Cy"] and paged["next_offset"] is None


def test_the_games_list_current_and_finished_without_links_while_private(client, three_matches):
    body = client.get("/players/Ann/games").get_json()
    games = body["games"]
    assert [g["game_id"] for g in games] == [three_matches["current"], *three_matches["games"][::-1]]
    current, *finished = games
    assert current["status"] == "active" and current["result"] is None and current["rating_change"] is None
    assert current["opponents"] == [{"seat": 1 - current["seat"], "name": "Bob", "player": "Bob", "bot": False}]
    assert [g["result"] for g in finished] == ["won", "lost", "won"]
    history = client.get("/players/Ann/rating-history").get_json()["matches"]
    assert [g["rating_change"] for g in finished] == [
        {"before": m["before"], "after": m["after"], "delta": m["delta"]} for m in history]
    assert all(g["links"] == {"watch": None, "replay": None} for g in games)  # Ann has not allowed it
    only_finished = client.get("/players/Ann/games?status=finished&limit=2").get_json()
    assert [g["game_id"] for g in only_finished["games"]] == three_matches["games"][:0:-1]
    assert only_finished["next_offset"] == 2
    assert [g["game_id"] for g in client.get("/players/Ann/games?status=active").get_json()["games"]] == [
        three_matches["current"]]
    text = str(body)
    for secret in (three_matches["ann"]["token"], three_matches["bob"]["token"]):
        assert secret not in text


def test_public_games_give_watch_and_replay_links_that_open_and_are_revoked(client, three_matches):
    ann = three_matches["ann"]
    turned = client.patch("/me", json={"public_games": True}, headers=auth(ann["token"]))
    assert turned.status_code == 200 and turned.get_json()["public_games"] is True
    assert client.get("/players/Ann").get_json()["public_games"] is True
    games = client.get("/players/Ann/games").get_json()["games"]
    current, finished = games[0], games[1]
    watch, replay = current["links"]["watch"], finished["links"]["replay"]
    assert current["links"]["replay"] is None and finished["links"]["watch"] is None
    assert watch.startswith(f"/watch/{current['game_id']}#key=") and replay.startswith(
        f"/replay/{finished['game_id']}#key=")
    watch_key, replay_key = watch.split("#key=")[1], replay.split("#key=")[1]
    public = client.get(f"/games/{current['game_id']}/public", headers=auth(watch_key))
    assert public.status_code == 200 and "hand" not in public.get_json()
    assert client.get(f"/games/{finished['game_id']}/replay", headers=auth(replay_key)).status_code == 200
    # A wrong key, ASCII or not, opens nothing (and breaks nothing).
    for wrong in (watch_key[:-1] + "x", "é" * 43, "x"):
        for path in ("public", "replay"):
            refused = client.get(f"/games/{current['game_id']}/{path}", headers={"Authorization": f"Bearer {wrong}"})
            assert refused.status_code == 401, (wrong, path, refused.get_json())
        # A game's key opens that game only, and opens no seat.
    assert client.get(f"/games/{finished['game_id']}/public", headers=auth(watch_key)).status_code == 401
    assert client.get(f"/games/{current['game_id']}", headers=auth(watch_key)).status_code == 401
    # Bob has not allowed it: his profile links nothing, though Ann's links their game.
    assert all(g["links"] == {"watch": None, "replay": None}
               for g in client.get("/players/Bob/games").get_json()["games"])
    # Off: every key given out stops at once; on again: new keys, the old ones stay dead.
    assert client.patch("/me", json={"public_games": False}, headers=auth(ann["token"])).status_code == 200
    assert client.get(f"/games/{current['game_id']}/public", headers=auth(watch_key)).status_code == 401
    assert client.get(f"/games/{finished['game_id']}/replay", headers=auth(replay_key)).status_code == 401
    client.patch("/me", json={"public_games": True}, headers=auth(ann["token"]))
    assert client.get(f"/games/{current['game_id']}/public", headers=auth(watch_key)).status_code == 401
    again = client.get("/players/Ann/games?status=active").get_json()["games"][0]["links"]["watch"]
    assert again != watch
    assert client.get(f"/games/{current['game_id']}/public", headers=auth(again.split("#key=")[1])).status_code == 200


def test_a_suspended_or_erased_players_public_links_open_nothing(client, app, three_matches):
    client.patch("/me", json={"public_games": True}, headers=auth(three_matches["ann"]["token"]))
    finished = client.get("/players/Ann/games?status=finished").get_json()["games"][0]
    key = finished["links"]["replay"].split("#key=")[1]
    assert client.get(f"/games/{finished['game_id']}/replay", headers=auth(key)).status_code == 200
    admin(app, "suspend", "Ann")
    assert client.get(f"/games/{finished['game_id']}/replay", headers=auth(key)).status_code == 401
    admin(app, "unsuspend", "Ann")
    assert client.get(f"/games/{finished['game_id']}/replay", headers=auth(key)).status_code == 200
    admin(app, "erase", "Ann", "--yes")
    assert client.get(f"/games/{finished['game_id']}/replay", headers=auth(key)).status_code == 401


@pytest.mark.parametrize("path", ["/players/Nobody/rating-history", "/players/Nobody/record",
                                  "/players/Nobody/games", f"/players/{'x' * 41}/games"])
def test_an_unknown_name_gets_a_404_problem(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "player-not-found"


@pytest.mark.parametrize("query", ["?limit=0", "?limit=201", "?offset=-1", "?limit=x", "?status=waiting_for_opponent"])
def test_a_bad_query_gets_a_problem(client, query):
    new_player(client, "Ann")
    response = client.get(f"/players/Ann/games{query}")
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"


@pytest.mark.parametrize("body", [{"public_games": "yes"}, {"public_games": 1}, {"public_games": None}, {},
                                  {"public_games": True, "email": "x@example.com"}])
def test_a_bad_patch_gets_a_problem_and_changes_nothing(client, body):
    ann = new_player(client, "Ann")
    response = client.patch("/me", json=body, headers=auth(ann["token"]))
    assert response.status_code == 422 and response.get_json()["code"] == "validation-error"
    assert client.get("/me", headers=auth(ann["token"])).get_json()["public_games"] is False


def test_patch_me_needs_the_player_token(client):
    new_player(client, "Ann")
    response = client.patch("/me", json={"public_games": True}, headers=auth("nope"))
    assert response.status_code == 401 and response.get_json()["code"] == "invalid-token"
    assert client.get("/players/Ann").get_json()["public_games"] is False


def test_a_public_players_finished_table_links_its_replay(client):
    from .test_table_rematch import players_table
    from .test_table_ratings import play_table
    players, game = players_table(client, 3, rules={"target": 25})
    ann = players[0]
    assert client.patch("/me", json={"public_games": True}, headers=auth(ann["token"])).status_code == 200
    play_table(client, game)
    [row] = [g for g in client.get(f"/players/{ann['name']}/games").get_json()["games"] if g["game_id"] == game["id"]]
    assert row["seats"] == 3 and row["status"] == "finished" and row["links"]["watch"] is None
    key = row["links"]["replay"].split("#key=")[1]
    replay = client.get(f"/games/{game['id']}/replay", headers=auth(key))
    assert replay.status_code == 200 and replay.get_json()["kind"] == "table"
