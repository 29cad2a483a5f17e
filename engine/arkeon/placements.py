"""The setup placements (AK-10): three basics around one's own base, starter first.

They are ordinary orders of the side to move (``place basic B2 NE``), one at a time or up to the
three left in one ``;`` batch; nothing resolves (the two bases' neighbourhoods are too far apart
for any attack to reach), and the turn passes once a side has placed its three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.arkeon.events import event
from engine.arkeon.orders import PLACE, Order
from engine.arkeon.pieces import BASIC, BOARD, Piece, cell_name, other
from engine.arkeon.state import RUNNING, SETUP_PLACEMENTS, ArkeonState
from engine.core.errors import OrderError
from engine.core.hexgrid import Hex
from engine.core.protocol import Event


def setup_cells(state: ArkeonState, side: str) -> list[Hex]:
    """The empty neighbours of `side`'s base, in reading order."""
    return [cell for cell in BOARD.neighbours(state.base_of(side)) if cell not in state.cells]


def _place(state: ArkeonState, side: str, order: Order) -> tuple[ArkeonState, list[Event]]:
    if order.verb != PLACE or order.kind != BASIC:
        raise OrderError("not_allowed", reason="setup_basics_only", kind=order.kind)
    occupant = state.cells.get(order.cell)
    if occupant is not None:
        raise OrderError("occupied", cell=cell_name(order.cell), by=occupant.side, kind=occupant.kind)
    if order.cell.distance(state.base_of(side)) != 1:
        raise OrderError("not_adjacent", reason="setup_base", cell=cell_name(order.cell), side=side)
    reserve = state.reserves[side]
    state = replace(
        state,
        cells={**state.cells, order.cell: Piece(side, BASIC, order.facing)},
        reserves={**state.reserves, side: replace(reserve, basic=reserve.basic - 1)},
        placed=state.placed + 1,
    )
    placed = event(
        "placed",
        side=side,
        kind=BASIC,
        at=cell_name(order.cell),
        facing=None if order.facing is None else order.facing.name,
        setup=True,
    )
    if state.placed < SETUP_PLACEMENTS:
        return state, [placed]
    following = other(side)
    phase = RUNNING if following == state.starter else state.phase
    state = replace(state, to_move=following, placed=0, phase=phase)
    return state, [placed, event("placement_done", side=side, to_move=following)]


def place_batch(state: ArkeonState, side: str, orders: Sequence[Order]) -> tuple[ArkeonState, list[Event]]:
    """All or nothing, and never beyond the placements left to this side."""
    left = SETUP_PLACEMENTS - state.placed
    if len(orders) > left:
        raise OrderError("not_allowed", reason="setup_too_many", left=left, given=len(orders))
    events: list[Event] = []
    for order in orders:
        state, produced = _place(state, side, order)
        events.extend(produced)
    return state, events
