"""What each action does (reconstructed rules HA-4..HA-11): checked, then applied to a new state.

Every handler takes the acting ship (already known to belong to the side to move) and returns the
new state, the events, and the number of cells entered (what Omega charges per cell, HA-17).
Move generation (legal.py) lists only actions these handlers accept, and the tests hold it to that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.core.errors import OrderError
from engine.core.hexgrid import Hex
from engine.core.protocol import Event
from engine.hexarena.events import event
from engine.hexarena.geometry import (
    ADMIRAL,
    CARGO,
    FIGHTER,
    LINE,
    NEIGHBOUR,
    PATROL,
    WRAP,
    WRAPPED_LINE,
    cell_name,
    cell_names,
    straight_step,
)
from engine.hexarena.orders import Action
from engine.hexarena.state import DEBRIS, ArenaState, Ship

Done = tuple[ArenaState, list[Event], int]

#: HA-4..HA-8: what each type of ship can do (leave is the carried admiral's, named by its cargo)
VERBS_OF: dict[str, frozenset[str]] = {
    ADMIRAL: frozenset({"move", "rotate", "fire", "board", "leave", "recycle"}),
    FIGHTER: frozenset({"move", "rotate", "fire"}),
    CARGO: frozenset({"move", "rotate"}),
    PATROL: frozenset({"move", "ram"}),
}
#: HA-9 D: the domination cycle's "destroys" arrows by fire (the patrol's is ramming, HA-7)
FIRE_DESTROYS: dict[str, str] = {ADMIRAL: FIGHTER, FIGHTER: PATROL}


def acting_ship(state: ArenaState, side: str, action: Action) -> Ship:
    """The ship an action names by its cell: the side's own, able to do that verb. For ``leave``,
    the admiral inside the cargo standing there."""
    ident = state.occupancy.get(action.at)
    if ident is None or ident == DEBRIS:
        raise OrderError("no_ship", cell=cell_name(action.at))
    ship = state.by_id[ident]
    if ship.side != side:
        raise OrderError("not_your_ship", cell=cell_name(action.at), ship=ship.id)
    if action.verb == "leave":
        passenger = state.passenger(ship)
        if passenger is None:  # an admiral on its own cell is aboard nothing; a cargo may carry nobody
            reason = "not_aboard" if ship.type == ADMIRAL else "no_passenger"
            raise OrderError("not_allowed", reason=reason, ship=ship.id, verb=action.verb)
        return passenger
    if action.verb not in VERBS_OF[ship.type]:
        raise OrderError("not_allowed", reason="ship_type", ship=ship.id, type=ship.type, verb=action.verb)
    return ship


def _free(state: ArenaState, cell: Hex) -> None:
    """The destination of a move must be empty (HA-4..HA-7)."""
    if cell in state.occupancy:
        raise OrderError("occupied", cell=cell_name(cell), by=_holder(state, cell))


def _clear(state: ArenaState, path: tuple[Hex, ...], to: Hex) -> None:
    """Cells crossed before the destination must be empty (HA-5, HA-6)."""
    for cell in path:
        if cell in state.occupancy:
            raise OrderError("path_blocked", cell=cell_name(to), blocked_at=cell_name(cell), by=_holder(state, cell))


def _holder(state: ArenaState, cell: Hex) -> str:
    ident = state.occupancy[cell]
    return "debris" if ident == DEBRIS else ident


def _moved(state: ArenaState, ship: Ship, to: Hex, path: tuple[Hex, ...], teleport: bool) -> Done:
    """A ship goes to `to`; a carried admiral rides along without a cell of its own (HA-6)."""
    assert ship.at is not None
    passenger = state.passenger(ship) if ship.type == CARGO else None
    new_state = state.with_ships(replace(ship, at=to))
    params = {
        "ship": ship.id,
        "type": ship.type,
        "side": ship.side,
        "from": cell_name(ship.at),
        "to": cell_name(to),
        "path": cell_names(path),
        "teleport": teleport,
        "passenger": None if passenger is None else passenger.id,
    }
    return new_state, [event("moved", **params)], len(path)


def do_move(state: ArenaState, ship: Ship, action: Action) -> Done:
    at, to = ship.at, action.to
    assert at is not None and to is not None
    if ship.type in (ADMIRAL, PATROL):
        if to in NEIGHBOUR[at].values():
            _free(state, to)
            return _moved(state, ship, to, (to,), False)
        if ship.type == PATROL and to in WRAP[at].values():  # HA-7 teleport
            _free(state, to)
            return _moved(state, ship, to, (to,), True)
        raise OrderError("out_of_range", reason="unreachable", ship=ship.id, cell=cell_name(to))
    assert ship.facing is not None
    if ship.type == FIGHTER:  # HA-5: straight ahead, wrapping at the edge
        line = WRAPPED_LINE[at][ship.facing]
        if to not in line:
            raise OrderError("out_of_range", reason="unreachable", ship=ship.id, cell=cell_name(to))
        index = line.index(to)
        _clear(state, line[:index], to)
        _free(state, to)
        return _moved(state, ship, to, line[: index + 1], index >= len(LINE[at][ship.facing]))
    ahead = LINE[at][ship.facing][:2]  # HA-6: the cargo goes 1 or 2 cells ahead
    if to not in ahead:
        raise OrderError("out_of_range", reason="unreachable", ship=ship.id, cell=cell_name(to))
    index = ahead.index(to)
    _clear(state, ahead[:index], to)
    _free(state, to)
    return _moved(state, ship, to, ahead[: index + 1], False)


def do_rotate(state: ArenaState, ship: Ship, action: Action) -> Done:
    """HA-8; pinned: the facing must change."""
    assert ship.at is not None and ship.facing is not None and action.direction is not None
    if action.direction == ship.facing:
        raise OrderError("not_allowed", reason="same_facing", ship=ship.id, facing=ship.facing.name)
    new_state = state.with_ships(replace(ship, facing=action.direction))
    params = {"ship": ship.id, "at": cell_name(ship.at), "from": ship.facing.name, "to": action.direction.name}
    return new_state, [event("rotated", **params)], 0


def destroy(state: ArenaState, target: Ship, by: Ship) -> tuple[ArenaState, list[Event]]:
    """HA-10, HA-11: the ship goes to its owner's graveyard; a debris takes its cell if the reserve
    has one, unless it was a cargo carrying the admiral, which is left standing there instead."""
    at = target.at
    assert at is not None
    passenger = state.passenger(target) if target.type == CARGO else None
    changed = [replace(target, at=None, alive=False)]
    debris, reserve = state.debris, state.debris_reserve
    if passenger is not None:
        changed.append(replace(passenger, at=at, carried_by=None))
    elif reserve > 0:
        debris, reserve = debris | {at}, reserve - 1
    new_state = replace(
        state.with_ships(*changed), debris=debris, debris_reserve=reserve, graveyard=(*state.graveyard, target.id)
    )
    params = {
        "ship": target.id,
        "side": target.side,
        "type": target.type,
        "at": cell_name(at),
        "by": by.id,
        "debris": at in debris,
        "released": None if passenger is None else passenger.id,
        "reserve": reserve,
    }
    return new_state, [event("destroyed", **params)]


def do_fire(state: ArenaState, ship: Ship, action: Action) -> Done:
    """HA-9: the first ship on the facing line, which does not wrap and which debris blocks."""
    assert ship.at is not None and ship.facing is not None
    crossed: list[Hex] = []
    target: Ship | None = None
    for cell in LINE[ship.at][ship.facing]:
        crossed.append(cell)
        ident = state.occupancy.get(cell)
        if ident == DEBRIS:
            break
        if ident is not None:
            target = state.by_id[ident]
            break
    if target is None:
        raise OrderError("no_line_of_fire", reason="nothing_ahead", ship=ship.id, direction=ship.facing.name)
    if FIRE_DESTROYS[ship.type] != target.type:
        raise OrderError("immune", reason="domination", ship=ship.id, target=target.id, type=target.type)
    new_state, events = destroy(state, target, ship)
    fired = event(
        "fired",
        ship=ship.id,
        at=cell_name(ship.at),
        direction=ship.facing.name,
        line=cell_names(crossed),
        target=target.id,
    )
    return new_state, [fired, *events], 0


def do_ram(state: ArenaState, ship: Ship, action: Action) -> Done:
    """HA-7: the patrol destroys the adjacent cargo of either side without moving."""
    assert ship.at is not None and action.direction is not None
    cell = NEIGHBOUR[ship.at].get(action.direction)
    ident = None if cell is None else state.occupancy.get(cell)
    if cell is None or ident is None:
        raise OrderError("no_target", ship=ship.id, direction=action.direction.name)
    if ident == DEBRIS:
        raise OrderError("immune", reason="debris", ship=ship.id, cell=cell_name(cell))
    target = state.by_id[ident]
    if target.type != CARGO:
        raise OrderError("immune", reason="domination", ship=ship.id, target=target.id, type=target.type)
    new_state, events = destroy(state, target, ship)
    rammed = event(
        "rammed",
        ship=ship.id,
        at=cell_name(ship.at),
        direction=action.direction.name,
        target=target.id,
        target_at=cell_name(cell),
    )
    return new_state, [rammed, *events], 0


def do_board(state: ArenaState, ship: Ship, action: Action) -> Done:
    """HA-4: the admiral boards an adjacent friendly cargo (HA-6: one admiral per cargo)."""
    at, to = ship.at, action.to
    assert at is not None and to is not None
    if to not in NEIGHBOUR[at].values():
        raise OrderError("not_adjacent", ship=ship.id, target=cell_name(to))
    cargo = state.ship_at(to)
    if cargo is None or cargo.type != CARGO or cargo.side != ship.side:
        raise OrderError("no_cargo", cell=cell_name(to))
    if state.passenger(cargo) is not None:
        raise OrderError("occupied", cell=cell_name(to), by=cargo.id)
    new_state = state.with_ships(replace(ship, at=None, carried_by=cargo.id))
    return new_state, [event("boarded", ship=ship.id, cargo=cargo.id, **{"from": cell_name(at)}, at=cell_name(to))], 0


def do_leave(state: ArenaState, ship: Ship, action: Action) -> Done:
    """HA-4: the carried admiral steps out of its cargo to an adjacent empty cell."""
    assert ship.carried_by is not None and action.to is not None
    cargo = state.by_id[ship.carried_by]
    assert cargo.at is not None
    if action.to not in NEIGHBOUR[cargo.at].values():
        raise OrderError("not_adjacent", ship=ship.id, target=cell_name(action.to))
    _free(state, action.to)
    new_state = state.with_ships(replace(ship, at=action.to, carried_by=None))
    params = {"ship": ship.id, "cargo": cargo.id, "from": cell_name(cargo.at), "to": cell_name(action.to)}
    return new_state, [event("left", **params)], 0


def do_recycle(state: ArenaState, ship: Ship, action: Action) -> Done:
    """HA-4: direct access (an adjacent debris) or indirect (two cells away in a straight line,
    the empty middle cell being where the admiral ends); the debris goes back to the reserve."""
    at, debris = ship.at, action.to
    assert at is not None and debris is not None
    if state.occupancy.get(debris) != DEBRIS:
        raise OrderError("no_debris", cell=cell_name(debris))
    step = straight_step(at, debris)
    if step is None or step[1] > 2:
        raise OrderError("out_of_range", reason="unreachable", ship=ship.id, cell=cell_name(debris))
    direction, distance = step
    to = at
    if distance == 2:
        to = at.neighbour(direction)
        _clear(state, (to,), debris)
    reserve = state.debris_reserve + 1
    new_state = replace(
        state.with_ships(replace(ship, at=to)), debris=state.debris - {debris}, debris_reserve=reserve
    )
    params = {
        "ship": ship.id,
        "debris": cell_name(debris),
        "access": "direct" if distance == 1 else "indirect",
        "from": cell_name(at),
        "to": cell_name(to),
        "reserve": reserve,
    }
    return new_state, [event("recycled", **params)], 0


HANDLERS: dict[str, Callable[[ArenaState, Ship, Action], Done]] = {
    "move": do_move,
    "rotate": do_rotate,
    "fire": do_fire,
    "ram": do_ram,
    "board": do_board,
    "leave": do_leave,
    "recycle": do_recycle,
}
