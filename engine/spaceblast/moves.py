"""A movement step applied to the arena (SB-9): clashes, then departures, then arrivals.

`movement.simultaneous_step` says who moves; here the consequences follow, in the order players
see them: collisions and rams (one hull point per ship per movement phase, every rammer scoring),
the mines of the ships that left their cell armed (so a ship entering that cell in the same step
triggers it), then each arrival: off the arena (eliminated, disqualified if it still held a turn or
brake token), into an asteroid (destroyed at once, SB-16), onto an active mine, facing a missile.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.core.hexgrid import Direction, Hex
from engine.spaceblast.movement import simultaneous_step
from engine.spaceblast.state import ASTEROID, LEFT_ARENA
from engine.spaceblast.turn import Turn


def take_step(turn: Turn, movers: Iterable[str], kind: str) -> None:
    """One simultaneous step for `movers` (`kind`: "move", or "turbo" for SB-17's second step)."""
    ships = list(turn.in_play())
    at = {ship.id: ship.at for ship in ships if ship.at is not None}
    facing = {ship.id: ship.facing for ship in ships if ship.facing is not None}
    step = simultaneous_step(at, facing, movers, turn.board)
    for clash in step.clashes:
        cell = turn.cell(clash.cell)
        if clash.kind == "ram":
            rammer, target = clash.ships
            turn.say("ram", ship=rammer, target=target, cell=cell)
            turn.bump(rammer, "ram", target)
            turn.bump(target, "ram", rammer)
            if target not in turn.shielded:
                turn.score(rammer, 1, "ram", target)
        else:
            turn.say("collision", ships=list(clash.ships), cell=cell, kind=clash.kind)
            for ident in clash.ships:
                turn.bump(ident, "collision", None)
    for ident in step.moved:
        turn.arm_mine(ident, at[ident])
    for ident, cell in step.moved.items():
        arrive(turn, ident, at[ident], cell, facing[ident], kind)


def arrive(turn: Turn, ident: str, origin: Hex, cell: Hex, direction: Direction, kind: str) -> None:
    if cell not in turn.board:
        turn.say("moved", ship=ident, **{"from": turn.cell(origin)}, to=None, facing=direction.name, step=kind)
        eliminate(turn, ident, origin)
        return
    turn.update(replace(turn.ships[ident], at=cell))
    turn.say("moved", ship=ident, **{"from": turn.cell(origin)}, to=turn.cell(cell), facing=direction.name, step=kind)
    if cell in turn.start.asteroids:
        turn.say("asteroid_hit", ship=ident, at=turn.cell(cell))
        turn.say("destroyed", ship=ident, at=turn.cell(cell), cause="asteroid", hits=turn.ships[ident].hits)
        turn.remove(ident, ASTEROID)
        return
    mine = turn.mine_at(cell)
    if mine is not None and mine.active:
        turn.mines.remove(mine)
        turn.say("mine_hit", ship=ident, owner=mine.owner, at=turn.cell(cell))
        turn.hit(ident, "mine", mine.owner)
    for missile in [m for m in turn.missiles if m.at == cell and m.facing == direction.opposite()]:
        turn.missiles.remove(missile)
        turn.say("missile_hit", ship=ident, owner=missile.owner, at=turn.cell(cell), phase="movement")
        turn.hit(ident, "missile", missile.owner)


def eliminate(turn: Turn, ident: str, origin: Hex) -> None:
    """Off the arena (SB-9): eliminated; disqualified, its points gone for good, if it still holds
    a turn or brake token once this turn's tokens are spent."""
    ship = turn.ships[ident]
    turn.say("eliminated", ship=ident, **{"from": turn.cell(origin)}, reason="left_arena")
    turn.remove(ident, LEFT_ARENA)
    if ship.turns > 0 or ship.brakes > 0:
        turn.update(replace(turn.ships[ident], disqualified=True, score=0))
        turn.say("disqualified", ship=ident, lost=ship.score)
