"""Every order a ship may give now (SB-5, SB-17, SB-18): the one source of "what can I do".

Candidates range over the token counts the ship holds (one of each kind, or any number in BigBang,
super turn's 2 or 3 of a side), with every subset of its unplayed powers; each goes through the very
checks a submitted order passes, so a listed order is accepted by construction. Lazy, in a fixed
order: fewest tokens first within each power subset, the subsets from none to all.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product, zip_longest

from engine.core.errors import OrderError
from engine.core.names import name_key
from engine.spaceblast.checks import check_order
from engine.spaceblast.orders import Order
from engine.spaceblast.state import ORDERS, RUNNING, GameState, Ship
from engine.spaceblast.variants import OrderLimits, limits_for


def _turn_pairs(ship: Ship, limits: OrderLimits) -> list[tuple[int, int]]:
    if limits.repeats:
        return [(left, total - left) for total in range(ship.turns + 1) for left in range(total, -1, -1)]
    pairs = [(0, 0), (1, 0), (0, 1)]
    if "superturn" in ship.powers:
        pairs += [(2, 0), (0, 2), (3, 0), (0, 3)]
    return [(left, right) for left, right in pairs if left + right <= ship.turns]


def legal_orders(state: GameState, actor: str) -> Iterator[Order]:
    """Every order of every ship `actor` commands. A player's orders name their ship (SB-15), taking
    its ships in turn so that a short list (autocomplete) still offers each; a ship's are bare."""
    fleet = [ship for ship in state.fleet(actor) if ship.on_board]
    if state.status != RUNNING or state.phase != ORDERS or not fleet:
        return
    streams = [_tagged(ship_orders(state, ship), None if name_key(ship.id) == name_key(actor) else ship.id)
               for ship in fleet]
    for round_ in zip_longest(*streams):
        yield from (order for order in round_ if order is not None)


def _tagged(orders: Iterator[Order], ship: str | None) -> Iterator[Order]:
    return (order.for_ship(ship) for order in orders)


def ship_orders(state: GameState, ship: Ship) -> Iterator[Order]:
    """Every order one ship on the arena may give now, fewest tokens first within each power subset."""
    limits = limits_for(state.variants)
    most = (lambda held: held) if limits.repeats else (lambda held: min(held, 1))
    for size in range(len(ship.powers) + 1):
        for powers in combinations(ship.powers, size):
            candidates = product(
                _turn_pairs(ship, limits),
                range(most(ship.brakes) + 1),
                range(min(limits.missiles, ship.missiles) + 1),
                range(min(1, ship.mines) + 1),
            )
            for (left, right), brake, missile, mine in candidates:
                order = Order(left, right, brake, missile, mine, tuple(sorted(powers)))
                try:
                    check_order(state, ship.id, order)
                except OrderError:
                    continue
                yield order
