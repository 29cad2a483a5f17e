"""Every action that can be written on the HexArena board, built once at import.

Actions are immutable, so move generation hands out these shared objects instead of building a
new one per candidate per position: listing every Omega turn builds millions of candidates
(benchmarks/bench_hexarena_moves.py), and this is most of what keeps that fast.
"""

from __future__ import annotations

from engine.core.hexgrid import Direction, Hex
from engine.hexarena.geometry import BOARD, DIRECTIONS, LINE, NEIGHBOUR, WRAP, WRAPPED_LINE
from engine.hexarena.orders import Action

Targeted = tuple[tuple[Hex, Action], ...]


def _to(verb: str, at: Hex, cells: tuple[Hex, ...] | list[Hex]) -> Targeted:
    return tuple((cell, Action(verb, at, cell)) for cell in cells)


#: admiral and patrol steps (HA-4, HA-7)
STEPS: dict[Hex, Targeted] = {at: _to("move", at, list(NEIGHBOUR[at].values())) for at in BOARD}
#: patrol teleports (HA-7)
WRAPS: dict[Hex, Targeted] = {at: _to("move", at, list(WRAP[at].values())) for at in BOARD}
#: fighter runs along the wrapped line, in order (HA-5): the n-th enters n cells
RUNS: dict[Hex, dict[Direction, Targeted]] = {
    at: {d: _to("move", at, WRAPPED_LINE[at][d]) for d in DIRECTIONS} for at in BOARD
}
#: cargo moves, one or two cells ahead (HA-6)
AHEAD: dict[Hex, dict[Direction, Targeted]] = {at: {d: _to("move", at, LINE[at][d][:2]) for d in DIRECTIONS} for at in BOARD}
#: the five rotations away from each facing (HA-8)
ROTATIONS: dict[Hex, dict[Direction, tuple[Action, ...]]] = {
    at: {f: tuple(Action("rotate", at, direction=d) for d in DIRECTIONS if d != f) for f in DIRECTIONS}
    for at in BOARD
}
FIRE: dict[Hex, Action] = {at: Action("fire", at) for at in BOARD}
#: ram directions with the cell rammed (HA-7)
RAMS: dict[Hex, tuple[tuple[Hex, Action], ...]] = {
    at: tuple((cell, Action("ram", at, direction=d)) for d, cell in NEIGHBOUR[at].items()) for at in BOARD
}
BOARDS: dict[Hex, Targeted] = {at: _to("board", at, list(NEIGHBOUR[at].values())) for at in BOARD}
LEAVES: dict[Hex, Targeted] = {at: _to("leave", at, list(NEIGHBOUR[at].values())) for at in BOARD}
#: recycling (HA-4): direct access to a neighbour; indirect, (middle cell, debris cell, action)
RECYCLE_DIRECT: dict[Hex, Targeted] = {at: _to("recycle", at, list(NEIGHBOUR[at].values())) for at in BOARD}
RECYCLE_INDIRECT: dict[Hex, tuple[tuple[Hex, Hex, Action], ...]] = {
    at: tuple(
        (line[0], line[1], Action("recycle", at, line[1])) for d in DIRECTIONS if len(line := LINE[at][d]) >= 2
    )
    for at in BOARD
}
