"""Square-grid geometry: cell names, Chebyshev distance and the exact line of fire.

Cells are unit squares; cell (x, y) covers [x, x+1] x [y, y+1] and its centre is (x + 1/2, y + 1/2).
The line of fire (SC-21) is computed in integers on doubled coordinates, where every centre and
every cell edge has an integer coordinate, so there is no rounding and no sampling: a shot that
only grazes an edge or a corner can never be mistaken for one that crosses a cell.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from engine.core.errors import OrderError

#: Cells are written with a single column letter, so no board is wider than the alphabet.
MAX_WIDTH = 26
#: Row numbers have at most two digits in the order language.
MAX_HEIGHT = 99

_CELL_RE = re.compile(r"\s*([A-Za-z])\s*([0-9]+)\s*", re.ASCII)


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    x: int  # column index, 0-based (A = 0)
    y: int  # row index, 0-based (row "1" = 0)


def parse_cell(text: str, width: int = MAX_WIDTH, height: int = MAX_HEIGHT) -> Cell:
    """Read a player-written cell name (SC-1); anything not on a `width` x `height` board is refused."""
    match = _CELL_RE.fullmatch(text)
    if match is None:
        raise OrderError("bad_cell", cell=text)
    cell = Cell(ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1)
    if not in_bounds(cell, width, height):
        raise OrderError("bad_cell", cell=text)
    return cell


def format_cell(cell: Cell) -> str:
    """The name players write: column letter then 1-based row (SC-1)."""
    return f"{chr(ord('A') + cell.x)}{cell.y + 1}"


def in_bounds(cell: Cell, width: int, height: int) -> bool:
    return 0 <= cell.x < width and 0 <= cell.y < height


def distance(a: Cell, b: Cell) -> int:
    """Chebyshev distance (SC-4): the number of king moves, so diagonals count as one."""
    return max(abs(a.x - b.x), abs(a.y - b.y))


def neighbours(cell: Cell, width: int, height: int) -> list[Cell]:
    """The on-board cells at distance 1 (SC-4 'adjacent'), in a fixed order for reproducible searches."""
    found = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                other = Cell(cell.x + dx, cell.y + dy)
                if in_bounds(other, width, height):
                    found.append(other)
    return found


def open_steps(cell: Cell, width: int, height: int, blocked: Callable[[Cell], bool]) -> list[Cell]:
    """The neighbours a walker may step to: not blocked, and no diagonal squeeze (SC-17 D).

    A diagonal step is refused when both cells beside it are blocked, so two touching corners
    seal a wall. `blocked` decides what stops a walker (obstacles, characters, ...): map
    connectivity and the rules' path search share the rule this way.
    """
    steps = []
    for other in neighbours(cell, width, height):
        if blocked(other):
            continue
        if other.x != cell.x and other.y != cell.y:
            if blocked(Cell(other.x, cell.y)) and blocked(Cell(cell.x, other.y)):
                continue
        steps.append(other)
    return steps


@cache
def _crossed_offsets(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """Offsets from the shooter of the cells crossed by a shot of displacement (dx, dy), in order.

    A line's crossed cells only depend on the displacement, so they are computed once per
    displacement; on a bounded board there are few of them.
    """
    if dx == 0 == dy:
        return ()
    if dx == 0:
        return tuple((ox, oy) for oy, ox in _crossed_offsets(dy, 0))
    if dx < 0:
        # Walk from the other end so the columns are visited left to right, then translate back
        # and reverse: the same cells, listed from the shooter.
        return tuple((ox + dx, oy + dy) for ox, oy in reversed(_crossed_offsets(-dx, -dy)))
    # Doubled coordinates, shooter's cell at the origin: its centre is (1, 1); column X spans
    # x' in [2X, 2X + 2]. Along the segment, y' = (dx + dy * (x' - 1)) / dx; only numerators
    # (scaled by dx > 0) are compared, so everything stays integer.
    step = 1 if dy >= 0 else -1
    cells: list[tuple[int, int]] = []
    for column in range(dx + 1):
        left = max(2 * column, 1)
        right = min(2 * column + 2, 2 * dx + 1)
        y_left = dx + dy * (left - 1)
        y_right = dx + dy * (right - 1)
        low, high = min(y_left, y_right), max(y_left, y_right)
        # Row Y spans (2Y * dx, (2Y + 2) * dx); the open segment piece meets it when
        # low < (2Y + 2) * dx and high > 2Y * dx. A horizontal piece (low == high) lies strictly
        # inside one row because the centre row is never on an edge.
        first_row = low // (2 * dx)
        last_row = (high - 1) // (2 * dx)
        rows = range(first_row, last_row + 1) if step > 0 else range(last_row, first_row - 1, -1)
        cells.extend((column, row) for row in rows)
    return tuple(cell for cell in cells if cell not in ((0, 0), (dx, dy)))


def ordered_crossing(a: Cell, b: Cell) -> list[Cell]:
    """Cells other than a and b whose interior the segment between centres crosses, from a to b.

    SC-22 perforating shots hit the characters on these cells in this order.
    """
    return [Cell(a.x + ox, a.y + oy) for ox, oy in _crossed_offsets(b.x - a.x, b.y - a.y)]


def cells_crossed(a: Cell, b: Cell) -> frozenset[Cell]:
    """The cells that can block the shot from a to b (SC-21); touching an edge or corner is not crossing."""
    return frozenset(ordered_crossing(a, b))


def line_is_clear(a: Cell, b: Cell, blocked: Callable[[Cell], bool]) -> bool:
    """SC-21: no crossed cell is blocked. Stops at the first blocked cell, nearest the shooter."""
    return not any(blocked(Cell(a.x + ox, a.y + oy)) for ox, oy in _crossed_offsets(b.x - a.x, b.y - a.y))
