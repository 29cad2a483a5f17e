"""A turn's resolution (SB-6..SB-14), phase by phase in the rulebook's numbered order.

reveal (orders made public, tokens paid), rotation, mines, movement (side slip, the simultaneous
step, turbo), missiles in play, firing, damage, then the end of the game if at most one ship is
left. Each phase reads and writes the `Turn` scratch pad; the events come out in that order, and a
snapshot of the public view after each phase feeds the bot's animation (the ``frames`` event).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.core.protocol import Outcome
from engine.spaceblast import powers
from engine.spaceblast.endings import finish
from engine.spaceblast.events import event
from engine.spaceblast.material import HULL, MISSILE_RANGE
from engine.spaceblast.missiles import flight_phase, fly
from engine.spaceblast.moves import take_step
from engine.spaceblast.orders import NO_ORDER, format_order
from engine.spaceblast.state import DESTROYED, FINISHED, ORDERS, GameState, Mine, Missile
from engine.spaceblast.tokens import rotation, settle
from engine.spaceblast.turn import Turn
from engine.spaceblast.variants import limits_for
from engine.spaceblast.views import public_view


def reveal(turn: Turn) -> None:
    """Every order made public (SB-20), a ship without one flying straight on (SB-6); powers
    played, energy reserve and recharge paid back, then every token spent (SB-5)."""
    in_play = [ship.id for ship in turn.in_play()]
    turn.say(
        "revealed",
        turn=turn.number,
        orders={ident: format_order(turn.order(ident)) for ident in in_play},
        tokens={ident: turn.order(ident).tokens() for ident in in_play},
        defaulted=[ident for ident in in_play if ident not in turn.orders],
    )
    for ident in in_play:
        order = turn.order(ident)
        for power in order.powers:
            turn.say("power_played", ship=ident, power=power)
        settled, recovered = settle(turn.ships[ident], order)
        turn.update(settled)
        for power, kind, amount in recovered:
            now = settled.turns if kind == "turns" else settled.missiles
            turn.say("recovered", ship=ident, power=power, kind=kind, amount=amount, now=now)


def rotate(turn: Turn) -> None:
    """SB-7: 60° per turn token (SB-18: several add up; SB-17 super turn: 120° or 180°)."""
    for ship in list(turn.in_play()):
        steps = rotation(turn.order(ship.id))
        if steps % 6 and ship.facing is not None:
            facing = ship.facing.rotated(steps)
            turn.update(replace(ship, facing=facing))
            turn.say("rotated", ship=ship.id, **{"from": ship.facing.name}, to=facing.name, steps=steps)


def lay_mines(turn: Turn) -> None:
    """SB-8: a mine under the ship, inactive until the ship leaves the cell or is destroyed."""
    for ship in turn.in_play():
        if turn.order(ship.id).mine and ship.at is not None and turn.mine_at(ship.at) is None:
            turn.mines.append(Mine(ship.id, ship.at, False))
            turn.say("mine_laid", ship=ship.id, at=turn.cell(ship.at))


def move(turn: Turn) -> None:
    """SB-9: side slips, every ship without a brake one cell ahead at once, then turbo (SB-17)."""
    powers.side_slips(turn)
    take_step(turn, [s.id for s in turn.in_play() if not turn.order(s.id).brake], "move")
    powers.turbo(turn)


def fire(turn: Turn) -> None:
    """SB-11: each missile token fires straight ahead from where the ship stands (doomed ships
    too), the new missile flying at once (SB-18: 3, 2 then 1 cells); a rear shot fires backwards."""
    ranges = limits_for(turn.start.variants).missile_ranges
    for ship in list(turn.in_play()):
        if ship.at is None or ship.facing is None:
            continue
        order = turn.order(ship.id)
        shots = [(ship.facing, ranges[min(k, len(ranges) - 1)], False) for k in range(order.missile)]
        if order.has("rearshot"):
            shots.append((ship.facing.opposite(), MISSILE_RANGE, True))
        for facing, cells, rear in shots:
            turn.say("fired", ship=ship.id, at=turn.cell(ship.at), facing=facing.name, range=cells, rear=rear)
            landed = fly(turn, Missile(ship.id, ship.at, facing), cells, "firing")
            if landed is not None:
                turn.missiles.append(landed)


def damage(turn: Turn) -> None:
    """SB-12: ships with 4 hits or more are destroyed now (super armour first, SB-17); the inactive
    mine under each becomes active."""
    powers.super_armour(turn)
    for ship in list(turn.in_play()):
        if ship.hits >= HULL:
            turn.say("destroyed", ship=ship.id, at=turn.cell(ship.at), cause="hits", hits=ship.hits)
            turn.remove(ship.id, DESTROYED)


PHASES: tuple[tuple[str, Callable[[Turn], None]], ...] = (
    ("reveal", reveal),
    ("rotation", rotate),
    ("mines", lay_mines),
    ("movement", move),
    ("missiles", flight_phase),
    ("firing", fire),
    ("damage", damage),
)


def resolve_turn(state: GameState) -> Outcome[GameState]:
    """The whole turn, with the state's submitted orders (absent ones: no orders, SB-6)."""
    in_play = [ship.id for ship in state.on_board()]
    orders = {ident: state.orders[ident] for ident in in_play if ident in state.orders}
    turn = Turn(state, orders)
    for name, phase in PHASES:
        phase(turn)
        turn.frames.append({**public_view(_settled(turn, in_play)), "frame": name})
    ending = finish(turn)
    new_state = _settled(turn, in_play)
    if ending is not None:
        new_state = replace(new_state, status=FINISHED, winner=ending[0], reason=ending[1])
        turn.frames.append({**public_view(new_state), "frame": "end"})
    return Outcome(new_state, (*turn.events, event("frames", views=turn.frames)))


def _settled(turn: Turn, in_play: list[str]) -> GameState:
    return replace(
        turn.result(),
        turn=turn.number,
        phase=ORDERS,
        orders={},
        ready=frozenset(),
        jumpers=(),
        revealed={ident: turn.orders.get(ident, NO_ORDER) for ident in in_play},
    )
