"""Missile flight (SB-10, SB-11, SB-16): straight ahead, one cell at a time.

A missile explodes in the first cell holding a ship (doomed ships too, SB-12), is removed when it
leaves the arena or enters an asteroid, and passes mines and other missiles by. A missile just
fired starts on its ship's cell and moves away from it, so it never hits its own ship then; a
missile already in play hits its owner's ship like any other, without a point (SB-10).
"""

from __future__ import annotations

from dataclasses import replace

from engine.spaceblast.material import MISSILE_RANGE
from engine.spaceblast.state import Missile
from engine.spaceblast.turn import Turn


def fly(turn: Turn, missile: Missile, cells: int, phase: str) -> Missile | None:
    """Move `missile` up to `cells` cells; the missile where it stops, or None when it is gone."""
    path: list[str] = []
    at = missile.at

    def moved() -> None:
        turn.say("missile_moved", owner=missile.owner, **{"from": turn.cell(missile.at)}, path=path,
                 facing=missile.facing.name)

    for _ in range(cells):
        ahead = at.neighbour(missile.facing)
        if ahead not in turn.board:
            moved()
            turn.say("missile_removed", owner=missile.owner, at=turn.cell(at), reason="left_arena")
            return None
        at = ahead
        path.append(turn.board.format(at))
        if at in turn.start.asteroids:
            moved()
            turn.say("missile_removed", owner=missile.owner, at=turn.cell(at), reason="asteroid")
            return None
        target = turn.ship_at(at)
        if target is not None:
            moved()
            turn.say("missile_hit", ship=target.id, owner=missile.owner, at=turn.cell(at), phase=phase)
            turn.hit(target.id, "missile", missile.owner)
            return None
    moved()
    return replace(missile, at=at)


def flight_phase(turn: Turn) -> None:
    """SB-10: every missile already in play moves 3 cells; the missiles fired this turn come after."""
    flying, turn.missiles = turn.missiles, []
    for missile in flying:
        landed = fly(turn, missile, MISSILE_RANGE, "flight")
        if landed is not None:
            turn.missiles.append(landed)
