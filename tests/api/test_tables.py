"""Games of three and four seats over the API (issue 14): create with `seats`, an invite per seat,
the deal when the last seat is taken, whole matches in which every seat (the one sitting out and
the partners too) is scanned after every move for cards it may not see, views and events that
match the spec, and bad input refused with a problem document that changes nothing."""
from __future__ import annotations

import pytest
import yaml

from service.core.extensions import db
from service.games.models import Event, Game

from .helpers import act, auth, create, stored_game
from .table_helpers import assert_table_hides_secrets, mover_and_action, start_table
from .test_openapi import generated, spec_app, validator_for  # noqa: F401 (fixtures)


def poster(client):
    def post(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.get_json()
    return post


def views_of(client, game) -> dict[int, dict]:
    answers = {}
    for seat in range(game["seats"]):
        response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat]))
        assert response.status_code == 200, response.get_json()
        answers[seat] = response.get_json()
    return answers


def events_of(client, game, seat) -> list[dict]:
    """Every event the seat may read, page by page (a long match has more than one page of 500)."""
    events, after = [], 0
    while after is not None:
        response = client.get(f"/games/{game['id']}/events?limit=500&after={after}", headers=auth(game["tokens"][seat]))
        assert response.status_code == 200, response.get_json()
        events, after = events + response.get_json()["events"], response.get_json()["next_after"]
    return events


@pytest.mark.parametrize("seats, fmt", [(3, "rotation"), (4, "partnership")])
def test_a_whole_table_match_shows_no_seat_a_card_it_may_not_see(app, client, generated, seats, fmt):
    spec = yaml.safe_load(generated)
    table_views, pages, actions = (validator_for(spec, name) for name in ("TableView", "EventsPage", "Action"))
    game = start_table(poster(client), seats)
    seen_sitting_out, seen_two_boards, moves = False, False, 0
    for _ in range(4000):
        views = views_of(client, game)
        state = stored_game(app, game["id"]).state
        for seat, view in views.items():
            table_views.validate(view)
            assert view["format"] == fmt and view["seat"] == seat and view["seats"] == seats
            events = events_of(client, game, seat)
            if moves % 7 == 0 or view["status"] == "finished":
                pages.validate({"events": events, "next_after": None})
            if view["status"] != "finished":
                assert_table_hides_secrets(view, events, state, seat)
        if views[0]["status"] == "finished":
            break
        for seat, view in views.items():  # who is to move on which board, as every seat sees it
            on_boards = [b["to_move"] for b in view["boards"] if b is not None and b["to_move"] is not None]
            assert sorted(on_boards) == sorted(view["to_move"])
            assert view["on_clock"] in view["to_move"] and view["deadline"] is not None
        if fmt == "rotation":
            out = views[0]["sitting_out"]
            assert views[out]["my_board"] is None and views[out]["legal_actions"] == []
            assert views[out]["boards"][0]["card_counts"]  # what is public of the board in play
            seen_sitting_out = True
        seen_two_boards |= len(views[0]["to_move"]) == 2
        seat, action = mover_and_action(views)
        actions.validate(action)
        response = act(client, game, seat, action)
        assert response.status_code == 200, (seat, action, response.get_json())
        moves += 1
    final = views_of(client, game)
    result = final[0]["result"]
    assert final[0]["status"] == "finished" and result["reason"] == "target"
    assert max(result["totals"]) >= 40 and result["winner_seats"]
    if fmt == "partnership":
        assert seen_two_boards and sorted(result["winner_seats"]) in ([0, 2], [1, 3])
    else:
        assert seen_sitting_out
    # Every deck is revealed at the end and each matches its commitment; the events of a finished
    # match show every hand in full to every seat, the sitting-out player's included.
    from service.games.deals import commitment
    revealed = final[0]["revealed_deals"]
    assert revealed and all(commitment(d["salt"], d["deck"]) == d["commitment"] for d in revealed)
    deals = [e for e in events_of(client, game, seats - 1) if e["type"] == "deal"]
    assert len(deals) == len(revealed) and all(set(d["cards"]) == {"0", "1"} for d in deals)


def test_seats_join_one_by_one_and_the_deal_waits_for_the_last(app, client):
    status, created = poster(client)("/games", {"name": "Ann", "seats": 4})
    assert status == 201 and created["game"]["status"] == "waiting_for_opponent"
    assert created["game"]["format"] == "partnership" and created["game"]["sides"] == [[0, 2], [1, 3]]
    versions = [created["game"]["version"]]
    for invite in created["invites"][:2]:
        joined = client.post(f"/games/{created['game_id']}/join",
                             json={"invite_code": invite["invite_code"], "name": "X"}).get_json()
        assert joined["game"]["status"] == "waiting_for_opponent" and joined["game"]["needs_deal"] == [0, 1]
        assert joined["game"]["my_board"]["view"]["hand"] == []  # the board it will play: no cards yet
        versions.append(joined["game"]["version"])
    assert versions == sorted(set(versions))  # each seat taken is a new version (the ETag moves on)
    with app.app_context():
        assert db.session.query(Event).filter_by(game_id=created["game_id"]).count() == 0  # nothing dealt
    waiting = client.post(f"/games/{created['game_id']}/actions", json={"type": "draw", "from": "stock"},
                          headers=auth(created["token"]))
    assert waiting.status_code == 409 and waiting.get_json()["code"] == "game-not-started"
    last = created["invites"][2]
    joined = client.post(f"/games/{created['game_id']}/join", json={"invite_code": last["invite_code"], "name": "Y"})
    assert joined.status_code == 201 and joined.get_json()["seat"] == 3
    view = joined.get_json()["game"]
    assert view["status"] == "active" and view["my_board"]["seats"] == [2, 3]  # round 0: 0 v 1, 2 v 3
    assert len(view["to_move"]) == 2 and all(b["deal_commitment"] for b in view["boards"])


@pytest.mark.parametrize("seats", [1, 5, 0, "x", 2.5, True, None])
def test_a_bad_number_of_seats_is_refused_and_creates_nothing(app, client, seats):
    response = client.post("/games", json={"name": "Ann", "seats": seats})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "validation-error" and "seats" in response.get_json()["errors"]["json"]
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_rules_a_table_cannot_play_are_refused(app, client):
    response = client.post("/games", json={"name": "Ann", "seats": 3, "rules": {"preset": "mahjong_gin"}})
    assert response.status_code == 422 and response.get_json()["code"] == "invalid-option"
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_two_seats_stay_as_they_were(client):
    created = create(client)
    assert "invites" not in created and "format" not in created["game"]
    explicit = client.post("/games", json={"name": "Ann", "seats": 2}).get_json()
    assert set(explicit) == set(created) and explicit["game"]["to_move"] is None


def test_bad_joins_and_moves_at_a_table_change_nothing(app, client):
    game = start_table(poster(client), 3)
    code = client.post("/games", json={"name": "Z", "seats": 3}).get_json()["invite_code"]  # another game's
    before = stored_game(app, game["id"])

    def unchanged():
        after = stored_game(app, game["id"])
        assert (after.version, after.state) == (before.version, before.state)

    wrong = client.post(f"/games/{game['id']}/join", json={"invite_code": code, "name": "Eve"})
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "invalid-invite"
    views = views_of(client, game)
    out = views[0]["sitting_out"]
    mover = views[0]["to_move"][0]
    other = next(s for s in range(3) if s not in (out, mover))
    on_board = views[mover]["legal_actions"][0]
    for seat, action, code_ in ((out, on_board, "not-your-turn"),  # the seat sitting out
                                (other, on_board, "not-your-turn"),  # the board opponent, out of turn
                                (mover, {"type": "discard", "card": "ZZ"}, "invalid-action"),
                                (mover, {"type": "fly"}, "invalid-action")):
        response = act(client, game, seat, action)
        assert response.status_code in (400, 409, 422) and response.get_json()["code"] == code_, response.get_json()
        assert response.mimetype == "application/problem+json"
        unchanged()
    stale = act(client, game, mover, on_board, **{"If-Match": f'"{before.version - 1}"'})
    assert stale.status_code == 412 and stale.get_json()["code"] == "version-mismatch"
    unchanged()
    # The table is full: a second join with an invite already used finds its seat taken.
    created_invites = client.post("/games", json={"name": "Q", "seats": 3}).get_json()
    first = created_invites["invites"][0]["invite_code"]
    assert client.post(f"/games/{created_invites['game_id']}/join", json={"invite_code": first, "name": "B"}).status_code == 201
    again = client.post(f"/games/{created_invites['game_id']}/join", json={"invite_code": first, "name": "C"})
    assert again.status_code == 409 and again.get_json()["code"] == "game-full"


def test_acting_on_another_board_of_a_partnership_is_refused(app, client):
    """A partner cannot play the other partner's cards: each seat acts on its own board only."""
    game = start_table(poster(client), 4)
    for _ in range(20):  # until some seat is to discard on its board
        views = views_of(client, game)
        discarding = [s for s in views[0]["to_move"] if views[s]["my_board"]["view"]["phase"] == "discard"]
        if discarding:
            break
        seat, action = mover_and_action(views)
        assert act(client, game, seat, action).status_code == 200
    mover = discarding[0]
    partner = (mover + 2) % 4
    hand = views[mover]["my_board"]["view"]["hand"]
    card = next(c for c in hand if c not in views[partner]["my_board"]["view"]["hand"])
    before = stored_game(app, game["id"])
    answer = act(client, game, partner, {"type": "discard", "card": card})
    assert answer.status_code in (409, 422), answer.get_json()
    assert answer.get_json()["code"] in ("not-your-turn", "wrong-phase", "card-not-in-hand")
    after = stored_game(app, game["id"])
    assert (after.version, after.state) == (before.version, before.state)


def test_a_retried_table_move_is_applied_once(app, client):
    game = start_table(poster(client), 3)
    views = views_of(client, game)
    seat, action = mover_and_action(views)
    first = act(client, game, seat, action, **{"Idempotency-Key": "k-1"})
    again = act(client, game, seat, action, **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json() and again.headers["ETag"] == first.headers["ETag"]
    assert stored_game(app, game["id"]).version == views[0]["version"] + 1


def test_a_player_account_takes_the_table_seat_its_code_opens(app, client):
    """POST /me/games/{id}/join seats a player in the seat the code opens (seat 2 here), bound to
    the player; a wrong code or a taken seat binds nothing."""
    from service.players.models import PlayerSeat
    from tests.players.support import new_player
    vera, walt = new_player(client, "Vera"), new_player(client, "Walt")
    status, created = poster(client)("/games", {"name": "Ann", "seats": 3})
    code = created["invites"][1]["invite_code"]  # seat 2's
    join_as = f"/me/games/{created['game_id']}/join"
    wrong = client.post(join_as, json={"invite_code": "nope"}, headers=auth(vera["token"]))
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "invalid-invite"
    response = client.post(join_as, json={"invite_code": code}, headers=auth(vera["token"]))
    assert response.status_code == 201 and response.get_json()["seat"] == 2
    assert response.get_json()["game"]["seats"] == 3
    taken = client.post(join_as, json={"invite_code": code}, headers=auth(walt["token"]))
    assert taken.status_code == 409 and taken.get_json()["code"] == "game-full"
    with app.app_context():
        assert [(b.seat, b.player_id) for b in db.session.query(PlayerSeat)] == [(2, vera["id"])]
        game = db.session.get(Game, created["game_id"])
        assert [s.joined_at is not None for s in game.seats] == [True, False, True]
    mine = client.get(f"/games/{created['game_id']}", headers=auth(vera["token"])).get_json()
    assert mine["seat"] == 2
