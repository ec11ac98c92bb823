"""`gin review` and `gin hint` (issue 41): the review's lines (each seat's summary, the decisions that
gave points away with the better choice), its status while not done, and the server's refusals as
the other commands report them (exit status and code)."""
from __future__ import annotations

from gin_client.cli.coach import action_text, review_lines

from .test_messages_cli import a_game
from .test_players_cli import person

SUMMARY = {"decisions": 2, "given_away": 12.5, "given_away_per_decision": 6.25, "accuracy": 0.5,
           "inaccuracy": 0, "mistake": 0, "blunder": 1}
DONE = {"status": "done", "done": 2, "total": 2, "review": {
    "match": {"seats": [SUMMARY, {**SUMMARY, "blunder": 0, "given_away_per_decision": 0.0}]},
    "decisions": [
        {"hand": 1, "seat": 0, "label": "blunder", "chosen": {"type": "discard", "card": "7H"}, "chosen_expected": -3.0,
         "best": {"type": "knock", "discard": "KD"}, "best_expected": 9.5, "given_away": 12.5, "se": 1.5},
        {"hand": 1, "seat": 1, "label": "best", "chosen": {"type": "draw", "from": "stock"}, "chosen_expected": 2.0,
         "best": {"type": "draw", "from": "stock"}, "best_expected": 2.0, "given_away": 0.0, "se": 0.0}]}}


def test_the_review_says_each_seats_figures_and_the_decisions_that_gave_points_away():
    lines = review_lines(DONE, seat=0)
    assert lines[0].startswith("Seat 0 (you): 6.25 points given away a decision over 2; 1 blunders")
    assert lines[2] == "  hand 1, seat 0: blunder: discard 7H (-3.0); better knock with KD (+9.5), 12.5 ± 1.5 given away"
    assert len(lines) == 3  # the best choice is not listed
    assert review_lines({"status": "running", "done": 5, "total": 40}) == [
        "The review is running (5 of 40 decisions): look again later."]
    assert action_text({"type": "draw", "from": "discard"}) == "take the pile's top"


def test_review_before_the_end_and_hint_in_a_rated_game_are_refused_with_their_codes(tmp_path, gin_server):
    ann, bob = (person(tmp_path, gin_server, who) for who in ("ann", "bob"))
    a_game(ann, bob)
    early = ann.run("review", check=None)
    assert early.returncode != 0 and "[match-not-over]" in early.stderr
    refused = ann.run("hint", check=None)
    assert refused.returncode != 0 and "[hints-in-rated-game]" in refused.stderr
