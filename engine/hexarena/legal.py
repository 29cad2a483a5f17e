"""Every legal action and every legal whole turn (python-chess's ``legal_moves``, for HexArena).

``legal_turns`` is the one source of "what can I do": the bot's suggestions, the computer players
and HA-14 ("no legal action loses") all read it. It is lazy turn by turn: a caller wanting a few
turns stops early (the actions of one step, a few dozen, are found at once).

Single actions are generated from the geometry (each is accepted by its handler: the property
tests and a brute-force cross-check hold it to that); a longer Alpha or Omega turn extends each
action by the actions legal on the board it leaves, with the ships not yet activated.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.hexarena.actions import FIRE_DESTROYS, HANDLERS
from engine.hexarena.actiontable import (
    AHEAD,
    BOARDS,
    FIRE,
    LEAVES,
    RAMS,
    RECYCLE_DIRECT,
    RECYCLE_INDIRECT,
    ROTATIONS,
    RUNS,
    STEPS,
    WRAPS,
)
from engine.hexarena.geometry import ADMIRAL, CARGO, FIGHTER, LINE, PATROL
from engine.hexarena.orders import Action, Turn
from engine.hexarena.state import DEBRIS, ArenaState, Ship

if TYPE_CHECKING:  # the variants ask this module whether an admiral can still move (HA-15)
    from engine.hexarena.variants import Budget, Variant

#: an action, the ship it activates (a leaving admiral, not its cargo), the cells a move enters
Candidate = tuple[Action, Ship, int]
#: the per-type finders append to one list: counting every Omega turn meets millions of
#: candidates, and nested generators cost more than the checks themselves
Found = list[Candidate]


def _fire(state: ArenaState, ship: Ship, out: Found) -> None:
    assert ship.at is not None and ship.facing is not None
    for cell in LINE[ship.at][ship.facing]:
        ident = state.occupancy.get(cell)
        if ident is None:
            continue
        if ident != DEBRIS and state.by_id[ident].type == FIRE_DESTROYS[ship.type]:
            out.append((FIRE[ship.at], ship, 0))
        return


def _admiral(state: ArenaState, ship: Ship, out: Found) -> None:
    at = ship.at
    assert at is not None and ship.facing is not None
    occupied = state.occupancy
    out.extend((action, ship, 1) for cell, action in STEPS[at] if cell not in occupied)
    out.extend((action, ship, 0) for action in ROTATIONS[at][ship.facing])
    _fire(state, ship, out)
    for cell, action in BOARDS[at]:
        cargo = state.ship_at(cell)
        if cargo is not None and cargo.type == CARGO and cargo.side == ship.side and state.passenger(cargo) is None:
            out.append((action, ship, 0))
    out.extend((action, ship, 0) for cell, action in RECYCLE_DIRECT[at] if occupied.get(cell) == DEBRIS)
    out.extend(
        (action, ship, 0)
        for middle, cell, action in RECYCLE_INDIRECT[at]
        if middle not in occupied and occupied.get(cell) == DEBRIS
    )


def _fighter(state: ArenaState, ship: Ship, out: Found) -> None:
    at = ship.at
    assert at is not None and ship.facing is not None
    occupied = state.occupancy
    for entered, (cell, action) in enumerate(RUNS[at][ship.facing], start=1):
        if cell in occupied:
            break
        out.append((action, ship, entered))
    out.extend((action, ship, 0) for action in ROTATIONS[at][ship.facing])
    _fire(state, ship, out)


def _cargo(state: ArenaState, ship: Ship, out: Found) -> None:
    at = ship.at
    assert at is not None and ship.facing is not None
    occupied = state.occupancy
    for entered, (cell, action) in enumerate(AHEAD[at][ship.facing], start=1):
        if cell in occupied:
            break
        out.append((action, ship, entered))
    out.extend((action, ship, 0) for action in ROTATIONS[at][ship.facing])


def _patrol(state: ArenaState, ship: Ship, out: Found) -> None:
    at = ship.at
    assert at is not None
    occupied = state.occupancy
    out.extend((action, ship, 1) for cell, action in STEPS[at] if cell not in occupied)
    out.extend((action, ship, 1) for cell, action in WRAPS[at] if cell not in occupied)
    for cell, action in RAMS[at]:
        target = state.ship_at(cell)
        if target is not None and target.type == CARGO:
            out.append((action, ship, 0))


_BY_TYPE = {ADMIRAL: _admiral, FIGHTER: _fighter, CARGO: _cargo, PATROL: _patrol}


def _ship_actions(state: ArenaState, ship: Ship, activated: frozenset[str], out: Found) -> None:
    """The actions of one ship on the board, and of the admiral it carries (leaving it)."""
    assert ship.at is not None
    if ship.id not in activated:
        _BY_TYPE[ship.type](state, ship, out)
    if ship.type == CARGO:
        passenger = state.passenger(ship)
        if passenger is not None and passenger.id not in activated:
            out.extend((action, passenger, 0) for cell, action in LEAVES[ship.at] if cell not in state.occupancy)


def candidate_actions(state: ArenaState, side: str, activated: frozenset[str] = frozenset()) -> Found:
    """Every action of `side` its handler accepts, ships in `activated` left out (AP not checked)."""
    out: Found = []
    for ship in state.ships:
        if ship.side == side and ship.alive and ship.at is not None:
            _ship_actions(state, ship, activated, out)
    return out


def affordable_actions(state: ArenaState, side: str, variant: Variant, budget: Budget) -> Found:
    found = candidate_actions(state, side, budget.activated)
    if budget.ap is None:
        return found
    ap, cost = budget.ap, variant.cost
    return [c for c in found if cost(c[1].type, c[0].verb, c[2]) <= ap]


def legal_turns(state: ArenaState, side: str, variant: Variant) -> Iterator[Turn]:
    """Every legal whole turn of `side`, shortest first within each first action (depth first)."""
    yield from _extend(state, side, variant, variant.new_budget(), ())


def _extend(
    state: ArenaState, side: str, variant: Variant, budget: Budget, prefix: tuple[Action, ...]
) -> Iterator[Turn]:
    for action, ship, cells in affordable_actions(state, side, variant, budget):
        actions = (*prefix, action)
        yield Turn(actions)
        cost = variant.cost(ship.type, action.verb, cells)
        if variant.room_after(budget, cost):
            new_state = HANDLERS[action.verb](state, ship, action)[0]
            yield from _extend(new_state, side, variant, variant.pay(budget, ship.id, cost), actions)


def has_legal_action(state: ArenaState, side: str, variant: Variant) -> bool:
    """HA-14: whether `side` could play anything at all at the start of its turn — asked as every
    turn passes, so ship by ship, stopping at the first that can act."""
    budget = variant.new_budget()
    for ship in state.ships:
        if ship.side == side and ship.alive and ship.at is not None:
            out: Found = []
            _ship_actions(state, ship, budget.activated, out)
            ap = budget.ap
            if out and (ap is None or any(variant.cost(c[1].type, c[0].verb, c[2]) <= ap for c in out)):
                return True
    return False


def admiral_can_change_cell(state: ArenaState, admiral: Ship) -> bool:
    """HA-15 pinned: whether one legal action changes the admiral's cell — its own move, boarding,
    leaving its cargo, an indirect recycle, a move of the cargo carrying it — found by playing the
    actions of the admiral, or of its cargo and itself, and looking where it ends. Rotations, fire
    and a direct recycle leave it where it is. (AP are not checked: Omega's 5 at a turn's start pay any.)"""
    carrier = admiral if admiral.carried_by is None else state.by_id[admiral.carried_by]
    before = state.admiral_cell(admiral.side)
    out: Found = []
    _ship_actions(state, carrier, frozenset(), out)
    return any(HANDLERS[a.verb](state, ship, a)[0].admiral_cell(admiral.side) != before for a, ship, _ in out)


def count_turns(state: ArenaState, side: str, variant: Variant) -> int:
    """len(list(legal_turns(...))) without building the turns: perft's leaf count."""
    return _count(state, side, variant, variant.new_budget())


def _count(state: ArenaState, side: str, variant: Variant, budget: Budget) -> int:
    found = affordable_actions(state, side, variant, budget)
    total = len(found)
    if variant.max_actions is not None and budget.actions + 1 >= variant.max_actions:
        return total  # the turn's last action: nothing to extend
    for action, ship, cells in found:
        cost = variant.cost(ship.type, action.verb, cells)
        if variant.room_after(budget, cost):
            after = HANDLERS[action.verb](state, ship, action)[0]
            total += _count(after, side, variant, variant.pay(budget, ship.id, cost))
    return total
