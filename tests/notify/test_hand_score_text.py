"""A hand's points explained in the mail (issue 38, item 3): the bonus that makes them ("+25
undercut bonus", "+25 gin bonus"), "you knocked and were undercut", and the sheet's undercut row
naming the one who scored."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from service.notify.mail.mail_pieces import hand_record_lines, points_explained, score_sheet_lines
from service.notify.mail.scene import Scene

RULES = {"gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": 31}


def record(result: str, knocked: int, defended: int, points: int, winner: int, multiplier: int = 1) -> dict:
    return {"hand": 2, "dealer": 1, "result": result, "winner": winner, "knocker": 0, "points": points,
            "hands": {}, "knock_discard": "KD", "knocker_melds": [["7C", "8C", "9C"]], "knocker_deadwood": [],
            "knocker_points": knocked, "defender_melds": [], "defender_layoffs": [], "defender_deadwood": [],
            "defender_points": defended, "multiplier": multiplier, "games_credited": [0]}


def scene(seat: int, sheet=()) -> Scene:
    return Scene("g1", 9, seat, {0: "Ann", 1: "Bob"},
                 {"rules": RULES, "scores": {"games": [], "hands_won": [0, 1], "sheet": list(sheet)}},
                 datetime(2030, 1, 1, tzinfo=timezone.utc))


@pytest.mark.parametrize("made, said", [
    (record("undercut", 9, 7, 27, 1), "Points: 2 (deadwood 9 less 7) +25 undercut bonus = 27"),
    (record("gin", 0, 14, 39, 0), "Points: 14 deadwood +25 gin bonus = 39"),
    (record("big_gin", 0, 14, 45, 0), "Points: 14 deadwood +31 Big Gin bonus = 45"),
    (record("knock", 3, 12, 9, 0), "Points: 9 (deadwood 12 less 3) = 9"),
    (record("gin", 0, 14, 78, 0, multiplier=2), "Points: (14 deadwood +25 gin bonus) x2 = 78"),
])
def test_the_points_are_explained_with_their_bonus(made, said):
    assert points_explained(made, RULES) == said


def test_no_explanation_where_the_sum_is_another_schemes():
    assert points_explained(record("knock", 3, 12, 20, 0), RULES) is None
    assert points_explained({"result": "void", "points": 0}, RULES) is None


def test_the_mail_says_you_were_undercut_and_the_bonus_line():
    lines = hand_record_lines(record("undercut", 9, 7, 27, 1), scene(0))
    assert lines[0] == "Hand 2: you knocked and were undercut; Bob scored 27."
    assert "  Points: 2 (deadwood 9 less 7) +25 undercut bonus = 27" in lines
    assert hand_record_lines(record("undercut", 9, 7, 27, 1), scene(1))[0] == "Hand 2: Ann knocked and was undercut; you scored 27."


def test_the_sheets_undercut_row_names_who_scored():
    row = {"hand": 1, "dealer": 1, "knocker": 0, "result": "undercut", "winner": 1, "points": 27, "games_credited": [0]}
    lines = score_sheet_lines(scene(0, [row]))
    assert "Bob undercut Ann" in lines[1] and lines[1].split()[-3:] == ["27", "0", "27"]
    assert all(len(line) <= 72 for line in lines)
