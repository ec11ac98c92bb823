"""Ratings (issue 26): a finished two-seat match between two players moves both Glicko-2 ratings as
the formula says, in the transaction that ends it; unrated challenges, anonymous seats and
a match resigned in its first hand is a loss; the leaderboard's order, filter and paging."""
from __future__ import annotations

import pytest

from service.rules.glicko2 import Rating, rate

from ..api.helpers import auth, new_game
from .support import accepted_game, challenge, events_of, new_player, play_one, play_to_the_end

START = {"value": 1500.0, "deviation": 350.0, "volatility": 0.06, "games": 0, "provisional": True}


def rating_of(client, player: dict) -> dict:
    me = client.get("/me", headers=auth(player["token"]))
    assert me.status_code == 200
    public = client.get(f"/players/{player['name']}").get_json()
    assert public["rating"] == me.get_json()["rating"]  # the profile shows what /me shows
    return public["rating"]


def resign(client, game: dict, seat: int) -> None:
    response = client.post(f"/games/{game['id']}/actions", json={"type": "resign"}, headers=auth(game["tokens"][seat]))
    assert response.status_code == 200 and response.get_json()["status"] == "finished", response.get_json()


def expected(before_mine: dict, before_theirs: dict, score: float) -> Rating:
    return rate(Rating(before_mine["value"], before_mine["deviation"], before_mine["volatility"]),
                [(Rating(before_theirs["value"], before_theirs["deviation"], before_theirs["volatility"]), score)])


def test_a_rated_match_moves_both_ratings_as_the_formula_says(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    assert rating_of(client, ann) == START and rating_of(client, bob) == START
    game = accepted_game(client, ann, bob, rules={"preset": "standard", "target": 25})
    assert game["answer"]["challenge"]["rated"] is True  # the default
    end = play_to_the_end(client, game)
    winner = end["result"]["winner"]
    assert winner in (0, 1)  # a match to 25 is decided
    winner_name = next(name for name, seat in game["seats"].items() if seat == winner)
    won, lost = (ann, bob) if winner_name == "Ann" else (bob, ann)
    hand = expected(START, START, 1.0)
    assert (round(hand.value, 2), round(hand.deviation, 2)) == (1662.31, 290.32)  # by hand: tests/rules
    now_won, now_lost = rating_of(client, won), rating_of(client, lost)
    assert now_won == {"value": round(hand.value, 2), "deviation": round(hand.deviation, 2),
                       "volatility": round(hand.volatility, 6), "games": 1, "provisional": True}
    loss = expected(START, START, 0.0)
    assert now_lost["value"] == round(loss.value, 2) and now_lost["games"] == 1
    # Each player's game_over event says what the match did to the rating.
    over = [e for e in events_of(app, won) if e["type"] == "game_over"]
    assert over[-1]["rating_change"] == {"before": 1500.0, "after": round(hand.value, 2),
                                         "delta": round(hand.value - 1500, 2), "deviation": round(hand.deviation, 2),
                                         "provisional": True, "level": None, "opponent_level": None}
    assert [e for e in events_of(app, lost) if e["type"] == "game_over"][-1]["rating_change"]["delta"] < 0

    # A second match starts from the new ratings: each side rated against the other's rating before it.
    again = accepted_game(client, won, lost)
    play_until_a_hand_ended(client, again)
    resign(client, again, again["seats"][won["name"]])  # a resign after the first hand: a loss
    second_won, second_lost = rating_of(client, lost), rating_of(client, won)
    assert second_won["value"] == round(expected(now_lost, now_won, 1.0).value, 2) and second_won["games"] == 2
    assert second_lost["value"] == round(expected(now_won, now_lost, 0.0).value, 2) and second_lost["games"] == 2


def play_until_a_hand_ended(client, game: dict) -> None:
    for _ in range(2000):
        view = play_one(client, game)
        if view["status"] == "finished" or (view.get("scores") or {}).get("sheet") or view.get("last_hand"):
            assert view["status"] != "finished"
            return
    raise AssertionError("no hand ended")


def test_an_unrated_challenge_leaves_ratings_alone_and_says_so(client, app):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    offer = challenge(client, ann, "Bob", rated=False, rules={"target": 25})
    assert offer["rated"] is False
    listed = client.get("/challenges", headers=auth(bob["token"])).get_json()
    assert [c["rated"] for c in listed["to_me"]] == [False]
    accepted = client.post(f"/challenges/{offer['challenge_id']}/accept", headers=auth(bob["token"]))
    body = accepted.get_json()
    game = {"id": body["game_id"], "tokens": {body["seat"]: bob["token"], 1 - body["seat"]: ann["token"]}}
    play_to_the_end(client, game)
    assert rating_of(client, ann) == START and rating_of(client, bob) == START
    assert all("rating_change" not in e for e in events_of(app, ann) if e["type"] == "game_over")
    # Its rematch is unrated too.
    rematch = client.post(f"/games/{game['id']}/rematch", headers=auth(ann["token"]))
    assert rematch.status_code == 201 and rematch.get_json()["rated"] is False, rematch.get_json()


def test_a_match_resigned_during_its_first_hand_is_rated_as_a_loss(client, app):
    # Issue 38: unrated, a player resigned bad deals for free.
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    play_one(client, game)
    resign(client, game, game["seats"]["Ann"])
    assert rating_of(client, ann)["value"] == round(expected(START, START, 0.0).value, 2)
    assert rating_of(client, bob)["games"] == 1
    over = [e for e in events_of(app, ann) if e["type"] == "game_over"]
    assert len(over) == 1 and over[0]["rating_change"]["delta"] < 0


def test_a_game_with_an_anonymous_seat_is_not_rated(client):
    ann = new_player(client, "Ann")
    created = client.post("/me/games", json={"rules": {"target": 25}}, headers=auth(ann["token"])).get_json()
    joined = client.post(f"/games/{created['game_id']}/join", json={"invite_code": created["invite_code"],
                                                                    "name": "Guest"})
    assert joined.status_code == 201, joined.get_json()
    game = {"id": created["game_id"], "tokens": {0: ann["token"], 1: joined.get_json()["token"]}}
    play_to_the_end(client, game)
    assert rating_of(client, ann) == START


def test_bots_are_rated_and_flagged(client):
    ann, house = new_player(client, "Ann"), new_player(client, "Robo", bot=True)
    game = accepted_game(client, ann, house)
    play_until_a_hand_ended(client, game)
    resign(client, game, game["seats"]["Ann"])
    robo = client.get("/players/Robo").get_json()
    assert robo["bot"] is True and robo["rating"]["value"] > 1500 and robo["rating"]["games"] == 1


def _set_rating(app, name: str, value: float, deviation: float, games: int) -> None:
    from service.core.extensions import db
    from service.players import accounts
    with app.app_context():
        player = accounts.by_name(name)
        player.rating, player.rating_deviation, player.rated_games = value, deviation, games
        db.session.commit()


def test_the_leaderboard_orders_filters_and_pages(client, app):
    for name, value, deviation, games in (("Ann", 1800, 60, 12), ("Bob", 1700, 80, 5), ("Cy", 1900, 100, 4),
                                          ("Di", 2000, 150, 30), ("Ed", 1650, 110, 9), ("Flo", 1700, 90, 6)):
        new_player(client, name)
        _set_rating(app, name, value, deviation, games)
    first = client.get("/players?sort=rating&limit=2")
    assert first.status_code == 200
    page = first.get_json()
    # Cy: 4 rated matches, Di: provisional (deviation 150): not on the board. Ties by name.
    assert [(p["rank"], p["name"]) for p in page["players"]] == [(1, "Ann"), (2, "Bob")]
    assert page["next_offset"] == 2 and page["players"][0]["rating"]["value"] == 1800.0
    rest = client.get("/players?sort=rating&limit=2&offset=2").get_json()
    assert [(p["rank"], p["name"]) for p in rest["players"]] == [(3, "Flo"), (4, "Ed")]
    assert rest["next_offset"] is None


@pytest.mark.parametrize("query", ["", "?sort=bogus", "?sort=rating&limit=0", "?sort=rating&offset=-1",
                                   "?sort=rating&limit=x"])
def test_a_bad_leaderboard_query_gets_a_problem(client, query):
    response = client.get(f"/players{query}")
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "validation-error"


@pytest.mark.parametrize("rated", ["yes", 1, None, "true"])
def test_a_bad_rated_gets_a_problem_and_makes_no_challenge(client, rated):
    ann, _ = new_player(client, "Ann"), new_player(client, "Bob")
    response = client.post("/challenges", json={"to": "Bob", "rated": rated}, headers=auth(ann["token"]))
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "validation-error" and "rated" in str(response.get_json())
    assert client.get("/challenges", headers=auth(ann["token"])).get_json()["mine"] == []


def test_an_unknown_player_has_no_profile(client):
    response = client.get("/players/Nobody")
    assert response.status_code == 404 and response.get_json()["code"] == "player-not-found"
