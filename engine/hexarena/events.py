"""Every event HexArena emits, with its parameters: the list the fr/en messages are written from.

The bot renders each as ``event.hexarena.<kind>``. Cells are row-letter strings ("G7"),
directions their names ("NE"), sides "red" / "blue", ships their ids; every value is plain JSON.
:func:`event` refuses a kind that is not listed here, so the table and the engine stay in step.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Event

EVENT_KINDS: dict[str, str] = {
    # -- actions ------------------------------------------------------------------------------
    "moved": "ship, type, side, from, to, path (cells entered, in order), teleport (bool), "
    "passenger (the carried admiral's id or null)",
    "rotated": "ship, at, from (facing), to (facing)",
    "fired": "ship, at, direction, line (cells the shot crossed, target's included), target (id)",
    "rammed": "ship, at, direction, target (id), target_at",
    "destroyed": "ship, side, type, at, by (id), debris (bool: a debris took the cell), "
    "released (the admiral left on the cell, HA-10, or null), reserve (debris left)",
    "boarded": "ship (the admiral), cargo, from, at (the cargo's cell)",
    "left": "ship (the admiral), cargo, from (the cargo's cell), to",
    "recycled": "ship, debris (its cell), access (direct | indirect), from, to (the admiral's cell after), "
    "reserve (debris in the reserve after)",
    "turn_ended": "side, actions (how many), ap (Omega: points spent, else null), next (side to move)",
    # -- endings ------------------------------------------------------------------------------
    "game_over": "winner (side, or draw), loser (side, or null in a draw), reason (base_reached | "
    "no_legal_action | admiral_stuck | resigned | timeout; drawn: agreed | repetition, HA-18)",
    # -- setup --------------------------------------------------------------------------------
    "joined": "id (player name), side",
    "player_left": "id (player name), side: a player left the lobby",
    "started": "first (the side that moves first), drawn (bool: drawn at random from the seed)",
}


def event(kind: str, **params: Any) -> Event:
    if kind not in EVENT_KINDS:
        raise ValueError(f"undocumented HexArena event kind {kind!r}")
    return Event(kind, params)
