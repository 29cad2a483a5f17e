"""A brute-force oracle for move generation: try every action the order language can write, on
every cell holding one of the side's ships, through the same handlers `play` uses, and keep what
they accept. It knows nothing of how legal.py finds actions, so agreeing with it pins that."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.errors import OrderError
from engine.core.hexgrid import Direction
from engine.hexarena.actions import HANDLERS, VERBS_OF, acting_ship
from engine.hexarena.geometry import BOARD
from engine.hexarena.orders import Action
from engine.hexarena.rules import variant_of
from engine.hexarena.state import ArenaState
from engine.hexarena.variants import Budget, Variant


def written_actions(state: ArenaState, side: str, activated: frozenset[str]) -> Iterator[Action]:
    """Every action text naming a cell with one of `side`'s ships that can still act, with a verb
    its type has (the other texts are refused before any geometry: the scenarios pin those)."""
    cells = list(BOARD)
    for at, ident in state.occupancy.items():
        ship = state.by_id.get(ident)
        if ship is None or ship.side != side:
            continue
        verbs = set(VERBS_OF[ship.type]) if ship.id not in activated else set()
        passenger = state.passenger(ship)
        if passenger is not None and passenger.id not in activated:
            verbs.add("leave")
        for to in cells:
            for verb in ("move", "board", "leave", "recycle"):
                if verb in verbs:
                    yield Action(verb, at, to)
        for direction in Direction:
            for verb in ("rotate", "ram"):
                if verb in verbs:
                    yield Action(verb, at, direction=direction)
        if "fire" in verbs:
            yield Action("fire", at)


def accepted(state: ArenaState, side: str, variant: Variant, budget: Budget) -> Iterator[tuple[Action, ArenaState, Budget]]:
    for action in written_actions(state, side, budget.activated):
        try:
            ship = acting_ship(state, side, action)
            variant.admit(budget, ship.id)
            after, _, cells = HANDLERS[action.verb](state, ship, action)
            paid = variant.pay(budget, ship.id, variant.cost(ship.type, action.verb, cells))
        except OrderError:
            continue
        yield action, after, paid


def oracle_turns(state: ArenaState, side: str) -> set[tuple[Action, ...]]:
    """Every legal whole turn, found by trying everything at each step of the turn."""
    variant = variant_of(state)
    turns: set[tuple[Action, ...]] = set()

    def extend(node: ArenaState, budget: Budget, prefix: tuple[Action, ...]) -> None:
        for action, after, paid in accepted(node, side, variant, budget):
            turns.add((*prefix, action))
            if (variant.max_actions is None or paid.actions < variant.max_actions) and paid.ap != 0:
                extend(after, paid, (*prefix, action))

    extend(state, variant.new_budget(), ())
    return turns
