"""Space Chess rules as data: every number of the equipment tables, powers and caps in one place.

The source's tables (spacechess.md) are the defaults; a GM may override any number per game with
the setup document key ``rules`` (``rules = { ap_cap = 12, weapons = { sniper = { range = 18 } } }``).
Keeping the numbers as one nested table means an override is checked against the same shape the
engine reads, so a misspelt key is refused instead of silently ignored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from engine.core.errors import SetupError

WEAPONS = ("bolter", "heavy_bolter", "sniper", "chainsword", "grizzly_bolter")
ARMOURS = ("light", "medium", "heavy")
ITEMS = (
    "grade",
    "grenades",
    "jetpack",
    "scope",
    "perforating",
    "logistics",
    "vigour",
    "psycho_brain",
    "reserve_magazines",
)
ABILITIES = ("vehicle", "rage", "friendship")
POWERS = ("airstrike", "encourage", "intimidate", "hack", "heal", "teleport")
GRADES = ("lieutenant", "colonel")
ROLES = ("soldier", "general")
TEAMS = (1, 2)

#: SC-9: equipment that only comes from pickups unless the ruleset sets ``loadout_pickups``.
PICKUP_ONLY_ITEMS = frozenset({"psycho_brain", "reserve_magazines"})
PICKUP_ONLY_WEAPONS = frozenset({"grizzly_bolter"})
#: SC-7: the general's fixed equipment.
GENERAL_WEAPON = "chainsword"
GENERAL_ARMOUR = "medium"

CARD_COUNT = 7
CARD_SIZE = 7

#: The source's numbers. Booleans are switches, every other leaf is a non-negative integer
#: (speeds may be negative).
DEFAULTS: dict[str, Any] = {
    "ap_cap": 9,
    "hp_soldier": 20,
    "hp_general": 30,
    "shot_cost": 1,
    "loadout_pickups": False,
    "weapons": {
        "bolter": {"damage": 2, "range": 7, "speed": 0, "shots": 3, "jetpack": True},
        "heavy_bolter": {"damage": 4, "range": 10, "speed": -1, "shots": 2, "jetpack": True},
        "sniper": {"damage": 4, "range": 20, "speed": -1, "shots": 1, "jetpack": True},
        "chainsword": {"damage": 6, "range": 1, "speed": 0, "shots": 2, "jetpack": True},
        "grizzly_bolter": {"damage": 6, "range": 13, "speed": -2, "shots": 1, "jetpack": False},
    },
    "armours": {
        "light": {"reduction": 0, "speed": 0, "jetpack": True},
        "medium": {"reduction": 1, "speed": -1, "jetpack": True},
        "heavy": {"reduction": 2, "speed": -2, "jetpack": False},
    },
    "items": {
        "grenades": {"damage": 6, "reach": 3, "per_turn": 1, "cost": 1},
        "jetpack": {"speed": 1},
        "scope": {"range": 6},
        "reserve_magazines": {"shots": 1},
        "vigour": {"hp": 6},
        "logistics": {"discount": 1},
    },
    "grades": {"lieutenant": 1, "colonel": 2},
    "powers": {
        "airstrike": {"cost": 7, "damage": 5, "length": 4},
        "encourage": {"cost": 4, "bonus": 1},
        "intimidate": {"cost": 2, "radius": 5, "shift": 3},
        "hack": {"cost": 6, "malus": 1},
        "heal": {"cost": 2, "amount": 3},
        "teleport": {"cost": 5},
    },
}

_SIGNED_KEYS = frozenset({"speed"})


@dataclass(frozen=True, slots=True)
class WeaponSpec:
    damage: int
    range: int
    speed: int
    shots: int
    jetpack: bool


@dataclass(frozen=True, slots=True)
class ArmourSpec:
    reduction: int
    speed: int
    jetpack: bool


def _merge(base: dict[str, Any], override: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Overlay `override` on `base`, refusing keys and value kinds the defaults do not have.

    Tables the override does not touch are shared with `base`, not copied: the merged table is
    read-only by convention (the engine never writes to it).
    """
    merged = dict(base)
    for key, value in override.items():
        path = f"{where}.{key}"
        if key not in base:
            raise SetupError("unknown_rule", path, key=key, known=", ".join(base))
        default = base[key]
        if isinstance(default, dict):
            if not isinstance(value, Mapping):
                raise SetupError("bad_rule_value", path, expected="table", got=value)
            merged[key] = _merge(default, value, path)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise SetupError("bad_rule_value", path, expected="boolean", got=value)
            merged[key] = value
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise SetupError("bad_rule_value", path, expected="integer", got=value)
            if value < 0 and key not in _SIGNED_KEYS:
                raise SetupError("bad_rule_value", path, expected="integer >= 0", got=value)
            merged[key] = value
    return merged


def _normalise(override: Mapping[str, Any]) -> dict[str, Any]:
    """A plain-dict deep copy, so the stored overrides are JSON and cannot be mutated from outside."""
    return {k: _normalise(v) if isinstance(v, Mapping) else v for k, v in override.items()}


@dataclass(frozen=True, eq=False)
class Ruleset:
    """The numbers one game plays with: the defaults plus the GM's overrides.

    Only the overrides are stored (they are what the GM wrote and what the state serialises), the
    full table is derived from them.
    """

    overrides: Mapping[str, Any]

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, Any] | None = None, where: str = "rules") -> Ruleset:
        """Validate and build; equal overrides give the same shared (immutable) object, which keeps
        reloading a stored state cheap."""
        overrides = _normalise(overrides or {})
        return _ruleset(json.dumps(overrides, sort_keys=True), where)

    def to_json(self) -> dict[str, Any]:
        """A fresh copy of the overrides: the ruleset object is shared and must stay unchanged."""
        return _normalise(self.overrides)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and self.table == other.table

    __hash__ = None  # type: ignore[assignment]

    @cached_property
    def table(self) -> dict[str, Any]:
        return _merge(DEFAULTS, self.overrides, "rules")

    @cached_property
    def weapons(self) -> dict[str, WeaponSpec]:
        return {name: WeaponSpec(**spec) for name, spec in self.table["weapons"].items()}

    @cached_property
    def armours(self) -> dict[str, ArmourSpec]:
        return {name: ArmourSpec(**spec) for name, spec in self.table["armours"].items()}

    @property
    def ap_cap(self) -> int:
        return self.table["ap_cap"]

    @property
    def shot_cost(self) -> int:
        return self.table["shot_cost"]

    @property
    def loadout_pickups(self) -> bool:
        return self.table["loadout_pickups"]

    def base_hp(self, role: str) -> int:
        return self.table[f"hp_{role}"]

    def item(self, name: str, key: str) -> int:
        return self.table["items"][name][key]

    def power(self, name: str, key: str) -> int:
        return self.table["powers"][name][key]

    def grade_bonus(self, grade: str | None) -> int:
        return self.table["grades"][grade] if grade else 0


@lru_cache(maxsize=64)
def _ruleset(overrides_json: str, where: str) -> Ruleset:
    overrides = json.loads(overrides_json)
    _merge(DEFAULTS, overrides, where)  # refuse a bad ruleset at setup, not mid-game
    ruleset = Ruleset(overrides)
    if ruleset.ap_cap < 1:
        raise SetupError("bad_rule_value", f"{where}.ap_cap", expected="integer >= 1", got=ruleset.ap_cap)
    for role in ROLES:
        if ruleset.base_hp(role) < 1:
            raise SetupError("bad_rule_value", f"{where}.hp_{role}", expected="integer >= 1", got=0)
    return ruleset
