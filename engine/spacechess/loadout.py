"""Loadouts and pickups: the checks shared by setup documents and lobby inputs (names: engine.core.names).

They raise SetupError with `where` relative to the record checked ("weapon", "items[1]"); callers
prefix it ("characters[2].weapon") or turn it into an OrderError for a player's input, so the rules
of SC-5..SC-9 and SC-27 are written once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core.errors import SetupError
from engine.core.squaregrid import Cell
from engine.spacechess.ruleset import (
    ABILITIES,
    ARMOURS,
    CARD_COUNT,
    GENERAL_ARMOUR,
    GENERAL_WEAPON,
    GRADES,
    ITEMS,
    PICKUP_ONLY_ITEMS,
    PICKUP_ONLY_WEAPONS,
    WEAPONS,
    Ruleset,
)
from engine.spacechess.state import Character, Pickup

LOADOUT_KEYS = ("weapon", "armour", "items", "ability", "cards", "grade")
ITEMS_PER_SOLDIER = 2
CARDS_PER_CHARACTER = 2


@dataclass(frozen=True, slots=True)
class Loadout:
    weapon: str | None = None
    armour: str | None = None
    items: tuple[str, ...] = ()
    ability: str | None = None
    cards: tuple[int, ...] = ()
    grade: str | None = None

    def worn_by(self, character: Character) -> Character:
        """The character carrying this loadout (every part replaced, chosen or not)."""
        return replace(character, weapon=self.weapon, armour=self.armour, items=self.items, ability=self.ability,
                       cards=self.cards, grade=self.grade)


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise SetupError("bad_loadout", where, reason="unknown", value=value, allowed=list(allowed))
    return value


def _distinct_list(value: Any, where: str, limit: int, complete: bool, allowed: Any) -> list[Any]:
    """A list of distinct choices; an entry that is a table or a list is an unknown choice, caught
    here because comparing entries needs plain values."""
    if not isinstance(value, list | tuple):
        raise SetupError("bad_loadout", where, reason="not_a_list", value=value)
    for index, entry in enumerate(value):
        if not isinstance(entry, str | int):
            raise SetupError(
                "bad_loadout", f"{where}[{index}]", reason="unknown", value=entry, allowed=allowed
            )
    if len(set(value)) != len(value):
        raise SetupError("bad_loadout", where, reason="repeated", value=list(value))
    if len(value) > limit or (complete and len(value) != limit):
        raise SetupError("bad_loadout", where, reason="count", expected=limit, got=len(value))
    return list(value)


def _cards(value: Any, complete: bool) -> tuple[int, ...]:
    allowed = f"1..{CARD_COUNT}"
    cards = _distinct_list(value, "cards", CARDS_PER_CHARACTER, complete, allowed)
    for index, card in enumerate(cards):
        if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= CARD_COUNT:
            raise SetupError("bad_loadout", f"cards[{index}]", reason="unknown", value=card, allowed=allowed)
    return tuple(cards)


def _general_loadout(fields: Mapping[str, Any], complete: bool) -> Loadout:
    """SC-7: a general only chooses cards; its fixed equipment may be restated, not changed."""
    fixed = {"weapon": GENERAL_WEAPON, "armour": GENERAL_ARMOUR, "items": [], "ability": None, "grade": None}
    for key, value in fixed.items():
        given = fields.get(key)
        if given is not None and given != value and not (key == "items" and given == ()):
            raise SetupError("bad_loadout", key, reason="general_fixed", value=given, expected=value)
    cards = _cards(fields["cards"], complete) if fields.get("cards") is not None else ()
    if complete and not cards:
        raise SetupError("bad_loadout", "cards", reason="missing")
    return Loadout(GENERAL_WEAPON, GENERAL_ARMOUR, (), None, cards, None)


def check_loadout(rules: Ruleset, role: str, fields: Mapping[str, Any], complete: bool) -> Loadout:
    """SC-6/7/9/27 for one character; `complete` demands every choice (equip, running games)."""
    if role == "general":
        return _general_loadout(fields, complete)
    for key in ("weapon", "armour", "ability", "items", "cards"):
        if complete and fields.get(key) is None:
            raise SetupError("bad_loadout", key, reason="missing")
    weapon = fields.get("weapon")
    if weapon is not None:
        _choice(weapon, WEAPONS, "weapon")
        if weapon == GENERAL_WEAPON:
            raise SetupError("bad_loadout", "weapon", reason="general_only", value=weapon)
        if weapon in PICKUP_ONLY_WEAPONS and not rules.loadout_pickups:
            raise SetupError("bad_loadout", "weapon", reason="pickup_only", value=weapon)
    armour = fields.get("armour")
    if armour is not None:
        _choice(armour, ARMOURS, "armour")
    ability = fields.get("ability")
    if ability is not None:
        _choice(ability, ABILITIES, "ability")
    items = _distinct_list(fields.get("items") or [], "items", ITEMS_PER_SOLDIER, complete, list(ITEMS))
    for index, item in enumerate(items):
        _choice(item, ITEMS, f"items[{index}]")
        if item in PICKUP_ONLY_ITEMS and not rules.loadout_pickups:
            raise SetupError("bad_loadout", f"items[{index}]", reason="pickup_only", value=item)
    grade = fields.get("grade")
    if "grade" in items:
        if grade is None:
            raise SetupError("bad_loadout", "grade", reason="missing")
        _choice(grade, GRADES, "grade")
    elif grade is not None:
        raise SetupError("bad_loadout", "grade", reason="no_grade_item", value=grade)
    cards = _cards(fields["cards"], complete) if fields.get("cards") is not None else ()
    return Loadout(weapon, armour, tuple(items), ability, cards, grade)


def loadout_missing(character: Character) -> list[str]:
    """What `start` still needs from this character: the names of its unchosen loadout parts."""
    missing = [] if len(character.cards) == CARDS_PER_CHARACTER else ["cards"]
    if character.is_general:
        return missing
    for key in ("weapon", "armour", "ability"):
        if getattr(character, key) is None:
            missing.append(key)
    if len(character.items) != ITEMS_PER_SOLDIER:
        missing.append("items")
    return missing


def start_character(rules: Ruleset, character: Character) -> tuple[Character, list[str], bool]:
    """What the start of the game does to a character: SC-27 colonel destroys the other items, SC-8
    vigour adds HP to the maximum and the current value. Returns (character, destroyed, vigour)."""
    destroyed: list[str] = []
    if character.is_colonel:
        destroyed = [item for item in character.items if item != "grade"]
        character = replace(character, items=("grade",))
    vigour = character.has("vigour")
    if vigour:
        bonus = rules.item("vigour", "hp")
        character = replace(character, hp=character.hp + bonus, max_hp=character.max_hp + bonus)
    return character, destroyed, vigour


PICKUP_KINDS = ("item", "weapon", "ap", "hp")


def check_pickup(data: Mapping[str, Any], cell: Cell) -> Pickup:
    """SC-33 pickups: an item or weapon card (not the grade, not the chainsword) or +N AP / +N HP."""
    if not isinstance(data, Mapping):
        raise SetupError("bad_pickup", "", reason="not_a_table")
    kind = data.get("kind")
    if kind not in PICKUP_KINDS:
        raise SetupError("bad_pickup", "kind", reason="unknown", value=kind, allowed=list(PICKUP_KINDS))
    allowed_keys = {"at", "kind", kind if kind in ("item", "weapon") else "amount"}
    for key in data:
        if key not in allowed_keys:
            raise SetupError("unknown_key", str(key), allowed=sorted(allowed_keys))
    if kind in ("item", "weapon"):
        name = data.get(kind)
        choices = (
            tuple(i for i in ITEMS if i != "grade")
            if kind == "item"
            else tuple(w for w in WEAPONS if w != GENERAL_WEAPON)
        )
        if name not in choices:
            raise SetupError("bad_pickup", kind, reason="unknown", value=name, allowed=list(choices))
        return Pickup(cell, kind, name=name)
    amount = data.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise SetupError("bad_pickup", "amount", reason="not_positive", value=amount)
    return Pickup(cell, kind, amount=amount)
