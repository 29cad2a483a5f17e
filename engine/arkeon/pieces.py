"""Arkeon's board, sides and pieces (AK-1..AK-8), and what a piece points at.

One board for every game (AK-1), so it is built once here and shared; cells are axial
:class:`Hex` values and reach players only through the board's row-letter notation.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.hexgrid import Direction, Hex, HexBoard

BOARD = HexBoard.arkeon()
#: the board's geometry, computed once: legal-move listing resolves hundreds of turns a position
CELLS: tuple[Hex, ...] = tuple(BOARD)  # reading order
NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {cell: BOARD.neighbours(cell) for cell in CELLS}
_NAMES: dict[Hex, str] = {cell: BOARD.format(cell) for cell in CELLS}

BLUE, RED = "blue", "red"
SIDES: tuple[str, str] = (BLUE, RED)

BASE, BASIC, TRIPLE = "base", "basic", "triple"
PACIFIER, CW, CCW, REPULSOR = "pacifier", "cw", "ccw", "repulsor"
#: AK-3: one of each per player, in the order listings and views use
ADVANCED: tuple[str, ...] = (TRIPLE, PACIFIER, CW, CCW, REPULSOR)
KINDS: tuple[str, ...] = (BASE, BASIC, *ADVANCED)
#: AK-4, AK-5: the pieces that attack, hence the only ones with a facing
AGGRESSIVE = frozenset({BASIC, TRIPLE})
BASICS_PER_SIDE = 12  # AK-3

#: AK-1: the bases of the standard opening, one cell in from each tip of the middle row
HOME: dict[str, Hex] = {BLUE: BOARD.parse("C2"), RED: BOARD.parse("C6")}


def other(side: str) -> str:
    return RED if side == BLUE else BLUE


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on the board; `facing` is None exactly for the pieces that do not attack."""

    side: str
    kind: str
    facing: Direction | None = None

    @property
    def aggressive(self) -> bool:
        return self.kind in AGGRESSIVE

    @property
    def advanced(self) -> bool:
        return self.kind in ADVANCED


def attack_directions(piece: Piece) -> tuple[Direction, ...]:
    """AK-4, AK-5: a basic strikes straight ahead, a triple also 60° either side of it."""
    if piece.facing is None or not piece.aggressive:
        return ()
    if piece.kind == TRIPLE:
        return (piece.facing.rotated(-1), piece.facing, piece.facing.rotated(1))
    return (piece.facing,)


def _attacks(kind: str, facing: Direction | None, at: Hex) -> tuple[Hex, ...]:
    piece = Piece("", kind, facing)
    return tuple(cell for d in attack_directions(piece) if (cell := at.neighbour(d)) in BOARD)


_ATTACKS: dict[tuple[str, Direction, Hex], tuple[Hex, ...]] = {
    (kind, facing, at): _attacks(kind, facing, at) for kind in AGGRESSIVE for facing in Direction for at in CELLS
}


def attacked_cells(piece: Piece, at: Hex) -> tuple[Hex, ...]:
    """The board cells `piece` standing at `at` attacks (a cell off the board is nobody's)."""
    if piece.facing is None:
        return ()
    return _ATTACKS.get((piece.kind, piece.facing, at), ())


def points_at(piece: Piece, at: Hex, target: Hex) -> bool:
    """AK-12, AK-13 pinned: a triple points at all three cells it attacks."""
    return target in attacked_cells(piece, at)


def cell_name(cell: Hex) -> str:
    return _NAMES[cell]
