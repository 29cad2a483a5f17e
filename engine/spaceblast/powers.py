"""The special powers that act inside a turn's phases (SB-17), each at its pinned moment.

Energy reserve and recharge are paid at the reveal with the tokens (`tokens.settle`), super turn
only changes what a turn costs (`tokens`), shield is a filter on every loss (`Turn.hit`,
`Turn.bump`) and time jump happens between reveal and resolution (`timejump`). The rest act here:
side slip before the normal movement, turbo after it, rear shot with the firing, super armour in
the damage phase before destruction is judged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.core.hexgrid import Hex
from engine.spaceblast.material import HULL
from engine.spaceblast.moves import take_step
from engine.spaceblast.turn import Turn


def _empty(turn: Turn, cell: Hex) -> bool:
    """A slip needs a cell with nothing in it: on the arena, no ship, asteroid, mine or missile."""
    return (
        cell in turn.board
        and turn.ship_at(cell) is None
        and cell not in turn.start.asteroids
        and turn.mine_at(cell) is None
        and not any(m.at == cell for m in turn.missiles)
    )


def side_slips(turn: Turn) -> None:
    """At the start of the movement phase each slipping ship moves to its front-left or front-right
    cell if that cell is empty, judged before any slip (two ships slipping to one cell both stay).
    The mine it laid this turn stays behind, active. Its turn token only showed the side."""
    plans = []
    for ship in turn.in_play():
        order = turn.order(ship.id)
        if order.has("slip") and ship.at is not None and ship.facing is not None:
            side = "left" if order.left else "right"
            direction = ship.facing.turn_left() if side == "left" else ship.facing.turn_right()
            plans.append((ship.id, side, ship.at, ship.at.neighbour(direction)))
    wanted = Counter(target for _, _, _, target in plans)
    free = {target: _empty(turn, target) and wanted[target] == 1 for _, _, _, target in plans}
    for ident, side, origin, target in plans:
        if not free[target]:
            turn.say("slip_blocked", ship=ident, side=side, to=turn.cell(target))
            continue
        turn.arm_mine(ident, origin)
        turn.update(replace(turn.ships[ident], at=target))
        turn.say("slipped", ship=ident, **{"from": turn.cell(origin)}, to=turn.cell(target), side=side)


def turbo(turn: Turn) -> None:
    """After every ship has moved, turbo ships take a second step together, the others still; the
    collision rules and the one-loss cap of the movement phase apply. A doomed ship stays put (SB-12).
    **D** A brake cancels the normal step only: a braking turbo ship moves once, after the others."""
    movers = [s.id for s in turn.in_play() if turn.order(s.id).has("turbo") and s.hits < HULL]
    if movers:
        take_step(turn, movers, "turbo")


def super_armour(turn: Turn) -> None:
    """One lost hit point back, before destruction is judged: a ship at its 4th hit survives with 3."""
    for ship in list(turn.in_play()):
        if turn.order(ship.id).has("armour") and ship.hits > 0:
            repaired = turn.update(replace(ship, hits=ship.hits - 1))
            turn.say("repaired", ship=ship.id, hits=repaired.hits)
