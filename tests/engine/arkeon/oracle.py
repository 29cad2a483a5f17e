"""A brute-force oracle for Arkeon's legal turns, independent of `engine.arkeon.legal`.

It writes every order the language can express on this board — place each of the six piece
kinds on each of the 29 cells, swap each cell for each kind, with each direction where the kind
takes one — as *text*, parses it, and keeps the ones `play` accepts on the position. It shares no
candidate-building code with the engine's listing (no adjacency pre-filter, no reserve lookup), so
a candidate the listing forgets or a check it skips shows up as a difference.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.arkeon import ARKEON
from engine.arkeon.state import ArkeonState
from engine.core.errors import OrderError

ROWS = {"A": 5, "B": 6, "C": 7, "D": 6, "E": 5}
ALL_CELLS = [f"{row}{n}" for row, count in ROWS.items() for n in range(1, count + 1)]
DIRECTIONS = ["E", "NE", "NW", "W", "SW", "SE"]
ORIENTED = ["basic", "triple"]
PLAIN = ["pacifier", "cw", "ccw", "repulsor"]


def every_text() -> Iterator[str]:
    """Every well-formed order on the Arkeon board: 29 cells x (2 oriented kinds x 6 + 4) x 2 verbs."""
    for cell in ALL_CELLS:
        for kind in ORIENTED:
            for direction in DIRECTIONS:
                yield f"place {kind} {cell} {direction}"
                yield f"swap {cell} {kind} {direction}"
        for kind in PLAIN:
            yield f"place {kind} {cell}"
            yield f"swap {cell} {kind}"


TEXTS = tuple(every_text())


def oracle_turns(state: ArkeonState, side: str) -> set[str]:
    """The canonical text of every order `side` may play now, found by trying them all."""
    accepted = set()
    for text in TEXTS:
        (order,) = ARKEON.parse_orders(text)
        try:
            ARKEON.play(state, side, [order])
        except OrderError:
            continue
        accepted.add(ARKEON.format_order(order))
    return accepted


def oracle_perft(state: ArkeonState, depth: int) -> int:
    """Leaf count of the game tree `depth` turns deep, every level found by the oracle."""
    if depth == 0 or state.to_move is None:
        return 1
    side = state.to_move
    total = 0
    for text in sorted(oracle_turns(state, side)):
        total += oracle_perft(ARKEON.play(state, side, ARKEON.parse_orders(text)).state, depth - 1)
    return total
