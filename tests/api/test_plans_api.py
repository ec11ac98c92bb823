"""Plans and standing orders by the API (issue 39, docs/plans.md): a plan settles as one change
through the move path, its answer (the card drawn, what each rule decided) is the seat's alone,
the opponent's view and history show only the moves; a plan that cannot be played is refused
whole with the reason and what is legal; orders play the upcard and the draw as the seat's own
moves, stop at the decisions they leave, and never knock without a knock order."""
from __future__ import annotations

from service.rules import Card

from .helpers import act, auth, new_game, view


def plan(client, game, seat, words):
    return client.post(f"/games/{game['id']}/plans", json={"plan": words}, headers=auth(game["tokens"][seat]))


def events(client, game, seat) -> list[dict]:
    response = client.get(f"/games/{game['id']}/events?limit=200", headers=auth(game["tokens"][seat]))
    assert response.status_code == 200
    return response.get_json()["events"]


def to_draw(client, game) -> int:
    """Pass the upcard offer (both seats) until a seat is to draw; that seat."""
    for _ in range(3):
        seat = view(client, game, 0)["to_move"]
        mine = view(client, game, seat)
        if mine["phase"] == "draw":
            return seat
        assert act(client, game, seat, {"type": "pass"}).status_code == 200
    raise AssertionError("no draw")


def test_a_plan_settles_in_one_change_and_tells_only_its_seat(client):
    game = new_game(client)
    seat = to_draw(client, game)
    other = 1 - seat
    before = view(client, game, seat)
    response = plan(client, game, seat, "draw stock, discard drawn unless it melds, else worst")
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    settled, after = answer["settlement"], answer["game"]
    assert after["version"] == before["version"] + 1  # one change for the whole turn
    assert settled["drawn"] and settled["drawn"] not in before["hand"]
    assert [a["type"] for a in settled["actions"]] == ["draw", "discard"]
    thrown = settled["actions"][1]["card"]
    assert settled["decisions"][0]["rule"] == "discard drawn unless it melds"
    assert settled["answer"].startswith(f"You drew {settled['drawn']} from the stock")
    assert after["to_move"] == other and after["discard_pile"][-1] == thrown
    assert sorted(after["hand"]) == sorted(c for c in before["hand"] + [settled["drawn"]] if c != thrown)
    # The opponent: the moves only. The drawn card only if it was thrown face up; no decision's words.
    theirs = view(client, game, other)
    seen = events(client, game, other)
    text = str(theirs) + str(seen)
    if thrown != settled["drawn"]:
        assert settled["drawn"] not in text
    assert settled["decisions"][0]["why"] not in text and "so you " not in text and "drawn" not in text
    kinds = [e["type"] for e in seen[-2:]]
    assert kinds == ["draw", "discard"], seen[-2:]
    assert "card" not in seen[-2] or seen[-2].get("card") is None


def test_a_plan_that_cannot_be_played_is_refused_whole(client):
    game = new_game(client)
    seat = to_draw(client, game)
    before = view(client, game, seat)
    not_mine = next(str(c) for c in map(Card.parse, ["KS", "QS", "JS", "TS", "9S", "8S", "AS"])
                    if str(c) not in before["hand"] and str(c) not in before["discard_pile"])
    response = plan(client, game, seat, f"draw stock, discard {not_mine}")
    assert response.status_code == 422 and response.get_json()["code"] == "card-not-in-hand"
    assert {"type": "draw", "from": "stock"} in response.get_json()["legal_actions"]
    # A rule needing an else, refused before anything moves
    response = plan(client, game, seat, "draw stock, discard drawn unless it melds")
    assert response.status_code == 422 and response.get_json()["code"] == "ambiguous-plan"
    # A knock with a card that may not leave the limit for some drawn card: refused, naming that card
    response = plan(client, game, seat, f"draw stock, knock {before['hand'][0]}")
    assert response.status_code == 422 and "if you drew" in response.get_json()["detail"]
    response = plan(client, game, seat, "draw the moon")
    assert response.status_code == 400 and response.get_json()["code"] == "invalid-plan"
    response = plan(client, game, 1 - seat, "draw stock, discard worst")
    assert response.status_code == 409 and response.get_json()["code"] == "not-your-turn"
    assert view(client, game, seat)["version"] == before["version"]  # nothing was played


def test_a_plan_object_plays_as_its_words_do(client):
    game = new_game(client)
    seat = to_draw(client, game)
    body = {"plan": {"type": "plan", "draw": "stock", "then": [{"do": "discard", "card": "worst"}]}}
    response = client.post(f"/games/{game['id']}/plans", json=body, headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["settlement"]["plan"] == "draw stock, discard worst"


def orders(client, game, seat, method="PUT", body=None):
    return client.open(f"/games/{game['id']}/orders", method=method, json=body,
                       headers=auth(game["tokens"][seat]))


def test_orders_are_the_seats_alone_and_cancelled(client):
    game = new_game(client)
    response = orders(client, game, 0, body={"orders": "always go gin\nfor this hand"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["text"] == "always go gin; for this hand"
    assert orders(client, game, 0, "GET").get_json()["orders"]["gin"] == "always"
    assert orders(client, game, 1, "GET").get_json()["orders"]["gin"] is None
    assert "always go gin" not in str(view(client, game, 1))
    assert orders(client, game, 0, body={"orders": "knock whenever"}).get_json()["code"] == "invalid-orders"
    assert orders(client, game, 0, "DELETE").get_json()["text"] == "no orders; until cancelled"
    assert orders(client, game, 0, "GET").get_json()["orders"]["gin"] is None


def test_orders_play_the_upcard_and_the_draw_and_leave_the_discard(client):
    """Both seats set the upcard and draw orders: the upcard offer and every draw play themselves;
    each seat is asked only to discard. No order knocks: the hands end only by the stock running
    out (or a gin the players themselves make), never by a knock the orders made."""
    game = new_game(client)
    words = {"orders": "pass unless it melds; take the pile's top if it melds, else draw stock"}
    for seat in (0, 1):
        assert orders(client, game, seat, body=words).status_code == 200
    asked = set()
    for _ in range(60):
        seat = view(client, game, 0)["to_move"]
        if seat is None:
            break
        mine = view(client, game, seat)
        asked.add(mine["phase"])
        if mine["phase"] != "discard":
            break
        worst = max(mine["legal_actions"], key=lambda a: (a["type"] == "discard", a.get("card") in
                                                           (mine.get("arrangement") or {}).get("deadwood", [])))
        assert worst["type"] == "discard"
        assert act(client, game, seat, worst).status_code == 200
    assert asked == {"discard"}, asked  # never asked for the upcard or a draw
    history = events(client, game, 0)
    assert not any(e["type"] == "knock" for e in history)
    assert any(e["type"] in ("pass", "take_upcard", "draw") and e.get("seat") == 1 for e in history)


def test_a_knock_order_knocks_when_it_can_and_the_seat_is_never_asked_a_knock_it_settles(client):
    """Seat 0's orders take the draw and knock whenever the hand's limit allows; seat 1 plays with
    no orders and never knocks. Seat 0 is never shown a knock it could make (its order made it),
    and the hand ends by seat 0's knock, which its orders made."""
    game = new_game(client)
    words = {"orders": "take the pile's top if it melds, else draw stock; knock if possible"}
    assert orders(client, game, 0, body=words).status_code == 200
    knocked = None
    for _ in range(600):  # (a hand the stock ends without a knock: the next)
        seat = view(client, game, 0)["to_move"]
        mine = view(client, game, seat)
        seen = events(client, game, 1)
        knocked = next((e for e in seen if e["type"] in ("knock", "big_gin")), None)
        if knocked or seat is None:
            break
        legal = mine["legal_actions"]
        if seat == 0:
            assert mine["phase"] in ("upcard_offer", "discard", "last_discard_offer"), mine["phase"]  # the draw: the orders'
            assert not any(a["type"] == "knock" for a in legal), legal  # the knock order would have knocked
        plain = [a for a in legal if a["type"] in ("pass", "discard")] or \
            [a for a in legal if a["type"] == "draw" and a["from"] == "stock"]
        choice = max(plain, key=lambda a: (a.get("card") in (mine.get("arrangement") or {}).get("deadwood", []),
                                           a.get("card") or ""))
        assert act(client, game, seat, choice).status_code == 200
    assert knocked is not None and knocked["seat"] == 0, knocked


def test_a_plan_between_players_shows_the_others_stream_the_moves_only(client, app):
    """Players' streams: the opponent hears `opponent_moved` with the draw and the discard, as if
    they were sent one by one, the drawn card only if thrown face up, and nothing of the plan."""
    from ..players.support import accepted_game, events_of, new_player
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob)
    seat = to_draw(client, game)
    response = plan(client, game, seat, "draw stock, discard drawn unless it melds, else worst")
    assert response.status_code == 200, response.get_json()
    settled = response.get_json()["settlement"]
    other = bob if game["seats"][ann["name"]] == seat else ann
    heard = [e for e in events_of(app, other) if e["type"] == "opponent_moved"][-1]
    assert [e["type"] for e in heard["events"]] == ["draw", "discard"]
    text = str(heard)
    if settled["actions"][1]["card"] != settled["drawn"]:
        assert settled["drawn"] not in text
    assert "so you" not in text and "melds" not in text and "worst" not in text


def test_plans_and_orders_are_for_two_seat_games(client):
    from .table_helpers import start_table

    def post(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.get_json()
    table = start_table(post, 3)
    for token in table["tokens"].values():
        response = client.post(f"/games/{table['id']}/plans", json={"plan": "draw stock, discard worst"},
                               headers=auth(token))
        assert response.status_code == 422 and response.get_json()["code"] == "wrong-phase", response.get_json()
    response = client.put(f"/games/{table['id']}/orders", json={"orders": "always go gin"},
                          headers=auth(table["tokens"][0]))
    assert response.status_code == 422 and response.get_json()["code"] == "wrong-phase"
