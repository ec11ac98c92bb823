"""Whole tournaments through the HTTP API on both databases: a Swiss, a round robin of five with a
withdrawal, a knockout of eight with best-of-three series, and a round started by its deadline with a
game neither side moved in. The standings are recomputed here from the games' own final views; each
entrant's stream tells the start, every round with its game, and the place."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from service.tournaments.pairing import Entrant, pair

from ..api.helpers import auth
from ..players.support import events_of, new_player, play_one
from .support import buchholz, current_games, game_of, make, play_out, play_round, post, read, recompute


def players(client, names, bot=False) -> list[dict]:
    return [new_player(client, name, bot=bot) for name in names]


def enter_all(client, t: dict, entrants: list[dict]) -> None:
    for p in entrants:
        post(client, t["tournament_id"], "join", p)


def test_a_swiss_of_six_is_played_to_its_final_standings_which_recompute_from_the_games(app, client):
    entrants = players(client, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"])
    tokens = {p["name"]: p["token"] for p in entrants}
    t = make(client, entrants[0], format="swiss", rounds=3, min_entrants=4, max_entrants=8)
    assert t["status"] == "open" and t["tie_breaks"][:2] == ["buchholz", "median_buchholz"]
    enter_all(client, t, entrants)
    t = post(client, t["tournament_id"], "start", entrants[0])
    assert t["status"] == "running" and t["current_round"] == 1 and len(t["rounds_played"][0]["pairings"]) == 3
    assert sorted(e["seed"] for e in t["entrants"]) == [1, 2, 3, 4, 5, 6]

    t = play_out(client, t["tournament_id"], tokens)
    assert t["status"] == "finished" and len(t["rounds_played"]) == 3
    mine = recompute(client, t, tokens)
    bh = buchholz(mine)
    by_name = {row["player"]: row for row in t["standings"]}
    for name, row in mine.items():
        assert by_name[name]["score"] == row["score"]
        assert by_name[name]["tie_breaks"]["gin_points"] == row["gin"]
        assert by_name[name]["tie_breaks"]["buchholz"] == bh[name]
        assert len(set(row["opponents"])) == 3, "no repeat: six players, three rounds"
    ranked = [row["player"] for row in t["standings"]]
    keys = [(mine[n]["score"], bh[n]) for n in ranked]
    assert keys == sorted(keys, reverse=True)
    # Each round's pairings come again from the standings stored with it, by the documented rule.
    for number, r in enumerate(t["rounds_played"], start=1):
        ids = {row["player"]: i for i, row in enumerate(r["paired_from"], start=1)}
        field = [Entrant(ids[row["player"]], round(2 * row["score"]), row["rating"],
                         frozenset(ids[o] for o in row["opponents"]), row["byes"], row["first_deals"],
                         row["second_deals"]) for row in r["paired_from"]]
        names = {i: n for n, i in ids.items()}
        again = [(names[p.first], names.get(p.second)) for p in pair(field, number)]
        assert again == [(p["first"], p["second"]) for p in r["pairings"]]
    # Every entrant heard the start, each round with its game, and the place.
    places = {row["player"]: row["place"] for row in t["standings"]}
    for p in entrants:
        events = [e for e in events_of(app, p) if e["type"].startswith(("tournament_", "round_"))]
        assert [e["type"] for e in events] == ["tournament_started"] + ["round_started"] * 3 + ["tournament_over"]
        games = {g["game_id"] for r in t["rounds_played"] for pr in r["pairings"] for g in pr["games"]
                 if p["name"] in (pr["first"], pr["second"])}
        assert {e["game_id"] for e in events if e["type"] == "round_started"} == games
        assert events[-1]["place"] == places[p["name"]] and events[-1]["entrants"] == 6
    # The crosstable links every game, watchable by its key and replayable once over.
    game = t["rounds_played"][0]["pairings"][0]["games"][0]
    assert client.get(f"/games/{game['game_id']}/public", headers=auth(game["watch_key"])).status_code == 200
    replay = client.get(f"/games/{game['game_id']}/replay", headers=auth(game["watch_key"]))
    assert replay.status_code == 200 and replay.get_json()["result"] is not None
    row = t["crosstable"][0]
    assert [x["round"] for x in row["rounds"]] == [1, 2, 3] and all(x["games"] for x in row["rounds"])
    profile = client.get(f"/players/{entrants[1]['name']}/tournaments").get_json()["tournaments"]
    assert profile == [{"tournament_id": t["tournament_id"], "name": "Test Cup", "format": "swiss",
                        "status": "finished", "place": places["Bob"], "entrants": 6, "withdrawn": False,
                        "finished_at": t["finished_at"]}]
    page = client.get("/players/Bob", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert f'href="/tournaments/{t["tournament_id"]}">Test Cup</a>' in page and f"{places['Bob']} of 6" in page
    shell = client.get(f"/tournaments/{t['tournament_id']}", headers={"Accept": "text/html"})
    assert shell.mimetype == "text/html" and f'data-tournament="{t["tournament_id"]}"' in shell.get_data(as_text=True)


def test_a_round_robin_of_five_with_one_withdrawal_forfeits_the_rest_and_keeps_what_was_played(app, client):
    entrants = players(client, ["Ann", "Bob", "Cid", "Dee", "Eve"])
    tokens = {p["name"]: p["token"] for p in entrants}
    t = make(client, entrants[0], format="round_robin", min_entrants=5, max_entrants=5)
    enter_all(client, t, entrants)
    t = post(client, t["tournament_id"], "start", entrants[0])
    assert t["rounds"] == 5 and all(r["rest"] for r in t["rounds_played"])
    play_round(client, t, tokens)
    t = read(client, t["tournament_id"])
    assert t["current_round"] == 2
    gone = next(e for e in entrants if any(
        e["name"] in (p["first"], p["second"]) for p in t["rounds_played"][1]["pairings"]))
    game_id = next(g["game_id"] for p in t["rounds_played"][1]["pairings"] for g in p["games"]
                   if gone["name"] in (p["first"], p["second"]))
    play_one(client, game_of(client, game_id, tokens))  # a move or two: the game is under way
    t = post(client, t["tournament_id"], "withdraw", gone)
    withdrawn = next(e for e in t["entrants"] if e["name"] == gone["name"])
    assert withdrawn["withdrawn_round"] == 2
    resigned = client.get(f"/games/{game_id}", headers=auth(gone["token"])).get_json()
    assert resigned["status"] == "finished" and resigned["result"]["reason"] == "resign"
    t = play_out(client, t["tournament_id"], tokens)
    assert t["status"] == "finished"
    crossed = {row["player"]: row["rounds"] for row in t["crosstable"]}
    later = [x for x in crossed[gone["name"]] if x["round"] > 2]
    assert later and all(x["outcome"] == "forfeit_lost" and x["games"] == [] for x in later)
    assert all(x["outcome"] in ("won", "lost", "drawn") for x in crossed[gone["name"]] if x["round"] == 1)
    mine = recompute(client, t, tokens)
    for row in t["standings"]:
        assert row["score"] == mine[row["player"]]["score"]
        assert row["tie_breaks"]["gin_points"] == mine[row["player"]]["gin"]
    assert t["standings"][-1]["player"] == gone["name"] or t["standings"][-1]["score"] <= 1
    assert [e for e in events_of(app, gone) if e["type"] == "tournament_over"][0]["place"] == next(
        row["place"] for row in t["standings"] if row["player"] == gone["name"])


def test_a_knockout_of_eight_with_best_of_three_series(app, client):
    entrants = players(client, [f"K{i}" for i in range(1, 9)])
    tokens = {p["name"]: p["token"] for p in entrants}
    t = make(client, entrants[0], format="knockout", best_of=3, min_entrants=8, max_entrants=8)
    enter_all(client, t, entrants)
    t = post(client, t["tournament_id"], "start", entrants[0])
    assert t["rounds"] == 3 and len(t["rounds_played"][0]["pairings"]) == 4
    # Started: the whole bracket is there, its later rounds waiting for winners.
    assert [[(s["first"], s["second"]) for s in r["slots"]] for r in t["bracket"]["rounds"][1:]] == [
        [(None, None), (None, None)], [(None, None)]]
    assert all(p["series_id"] for p in t["rounds_played"][0]["pairings"])
    seeds = {e["name"]: e["seed"] for e in t["entrants"]}
    assert [(seeds[p["first"]], seeds[p["second"]]) for p in t["rounds_played"][0]["pairings"]] == [
        (1, 8), (4, 5), (2, 7), (3, 6)]
    t = play_out(client, t["tournament_id"], tokens)
    assert t["status"] == "finished" and [len(r["pairings"]) for r in t["rounds_played"]] == [4, 2, 1]
    for r in t["rounds_played"]:
        for p in r["pairings"]:
            series = client.get(f"/series/{p['series_id']}", headers=auth(tokens[p["first"]])).get_json()
            assert series["status"] == "decided" and 2 <= len(p["games"]) <= 3
            winner = series["standings"]["winner"]
            assert (p["result"]["first"], p["result"]["second"]) == ((1.0, 0.0) if winner == p["first"] else (0.0, 1.0))
    final = t["rounds_played"][2]["pairings"][0]
    champion = final["first"] if final["result"]["first"] == 1 else final["second"]
    assert t["standings"][0]["player"] == champion and t["standings"][0]["place"] == 1
    assert t["standings"][1]["player"] in (final["first"], final["second"])
    # Round 2 pairs the winners of boards 1 and 2, 3 and 4 (the bracket).
    winners = [p["first"] if p["result"]["first"] == 1 else p["second"] for p in t["rounds_played"][0]["pairings"]]
    assert [{p["first"], p["second"]} for p in t["rounds_played"][1]["pairings"]] == [set(winners[:2]),
                                                                                      set(winners[2:])]
    kinds = [e["type"] for e in events_of(app, entrants[0]) if e["type"] in ("tournament_started", "round_started",
                                                                             "tournament_over")]
    assert kinds[0] == "tournament_started" and kinds[-1] == "tournament_over"
    # The bracket as data agrees with every pairing played, and its final's winner is the champion.
    assert t["bracket"]["size"] == 8 and [r["name"] for r in t["bracket"]["rounds"]] == [
        "Quarter-finals", "Semi-finals", "Final"]
    for played, drawn in zip(t["rounds_played"], t["bracket"]["rounds"]):
        assert [(p["board"], p["first"], p["second"]) for p in played["pairings"]] == \
            [(s["board"], s["first"], s["second"]) for s in drawn["slots"]]
        assert all(s["decided"] for s in drawn["slots"])
    assert t["bracket"]["rounds"][2]["slots"][0]["winner"] == champion
    assert [s["fed_by"] for s in t["bracket"]["rounds"][1]["slots"]] == [[1, 2], [3, 4]]


def test_a_round_started_by_its_deadline_with_one_game_unmoved_and_one_on_the_clock(app, client):
    entrants = players(client, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"])
    tokens = {p["name"]: p["token"] for p in entrants}
    t = make(client, entrants[0], format="swiss", rounds=2, min_entrants=4, move_time_hours=24, round_hours=48)
    enter_all(client, t, entrants)
    t = post(client, t["tournament_id"], "start", entrants[0])
    deadline = datetime.fromisoformat(t["round_deadline_at"])
    played, moved, unmoved = current_games(t)
    play_round(client, t, tokens, skip=(moved, unmoved))
    moved_game = game_of(client, moved, tokens)
    mover = play_one(client, moved_game)  # one move made: the game is on someone's clock
    from service.tournaments import settling
    app.config["CLOCK"] = lambda: deadline + timedelta(minutes=1)
    try:
        with app.app_context():
            assert settling.sweep() == 1
    finally:
        app.config.pop("CLOCK")
    t = read(client, t["tournament_id"])
    assert t["current_round"] == 2 and len(t["rounds_played"][1]["pairings"]) == 3
    results = {g["game_id"]: p["result"] for p in t["rounds_played"][0]["pairings"] for g in p["games"]}
    assert results[unmoved] == {"first": 0.0, "second": 0.0, "played": False, "points": [0, 0]}
    on_time = client.get(f"/games/{moved}", headers=auth(moved_game["tokens"][0])).get_json()
    assert on_time["status"] == "finished" and on_time["result"]["reason"] == "timeout"
    late_seat = mover["to_move"]
    assert on_time["result"]["winner"] == 1 - late_seat
    names = {x["seat"]: x["name"] for x in on_time["players"]}
    pairing = next(p for p in t["rounds_played"][0]["pairings"] if p["games"][0]["game_id"] == moved)
    assert pairing["result"][("first" if pairing["first"] == names[late_seat] else "second")] == 0.0
    crossed = {row["player"]: row["rounds"][0]["outcome"] for row in t["crosstable"]}
    unmoved_pair = next(p for p in t["rounds_played"][0]["pairings"] if p["games"][0]["game_id"] == unmoved)
    assert crossed[unmoved_pair["first"]] == crossed[unmoved_pair["second"]] == "double_loss"
    assert results[played]["played"] is True
    round_two = [e for e in events_of(app, entrants[0]) if e["type"] == "round_started"]
    assert [e["round"] for e in round_two] == [1, 2]


def test_an_entry_window_that_closes_starts_the_tournament_or_cancels_it_short_of_entrants(app, client):
    entrants = players(client, ["Ann", "Bob", "Cid", "Dee"])
    full = make(client, entrants[0], format="knockout", min_entrants=3, entry_hours=2)
    short = make(client, entrants[0], format="swiss", rounds=2, min_entrants=4, entry_hours=2)
    enter_all(client, full, entrants[:3])
    enter_all(client, short, entrants[:3])
    from service.tournaments import settling
    app.config["CLOCK"] = lambda: datetime.now(timezone.utc) + timedelta(hours=3)
    try:
        with app.app_context():
            assert settling.sweep() == 2
    finally:
        app.config.pop("CLOCK")
    assert read(client, full["tournament_id"])["status"] == "running"
    assert read(client, short["tournament_id"])["status"] == "cancelled"
    told = [e for e in events_of(app, entrants[1]) if e["type"] == "tournament_cancelled"]
    assert [e["tournament_id"] for e in told] == [short["tournament_id"]]
    running = read(client, full["tournament_id"])
    assert [p["second"] for p in running["rounds_played"][0]["pairings"]].count(None) == 1  # 3 in a bracket of 4


def test_the_house_bot_entered_at_a_level_plays_at_it_and_an_unrated_tournament_moves_no_rating(app, client):
    from service.core.extensions import db
    from service.players import accounts
    with app.app_context():  # the house bot's account, as its own process on the host makes it
        _, token = accounts.create("House", None, True, local=True)
        db.session.commit()
    house = {"name": "House", "token": token}
    entrants = players(client, ["Ann", "Bob"])
    t = make(client, entrants[0], format="round_robin", min_entrants=3, house_bot=True, rated=False,
             pace="all_at_once")
    post(client, t["tournament_id"], "house-bot", entrants[1], expect=403, level=4)
    post(client, t["tournament_id"], "join", house, expect=403)
    t = post(client, t["tournament_id"], "house-bot", entrants[0], level=4)
    assert [(e["name"], e["level"]) for e in t["entrants"]] == [("House", 4)]
    enter_all(client, t, entrants)
    t = post(client, t["tournament_id"], "start", entrants[0])
    assert len(t["rounds_played"]) == 3 and len(current_games(t)) == 3, "all at once: every game made"
    game = next(g["game_id"] for r in t["rounds_played"] for p in r["pairings"] for g in p["games"]
                if "House" in (p["first"], p["second"]))
    view = client.get(f"/games/{game}", headers=auth(house["token"])).get_json()
    assert [p["level"] for p in view["players"] if p["name"] == "House"] == [4]
    t = play_out(client, t["tournament_id"], {"House": house["token"], **{p["name"]: p["token"] for p in entrants}})
    for p in entrants:
        assert client.get(f"/players/{p['name']}").get_json()["rating"]["games"] == 0


def test_a_rated_round_robin_moves_each_players_rating_once_a_match(app, client):
    """Rated is the default: each match of the tournament moves both players' ratings as a rated
    challenge's would, once (a round robin of three: two matches each)."""
    entrants = players(client, ["Ann", "Bob", "Cid"])
    before = {p["name"]: client.get(f"/players/{p['name']}").get_json()["rating"] for p in entrants}
    t = make(client, entrants[0], format="round_robin", min_entrants=3)
    assert t["rated"] is True
    enter_all(client, t, entrants)
    t = play_out(client, post(client, t["tournament_id"], "start", entrants[0])["tournament_id"],
                 {p["name"]: p["token"] for p in entrants})
    assert t["status"] == "finished"
    for p in entrants:
        after = client.get(f"/players/{p['name']}").get_json()["rating"]
        assert before[p["name"]]["games"] == 0 and after["games"] == 2, (p["name"], after)
        assert after != before[p["name"]], p["name"]


def test_a_withdrawal_from_a_swiss_leaves_the_player_unpaired_and_from_a_knockout_sends_the_opponent_through(
        app, client):
    entrants = players(client, ["Ann", "Bob", "Cid", "Dee"])
    tokens = {p["name"]: p["token"] for p in entrants}
    swiss = make(client, entrants[0], format="swiss", rounds=3, min_entrants=4)
    knockout = make(client, entrants[0], format="knockout", min_entrants=4)
    for t in (swiss, knockout):
        enter_all(client, t, entrants)
        post(client, t["tournament_id"], "start", entrants[0])
    post(client, swiss["tournament_id"], "withdraw", entrants[3])
    post(client, knockout["tournament_id"], "withdraw", entrants[3])
    t = play_out(client, swiss["tournament_id"], tokens)
    assert t["status"] == "finished"
    later = [p for r in t["rounds_played"][1:] for p in r["pairings"]]
    assert all("Dee" not in (p["first"], p["second"]) for p in later), "a withdrawn player is paired no more"
    dee = next(row["rounds"] for row in t["crosstable"] if row["player"] == "Dee")
    assert [x["outcome"] for x in dee[1:]] == ["absent", "absent"]
    assert sum(p["second"] is None for p in later) == 2, "three left: a bye each round"
    k = read(client, knockout["tournament_id"])
    first = next(p for p in k["rounds_played"][0]["pairings"] if "Dee" in (p["first"], p["second"]))
    assert (first["result"]["first"], first["result"]["second"]) == ((0.0, 1.0) if first["first"] == "Dee"
                                                                     else (1.0, 0.0))
    k = play_out(client, knockout["tournament_id"], tokens)
    assert k["status"] == "finished"
    assert "Dee" in {row["player"] for row in k["standings"][2:]}, "knocked out in the first round"


def test_a_knockout_series_plays_the_house_bot_at_its_entered_level_in_every_game(app, client):
    from service.core.extensions import db
    from service.players import accounts
    with app.app_context():  # the house bot's account, as its own process on the host makes it
        _, token = accounts.create("House", None, True, local=True)
        db.session.commit()
    entrants = players(client, ["Ann", "Bob", "Cid"])
    tokens = {"House": token, **{p["name"]: p["token"] for p in entrants}}
    t = make(client, entrants[0], format="knockout", best_of=3, min_entrants=4, house_bot=True)
    post(client, t["tournament_id"], "house-bot", entrants[0], level=2)
    enter_all(client, t, entrants)
    t = play_out(client, post(client, t["tournament_id"], "start", entrants[0])["tournament_id"], tokens)
    house_games = [g["game_id"] for r in t["rounds_played"] for p in r["pairings"] for g in p["games"]
                   if "House" in (p["first"], p["second"])]
    assert len(house_games) >= 2
    for game_id in house_games:
        view = client.get(f"/games/{game_id}", headers=auth(token)).get_json()
        assert [p["level"] for p in view["players"] if p["name"] == "House"] == [2]


def test_an_unrated_knockout_of_best_of_three_series_moves_no_rating_in_any_game(app, client):
    """Game 1 of a series is dealt before its pairing names the series: it is marked unrated with
    the pairing, the later games by the change hook as they start."""
    entrants = players(client, ["Ann", "Bob", "Cid", "Dee"])
    t = make(client, entrants[0], format="knockout", best_of=3, min_entrants=4, rated=False)
    enter_all(client, t, entrants)
    t = play_out(client, post(client, t["tournament_id"], "start", entrants[0])["tournament_id"],
                 {p["name"]: p["token"] for p in entrants})
    assert t["status"] == "finished" and sum(len(p["games"]) for r in t["rounds_played"] for p in r["pairings"]) >= 6
    for p in entrants:
        assert client.get(f"/players/{p['name']}").get_json()["rating"]["games"] == 0
