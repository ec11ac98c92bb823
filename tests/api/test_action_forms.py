"""action_errors' shortcut for the plain moves (service/games/action_schemas.py _plainly_well_formed) says
"well formed" only for bodies the documented schemas accept: the two agree on near misses too."""
from __future__ import annotations

import marshmallow as ma
import pytest

from service.games.action_schemas import _action_schema, _plainly_well_formed, action_errors

BODIES = [
    {"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"},
    {"type": "draw", "from": "Stock"}, {"type": "draw", "from": None}, {"type": "draw"},
    {"type": "draw", "from": "discard", "count": 1}, {"type": "draw", "from": "stock", "extra": 1},
    {"type": "draw", "source": "stock"},
    {"type": "discard", "card": "7H"}, {"type": "discard", "card": "TD"}, {"type": "discard", "card": "AS"},
    {"type": "discard", "card": "7h"}, {"type": "discard", "card": "10H"}, {"type": "discard", "card": "1H"},
    {"type": "discard", "card": 7}, {"type": "discard", "card": ["7H"]}, {"type": "discard", "card": "7H\n"},
    {"type": "discard", "card": " 7H"}, {"type": "discard"}, {"type": "discard", "card": "7H", "melds": None},
    {"type": "pass"}, {"type": "pass", "from": "stock"},
]


def schema_accepts(body: dict) -> bool:
    try:
        _action_schema(body["type"]).load(body)
    except ma.ValidationError:
        return False
    return True


@pytest.mark.parametrize("body", BODIES, ids=lambda body: repr(body))
def test_the_shortcut_and_the_schema_agree(body):
    if _plainly_well_formed(body["type"], body):
        assert schema_accepts(body)
    assert (action_errors(body) is None) == schema_accepts(body)


def test_the_shortcut_takes_the_plain_moves():
    plain = [body for body in BODIES if _plainly_well_formed(body["type"], body)]
    assert {"type": "draw", "from": "stock"} in plain and {"type": "discard", "card": "TD"} in plain
    assert {"type": "pass"} in plain and len(plain) >= 6
