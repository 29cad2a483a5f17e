"""The last action of a game, for a board drawn on demand (`/game board`): a board posted after a
move draws that move from its events; one asked for later draws the same, from the history."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.core.protocol import Event

if TYPE_CHECKING:
    from bot.service.scene import Scene


def last_action(scene: Scene, kinds: Iterable[str]) -> Sequence[Event]:
    """The public events of the last input of the game's history with an event of `kinds` (a move,
    the start, the end: what changes the board), or none without a history."""
    wanted = frozenset(kinds)
    steps = scene.history() if scene.history is not None else ()
    return next((step.events for step in reversed(steps) if any(event.kind in wanted for event in step.events)), ())
