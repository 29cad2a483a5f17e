"""Board reports for the bot that are not about what a character may do now (that is ``legal``).

The line of fire between two characters is asked "whatever the range or the AP": a player
planning a shot for after the next draw wants to know what stands in the way, which no legal
order answers. It runs the very geometry the shot uses (combat), so the report and a later
``shoot`` cannot disagree. Results are plain JSON (cells as "C12") for the bot and the renderers.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import OrderError
from engine.core.squaregrid import format_cell
from engine.spacechess.actions import target_of
from engine.spacechess.combat import line_of_fire
from engine.spacechess.state import Character, GameState


def _on_board(state: GameState, name: str) -> Character:
    character = target_of(state, name)
    if character.at is None:
        raise OrderError("not_allowed", reason="not_deployed", name=character.id)
    return character


def line_of_fire_between(state: GameState, shooter_name: str, target_name: str) -> dict[str, Any]:
    """SC-21/SC-22: the exact line between two characters whatever the range or AP, and what blocks it."""
    shooter = _on_board(state, shooter_name)
    target = _on_board(state, target_name)
    line = line_of_fire(state, shooter, target)
    return {
        "line": [format_cell(c) for c in line.crossed],
        "passed": list(line.passed),
        "blocked_at": None if line.blocker is None else format_cell(line.blocker),
    }
