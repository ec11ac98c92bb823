"""Whole matches of random legal play under every preset, scored again independently from the
hand records: hand points, bonuses and totals must add up to what the result reports."""
import random

import pytest

from service.rules import parse_cards

from .helpers import brute_defender_points, brute_min_deadwood, choose_action, layoffs_fit, new_match, shuffled_deck

PRESETS = ["standard", "straight", "oklahoma", "hollywood", "classic"]
EXTRA = [("standard", {"shutout": "plus_100", "next_dealer": "winner", "undercut_on_tie": False}),
         ("classic", {"shutout": "none", "last_discard_rule": "take_to_finish", "big_gin_bonus": 50}),
         ("oklahoma", {"scoring": "hollywood", "target": 150})]


def play_match(preset, seed, **options):
    rng = random.Random(seed)
    match = new_match(preset, first_dealer=rng.randrange(2), **options)
    records = []
    dealers = []
    while not match.is_over:
        assert match.hand_number < 400, "the match does not end"
        if match.needs_deal:
            events = match.deal(shuffled_deck(rng))
            dealers.append(events[0]["dealer"])
            continue
        events = match.apply(match.to_move, choose_action(match, match.to_move, rng))
        records += [e["record"] for e in events if e["type"] in ("hand_end", "hand_void")]
    return match, records, dealers


def hand_points(rules, record):
    """What the hand is worth by RULES.md's table, from the counts in the record."""
    k, d = record["knocker_points"], record["defender_points"]
    base = {"knock": d - k, "undercut": k - d + rules["undercut_bonus"], "gin": rules["gin_bonus"] + d,
            "big_gin": rules["big_gin_bonus"] + d, "tie": 0}[record["result"]]
    return base * record["multiplier"]


def check_record(rules, record):
    if record["result"] == "void":
        assert record["points"] == 0 and record["winner"] is None
        return
    knocker, defender = record["knocker"], 1 - record["knocker"]
    assert record["points"] == hand_points(rules, record)
    # The counts are right: the knocker's layout is legal and the defender's count is the optimum
    # for the cards left after the layoffs.
    knocker_cards = parse_cards(record["hands"][str(knocker)])
    melds = [parse_cards(m) for m in record["knocker_melds"]]
    melded = [c for m in melds for c in m]
    assert len(melded) == len(set(melded)) and set(melded) <= set(knocker_cards)
    assert record["knocker_points"] == sum(c.points for c in knocker_cards if c not in melded)
    assert record["knocker_points"] <= (rules["knock_limit"] if rules["knocking_allowed"] else 0) or rules["oklahoma"]
    defender_cards = parse_cards(record["hands"][str(defender)])
    layoffs = parse_cards(record["defender_layoffs"])
    assert layoffs_fit(melds, layoffs)
    if record["result"] in ("gin", "big_gin"):
        assert layoffs == [] and record["knocker_points"] == 0
    kept = [c for c in defender_cards if c not in layoffs]
    assert record["defender_points"] == brute_min_deadwood(kept)
    if record["result"] not in ("gin", "big_gin"):
        assert record["defender_points"] == brute_defender_points(melds, defender_cards)
    # The winner is right for the counts.
    k, d = record["knocker_points"], record["defender_points"]
    if record["result"] == "knock":
        assert k < d and record["winner"] == knocker
    elif record["result"] == "undercut":
        assert (d < k or (d == k and rules["undercut_on_tie"])) and record["winner"] == defender
    elif record["result"] == "tie":
        assert d == k and not rules["undercut_on_tie"] and record["winner"] is None
    else:
        assert record["winner"] == knocker


def expected_games(rules, records):
    """Score the match again from the hand records alone."""
    count = 3 if rules["scoring"] == "hollywood" else 1
    games = [{"points": [0, 0], "wins": [0, 0], "closed": False, "winner": None} for _ in range(count)]
    wins = [0, 0]
    credited_log = []
    for record in records:
        winner = record["winner"]
        credited = []
        if winner is not None:
            for index in range(min(wins[winner] + 1, count)):
                game = games[index]
                if game["closed"]:
                    continue
                game["points"][winner] += record["points"]
                game["wins"][winner] += 1
                credited.append(index)
                if game["points"][winner] >= rules["target"]:
                    game["closed"], game["winner"] = True, winner
            wins[winner] += 1
        credited_log.append(credited)
    finals = []
    for game in games:
        assert game["closed"], "the match ended with a game still open"
        winner, loser = game["winner"], 1 - game["winner"]
        totals = list(game["points"])
        shutout = rules["shutout"]
        if game["wins"][loser] == 0 and shutout != "double_total":
            totals[winner] += {"double": game["points"][winner], "none": 0, "plus_100": 100}[shutout]
        totals[winner] += rules["game_bonus"]
        if rules.get("box_per", "hand") == "game":  # 001: "the box (bonus for each game won)"
            totals[winner] += rules["box_bonus"]
        else:
            for seat in (0, 1):
                totals[seat] += rules["box_bonus"] * game["wins"][seat]
        if shutout == "double_total" and totals[loser] == 0:  # 001: "the winner's entire score is doubled"
            totals[winner] *= 2
        finals.append((winner, game["points"], totals))
    return finals, credited_log


def check_match(match, records, dealers):
    rules = match.rules.to_dict()
    result = match.view(0)["result"]
    assert result is not None and match.is_over
    for record in records:
        check_record(rules, record)
    finals, credited = expected_games(rules, records)
    sheet = [row for row in match.view(1)["scores"]["sheet"] if row["result"] != "void"]
    assert [row.get("games_credited") for row in sheet] == [c for r, c in zip(records, credited) if r["result"] != "void"]
    assert [row["points"] for row in sheet] == [r["points"] for r in records if r["result"] != "void"]
    for game, (winner, points, totals) in zip(result["games"], finals):
        final = game["final"]
        assert final["winner"] == winner
        assert final["hand_points"] == points
        assert final["totals"] == totals
        for seat in (0, 1):
            assert final["totals"][seat] == (final["hand_points"][seat] + final["shutout_bonus"][seat]
                                             + final["game_bonus"][seat] + final["box_bonus"][seat])
    assert result["totals"] == [sum(t[seat] for _, _, t in finals) for seat in (0, 1)]
    net = sum((t[0] - t[1]) for _, _, t in finals)
    assert result["margin"] == abs(net)
    if rules["scoring"] == "single":
        # RULES.md: the player whose total reaches the target wins.
        assert result["winner"] == finals[0][0]
    else:
        # Hollywood: the three games' totals are added together (000's text).
        assert result["winner"] == (0 if net > 0 else 1 if net < 0 else None)
    assert match.winner == result["winner"]
    # Dealers: a void hand keeps the dealer; otherwise next_dealer decides.
    for (record, this_dealer), next_dealer in zip(zip(records, dealers), dealers[1:]):
        assert record["dealer"] == this_dealer
        if record["result"] == "void":
            assert next_dealer == this_dealer
        elif record["winner"] is not None:
            assert next_dealer == {"alternate": 1 - this_dealer, "winner": record["winner"],
                                   "loser": 1 - record["winner"]}[rules["next_dealer"]]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_match_under_each_preset(preset, seed):
    match, records, dealers = play_match(preset, seed)
    check_match(match, records, dealers)


@pytest.mark.parametrize("preset, options", EXTRA)
def test_whole_match_with_other_options(preset, options):
    for seed in (4, 5):
        match, records, dealers = play_match(preset, seed, **options)
        check_match(match, records, dealers)


def test_the_independent_scorer_matches_a_hand_checked_example():
    # Guard the re-scorer itself: standard, seat 0 wins 60 then 50; seat 1 never wins.
    rules = new_match().rules.to_dict()
    records = [{"winner": 0, "points": 60, "result": "knock"}, {"winner": 0, "points": 50, "result": "knock"}]
    finals, credited = expected_games(rules, records)
    assert finals == [(0, [110, 0], [110 * 2 + 100 + 50, 0])]
    assert credited == [[0], [0]]
