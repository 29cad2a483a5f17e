"""Hex-grid geometry shared by SpaceBlast, HexArena and Arkeon (SB-1..SB-3, HA-1/HA-2/HA-5/HA-7, AK-1/AK-2).

Coordinates are **axial** ``(q, r)``: ``r`` is the row, growing downwards (row A is the smallest
``r``), ``q`` grows eastwards along a row, and the implied third cube coordinate is
``s = -q - r``. Hexes are pointy-top in horizontal rows, so E/W stay in the row and the four
diagonal directions change row. Axial coordinates keep every operation integer and make
"distance", "line" and "rotation" one-liners; the players' row-letter notation is a view on top of
them computed per board (:class:`HexBoard`), because it depends on the board's shape.

Every board built here is centred on :data:`CENTRE`, ``Hex(r=0, q=0)``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from engine.core.errors import OrderError


class Direction(Enum):
    """The six directions (SB-2, AK-2); values are the axial step ``(dq, dr)``.

    Members are declared counter-clockwise from E, so a clockwise turn is one step back in that order.
    """

    E = (1, 0)
    NE = (1, -1)
    NW = (0, -1)
    W = (-1, 0)
    SW = (-1, 1)
    SE = (0, 1)

    @property
    def dq(self) -> int:
        return self.value[0]

    @property
    def dr(self) -> int:
        return self.value[1]

    def rotated(self, steps: int) -> Direction:
        """Turn by `steps` sixths of a turn: positive = clockwise (right), negative = counter-clockwise."""
        return _COUNTER_CLOCKWISE[(_COUNTER_CLOCKWISE.index(self) - steps) % 6]

    def turn_right(self) -> Direction:
        """Clockwise 60°: E→SE→SW→W→NW→NE→E (SB-2)."""
        return self.rotated(1)

    def turn_left(self) -> Direction:
        return self.rotated(-1)

    def opposite(self) -> Direction:
        return self.rotated(3)

    @classmethod
    def parse(cls, text: str) -> Direction:
        """A direction typed by a player (any case); OrderError('bad_syntax') names what was typed."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise OrderError("bad_syntax", direction=text) from None


_COUNTER_CLOCKWISE: tuple[Direction, ...] = tuple(Direction)


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One cell in axial coordinates (see the module docstring).

    ``r`` is declared first so that the natural order is reading order (row, then column); build
    hexes with keywords, ``Hex(r=0, q=-6)``, to avoid mixing the two up.
    """

    r: int
    q: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def neighbour(self, direction: Direction, steps: int = 1) -> Hex:
        return Hex(r=self.r + direction.dr * steps, q=self.q + direction.dq * steps)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six surrounding hexes, in Direction order, whether or not a board holds them."""
        return tuple(self.neighbour(d) for d in Direction)

    def distance(self, other: Hex) -> int:
        """Number of single steps between two hexes (cube distance)."""
        return max(abs(self.q - other.q), abs(self.r - other.r), abs(self.s - other.s))


_CELL_TEXT = re.compile(r"\s*([A-Za-z])\s*(\d{1,3})\s*")


class HexBoard:
    """A set of cells plus the row-letter notation (SB-1, AK-1).

    Rows are lettered from the top (A = smallest ``r``), cells numbered from 1 at the left of
    each row. Every row of a board must be one unbroken run of cells, otherwise numbers would not
    match positions.
    """

    def __init__(self, cells: Iterable[Hex]) -> None:
        self.cells: frozenset[Hex] = frozenset(cells)
        by_row: dict[int, list[Hex]] = {}
        for cell in sorted(self.cells):
            by_row.setdefault(cell.r, []).append(cell)
        if not by_row:
            raise ValueError("a board needs at least one cell")
        if len(by_row) > len(string.ascii_uppercase):
            raise ValueError(f"{len(by_row)} rows cannot be lettered A..Z")
        for row in by_row.values():
            if row[-1].q - row[0].q != len(row) - 1:
                raise ValueError(f"row r={row[0].r} has a gap")
        self.rows: tuple[tuple[Hex, ...], ...] = tuple(tuple(row) for _, row in sorted(by_row.items()))
        self._letter_of_r = {row[0].r: string.ascii_uppercase[i] for i, row in enumerate(self.rows)}
        self._row_of_letter = {string.ascii_uppercase[i]: row for i, row in enumerate(self.rows)}

    # -- shapes ------------------------------------------------------------------------------------
    @classmethod
    def hexagon(cls, radius: int) -> HexBoard:
        """The SpaceBlast/HexArena arena (SB-1, HA-1): every hex within `radius` of the centre.

        Radius 6 gives 127 cells, rows A..M of 7..13..7 cells, centre G7.
        """
        if not 4 <= radius <= 9:
            raise ValueError(f"hexagon radius must be 4..9, got {radius}")
        return cls(_disc(radius, rows=radius))

    @classmethod
    def arkeon(cls) -> HexBoard:
        """The Arkeon board (AK-1): the radius-3 hexagon without its top and bottom rows.

        That leaves rows of 5, 6, 7, 6, 5 (29 cells) whose middle-row ends C1 and C7 are corners of
        the hexagon, hence have exactly 3 neighbours, as AK-1 requires of the bases' cells.
        """
        return cls(_disc(3, rows=2))

    # -- notation ----------------------------------------------------------------------------------
    def parse(self, text: str) -> Hex:
        """``"g7"``, ``"G 7"`` → the cell; OrderError('bad_cell', cell=text) if malformed or off the board."""
        match = _CELL_TEXT.fullmatch(text)
        if match is not None:
            row = self._row_of_letter.get(match.group(1).upper())
            number = int(match.group(2))
            if row is not None and 1 <= number <= len(row):
                return row[number - 1]
        raise OrderError("bad_cell", cell=text)

    def format(self, cell: Hex) -> str:
        """The cell's notation, ``"G7"``; ValueError for a cell off the board (a caller's bug)."""
        if cell not in self.cells:
            raise ValueError(f"{cell} is not on this board")
        row = self._row_of_letter[self._letter_of_r[cell.r]]
        return f"{self._letter_of_r[cell.r]}{cell.q - row[0].q + 1}"

    # -- container ---------------------------------------------------------------------------------
    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def __iter__(self) -> Iterator[Hex]:
        """Cells in reading order: A1, A2, ..., then the next row."""
        return (cell for row in self.rows for cell in row)

    def __len__(self) -> int:
        return len(self.cells)

    # -- geometry on this board ----------------------------------------------------------------------
    def neighbours(self, cell: Hex) -> tuple[Hex, ...]:
        """Adjacent cells that are on the board, in Direction order."""
        return tuple(n for n in cell.neighbours() if n in self.cells)

    def is_edge(self, cell: Hex) -> bool:
        """True when a step in some direction leaves the board (where HA-5/HA-7 teleports start)."""
        return len(self.neighbours(cell)) < 6

    def within(self, centre: Hex, distance: int) -> frozenset[Hex]:
        """Board cells at most `distance` steps from `centre` (the HA-2 bases: distance 2 of a corner)."""
        return frozenset(cell for cell in self.cells if cell.distance(centre) <= distance)

    def line(self, start: Hex, direction: Direction) -> tuple[Hex, ...]:
        """Cells met going straight from `start` (excluded) until the next step would leave the board."""
        cells = []
        cell = start.neighbour(direction)
        while cell in self.cells:
            cells.append(cell)
            cell = cell.neighbour(direction)
        return tuple(cells)

    def wrap(self, cell: Hex, direction: Direction) -> Hex | None:
        """Where stepping off the board from `cell` towards `direction` re-enters (HA-5, HA-7).

        That is the other end of the straight line through `cell` in that direction. None when the
        step stays on the board (no teleport there). A line of one cell wraps onto `cell` itself.
        """
        if cell.neighbour(direction) in self.cells:
            return None
        back = self.line(cell, direction.opposite())
        return back[-1] if back else cell

    def wrapped_line(self, start: Hex, direction: Direction) -> tuple[Hex, ...]:
        """Cells met going straight from `start`, re-entering at the line's other end (HA-5 fighter).

        It stops just before coming back to `start`, so every cell of the line appears once.
        """
        ahead = self.line(start, direction)
        behind = self.line(start, direction.opposite())
        return ahead + behind[::-1]


CENTRE = Hex(r=0, q=0)


def _disc(radius: int, rows: int) -> Iterator[Hex]:
    """Hexes within `radius` of the centre, keeping only the rows at most `rows` away from it."""
    for r in range(-rows, rows + 1):
        for q in range(-radius, radius + 1):
            if CENTRE.distance(Hex(r=r, q=q)) <= radius:
                yield Hex(r=r, q=q)


def hexagon_corners(radius: int) -> tuple[tuple[Hex, Direction], ...]:
    """The corners of the radius-`radius` hexagon in SB-3 seat order, each with its facing to the centre.

    Seat order A1, A7, G13, M7, M1, G1 (radius 6) is clockwise from the top-left corner, and a
    corner is `radius` steps from the centre in one direction, so it faces the opposite one.
    """
    outward = (Direction.NW, Direction.NE, Direction.E, Direction.SE, Direction.SW, Direction.W)
    return tuple((CENTRE.neighbour(d, radius), d.opposite()) for d in outward)
