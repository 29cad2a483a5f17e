"""Every event Arkeon emits, with its parameters: the list the fr/en messages are written from.

An accepted input returns its events in the order things happened (the AK-13 steps in order);
the bot renders each as ``event.arkeon.<kind>``. Cells are row-letter names (``"C3"``), sides
``"blue"``/``"red"``, kinds the order language's words, directions ``E``/``NE``/``NW``/``W``/
``SW``/``SE``; every value is plain JSON and every event is public (Arkeon has no secrets).
:func:`event` refuses a kind not listed here, so this table cannot fall behind the engine.
"""

from __future__ import annotations

from typing import Any

from engine.core.drawoffer import DRAW_EVENTS
from engine.core.protocol import Event

EVENT_KINDS: dict[str, str] = {
    # -- lobby ----------------------------------------------------------------------------------
    "joined": "id (the player's name), side (the seat taken: blue first, then red)",
    "left": "id, side (the seat freed)",
    "started": "starter (the side the seed chose, AK-10), players ({blue, red} names)",
    # -- a turn -------------------------------------------------------------------------------
    "placed": "side, kind, at, facing (null for pieces without one), setup (true for the AK-10 placements)",
    "swapped": "side, at, from (kind swapped out), to (kind swapped in), facing",
    "turned": "side, kind, at, from, to (directions), by (pacifier | cw | ccw), source (the acting piece's cell)",
    "pushed": "side, kind, from, to, source (the repulsor's cell): AK-8, one event per piece that moved",
    "status_quo": "attacker, target (cells of two aggressive pieces pointing at each other): the attack is cancelled",
    "destroyed": "side, kind, at, cause (attack | disconnected), by (attacking cells; empty when disconnected)",
    "returned": "side, kinds (the five advanced kinds, placeable again: AK-14)",
    "placement_done": "side (who placed their three basics), to_move (who places or plays next)",
    # -- draw offers (engine/core/drawoffer.py) ------------------------------------------------
    **DRAW_EVENTS,
    # -- the end ------------------------------------------------------------------------------
    "game_over": (
        "winner (blue | red | draw), reason (base_destroyed | draw | no_move | resigned | timeout | agreed), "
        "loser (null for a draw), bases (base_destroyed: the cells of the destroyed base(s) pointed at)"
    ),
}


def event(kind: str, /, **params: Any) -> Event:
    if kind not in EVENT_KINDS:
        raise ValueError(f"undocumented Arkeon event kind {kind!r}")
    return Event(kind, params)
