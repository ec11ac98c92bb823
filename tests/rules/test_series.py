"""Tournament play (000): best of five matches to 250, a series of matches to a points target,
and "exactly 50 ahead at the end loses"; standings recomputed here from the match results."""
import json
import random

import pytest

from service.rules.series import Series, SeriesError

from .helpers import new_match
from .variant_helpers import play_to_end


def play(rules, seed):
    rng = random.Random(seed)
    match = new_match(rules.preset, first_dealer=rng.randrange(2),
                      **{k: v for k, v in rules.to_dict().items() if k != "preset"})
    play_to_end(match, rng)
    return match.result


def test_best_of_five_matches_to_250():
    # 000: "In tournament rules the game is played in best of five with 250 points per game."
    series = Series.best_of_five(["ann", "bob"])
    assert series.rules.target == 250 and series.matches == 5
    wins = {"ann": 0, "bob": 0}
    seed = 0
    while not series.is_over:
        seating = series.next_seating()
        result = play(series.rules, seed)
        assert max(result["totals"]) >= 250 or result["target_reached_by"] is not None
        seed += 1
        standings = series.record(seating, result)
        wins[seating[result["winner"]]] += 1
        assert {r["player"]: r["won"] for r in standings["rows"]} == wins
    assert max(wins.values()) == 3 and len(series.results) == sum(wins.values()) <= 5
    assert series.winner == max(wins, key=wins.get)
    with pytest.raises(SeriesError) as info:
        series.record(series.next_seating(), result)
    assert info.value.code == "series-over"
    assert Series.from_dict(json.loads(json.dumps(series.to_dict()))) == series


def test_players_change_seats_each_match():
    series = Series(["ann", "bob"], "best_of", 3)
    assert series.next_seating() == ["ann", "bob"]
    series.record(["ann", "bob"], {"winner": 0, "totals": [300, 100]})
    assert series.next_seating() == ["bob", "ann"]
    standings = series.record(["bob", "ann"], {"winner": 1, "totals": [90, 250]})
    assert standings["winner"] == "ann" and standings["rows"][0] == {
        "player": "ann", "played": 2, "won": 2, "lost": 0, "drawn": 0, "points": 550, "net": 360}


def test_a_points_series_accumulates_match_totals():
    # 000's multi-match: "game scores accumulate until a predetermined winning score is reached,
    # perhaps 500 or higher".
    series = Series(["ann", "bob"], "points", target=500)
    series.record(["ann", "bob"], {"winner": 0, "totals": [320, 120]})
    assert not series.is_over
    standings = series.record(["bob", "ann"], {"winner": 0, "totals": [260, 150]})
    assert not standings["over"] and [r["points"] for r in standings["rows"]] == [470, 380]
    standings = series.record(["ann", "bob"], {"winner": 0, "totals": [200, 40]})
    assert standings["winner"] == "ann" and [r["points"] for r in standings["rows"]] == [670, 420]


@pytest.mark.parametrize("rule, winner", [(False, "ann"), (True, "bob")])
def test_exactly_50_ahead_at_the_end_loses(rule, winner):
    # 000: "if a match ends with one player in the lead by exactly 50 points, that player
    # automatically loses."
    series = Series(["ann", "bob"], "points", target=500, exactly_50_loses=rule)
    standings = series.record(["ann", "bob"], {"winner": 0, "totals": [550, 500]})
    assert standings["winner"] == winner and standings["exactly_50_rule"] == rule


@pytest.mark.parametrize("args, code", [
    ((["ann", "ann"],), "invalid-series"), ((["ann", "bob"], "best_of", 4), "invalid-series"),
    ((["ann", "bob"], "knockout"), "invalid-series"), ((["ann", "bob"], "points", 1, 5), "invalid-series"),
])
def test_a_series_built_wrong_is_refused(args, code):
    with pytest.raises(SeriesError) as info:
        Series(*args)
    assert info.value.code == code


def test_results_must_be_finished_and_between_the_players():
    series = Series(["ann", "bob"])
    with pytest.raises(SeriesError) as info:
        series.record(["ann", "cat"], {"winner": 0, "totals": [1, 0]})
    assert info.value.code == "unknown-player"
    with pytest.raises(SeriesError) as info:
        series.record(["ann", "bob"], None)
    assert info.value.code == "match-not-finished"
