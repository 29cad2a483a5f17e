"""The board as 29 numbered cells, for the resolution's inner loops.

Listing the legal turns resolves every candidate on a copy (AK-12's "destroyed at once"), a few
hundred resolutions per position; with :class:`Hex` keys most of that time went into hashing
cells. So the resolution works on a list indexed by these numbers (reading order, as ``CELLS``)
and every neighbour, axis and attacked cell is looked up in the tables below, built once.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.arkeon.pieces import AGGRESSIVE, BOARD, CELLS, Piece, attack_directions, cell_name
from engine.core.hexgrid import Direction, Hex

DIRECTIONS: tuple[Direction, ...] = tuple(Direction)
INDEX: dict[Hex, int] = {cell: i for i, cell in enumerate(CELLS)}
NAMES: tuple[str, ...] = tuple(cell_name(cell) for cell in CELLS)
#: STEP[i][k]: the cell one step from i in DIRECTIONS[k], or -1 off the board
STEP: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get(cell.neighbour(d), -1) for d in DIRECTIONS) for cell in CELLS
)
#: NEAR[i]: (k, j) for each neighbour j of i, DIRECTIONS[k] being the step from i to j
NEAR: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((k, j) for k, j in enumerate(STEP[i]) if j >= 0) for i in range(len(CELLS))
)
#: NEIGHBOURS[i]: the neighbours of cell i
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(j for _, j in NEAR[i]) for i in range(len(CELLS)))
#: RAYS[i][k]: the cells met going straight from i in DIRECTIONS[k], nearest first
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(INDEX[c] for c in BOARD.line(cell, d)) for d in DIRECTIONS) for cell in CELLS
)


def _strikes(kind: str, facing: Direction) -> tuple[tuple[int, ...], ...]:
    """Per cell, the cells a `kind` facing `facing` attacks from there (AK-4, AK-5)."""
    ks = [DIRECTIONS.index(d) for d in attack_directions(Piece("", kind, facing))]
    return tuple(tuple(STEP[i][k] for k in ks if STEP[i][k] >= 0) for i in range(len(CELLS)))


_STRIKES: dict[tuple[str, Direction], tuple[tuple[int, ...], ...]] = {
    (kind, facing): _strikes(kind, facing) for kind in AGGRESSIVE for facing in DIRECTIONS
}
_NONE: tuple[tuple[int, ...], ...] = tuple(() for _ in CELLS)

Board = list[Piece | None]


def strikes(piece: Piece) -> tuple[tuple[int, ...], ...]:
    """Per cell, what `piece` would attack standing there; nothing for pieces that do not attack."""
    if piece.facing is None:
        return _NONE
    return _STRIKES.get((piece.kind, piece.facing), _NONE)


def to_board(cells: Mapping[Hex, Piece]) -> Board:
    board: Board = [None] * len(CELLS)
    for cell, piece in cells.items():
        board[INDEX[cell]] = piece
    return board


def to_cells(board: Board | tuple[Piece | None, ...]) -> dict[Hex, Piece]:
    return {CELLS[i]: piece for i, piece in enumerate(board) if piece is not None}
