"""The setup phase: join, leave, equip, deploy and start (SC-5..SC-10, SC-27).

These inputs come from players and the GM through the bot; their faults are OrderErrors (a reply
to a person), while the same checks on a setup document are SetupErrors (a file to fix).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.names import check_name
from engine.core.squaregrid import format_cell, parse_cell
from engine.spacechess.actions import Result
from engine.spacechess.events import event
from engine.spacechess.loadout import check_loadout, loadout_missing, start_character
from engine.spacechess.ruleset import ROLES, TEAMS
from engine.spacechess.setupdoc import new_character, team_room
from engine.spacechess.state import RUNNING, Character, GameState


def field(payload: Mapping[str, Any], key: str) -> Any:
    if key not in payload:
        raise OrderError("bad_input", key=key, reason="missing")
    return payload[key]


def member(state: GameState, payload: Mapping[str, Any]) -> Character:
    name = field(payload, "id")
    character = state.find(str(name))
    if character is None:
        raise OrderError("unknown_character", name=name)
    return character


def join(state: GameState, payload: Mapping[str, Any]) -> Result:
    try:
        ident = check_name(field(payload, "id"))
    except SetupError as error:
        raise OrderError("bad_id", **error.params) from error
    if state.find(ident) is not None:  # `find` compares names as name_key does: Ｃｉｄ is Cid
        raise OrderError("duplicate_name", id=ident)
    team = field(payload, "team")
    if team not in TEAMS or isinstance(team, bool):
        raise OrderError("bad_input", key="team", reason="choice", value=team, allowed=list(TEAMS))
    role = field(payload, "role")
    if role not in ROLES:
        raise OrderError("bad_input", key="role", reason="choice", value=role, allowed=list(ROLES))
    if not team_room(state.characters, team, role):
        raise OrderError("team_full", team=team, role=role)
    character = new_character(state.rules, ident, team, role)
    state = replace(state, characters=(*state.characters, character))
    return state, [event("joined", id=ident, team=team, role=role)]


def leave(state: GameState, payload: Mapping[str, Any]) -> Result:
    character = member(state, payload)
    state = replace(state, characters=tuple(c for c in state.characters if c.id != character.id))
    return state, [event("left", id=character.id)]


def equip(state: GameState, payload: Mapping[str, Any]) -> Result:
    """A full loadout choice (SC-6), or only the cards for a general (SC-7)."""
    character = member(state, payload)
    try:
        loadout = check_loadout(state.rules, character.role, payload, complete=True)
    except SetupError as error:
        raise OrderError("bad_loadout", field=error.where, **error.params) from error
    state = state.with_character(loadout.worn_by(character))
    return state, [
        event(
            "equipped",
            id=character.id,
            weapon=loadout.weapon,
            armour=loadout.armour,
            items=list(loadout.items),
            ability=loadout.ability,
            cards=list(loadout.cards),
            grade=loadout.grade,
        )
    ]


def deployment_rows(state: GameState, team: int) -> tuple[int, int]:
    """SC-10: team 1 on rows 1-2, team 2 on the map's last two rows (0-based row indexes)."""
    return (0, 1) if team == 1 else (state.game_map.height - 2, state.game_map.height - 1)


def deploy(state: GameState, payload: Mapping[str, Any]) -> Result:
    character = member(state, payload)
    text = str(field(payload, "at"))
    cell = parse_cell(text, state.game_map.width, state.game_map.height)
    rows = deployment_rows(state, character.team)
    if cell.y not in rows:
        raise OrderError("bad_deployment", cell=format_cell(cell), rows=[r + 1 for r in rows])
    if not state.game_map.is_floor(cell):
        raise OrderError("path_blocked", cell=format_cell(cell), reason="obstacle")
    occupant = state.occupant(cell)
    if occupant is not None and occupant.id != character.id:
        raise OrderError("occupied", cell=format_cell(cell), by=occupant.id)
    state = state.with_character(replace(character, at=cell))
    return state, [event("deployed", id=character.id, at=format_cell(cell))]


def missing_for_start(state: GameState) -> list[str]:
    """Everything `start` waits for, as "general:<team>", "<part>:<id>", "deploy:<id>"."""
    missing = [f"general:{team}" for team in TEAMS if state.general(team) is None]
    for character in state.characters:
        missing.extend(f"{part}:{character.id}" for part in loadout_missing(character))
        if character.at is None:
            missing.append(f"deploy:{character.id}")
    return missing


def start(state: GameState, payload: Mapping[str, Any]) -> Result:
    missing = missing_for_start(state)
    if missing:
        raise OrderError("not_ready", missing=missing)
    characters = []
    destroyed = []
    vigour = []
    for character in state.characters:
        started, lost, strong = start_character(state.rules, character)
        characters.append(started)
        if lost:
            destroyed.append({"id": character.id, "items": lost})
        if strong:
            vigour.append(character.id)
    state = replace(state, characters=tuple(characters), status=RUNNING)
    return state, [event("started", destroyed=destroyed, vigour=vigour)]
