"""Game-master inputs: corrections (gm_set), pickups placed by hand (SC-33), the time limit (SC-31).

A GM correction is still checked against the caps and the board, because a typo by the GM must not
produce a state the rules could never reach (13 AP, two characters on one cell).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.squaregrid import format_cell, parse_cell
from engine.spacechess.actions import Result, check_destination
from engine.spacechess.events import event
from engine.spacechess.loadout import check_pickup
from engine.spacechess.lobby import field, member
from engine.spacechess.state import GameState


def _bounded(payload: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = payload[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OrderError("bad_input", key=key, reason="range", value=value, minimum=low, maximum=high)
    return value


def gm_set(state: GameState, payload: Mapping[str, Any]) -> Result:
    """Set hp (0 kills, SC-28), ap and/or position of a living character."""
    character = member(state, payload)
    if not character.alive:
        raise OrderError("dead", name=character.id)
    changes: dict[str, Any] = {}
    updated = character
    if payload.get("hp") is not None:
        changes["hp"] = _bounded(payload, "hp", 0, character.max_hp)
        updated = replace(updated, hp=changes["hp"])
    if payload.get("ap") is not None:
        changes["ap"] = _bounded(payload, "ap", 0, state.rules.ap_cap)
        updated = replace(updated, ap=changes["ap"])
    if payload.get("at") is not None:
        cell = parse_cell(str(payload["at"]), state.game_map.width, state.game_map.height)
        check_destination(state, cell, character.id)
        changes["at"] = format_cell(cell)
        updated = replace(updated, at=cell)
    if not changes:
        raise OrderError("bad_input", key="hp|ap|at", reason="missing")
    events = [event("gm_set", id=character.id, changes=changes, reason=payload.get("reason"))]
    if updated.hp == 0:
        where = None if updated.at is None else format_cell(updated.at)
        events.append(event("died", id=character.id, at=where, cause="gm", by=None))
        updated = replace(updated, at=None)
    return state.with_character(updated), events


def place_pickup(state: GameState, payload: Mapping[str, Any]) -> Result:
    cell = parse_cell(str(field(payload, "at")), state.game_map.width, state.game_map.height)
    if not state.game_map.is_floor(cell):
        raise OrderError("path_blocked", cell=format_cell(cell), reason="obstacle")
    if state.pickup_at(cell) is not None:
        raise OrderError("occupied", cell=format_cell(cell), reason="pickup_there")
    occupant = state.occupant(cell)
    if occupant is not None:  # SC-33: a move ending on a pickup takes it; one put underfoot never would be
        raise OrderError("occupied", cell=format_cell(cell), by=occupant.id)
    try:
        pickup = check_pickup(payload, cell)
    except SetupError as error:
        raise OrderError(error.code, field=error.where, **error.params) from error
    state = replace(state, pickups=(*state.pickups, pickup))
    return state, [event("pickup_placed", pickup=pickup.to_json())]
