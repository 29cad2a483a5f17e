"""Where the ships start (SB-3): the corners of the arena, pointing at the centre.

Seats follow the corner order A1, A7, G13, M7, M1, G1 (radius 6); with fewer than six ships some
corners stay empty: 5 ships leave the last one, 4 leave two opposite ones, 3 take every other
corner, and **D** 2 take two opposite corners. With two ships each (SB-15) player k takes corners k
and k+3 instead (the variant's `corners` hook).
"""

from __future__ import annotations

from engine.core.hexgrid import Direction, Hex, hexagon_corners

#: for each number of ships, the corners (indexes in seat order) they take, in joining order
CORNERS_FOR: dict[int, tuple[int, ...]] = {
    2: (0, 3),
    3: (0, 2, 4),
    4: (0, 1, 3, 4),
    5: (0, 1, 2, 3, 4),
    6: (0, 1, 2, 3, 4, 5),
}


def starting_corners(radius: int, seats: list[int]) -> list[tuple[Hex, Direction]]:
    """The cell and facing of each corner index in `seats` (variants may reorder them, SB-15)."""
    corners = hexagon_corners(radius)
    return [corners[index] for index in seats]
