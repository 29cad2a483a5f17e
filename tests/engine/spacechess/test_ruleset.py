"""Rules as data: the GM's `rules` table overrides the source's numbers, and nothing else."""

from __future__ import annotations

import pytest

from engine.core.errors import SetupError
from engine.spacechess.ruleset import DEFAULTS, Ruleset


def test_defaults_are_the_source_tables() -> None:
    """SC-11, SC-20, SC-23, SC-26 numbers as printed in the spec."""
    rules = Ruleset.from_overrides()
    assert rules.ap_cap == 9
    assert (rules.weapons["heavy_bolter"].damage, rules.weapons["heavy_bolter"].range) == (4, 10)
    assert rules.weapons["sniper"].shots == 1 and rules.weapons["bolter"].shots == 3
    assert rules.armours["heavy"].reduction == 2 and not rules.armours["heavy"].jetpack
    assert not rules.weapons["grizzly_bolter"].jetpack
    assert rules.item("grenades", "damage") == 6 and rules.item("grenades", "reach") == 3
    assert [
        rules.power(p, "cost") for p in ("airstrike", "encourage", "intimidate", "hack", "heal", "teleport")
    ] == [
        7,
        4,
        2,
        6,
        2,
        5,
    ]


def test_override_changes_one_number_and_keeps_the_rest() -> None:
    rules = Ruleset.from_overrides({"ap_cap": 12, "weapons": {"sniper": {"range": 18}}})
    assert rules.ap_cap == 12
    assert rules.weapons["sniper"].range == 18
    assert rules.weapons["sniper"].damage == 4
    assert DEFAULTS["weapons"]["sniper"]["range"] == 20


@pytest.mark.parametrize(
    ("overrides", "code", "where"),
    [
        ({"ap_kap": 3}, "unknown_rule", "rules.ap_kap"),
        ({"weapons": {"laser": {"range": 3}}}, "unknown_rule", "rules.weapons.laser"),
        ({"weapons": {"sniper": {"rang": 3}}}, "unknown_rule", "rules.weapons.sniper.rang"),
        ({"weapons": {"sniper": {"range": "far"}}}, "bad_rule_value", "rules.weapons.sniper.range"),
        ({"weapons": {"sniper": {"range": -1}}}, "bad_rule_value", "rules.weapons.sniper.range"),
        ({"weapons": {"sniper": 4}}, "bad_rule_value", "rules.weapons.sniper"),
        ({"loadout_pickups": 1}, "bad_rule_value", "rules.loadout_pickups"),
        ({"ap_cap": True}, "bad_rule_value", "rules.ap_cap"),
        ({"ap_cap": 0}, "bad_rule_value", "rules.ap_cap"),
    ],
)
def test_bad_overrides_are_refused_with_their_path(overrides, code, where) -> None:
    with pytest.raises(SetupError) as error:
        Ruleset.from_overrides(overrides)
    assert (error.value.code, error.value.where) == (code, where)


def test_speed_may_be_negative() -> None:
    assert Ruleset.from_overrides({"armours": {"light": {"speed": -1}}}).armours["light"].speed == -1


def test_override_is_used_by_the_game(sc) -> None:
    """SC-20 with a ruleset: a sniper limited to 5 cells cannot reach 6."""
    state = sc.build(
        sc.soldier("s", 1, "A1", weapon="sniper", items=["grenades", "vigour"], ap=9),
        sc.soldier("t", 2, "A7"),
        rules={"weapons": {"sniper": {"range": 5}}},
    )
    assert sc.refused(state, "order", "s", {"text": "shoot t"}).code == "out_of_range"


def test_top_level_hp_settings_win_and_point_to_their_key(sc) -> None:
    """SC-8: hp_soldier / hp_general are setup keys; a bad one is reported where it was written."""
    state = sc.build(sc.soldier("s", 1, "A1"), hp_soldier=12)
    assert sc.view_of(state, "s")["max_hp"] == 12
    with pytest.raises(SetupError) as error:
        sc.build(sc.soldier("s", 1, "A1"), hp_general=0)
    assert error.value.where == "hp_general"


def test_ruleset_equality_compares_numbers() -> None:
    assert Ruleset.from_overrides({"ap_cap": 9}) == Ruleset.from_overrides()
    assert Ruleset.from_overrides({"ap_cap": 8}) != Ruleset.from_overrides()
