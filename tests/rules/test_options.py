"""Rules options and presets (RULES.md: Options; docs/engine-api.md: Rules)."""
import json

import pytest

from service.rules import PRESETS, InvalidRules, Rules

OPTIONS = {"knock_limit", "knocking_allowed", "oklahoma", "gin_bonus", "undercut_bonus", "undercut_on_tie",
           "big_gin", "big_gin_bonus", "target", "game_bonus", "box_bonus", "shutout", "next_dealer",
           "scoring", "last_discard_rule"}

STANDARD = {"knock_limit": 10, "knocking_allowed": True, "oklahoma": False, "gin_bonus": 25,
            "undercut_bonus": 25, "undercut_on_tie": True, "big_gin": True, "big_gin_bonus": 31,
            "target": 100, "game_bonus": 100, "box_bonus": 25, "shutout": "double",
            "next_dealer": "alternate", "scoring": "single", "last_discard_rule": "void"}


def test_standard_values_are_those_of_rules_md():
    assert Rules.from_options().to_dict() == {**STANDARD, "preset": "standard"}
    assert Rules.from_dict({}).to_dict() == {**STANDARD, "preset": "standard"}


@pytest.mark.parametrize("preset, changes", [
    ("standard", {}),
    ("straight", {"knocking_allowed": False}),
    ("oklahoma", {"oklahoma": True}),
    ("hollywood", {"scoring": "hollywood"}),
    ("classic", {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20, "undercut_on_tie": True,
                 "next_dealer": "loser"}),
])
def test_presets(preset, changes):
    # The first release's presets stay, unchanged, so stored games load (issue 14 added more).
    assert {"standard", "straight", "oklahoma", "hollywood", "classic"} <= set(PRESETS)
    rules = Rules.from_options(preset)
    assert rules.to_dict() == {**STANDARD, **changes, "preset": preset}
    assert Rules.from_dict({"preset": preset}) == rules
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize("option, value", [
    ("knock_limit", 0), ("knock_limit", 7), ("knocking_allowed", False), ("oklahoma", True),
    ("gin_bonus", 20), ("undercut_bonus", 20), ("undercut_bonus", 10), ("undercut_on_tie", False),
    ("big_gin", False), ("big_gin_bonus", 50), ("target", 150), ("target", 200), ("target", 250),
    ("game_bonus", 0), ("box_bonus", 20), ("shutout", "none"), ("shutout", "plus_100"),
    ("next_dealer", "winner"), ("next_dealer", "loser"), ("scoring", "hollywood"),
    ("last_discard_rule", "take_to_finish"),
])
def test_every_alternative_of_every_option_is_accepted(option, value):
    rules = Rules.from_options(**{option: value})
    assert rules.to_dict()[option] == value
    assert Rules.from_dict({option: value}).to_dict()[option] == value
    # Overrides go on top of a preset.
    assert Rules.from_options("classic", **{option: value}).to_dict()[option] == value


def test_every_option_is_listed():
    assert set(Rules.from_options().to_dict()) == OPTIONS | {"preset"}


@pytest.mark.parametrize("data, option", [
    ({"knock_limt": 10}, "knock_limt"),
    ({"colour": "red"}, "colour"),
    ({"preset": "tedesco"}, "preset"),
    ({"knock_limit": 11}, "knock_limit"),
    ({"knock_limit": -1}, "knock_limit"),
    ({"knock_limit": "10"}, "knock_limit"),
    ({"knock_limit": 5.5}, "knock_limit"),
    ({"knock_limit": True}, "knock_limit"),
    ({"knocking_allowed": "no"}, "knocking_allowed"),
    ({"knocking_allowed": 1}, "knocking_allowed"),
    ({"oklahoma": None}, "oklahoma"),
    ({"gin_bonus": -5}, "gin_bonus"),
    ({"undercut_bonus": -1}, "undercut_bonus"),
    ({"undercut_on_tie": "true"}, "undercut_on_tie"),
    ({"big_gin": 0}, "big_gin"),
    ({"big_gin_bonus": -31}, "big_gin_bonus"),
    ({"target": 0}, "target"),
    ({"target": -100}, "target"),
    ({"game_bonus": -100}, "game_bonus"),
    ({"box_bonus": -25}, "box_bonus"),
    ({"shutout": "triple"}, "shutout"),
    ({"next_dealer": "random"}, "next_dealer"),
    ({"scoring": "tedesco"}, "scoring"),
    ({"last_discard_rule": "keep"}, "last_discard_rule"),
    ({"preset": "straight", "knock_limit": 12}, "knock_limit"),
])
def test_unknown_option_or_bad_value_raises_invalid_rules_naming_it(data, option):
    with pytest.raises(InvalidRules) as info:
        Rules.from_dict(data)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.code == "invalid-option"
    assert error.option == option
    assert option in str(error)
    preset = data.get("preset", "standard")
    if option != "preset":
        overrides = {k: v for k, v in data.items() if k != "preset"}
        with pytest.raises(InvalidRules) as again:
            Rules.from_options(preset, **overrides)
        assert again.value.option == option


def test_unknown_preset_through_from_options():
    with pytest.raises(InvalidRules) as info:
        Rules.from_options("tedesco")
    assert info.value.option == "preset" and "tedesco" in str(info.value)


@pytest.mark.parametrize("options, option", [({"knock_limit": 50}, "knock_limit"),
                                             ({"shutout": "bogus"}, "shutout"),
                                             ({"scoring": "nope"}, "scoring"),
                                             ({"big_gin": 1}, "big_gin"),
                                             ({"preset": "tedesco"}, "preset")])
def test_rules_built_directly_are_validated_too(options, option):
    with pytest.raises(InvalidRules) as info:
        Rules(**options)
    assert info.value.option == option
