"""The options of RULES.md, their standard values, ranges and named presets.

Two generations of options: the original ones (OPTION_SPECS) always appear in `to_dict()`;
those added since (EXTRA_OPTION_SPECS: issues 14 and 25) appear only when they differ from their standard
value, so the rules dict of every game stored before them is unchanged, key for key.
"""
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
    # -- issue 14 (RULES.md "Procedures", "Variants") --
    misdeal_on_dealt_knock: bool = False
    dealer_after_void: str = "same"
    first_turn: str = "upcard_offer"
    pile_draw_limit: int = 20
    exactly_50_loses: bool = False
    knock_card: str = "upcard"
    runs: str = "ace_low"
    card_values: str = "standard"
    mahjong: bool = False
    team_bonus: int = 25
    # -- issue 25 (RULES.md "The first dealer"; "The game": 001's box) --
    first_dealer_by: str = "random"
    box_per: str = "hand"
    preset: str = "standard"

    def __post_init__(self):
        # Built directly or through from_options, an out-of-range value never gets into play.
        for name in ALL_OPTION_SPECS:
            _validate(name, getattr(self, name))
        if self.preset not in PRESETS:
            raise InvalidRules("preset", f"unknown preset {self.preset!r}; choose one of {', '.join(PRESETS)}")
        _check_combination(self)

    @classmethod
    def from_options(cls, preset: str = "standard", **overrides: Any) -> "Rules":
        if not isinstance(preset, str) or preset not in PRESETS:
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
        try:  # every stored game's rules are read on every move: the same few dicts again and again
            key = tuple((name, type(value), value) for name, value in data.items())
            known = _FROM_DICT.get(key)
        except TypeError:  # an unhashable value: not one a valid Rules has
            key = known = None
        if known is not None and cls is Rules:
            return known
        data = dict(data)
        preset = data.pop("preset", "standard")
        if not isinstance(preset, str):
            raise InvalidRules("preset", "preset must be a string")
        rules = cls.from_options(preset, **data)
        if key is not None and cls is Rules and len(_FROM_DICT) < 256:
            _FROM_DICT[key] = rules  # frozen: safe to share
        return rules

    def to_dict(self) -> dict:
        cached = self.__dict__.get("_dict")  # frozen: the same every time; each caller gets its own copy
        if cached is None:
            cached = {name: getattr(self, name) for name in _FIELD_NAMES}  # all plain values
            for name in EXTRA_OPTION_SPECS:
                if cached[name] == _STANDARD[name]:
                    del cached[name]
            object.__setattr__(self, "_dict", cached)
        return dict(cached)

    @property
    def standard_cards(self) -> bool:
        """Ace-low runs and standard points: the fast deadwood search applies."""
        return self.runs == "ace_low" and self.card_values == "standard"


_FROM_DICT: dict[tuple, "Rules"] = {}  # Rules.from_dict's answers, by (name, type, value) of the dict given


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
    "shutout": (str, ("double", "none", "plus_100", "double_total")),
    "next_dealer": (str, ("alternate", "winner", "loser")),
    "scoring": (str, ("single", "hollywood")),
    "last_discard_rule": (str, ("void", "take_to_finish")),
}

EXTRA_OPTION_SPECS: dict[str, tuple[type, Any]] = {
    "misdeal_on_dealt_knock": (bool, None),
    "dealer_after_void": (str, ("same", "alternate")),
    "first_turn": (str, ("upcard_offer", "take_or_draw")),
    "pile_draw_limit": (int, range(0, 201)),  # 0: no limit
    "exactly_50_loses": (bool, None),
    "knock_card": (str, ("upcard", "second_deck")),
    "runs": (str, ("ace_low", "ace_high_or_low", "round_the_corner")),
    "card_values": (str, ("standard", "ace_15", "mahjong")),
    "mahjong": (bool, None),
    "team_bonus": (int, range(0, 101)),
    "box_per": (str, ("hand", "game")),
    "first_dealer_by": (str, ("random", "cut_lower_deals", "cut_higher_chooses")),
}
ALL_OPTION_SPECS = {**OPTION_SPECS, **EXTRA_OPTION_SPECS}

_WIKIPEDIA = {"misdeal_on_dealt_knock": True, "dealer_after_void": "alternate"}
_TEDESCO = {**_WIKIPEDIA, "oklahoma": True, "runs": "round_the_corner", "card_values": "ace_15",
            "scoring": "hollywood", "target": 200}

# Each text's own table (RULES.md "Presets": which text, which words). The first five names are
# the presets of the first release, kept exactly as they were so that stored games load.
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "straight": {"knocking_allowed": False},
    "oklahoma": {"oklahoma": True},
    "hollywood": {"scoring": "hollywood"},
    "classic": {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20,
                "undercut_on_tie": True, "next_dealer": "loser"},
    # 000 (the encyclopedia article) and its variations.
    "wikipedia": dict(_WIKIPEDIA),
    "wikipedia_straight_gin": {**_WIKIPEDIA, "knocking_allowed": False},
    "wikipedia_oklahoma_gin": {**_WIKIPEDIA, "oklahoma": True},
    "wikipedia_oklahoma_match_play": {**_WIKIPEDIA, "oklahoma": True, "knock_card": "second_deck"},
    "wikipedia_hollywood_gin": {**_WIKIPEDIA, "scoring": "hollywood"},
    "wikipedia_tournament": {**_WIKIPEDIA, "target": 250},
    "tedesco_gin": dict(_TEDESCO),
    "tedesco_gin_teams_of_three": {**_TEDESCO, "target": 300},
    "mahjong_gin": {**_WIKIPEDIA, "knocking_allowed": False, "big_gin": False, "mahjong": True,
                    "card_values": "mahjong"},
    # 001 (the card-game rules site): 20 for gin, 10 for an undercut, the loser deals; no game
    # bonus, box or shutout in its table (they are only among its variations).
    "pagat": {"gin_bonus": 20, "undercut_bonus": 10, "big_gin": False, "next_dealer": "loser",
              "game_bonus": 0, "box_bonus": 0, "shutout": "none"},
    # 001 with the variations it names for the bonuses: "some play that the bonus for an undercut,
    # the bonus for going gin, and the box (bonus for each game won) are all 25 points" and "if the
    # loser failed to score during the whole game, the winner's entire score is doubled" (issue 25);
    # and 001's own first dealer: "the player who draws the lower card deals".
    "pagat_variations": {"big_gin": False, "next_dealer": "loser", "game_bonus": 0, "box_per": "game",
                         "shutout": "double_total", "first_dealer_by": "cut_lower_deals"},
    # 002 (the short rules page): undercut 20 (a tie too), the winner deals; it breaks off before
    # gin and game scoring, which keep the standard values.
    "poker_tj": {"undercut_bonus": 20, "big_gin": False, "next_dealer": "winner"},
    # 003 (the introductory blog): 25 for gin (10 or 11 cards alike), an undercut only when the
    # knocker has more, 100 for the game and 25 a box, and no shutout: the game's end is "Once a
    # player has acquired 100 points the game is over. In addition wining player gets bonus of 100
    # points for won game and 25 points bonus for each hand won during a game", nothing more.
    "rummy_blog": {"undercut_on_tie": False, "big_gin_bonus": 25, "shutout": "none"},
    # 004 (the Knock 'em down page): the non-dealer takes the upcard or draws, undercut on a tie,
    # 20 a box, a 100 schneider; the game's winner scores the difference, no game bonus.
    "knock_em_down": {"first_turn": "take_or_draw", "big_gin": False, "game_bonus": 0, "box_bonus": 20,
                      "shutout": "plus_100"},
}

_FIELD_NAMES = tuple(f.name for f in fields(Rules))
_STANDARD = {f.name: f.default for f in fields(Rules)}
assert set(ALL_OPTION_SPECS) == set(_FIELD_NAMES) - {"preset"}


def _validate(name: str, value: Any) -> None:
    if name not in ALL_OPTION_SPECS:
        raise InvalidRules(name, f"unknown option {name!r}; known options: {', '.join(ALL_OPTION_SPECS)}")
    kind, allowed = ALL_OPTION_SPECS[name]
    # bool is a subclass of int in Python; a JSON true must not pass as a number, nor 1 as true.
    if type(value) is not kind:
        raise InvalidRules(name, f"option {name!r} must be {kind.__name__}, got {value!r}")
    if isinstance(allowed, range) and value not in allowed:
        raise InvalidRules(name, f"option {name!r} must be within {allowed.start}..{allowed.stop - 1}, got {value}")
    if isinstance(allowed, tuple) and value not in allowed:
        raise InvalidRules(name, f"option {name!r} must be one of {', '.join(allowed)}, got {value!r}")


def _check_combination(rules: Rules) -> None:
    """Options that only make sense together (each refusal names the option to change)."""
    if rules.knock_card == "second_deck" and not rules.oklahoma:
        raise InvalidRules("knock_card", "a knock card from a second deck is Oklahoma's: set oklahoma too")
    if rules.knock_card == "second_deck" and rules.first_turn != "upcard_offer":
        raise InvalidRules("first_turn", "with a second-deck knock card there is no upcard to offer or take")
    if rules.mahjong:
        if rules.knocking_allowed:
            raise InvalidRules("knocking_allowed", "Mahjong gin has no knocking: set knocking_allowed false")
        if rules.oklahoma:
            raise InvalidRules("oklahoma", "Mahjong gin has no knock limit to take from a card")
        if rules.scoring != "single":
            raise InvalidRules("scoring", "Mahjong gin scores both players each hand: single scoring only")
        if rules.big_gin:
            raise InvalidRules("big_gin", "Mahjong gin has no Big Gin: set big_gin false")
