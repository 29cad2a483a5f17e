"""The Space Chess setup document (scenarios.md): map, HP settings, rules, characters, pickups.

A document describes either a game already running (the default: deployment done, the start of
the game applied — colonel grade, vigour) or, with ``phase = "setup"``, a lobby whose characters
may still be partial. Every fault is a SetupError whose `where` is the key path to fix
(``characters[2].weapon``; list indexes count from 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.names import check_name, name_key
from engine.core.squaregrid import Cell, parse_cell
from engine.spacechess.loadout import check_loadout, check_pickup, start_character
from engine.spacechess.maps import MAP_NAMES, GameMap, parse_map, standard_map
from engine.spacechess.ruleset import GENERAL_ARMOUR, GENERAL_WEAPON, ROLES, TEAMS, Ruleset
from engine.spacechess.state import RUNNING, SETUP, Character, GameState, Pickup

DOCUMENT_KEYS = frozenset({"map", "hp_soldier", "hp_general", "rules", "characters", "pickups", "phase"})
CHARACTER_KEYS = frozenset(
    {"id", "team", "role", "at", "weapon", "armour", "items", "ability", "cards", "ap", "hp", "grade"}
)
MAX_SOLDIERS_PER_TEAM = 6


def _prefixed(error: SetupError, prefix: str) -> SetupError:
    where = f"{prefix}.{error.where}" if error.where else prefix
    return SetupError(error.code, where, **error.params)


def _check_keys(data: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise SetupError("unknown_key", f"{where}{key}", allowed=sorted(allowed))


def load_map(value: Any) -> GameMap:
    """A map name (MAP_NAMES) or a map's text; one line is never a map (SC-34 asks for 4 rows), so
    `map = "nope"` reads as an unknown name rather than a fault at "line 1, column 1"."""
    if value is None or value in MAP_NAMES:
        return standard_map()
    if not isinstance(value, str) or "\n" not in value.strip():
        raise SetupError("bad_map", "map", value=value, known=list(MAP_NAMES))
    try:
        return parse_map(value)
    except SetupError as error:
        raise SetupError(error.code, f"map, {error.where}" if error.where else "map", **error.params) from error


def setup_cell(game_map: GameMap, value: Any, where: str) -> Cell:
    """A cell named in a document: on the map and floor (SC-34 obstacles hold nobody)."""
    try:
        cell = parse_cell(value if isinstance(value, str) else "", game_map.width, game_map.height)
    except OrderError as error:
        raise SetupError("bad_cell", where, cell=value) from error
    if not game_map.is_floor(cell):
        raise SetupError("not_floor", where, cell=value)
    return cell


def _int(data: Mapping[str, Any], key: str, where: str, low: int, high: int, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError(f"bad_{key}", f"{where}.{key}", value=value, minimum=low, maximum=high)
    return value


def team_room(characters: list[Character] | tuple[Character, ...], team: int, role: str) -> bool:
    """SC-5: one general and at most six soldiers per team."""
    same = sum(1 for c in characters if c.team == team and c.role == role)
    return same < (1 if role == "general" else MAX_SOLDIERS_PER_TEAM)


def new_character(rules: Ruleset, ident: str, team: int, role: str) -> Character:
    hp = rules.base_hp(role)
    if role == "general":
        return Character(ident, team, role, None, hp, hp, weapon=GENERAL_WEAPON, armour=GENERAL_ARMOUR)
    return Character(ident, team, role, None, hp, hp)


def _character(
    rules: Ruleset, game_map: GameMap, data: Any, where: str, running: bool, taken: list[Character]
) -> Character:
    if not isinstance(data, Mapping):
        raise SetupError("bad_character", where)
    _check_keys(data, CHARACTER_KEYS, f"{where}.")
    ident = check_name(data.get("id"), f"{where}.id")
    if any(name_key(c.id) == name_key(ident) for c in taken):
        raise SetupError("duplicate_name", f"{where}.id", id=ident)
    team = data.get("team")
    if not isinstance(team, int) or isinstance(team, bool) or team not in TEAMS:
        raise SetupError("bad_team", f"{where}.team", value=team)
    role = data.get("role")
    if role not in ROLES:
        raise SetupError("bad_role", f"{where}.role", value=role)
    if not team_room(taken, team, role):
        raise SetupError("team_full", f"{where}.role", team=team, role=role)
    try:
        loadout = check_loadout(rules, role, data, complete=running)
    except SetupError as error:
        raise _prefixed(error, where) from error
    character = loadout.worn_by(new_character(rules, ident, team, role))
    if data.get("at") is not None:
        cell = setup_cell(game_map, data["at"], f"{where}.at")
        other = next((c for c in taken if c.at == cell), None)
        if other is not None:
            raise SetupError("occupied", f"{where}.at", cell=data["at"], by=other.id)
        character = replace(character, at=cell)
    elif running:
        raise SetupError("bad_cell", f"{where}.at", cell=None, reason="missing")
    if running:
        character, _, _ = start_character(rules, character)
    hp = _int(data, "hp", where, 1, character.max_hp, character.max_hp)
    ap = _int(data, "ap", where, 0, rules.ap_cap, 0)
    return replace(character, hp=hp, ap=ap)


def _pickups(game_map: GameMap, data: Any) -> tuple[Pickup, ...]:
    if not isinstance(data, list):
        raise SetupError("bad_pickup", "pickups", reason="not_a_list")
    pickups: list[Pickup] = []
    for index, entry in enumerate(data):
        where = f"pickups[{index}]"
        cell = setup_cell(game_map, entry.get("at") if isinstance(entry, Mapping) else None, f"{where}.at")
        if any(p.at == cell for p in pickups):
            raise SetupError("occupied", f"{where}.at", cell=entry["at"], reason="pickup_there")
        try:
            pickups.append(check_pickup(entry, cell))
        except SetupError as error:
            raise _prefixed(error, where) from error
    return tuple(pickups)


def check_generals(characters: tuple[Character, ...]) -> None:
    """SC-5 for a running game: each team has its general."""
    for team in TEAMS:
        if not any(c.team == team and c.is_general for c in characters):
            raise SetupError("no_general", "characters", team=team)


def build_state(document: Mapping[str, Any]) -> GameState:
    if not isinstance(document, Mapping):
        raise SetupError("bad_document", "")
    _check_keys(document, DOCUMENT_KEYS, "")
    phase = document.get("phase", RUNNING)
    if phase not in (RUNNING, SETUP):
        raise SetupError("bad_phase", "phase", value=phase, allowed=[SETUP, RUNNING])
    running = phase == RUNNING
    if not isinstance(document.get("rules", {}), Mapping):
        raise SetupError("bad_rule_value", "rules", expected="table", got=document["rules"])
    overrides = dict(document.get("rules", {}))
    for key in ("hp_soldier", "hp_general"):
        if key in document:
            overrides[key] = document[key]
    try:
        rules = Ruleset.from_overrides(overrides)
    except SetupError as error:
        # hp_soldier / hp_general may come from the top level: point there
        where = (
            error.where.removeprefix("rules.")
            if error.where.removeprefix("rules.") in document
            else error.where
        )
        raise SetupError(error.code, where, **error.params) from error
    game_map = load_map(document.get("map"))
    raw = document.get("characters", [])
    if not isinstance(raw, list):
        raise SetupError("bad_character", "characters", reason="not_a_list")
    characters: list[Character] = []
    for index, data in enumerate(raw):
        characters.append(_character(rules, game_map, data, f"characters[{index}]", running, characters))
    if running:
        check_generals(tuple(characters))
    pickups = _pickups(game_map, document.get("pickups", []))
    state = GameState(rules, game_map, tuple(characters), status=phase, pickups=pickups)
    return state
