"""The options of RULES.md, their standard values, ranges and named presets."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import InvalidRules


@dataclass(frozen=True)
class Rules:
    knock_limit: int = 10
    knocking_allowed: bool = True
    oklahoma: bool = False
    gin_bonus: int = 25
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    big_gin: bool = True
    big_gin_bonus: int = 31
    target: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    shutout: str = "double"
    next_dealer: str = "alternate"
    scoring: str = "single"
    last_discard_rule: str = "void"
    preset: str = "standard"

    def __post_init__(self):
        # Built directly or through from_options, an out-of-range value never gets into play.
        for name, (_kind, _allowed) in OPTION_SPECS.items():
            _validate(name, getattr(self, name))
        if self.preset not in PRESETS:
            raise InvalidRules("preset", f"unknown preset {self.preset!r}; choose one of {', '.join(PRESETS)}")

    @classmethod
    def from_options(cls, preset: str = "standard", **overrides: Any) -> "Rules":
        if preset not in PRESETS:
            raise InvalidRules("preset", f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        values = {**PRESETS[preset], **overrides}
        for name, value in values.items():
            _validate(name, value)  # unknown names too, which the constructor would not name
        return cls(preset=preset, **values)

    @classmethod
    def from_dict(cls, data: dict | None) -> "Rules":
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidRules("rules", "rules must be an object of options")
        data = dict(data)
        preset = data.pop("preset", "standard")
        if not isinstance(preset, str):
            raise InvalidRules("preset", "preset must be a string")
        return cls.from_options(preset, **data)

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in _FIELD_NAMES}  # all plain values: no deep copy


# (type, allowed): allowed is a range for ints, a tuple of choices for strings.
OPTION_SPECS: dict[str, tuple[type, Any]] = {
    "knock_limit": (int, range(0, 11)),
    "knocking_allowed": (bool, None),
    "oklahoma": (bool, None),
    "gin_bonus": (int, range(0, 101)),
    "undercut_bonus": (int, range(0, 101)),
    "undercut_on_tie": (bool, None),
    "big_gin": (bool, None),
    "big_gin_bonus": (int, range(0, 101)),
    "target": (int, range(10, 10001)),
    "game_bonus": (int, range(0, 1001)),
    "box_bonus": (int, range(0, 101)),
    "shutout": (str, ("double", "none", "plus_100")),
    "next_dealer": (str, ("alternate", "winner", "loser")),
    "scoring": (str, ("single", "hollywood")),
    "last_discard_rule": (str, ("void", "take_to_finish")),
}

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "straight": {"knocking_allowed": False},
    "oklahoma": {"oklahoma": True},
    "hollywood": {"scoring": "hollywood"},
    "classic": {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20,
                "undercut_on_tie": True, "next_dealer": "loser"},
}

_FIELD_NAMES = tuple(f.name for f in fields(Rules))
assert set(OPTION_SPECS) == set(_FIELD_NAMES) - {"preset"}


def _validate(name: str, value: Any) -> None:
    if name not in OPTION_SPECS:
        raise InvalidRules(name, f"unknown option {name!r}; known options: {', '.join(OPTION_SPECS)}")
    kind, allowed = OPTION_SPECS[name]
    # bool is a subclass of int in Python; a JSON true must not pass as a number, nor 1 as true.
    if type(value) is not kind:
        raise InvalidRules(name, f"option {name!r} must be {kind.__name__}, got {value!r}")
    if isinstance(allowed, range) and value not in allowed:
        raise InvalidRules(name, f"option {name!r} must be within {allowed.start}..{allowed.stop - 1}, got {value}")
    if isinstance(allowed, tuple) and value not in allowed:
        raise InvalidRules(name, f"option {name!r} must be one of {', '.join(allowed)}, got {value!r}")
