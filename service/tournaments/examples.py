"""The examples openapi.yaml shows for tournaments' answers (each valid against its schema)."""
from __future__ import annotations

_GAME = "MKsaxqYqE1pJxqt2oSEDug"
_KEY = "q3JvZ2FtZXdhdGNoa2V5LWV4YW1wbGUtb25seQ"
_SUMMARY = {
    "tournament_id": "tR7q0tq4s8m1PZk2w9lX3A", "name": "Winter Swiss", "format": "swiss", "cycles": 1, "best_of": 1,
    "pace": "rounds", "status": "running", "organizer": "Ann", "rules": {"preset": "standard", "target": 100},
    "rated": True, "move_time_hours": 72, "round_hours": 336, "rounds": 3, "current_round": 2,
    "entry": "anyone", "house_bot": True, "min_entrants": 3, "max_entrants": 32, "entrants_count": 3,
    "tie_breaks": ["buchholz", "median_buchholz", "gin_points", "direct_encounter", "rating"],
    "entry_closes_at": "2030-01-04T12:00:00+00:00", "round_deadline_at": "2030-01-22T09:00:00+00:00",
    "created_at": "2030-01-01T12:00:00+00:00", "started_at": "2030-01-04T12:00:00+00:00", "finished_at": None}
_ENTRANTS = [{"name": "Ann", "bot": False, "level": None, "seed": 1, "rating": 1712.4, "withdrawn_round": None,
              "place": None},
             {"name": "House", "bot": True, "level": 4, "seed": 2, "rating": 1650.0, "withdrawn_round": None,
              "place": None},
             {"name": "Bob", "bot": False, "level": None, "seed": 3, "rating": 1500.0, "withdrawn_round": None,
              "place": None}]
_LINK = {"game_id": _GAME, "status": "finished", "watch_key": _KEY, "watch_page": f"/watch/{_GAME}#key={_KEY}",
         "replay_page": f"/replay/{_GAME}#key={_KEY}"}
_TIE = {"buchholz": 1.0, "median_buchholz": 0.0, "gin_points": 96, "direct_encounter": None, "rating": 1712.4}
TOURNAMENT_EXAMPLE = {
    **_SUMMARY, "invited": [], "entrants": _ENTRANTS,
    "rounds_played": [
        {"number": 1, "started_at": "2030-01-04T12:00:00+00:00", "deadline_at": "2030-01-18T12:00:00+00:00",
         "finished_at": "2030-01-08T09:00:00+00:00", "rest": None,
         "paired_from": [{"player": n, "score": 0.0, "rating": r, "opponents": [], "byes": 0, "first_deals": 0,
                          "second_deals": 0} for n, r in (("Ann", 1712.4), ("House", 1650.0), ("Bob", 1500.0))],
         "pairings": [{"board": 1, "first": "Ann", "second": "Bob", "series_id": None, "games": [_LINK],
                       "result": {"first": 1.0, "second": 0.0, "played": True, "points": [131, 35]}},
                      {"board": 2, "first": "House", "second": None, "series_id": None, "games": [],
                       "result": {"first": 1.0, "second": None, "played": False, "points": None}}]}],
    "standings": [{"place": 1, "player": "Ann", "score": 1.0, "tie_breaks": _TIE, "played": 1, "won": 1, "drawn": 0,
                   "lost": 0, "byes": 0}],
    "crosstable": [{"player": "Ann", "rounds": [{"round": 1, "opponent": "Bob", "outcome": "won", "score": 1.0,
                                                 "points_for": 131, "points_against": 35, "games": [_GAME]}]}],
    "bracket": None}
OPEN_EXAMPLE = {**_SUMMARY, "status": "open", "rounds": 3, "current_round": 0, "round_deadline_at": None,
                "started_at": None, "invited": [],
                "entrants": [{**e, "seed": None, "rating": None} for e in _ENTRANTS],
                "rounds_played": [], "standings": [], "crosstable": [], "bracket": None}
_SLOT = {"first_seed": None, "second_seed": None, "fed_by": None, "winner": None, "decided": False}
KNOCKOUT_EXAMPLE = {
    **TOURNAMENT_EXAMPLE, "name": "Spring Knockout", "format": "knockout", "rounds": 2,
    "tie_breaks": ["gin_points", "wins", "rating"],
    "rounds_played": [
        {**TOURNAMENT_EXAMPLE["rounds_played"][0], "paired_from": None, "pairings": [
            {"board": 1, "first": "Ann", "second": None, "series_id": None, "games": [],
             "result": {"first": 1.0, "second": None, "played": False, "points": None}},
            {"board": 2, "first": "House", "second": "Bob", "series_id": None, "games": [_LINK],
             "result": {"first": 1.0, "second": 0.0, "played": True, "points": [104, 62]}}]}],
    "standings": [
        {"place": 1, "player": "House", "score": 1.0, "tie_breaks": {"gin_points": 42, "wins": 1, "rating": 1650.0},
         "played": 1, "won": 1, "drawn": 0, "lost": 0, "byes": 0},
        {"place": 2, "player": "Ann", "score": 1.0, "tie_breaks": {"gin_points": 0, "wins": 0, "rating": 1712.4},
         "played": 0, "won": 0, "drawn": 0, "lost": 0, "byes": 1},
        {"place": 3, "player": "Bob", "score": 0.0, "tie_breaks": {"gin_points": -42, "wins": 0, "rating": 1500.0},
         "played": 1, "won": 0, "drawn": 0, "lost": 1, "byes": 0}],
    "crosstable": [
        {"player": "Ann", "rounds": [{"round": 1, "opponent": None, "outcome": "bye", "score": 1.0, "points_for": 0,
                                      "points_against": 0, "games": []}]},
        {"player": "House", "rounds": [{"round": 1, "opponent": "Bob", "outcome": "won", "score": 1.0,
                                        "points_for": 104, "points_against": 62, "games": [_GAME]}]},
        {"player": "Bob", "rounds": [{"round": 1, "opponent": "House", "outcome": "lost", "score": 0.0,
                                      "points_for": 62, "points_against": 104, "games": [_GAME]}]}],
    "bracket": {"size": 4, "rounds": [
        {"round": 1, "name": "Semi-finals", "slots": [
            {**_SLOT, "board": 1, "first": "Ann", "second": None, "first_seed": 1, "winner": "Ann", "decided": True},
            {**_SLOT, "board": 2, "first": "House", "second": "Bob", "first_seed": 2, "second_seed": 3,
             "winner": "House", "decided": True}]},
        {"round": 2, "name": "Final", "slots": [
            {**_SLOT, "board": 1, "first": "Ann", "second": "House", "fed_by": [1, 2]}]}]}}
LISTING_EXAMPLE = {"tournaments": [_SUMMARY], "next_offset": None}
PLAYER_TOURNAMENTS_EXAMPLE = {"tournaments": [
    {"tournament_id": "tR7q0tq4s8m1PZk2w9lX3A", "name": "Winter Swiss", "format": "swiss", "status": "finished",
     "place": 2, "entrants": 12, "withdrawn": False, "finished_at": "2030-02-01T12:00:00+00:00"}]}
