"""A Swiss of twelve bots through the running service (gunicorn, as the Procfile runs it): eleven
reference bots (knocking at any deadwood the rules allow, or only at 4, 7 or 10 or less) and the
house bot entered by the organizer at level 2, each the real account bot
(gin_client.bots.account, `gin-bot`) playing from its own stream, from entry to the final standings, which are
recomputed here from the games' public views (every tournament game opens with the watch key the
tournament gives); each entrant's stream told it the start, every round with its game, and its place."""
from __future__ import annotations

import threading
import time

import requests

from gin_client.bots.account import AccountBot

from ..conftest import start_gunicorn, stop_gunicorn
from ..sse import EventStream

QUICK = {"preset": "wikipedia", "target": 40}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def register(base: str, name: str, bot: bool) -> str:
    answer = requests.post(f"{base}/players", json={"name": name, "bot": bot}, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]


def stream_until(base: str, token: str, kind: str, limit: float = 30) -> list[dict]:
    """The player's stream from its first event, until one of type `kind`."""
    stream = EventStream(f"{base}/me/stream", bearer(token), last_event_id=0)
    seen, ends = [], time.monotonic() + limit
    try:
        while time.monotonic() < ends:
            event = stream.events.get(timeout=ends - time.monotonic())
            assert event is not None, "the stream ended"
            seen.append(event["data"])
            if event["event"] == kind:
                return seen
    finally:
        stream.close()
    raise AssertionError(f"no {kind} within {limit} s: {[e['type'] for e in seen]}")


def test_a_swiss_of_twelve_bots_from_entry_to_final_standings(tmp_path):
    process, base = start_gunicorn(f"sqlite:///{tmp_path / 'live.sqlite3'}", log_path=tmp_path / "gunicorn.log")
    bots: list[AccountBot] = []
    try:
        organizer = register(base, "Org", bot=False)
        tokens = {"House": register(base, "House", bot=True)}  # the house bot's name: taken from this host
        tokens.update({f"Bot{n}": register(base, f"Bot{n}", bot=True) for n in range(1, 12)})
        made = requests.post(f"{base}/tournaments", headers=bearer(organizer), timeout=10, json={
            "name": "Bots' Swiss", "format": "swiss", "rounds": 4, "entry": "bots", "house_bot": True,
            "min_entrants": 12, "max_entrants": 12, "rules": QUICK, "move_time_hours": 24}).json()
        tid = made["tournament_id"]
        for name, token in tokens.items():
            if name != "House":
                assert requests.post(f"{base}/tournaments/{tid}/join", headers=bearer(token), timeout=10).ok
        entered = requests.post(f"{base}/tournaments/{tid}/house-bot", json={"level": 2}, headers=bearer(organizer),
                                timeout=10)
        assert entered.status_code == 200 and entered.json()["entrants_count"] == 12
        for n, token in enumerate(tokens.values()):  # the reference bot, knocking at four thresholds
            bot = AccountBot(base, token, max_games=5, knock_at=(None, 4, 7, 10)[n % 4])
            bots.append(bot)
            threading.Thread(target=bot.run, daemon=True).start()
        started = requests.post(f"{base}/tournaments/{tid}/start", headers=bearer(organizer), timeout=60)
        assert started.status_code == 200, started.text
        ends = time.monotonic() + 900
        while True:
            t = requests.get(f"{base}/tournaments/{tid}", timeout=30).json()
            if t["status"] == "finished":
                break
            assert time.monotonic() < ends, f"round {t['current_round']} still playing"
            time.sleep(1)
        for bot in bots:
            bot.stop.set()
        assert [len(r["pairings"]) for r in t["rounds_played"]] == [6, 6, 6, 6]
        # The standings again, from each game's public view (its watch key from the tournament).
        table = {e["name"]: {"score": 0.0, "gin": 0, "opponents": []} for e in t["entrants"]}
        for r in t["rounds_played"]:
            for p in r["pairings"]:
                [game] = p["games"]
                view = requests.get(f"{base}/games/{game['game_id']}/public", headers=bearer(game["watch_key"]),
                                    timeout=10).json()
                names = {x["seat"]: x["name"] for x in view["players"]}
                result = view["result"]
                for seat, name in names.items():
                    table[name]["score"] += 1.0 if result["winner"] == seat else 0.5 if result["winner"] is None else 0
                    table[name]["gin"] += result["totals"][seat] - result["totals"][1 - seat]
                    table[name]["opponents"].append(names[1 - seat])
        for row in t["standings"]:
            mine = table[row["player"]]
            assert row["score"] == mine["score"] and row["tie_breaks"]["gin_points"] == mine["gin"]
            assert row["tie_breaks"]["buchholz"] == sum(table[o]["score"] for o in mine["opponents"])
            assert len(set(mine["opponents"])) == 4, "twelve players, four rounds: no repeat"
        levels = {e["name"]: e["level"] for e in t["entrants"]}
        assert levels["House"] == 2 and sum(level is None for level in levels.values()) == 11
        places = {row["player"]: row["place"] for row in t["standings"]}
        for name, token in tokens.items():  # each entrant's stream, from its first event
            events = [e for e in stream_until(base, token, "tournament_over")
                      if e["type"] in ("tournament_started", "round_started", "tournament_over")]
            assert [e["type"] for e in events] == ["tournament_started"] + ["round_started"] * 4 + ["tournament_over"]
            assert all(e["game_id"] and e["opponent"] for e in events[1:5])
            assert events[-1]["place"] == places[name]
    finally:
        for bot in bots:
            bot.stop.set()
        stop_gunicorn(process)


def test_account_bots_with_tournaments_enter_an_open_tournament_for_bots_and_play_it_out(tmp_path):
    """The account bot's --tournaments: it enters the open tournaments that admit bots and fit its
    settings, and plays their games from its stream; a tournament for people only it leaves alone."""
    process, base = start_gunicorn(f"sqlite:///{tmp_path / 'bots.sqlite3'}", log_path=tmp_path / "gunicorn.log")
    bots: list[AccountBot] = []
    try:
        organizer = register(base, "Org", bot=False)
        made = {"format": "round_robin", "min_entrants": 3, "max_entrants": 3, "rules": QUICK, "move_time_hours": 24}
        for_bots = requests.post(f"{base}/tournaments", headers=bearer(organizer), timeout=10,
                                 json={"name": "Bots", "entry": "bots", **made}).json()["tournament_id"]
        for_people = requests.post(f"{base}/tournaments", headers=bearer(organizer), timeout=10,
                                   json={"name": "People", "entry": "people", **made}).json()["tournament_id"]
        slow = requests.post(f"{base}/tournaments", headers=bearer(organizer), timeout=10,
                             json={"name": "Slow", "entry": "anyone", **made, "move_time_hours": 240}).json()
        for n in range(3):
            bot = AccountBot(base, register(base, f"Tbot{n}", bot=True), max_move_hours=72)
            bots.append(bot)
            threading.Thread(target=bot.run, daemon=True).start()
            threading.Thread(target=bot.poll_tournaments, args=(0.5,), daemon=True).start()
        ends = time.monotonic() + 60
        while requests.get(f"{base}/tournaments/{for_bots}", timeout=10).json()["entrants_count"] < 3:
            assert time.monotonic() < ends, "the bots did not enter"
            time.sleep(0.2)
        started = requests.post(f"{base}/tournaments/{for_bots}/start", headers=bearer(organizer), timeout=60)
        assert started.status_code == 200, started.text
        ends = time.monotonic() + 300
        while (t := requests.get(f"{base}/tournaments/{for_bots}", timeout=10).json())["status"] != "finished":
            assert time.monotonic() < ends, f"round {t['current_round']} still playing"
            time.sleep(0.5)
        assert sorted(row["player"] for row in t["standings"]) == ["Tbot0", "Tbot1", "Tbot2"]
        assert requests.get(f"{base}/tournaments/{for_people}", timeout=10).json()["entrants_count"] == 0
        assert requests.get(f"{base}/tournaments/{slow['tournament_id']}", timeout=10).json()["entrants_count"] == 0
    finally:
        for bot in bots:
            bot.stop.set()
        stop_gunicorn(process)
