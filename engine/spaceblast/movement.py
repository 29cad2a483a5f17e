"""Simultaneous movement (SB-9): who actually moves when every mover tries the cell ahead at once.

Pure geometry on ship positions, used for the normal step and again for a turbo step (SB-17).
The rules, applied until nothing changes:

- two or more movers trying one cell: none of them moves, a collision (``same_cell``);
- two movers trying each other's cell: neither moves, a collision (``face_to_face``);
- a mover trying a cell whose ship does not move (still, or itself blocked: blocking cascades)
  stays put; that is a ram when it comes from the target's rear or rear flank (**D**: its direction
  is the target's facing or adjacent to it), else a plain collision (``blocked``);
- a mover trying a cell whose ship moves away, or an empty one, moves; so does every ship of a
  cycle of three or more (each leaves the cell the next one enters);
- a mover stepping off the arena always leaves (nothing there can block it).

The damage, points and what the entered cells hold are the resolution's business (`resolution`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.core.hexgrid import Direction, Hex, HexBoard


@dataclass(frozen=True)
class Clash:
    kind: str  # same_cell | face_to_face | blocked | ram
    ships: tuple[str, ...]  # for a ram or a plain block: (mover, target)
    cell: Hex


@dataclass
class Step:
    #: every mover that moves, with the cell it enters (off the arena for a ship leaving it)
    moved: dict[str, Hex] = field(default_factory=dict)
    blocked: set[str] = field(default_factory=set)
    clashes: list[Clash] = field(default_factory=list)


def is_ram(mover: Direction, target: Direction) -> bool:
    """From the rear or rear flank (**D**): the mover's direction within 60° of the target's facing."""
    return mover in (target, target.turn_left(), target.turn_right())


def simultaneous_step(
    at: Mapping[str, Hex], facing: Mapping[str, Direction], movers: Iterable[str], board: HexBoard
) -> Step:
    """One step forward for every ship in `movers` at once; the others in `at` stay still.

    `at` holds every ship on the arena (movers or not); `movers` is listed in seat order, which
    fixes the order of the clashes reported."""
    movers = [m for m in at if m in set(movers)]
    target = {m: at[m].neighbour(facing[m]) for m in movers}
    occupant = {cell: ident for ident, cell in at.items()}
    step = Step()
    status: dict[str, bool | None] = dict.fromkeys(movers)  # True moves, False blocked, None unknown

    wanting: dict[Hex, list[str]] = {}
    for m in movers:
        if target[m] in board:
            wanting.setdefault(target[m], []).append(m)
    contested = {cell: ships for cell, ships in wanting.items() if len(ships) > 1}
    for cell, ships in contested.items():
        step.clashes.append(Clash("same_cell", tuple(ships), cell))
        for m in ships:
            status[m] = False
    for index, m in enumerate(movers):
        other = occupant.get(target[m])
        if other in status and movers.index(other) > index and target[other] == at[m]:
            step.clashes.append(Clash("face_to_face", (m, other), target[m]))
            status[m] = status[other] = False

    changed = True
    while changed:
        changed = False
        for m in movers:
            if status[m] is not None:
                continue
            other = occupant.get(target[m])
            if target[m] not in board or other is None or status.get(other) is True:
                status[m] = changed = True
            elif other not in status or status[other] is False:
                status[m] = False
                changed = True
    for m in movers:  # what is left waits on itself round a cycle of three or more: all move
        if status[m] is None:
            status[m] = True

    for m in movers:
        if status[m]:
            step.moved[m] = target[m]
            continue
        step.blocked.add(m)
        other = occupant.get(target[m])
        if other is not None and other != m and not status.get(other, False) and not _swapping(m, other, at, target):
            kind = "ram" if is_ram(facing[m], facing[other]) else "blocked"
            step.clashes.append(Clash(kind, (m, other), target[m]))
    return step


def _swapping(a: str, b: str, at: Mapping[str, Hex], target: Mapping[str, Hex]) -> bool:
    return target.get(a) == at[b] and target.get(b) == at[a]
