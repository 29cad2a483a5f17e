"""What an order would do, without doing it: the bot's "confirm?" prompts and board overlays.

Each preview runs the very checks and geometry the orders use (movement, combat), so a preview
and the order it announces cannot disagree. Results are plain JSON (cells as "C12") so the bot and
the renderers can use them directly. A preview of an impossible order raises the same OrderError
the order would, except that a move too expensive for the AP left is still previewed (with
``affordable: false``) because the player wants to know the price.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import OrderError
from engine.core.squaregrid import Cell, distance, format_cell
from engine.spacechess.actions import plan_move, target_of
from engine.spacechess.combat import (
    airstrike_area,
    characters_in,
    check_grenade,
    check_on_board,
    check_shot,
    line_of_fire,
    shot_range,
)
from engine.spacechess.movement import reachable_cells
from engine.spacechess.state import Character, GameState


def _mover(state: GameState, name: str) -> Character:
    character = target_of(state, name)
    if character.at is None:
        raise OrderError("not_allowed", reason="not_deployed", name=character.id)
    return character


def preview_move(state: GameState, name: str, cell: Cell) -> dict[str, Any]:
    """SC-17..SC-19: the path a `move` would take, its cost and whether the AP cover it."""
    mover = _mover(state, name)
    path, cost = plan_move(state, mover, cell)
    return {
        "path": [format_cell(c) for c in path],
        "cells": len(path),
        "cost": cost,
        "affordable": cost <= mover.ap,
    }


def reachable(state: GameState, name: str) -> dict[str, int]:
    """Every cell the character can move to with its AP now, with the AP each costs."""
    mover = _mover(state, name)
    return {format_cell(cell): cost for cell, (_, cost) in sorted(reachable_cells(state, mover).items())}


def shootable(state: GameState, name: str) -> list[dict[str, Any]]:
    """SC-20..SC-22: the characters a `shoot` would be accepted against now, nearest first, with
    the line of fire and everyone a perforating shot would hit."""
    shooter = _mover(state, name)
    assert shooter.at is not None
    found = []
    for target in state.living():
        if target.id == shooter.id or target.at is None:
            continue
        try:
            line = check_shot(state, shooter, target)
        except OrderError:
            continue
        found.append(
            {
                "id": target.id,
                "at": format_cell(target.at),
                "distance": distance(shooter.at, target.at),
                "line": [format_cell(c) for c in line.crossed],
                "hits": [*line.passed, target.id],
            }
        )
    found.sort(key=lambda entry: (entry["distance"], entry["id"]))
    return found


def shot_reach(state: GameState, name: str) -> int:
    """The range the character shoots at (scope included), for drawing its reach."""
    return shot_range(_mover(state, name), state)


def preview_grenade(state: GameState, name: str, cell: Cell) -> dict[str, Any]:
    """SC-23: the 4 cells a grenade named at `cell` would hit and who stands there."""
    area = check_grenade(state, _mover(state, name), cell)
    return {"area": [format_cell(c) for c in area], "hits": [c.id for c in characters_in(state, area)]}


def preview_airstrike(state: GameState, cell: Cell, direction: str) -> dict[str, Any]:
    """SC-26: the 4 cells an air strike would hit and who stands there."""
    area = airstrike_area(cell, direction, state.rules.power("airstrike", "length"))
    check_on_board(state, area, cell)
    return {"area": [format_cell(c) for c in area], "hits": [c.id for c in characters_in(state, area)]}


def line_of_fire_between(state: GameState, shooter_name: str, target_name: str) -> dict[str, Any]:
    """The exact line between two characters whatever the range or AP: what blocks it, if anything."""
    shooter = _mover(state, shooter_name)
    target = _mover(state, target_name)
    line = line_of_fire(state, shooter, target)
    return {
        "line": [format_cell(c) for c in line.crossed],
        "passed": list(line.passed),
        "blocked_at": None if line.blocker is None else format_cell(line.blocker),
    }
