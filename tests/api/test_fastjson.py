"""service/core/fastjson.py: the views' text is json.dumps's compact text, byte for byte, whichever
library writes it; the JSON columns read back what they stored."""
from __future__ import annotations

import json
import random

import pytest

from service.core import fastjson
from service.rules import Match, Rules, action_from_dict
from service.rules.cards import card_from_index

from .helpers import choose

AWKWARD = [
    {"name": "Ann", "n": 3, "ok": True, "none": None, "list": [1, [2, {"x": []}]]},
    {"name": "Zoë", "quote": 'say "hi"', "slash": "a\\b", "tab": "a\tb", "nl": "a\nb", "ctl": "\x01", "del": "\x7f"},
    {"sep": "\u2028\u2029", "emoji": "\U0001f0a1", "lone": "\ud800"},  # json writes \u escapes; orjson refuses lone ones
    {"floats": [0.1, 1.0, 1e16, 1.5e-7, 2.5e-05, -0.0, 123456789012345678.0]},
    {1: "int key", "big": 2**70, "negative": -2**63},
    {"game_id": "ab3e5-_x", "commitment": "0e-1" + "f" * 60},
    [], {}, "text", 7, None,
]


@pytest.mark.parametrize("value", AWKWARD)
def test_compact_is_json_dumps_text(value):
    assert fastjson.compact(value) == json.dumps(value, separators=(",", ":"))


def test_every_view_of_whole_matches_is_json_dumps_text():
    chooser = random.Random(16)
    for first_dealer in (0, 1):
        match = Match.new(Rules.from_dict({"target": 100}), first_dealer)
        while not match.is_over:
            if match.needs_deal:
                deck = list(range(52))
                chooser.shuffle(deck)
                match.deal([card_from_index(i) for i in deck])
                continue
            for seat in (0, 1):
                view = {"game_id": "x-e-1", "deal_commitment": f"{chooser.getrandbits(256):064x}", **match.view(seat)}
                assert fastjson.compact(view) == json.dumps(view, separators=(",", ":"))
            match.apply(match.to_move, action_from_dict(choose(match.view(match.to_move))))


@pytest.mark.parametrize("value", [v for v in AWKWARD if not (isinstance(v, dict) and (1 in v or "lone" in v))])
def test_columns_read_back_what_they_stored(value):
    assert fastjson.deserialize(fastjson.serialize(value)) == value


def test_columns_read_what_json_wrote():
    assert fastjson.deserialize(json.dumps({"a": [1, 2], "b": "é"})) == {"a": [1, 2], "b": "é"}
    assert fastjson.deserialize('{"x": NaN}')["x"] != fastjson.deserialize('{"x": NaN}')["x"]  # json's NaN
