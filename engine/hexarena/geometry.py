"""The HexArena board (reconstructed rules HA-1, HA-2): the arena, the bases, the standard opening.

Every straight line, wrap and neighbour of the 127 cells is worked out once here, so move
generation looks them up instead of walking the grid again for every ship of every position.
"""

from __future__ import annotations

from engine.core.hexgrid import Direction, Hex, HexBoard

BOARD = HexBoard.hexagon(6)
RED, BLUE = "red", "blue"
SIDES: tuple[str, ...] = (RED, BLUE)
ADMIRAL, FIGHTER, CARGO, PATROL = "admiral", "fighter", "cargo", "patrol"
TYPES: tuple[str, ...] = (ADMIRAL, FIGHTER, CARGO, PATROL)
#: HA-2 (material list): the fleet of each side
FLEET: dict[str, int] = {ADMIRAL: 1, FIGHTER: 2, CARGO: 4, PATROL: 2}
DEBRIS_PIECES = 8
DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

#: HA-2: each side's corner, facing the enemy
CORNER = {RED: BOARD.parse("G1"), BLUE: BOARD.parse("G13")}
FORWARD = {RED: Direction.E, BLUE: Direction.W}
BASE: dict[str, frozenset[Hex]] = {side: BOARD.within(corner, 2) for side, corner in CORNER.items()}


def other(side: str) -> str:
    return BLUE if side == RED else RED


def cell_name(cell: Hex) -> str:
    return _NAMES[cell]


def cell_names(cells: tuple[Hex, ...] | list[Hex]) -> list[str]:
    return [_NAMES[c] for c in cells]


_NAMES: dict[Hex, str] = {cell: BOARD.format(cell) for cell in BOARD}

#: cell -> direction -> the adjacent cell, only where the board has one
NEIGHBOUR: dict[Hex, dict[Direction, Hex]] = {
    cell: {d: cell.neighbour(d) for d in DIRECTIONS if cell.neighbour(d) in BOARD} for cell in BOARD
}
#: cell -> direction -> the cells straight ahead, up to the edge (HA-9 fire lines do not wrap)
LINE: dict[Hex, dict[Direction, tuple[Hex, ...]]] = {
    cell: {d: BOARD.line(cell, d) for d in DIRECTIONS} for cell in BOARD
}
#: cell -> direction -> the cells straight ahead, then from the line's other end (HA-5 fighters)
WRAPPED_LINE: dict[Hex, dict[Direction, tuple[Hex, ...]]] = {
    cell: {d: BOARD.wrapped_line(cell, d) for d in DIRECTIONS} for cell in BOARD
}
#: cell -> direction -> where stepping off the edge re-enters, only for steps that leave (HA-7 patrols)
WRAP: dict[Hex, dict[Direction, Hex]] = {
    cell: {d: w for d in DIRECTIONS if (w := BOARD.wrap(cell, d)) is not None} for cell in BOARD
}


def straight_step(start: Hex, end: Hex) -> tuple[Direction, int] | None:
    """The direction and number of steps from `start` to `end` when they share a straight line."""
    dq, dr = end.q - start.q, end.r - start.r
    steps = start.distance(end)
    if steps == 0:
        return None
    for direction in DIRECTIONS:
        if (direction.dq * steps, direction.dr * steps) == (dq, dr):
            return direction, steps
    return None


#: HA-2 pinned: the standard opening, ship ids numbered in the order the rule lists the cells
OPENING_CELLS: dict[str, dict[str, tuple[str, ...]]] = {
    RED: {
        ADMIRAL: ("G1",),
        PATROL: ("F1", "H1"),
        FIGHTER: ("G2", "G3"),
        CARGO: ("E1", "F2", "H2", "I1"),
    },
    BLUE: {
        ADMIRAL: ("G13",),
        PATROL: ("F12", "H12"),
        FIGHTER: ("G12", "G11"),
        CARGO: ("E11", "F11", "H11", "I11"),
    },
}
