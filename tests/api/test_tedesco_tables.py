"""Tedesco's teams of three and four (issue 14): tables of six and eight seats over the API, on both
databases. A whole match in which every seat (each partner too) and a watcher are scanned after
every move for cards they may not see; the odd seats play to lose (table_helpers.losing_move), so
the even team wins whole rounds and its team bonus is credited, checked against the score sheet
recomputed here from the hand records; bad seat counts refused."""
from __future__ import annotations

import pytest
import yaml

from service.core.extensions import db
from service.games.models import Game

from ..hardening.support import LONG
from .helpers import act, auth, stored_game
from .table_helpers import (TEDESCO_TEAMS, assert_table_hides_secrets, start_table,
                            team_zero_wins_move)
from .test_openapi import generated, spec_app, validator_for  # noqa: F401 (fixtures)
from .test_table_watch import assert_public, watch
from .test_tables import events_of, poster, views_of


def pairing(size: int, round_: int) -> list[list[int]]:
    """Round r: seat 2j plays seat 2((j + r) mod size) + 1 (each meets each of the other team)."""
    return [sorted((2 * j, 2 * ((j + round_) % size) + 1)) for j in range(size)]


@pytest.mark.parametrize("seats", [6, 8])
def test_a_whole_team_match_hides_hands_in_play_and_credits_the_team_bonus(app, client, generated, seats, db_config):
    if not LONG and "postgresql" in db_config["SQLALCHEMY_DATABASE_URI"]:
        pytest.skip("this scan of every seat after every move runs on SQLite (PostgreSQL too with GIN_LONG_TESTS=1); "
                    "test_tables_live.py plays whole six- and eight-seat matches on both databases")
    spec = yaml.safe_load(generated)
    table_views, public_views, pages = (validator_for(spec, n) for n in ("TableView", "PublicTableView", "EventsPage"))
    size = seats // 2
    game = start_table(poster(client), seats, TEDESCO_TEAMS)
    key = client.post(f"/games/{game['id']}/watch-links", json={}, headers=auth(game["tokens"][seats - 1]))
    assert key.status_code == 201, key.get_json()
    key = key.get_json()["key"]
    most_at_once, moves = 0, 0
    for _ in range(6000):
        views = views_of(client, game)
        state = stored_game(app, game["id"]).state
        public = watch(client, game["id"], key).get_json()
        finished = views[0]["status"] == "finished"
        now_and_then = moves % 25 == 0 or finished  # the slow parts: schema checks, whole event lists
        if now_and_then:
            public_views.validate(public)
        for seat, view in views.items():
            assert (view["format"], view["seats"], view["team_size"]) == ("partnership", seats, size)
            assert view["sides"] == [list(range(0, seats, 2)), list(range(1, seats, 2))]
            assert sorted(view["partners"] + [seat]) == view["sides"][seat % 2]
            events = events_of(client, game, seat) if now_and_then else []
            if now_and_then:
                table_views.validate(view)
                pages.validate({"events": events, "next_after": None})
            if view["status"] != "finished":
                assert_table_hides_secrets(view, events, state, seat)
        if views[0]["status"] == "finished":
            break
        assert_public(public, state)
        for shown, seen in zip(public["boards"], views[0]["boards"]):  # what every seat sees alike
            assert (shown is None and seen is None) or shown.items() <= seen.items()
        assert public["round"] == views[0]["round"]
        expected = pairing(size, views[0]["round"])
        assert all(b["seats"] == expected[b["board"]] for b in views[0]["boards"] if b is not None)
        most_at_once = max(most_at_once, len(views[0]["to_move"]))
        seat, action = team_zero_wins_move(views)  # so that a whole team wins a round: its bonus
        assert act(client, game, seat, action).status_code == 200
        moves += 1
    else:
        pytest.fail("the match did not end")
    assert most_at_once == size  # every board of a round in play at once
    result = views[0]["result"]
    assert result["reason"] == "target" and result["winner_seats"] == views[0]["sides"][0]
    assert_team_bonus_credited(client, game, views[0], seats)


def recomputed_games(rules: dict, records: list[dict], rounds: list[dict], seats: int) -> list[dict]:
    """Hollywood's three games (or one) from the hand records and round ends alone: the n-th win of
    a side goes into games 1..n while open; a round won by every member of a team adds team_bonus x
    (size - 2) to the games its last credited hand went into; a game closes after a round in which
    a side reached the target, with its game bonus, a box per hand won and the shutout."""
    size = seats // 2
    count = 3 if rules["scoring"] == "hollywood" else 1
    games = [{"totals": [0, 0], "hands_won": [0, 0], "closed": False, "final": None} for _ in range(count)]
    wins = [0, 0]
    by_round: dict[int, list[dict]] = {}
    for index, record in enumerate(records):  # a round's hands all end before the next round's
        by_round.setdefault(index // size, []).append(record)
    for end in rounds:
        hands = sorted(by_round[end["round"]], key=lambda r: r["board"])
        assert len(hands) == size
        credited: list[int] = []
        for record in hands:
            if record["winner"] is None:
                continue
            side = record["winner"] % 2
            into = [g for g in range(min(wins[side] + 1, count)) if not games[g]["closed"]]
            for g in into:
                games[g]["totals"][side] += record["points"]
                games[g]["hands_won"][side] += 1
            wins[side] += 1
            credited = into or credited
        sides_won = {r["winner"] % 2 if r["winner"] is not None else None for r in hands}
        bonus = None
        if len(sides_won) == 1 and None not in sides_won and size >= 3:
            side = sides_won.pop()
            bonus = {"side": side, "points": rules.get("team_bonus", 25)  # an extra option: listed when not 25
                                         * (size - 2)}
            for g in credited:
                games[g]["totals"][side] += bonus["points"]
        assert end["team_bonus"] == bonus, (end, hands)
        for game in games:
            if game["closed"] or max(game["totals"]) < rules["target"]:
                continue
            winner = max((0, 1), key=lambda s: (game["totals"][s], -s))
            loser = 1 - winner
            shutout = game["totals"][winner] if game["hands_won"][loser] == 0 else 0
            assert rules["shutout"] == "double"
            final = [game["totals"][s] + rules["box_bonus"] * game["hands_won"][s] for s in (0, 1)]
            final[winner] += rules["game_bonus"] + shutout
            game["closed"], game["final"] = True, {"winner": winner, "totals": final}
    return games


def assert_team_bonus_credited(client, game, final: dict, seats: int) -> None:
    events = events_of(client, game, 0)
    records = [e["record"] for e in events if e["type"] == "table_hand_end"]
    rounds = [e for e in events if e["type"] == "round_end"]
    bonus_lines = [line for line in final["scores"]["sheet"] if line["hand"] is None]
    assert bonus_lines, "no round was won by a whole team: the bonus was not checked"
    assert all(line["team_bonus"] == 25 * (seats // 2 - 2) for line in bonus_lines)
    assert [(line["round"], line["side"]) for line in bonus_lines] == [
        (e["round"], e["team_bonus"]["side"]) for e in rounds if e["team_bonus"]]
    games = recomputed_games(final["rules"], records, rounds, seats)
    assert [g["final"]["totals"] for g in games] == [g["final"]["totals"] for g in final["scores"]["games"]]
    assert final["result"]["totals"] == [sum(g["final"]["totals"][s] for g in games) for s in (0, 1)]


@pytest.mark.parametrize("seats", [5, 7, 9, 10, 16])
def test_a_seat_count_no_table_has_is_refused_and_creates_nothing(app, client, seats):
    response = client.post("/games", json={"name": "Ann", "seats": seats, "rules": TEDESCO_TEAMS})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == "validation-error" and "seats" in body["errors"]["json"]
    assert "Traceback" not in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == 0


@pytest.mark.parametrize("seats", [6, 8])
def test_the_invitation_and_the_last_seat_of_a_team_table(app, client, seats):
    """Every seat has its own code; the invitation read says how many play and the seat it opens;
    the deal waits for the last seat, then every board of round 0 is dealt at once."""
    status, created = poster(client)("/games", {"name": "Ann", "seats": seats, "rules": TEDESCO_TEAMS})
    assert status == 201 and [i["seat"] for i in created["invites"]] == list(range(1, seats))
    last = created["invites"][-1]
    read = client.post(f"/games/{created['game_id']}/invitation", json={"invite_code": last["invite_code"]})
    assert read.status_code == 200, read.get_json()
    assert (read.get_json()["seats"], read.get_json()["format"], read.get_json()["seat"]) == (seats, "partnership", seats - 1)
    for invite in created["invites"]:
        joined = client.post(f"/games/{created['game_id']}/join", json={"invite_code": invite["invite_code"], "name": "P"})
        assert joined.status_code == 201 and joined.get_json()["seat"] == invite["seat"]
    view = joined.get_json()["game"]
    assert view["status"] == "active" and len(view["to_move"]) == seats // 2
    assert view["my_board"]["seats"] == pairing(seats // 2, 0)[seats // 2 - 1]
    assert all(b["deal_commitment"] for b in view["boards"])
