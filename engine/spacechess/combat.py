"""Shooting, areas and damage: SC-20..SC-23, SC-26 air strike, SC-28 death.

Every function here is pure and shared by the orders, the legal-order listing and the line report,
so what the bot shows a player before an order is exactly what the order would do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core.errors import OrderError
from engine.core.protocol import Event
from engine.core.squaregrid import Cell, distance, format_cell, ordered_crossing
from engine.spacechess.events import event
from engine.spacechess.orders import DIRECTIONS
from engine.spacechess.state import Character, GameState


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """The exact shot line (SC-21/22): crossed cells in order, who it passes through, what stops it."""

    crossed: tuple[Cell, ...]
    passed: tuple[str, ...]
    blocker: Cell | None


def shot_range(shooter: Character, state: GameState) -> int:
    """SC-20: weapon range, +6 with a scope."""
    assert shooter.weapon is not None
    bonus = state.rules.item("scope", "range") if shooter.has("scope") else 0
    return state.rules.weapons[shooter.weapon].range + bonus


def shot_limit(shooter: Character, state: GameState) -> int:
    """SC-20: weapon limit; x2 during rage, else +1 with reserve magazines (inactive during rage)."""
    assert shooter.weapon is not None
    base = state.rules.weapons[shooter.weapon].shots
    if shooter.ability_used == "rage":
        return 2 * base
    return base + (state.rules.item("reserve_magazines", "shots") if shooter.has("reserve_magazines") else 0)


def line_of_fire(state: GameState, shooter: Character, target: Character) -> LineOfFire:
    """Walk the crossed cells from the shooter: obstacles always stop the shot, characters unless
    the shooter has perforating ammo (then they are hit in passing)."""
    assert shooter.at is not None and target.at is not None
    crossed = tuple(ordered_crossing(shooter.at, target.at))
    perforating = shooter.has("perforating")
    passed: list[str] = []
    occupants = {c.at: c for c in state.living() if c.at is not None}
    obstacles = state.game_map.obstacles
    for cell in crossed:
        if cell in obstacles:
            return LineOfFire(crossed, tuple(passed), cell)
        occupant = occupants.get(cell)
        if occupant is not None:
            if not perforating:
                return LineOfFire(crossed, tuple(passed), cell)
            passed.append(occupant.id)
    return LineOfFire(crossed, tuple(passed), None)


def check_shot(state: GameState, shooter: Character, target: Character) -> LineOfFire:
    """Every SC-20 condition, in the order a player fixes them; returns the clear line."""
    assert shooter.at is not None and target.at is not None
    if target.id == shooter.id:
        raise OrderError("not_allowed", reason="self")
    if shooter.ap < state.rules.shot_cost:
        raise OrderError("not_enough_ap", need=state.rules.shot_cost, have=shooter.ap)
    reach = shot_range(shooter, state)
    if distance(shooter.at, target.at) > reach:
        raise OrderError(
            "out_of_range", target=target.id, distance=distance(shooter.at, target.at), range=reach
        )
    limit = shot_limit(shooter, state)
    if shooter.shots_this_turn >= limit:
        raise OrderError("shot_limit", limit=limit)
    line = line_of_fire(state, shooter, target)
    if line.blocker is not None:
        raise OrderError("no_line_of_fire", target=target.id, blocked_at=format_cell(line.blocker))
    return line


def grenade_area(cell: Cell) -> tuple[Cell, ...]:
    """SC-23: the named cell is the top-left of the square as drawn (row 1 at the bottom)."""
    return (cell, Cell(cell.x + 1, cell.y), Cell(cell.x, cell.y - 1), Cell(cell.x + 1, cell.y - 1))


def airstrike_area(cell: Cell, direction: str, length: int) -> tuple[Cell, ...]:
    dx, dy = DIRECTIONS[direction]
    return tuple(Cell(cell.x + k * dx, cell.y + k * dy) for k in range(length))


def check_on_board(state: GameState, area: tuple[Cell, ...], named: Cell) -> None:
    for cell in area:
        if not state.game_map.in_bounds(cell):
            raise OrderError("off_board", cell=format_cell(named))


def check_grenade(state: GameState, thrower: Character, cell: Cell) -> tuple[Cell, ...]:
    """SC-23 conditions, in the order of a shot's (SC-20: AP, reach, then the turn's limit); returns
    the 4 cells the grenade hits."""
    assert thrower.at is not None
    rules = state.rules
    if not thrower.has("grenades"):
        raise OrderError("missing_item", item="grenades")
    cost = rules.item("grenades", "cost")
    if thrower.ap < cost:
        raise OrderError("not_enough_ap", need=cost, have=thrower.ap)
    area = grenade_area(cell)
    check_on_board(state, area, cell)
    reach = rules.item("grenades", "reach")
    for target in area:
        if distance(thrower.at, target) > reach:
            raise OrderError(
                "out_of_range", cell=format_cell(cell), distance=distance(thrower.at, target), range=reach
            )
    limit = rules.item("grenades", "per_turn")
    if thrower.grenades_this_turn >= limit:
        raise OrderError("shot_limit", reason="grenade", item="grenades", limit=limit)
    return area


def characters_in(state: GameState, area: tuple[Cell, ...]) -> list[Character]:
    """The living characters standing in `area`, in area order."""
    found = []
    for cell in area:
        occupant = state.occupant(cell)
        if occupant is not None:
            found.append(occupant)
    return found


def hit(
    state: GameState, victims: list[str], damage: int, cause: str, by: str
) -> tuple[GameState, list[Event]]:
    """Apply one hit of `damage` to each victim in order: armour first (min 0), death at HP <= 0 (SC-28)."""
    events: list[Event] = []
    for victim_id in victims:
        victim = state.find(victim_id)
        assert victim is not None and victim.alive and victim.armour is not None
        amount = max(0, damage - state.rules.armours[victim.armour].reduction)
        hp = max(0, victim.hp - amount)
        events.append(event("damaged", id=victim.id, amount=amount, hp=hp, cause=cause, by=by))
        if hp == 0:
            events.append(event("died", id=victim.id, at=format_cell(victim.at), cause=cause, by=by))
            state = state.with_character(replace(victim, hp=0, at=None))
        else:
            state = state.with_character(replace(victim, hp=hp))
    return state, events
