"""Who commands which ship (SB-15): a player's fleet, and which of its ships an order is for.

In the standard game each ship is its own player, so a fleet is one ship and nothing here shows.
With two ships each, the bot's actor is the player; its orders name their ship (``2: brake``,
``Ann 1: left``) unless only one of its ships can take an order now. A ship's own id is an actor
too (it commands itself), which is how scenarios and the computer's look-ahead address one ship.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.core.errors import OrderError
from engine.core.names import name_key
from engine.spaceblast.orders import Order
from engine.spaceblast.state import GameState, Ship


def commanded(state: GameState, actor: str | None) -> tuple[Ship, ...]:
    """The actor's ships; ``unknown_character`` when it is neither a player nor a ship."""
    fleet = state.fleet(str(actor)) if actor is not None else ()
    if not fleet:
        raise OrderError("unknown_character", name=actor)
    return fleet


def speaker(fleet: Sequence[Ship]) -> str:
    """The name an actor's events give it: its player for a fleet, the ship for one ship."""
    return fleet[0].owner if len(fleet) > 1 else fleet[0].id


def ship_for(state: GameState, fleet: Sequence[Ship], selector: str | None, able: Sequence[Ship]) -> Ship:
    """The ship an order is for: the one its ship part names (a name or its number), else the only
    ship of the fleet that can take an order now (`able`). With none able, the fleet's first ship,
    so the order checks say why (``dead``, ``game_over``, ``not_allowed``)."""
    if selector is None:
        if len(fleet) == 1 or len(able) == 1:
            return (able or fleet)[0]
        if not able:
            return fleet[0]
        raise OrderError("not_allowed", reason="which_ship", ships=[ship.id for ship in able])
    wanted = name_key(selector)
    for ship in fleet:
        if name_key(ship.id) == wanted or wanted == str(state.mark(ship)):
            return ship
    other = next((ship for ship in state.ships if name_key(ship.id) == wanted), None)
    if other is not None:
        raise OrderError("not_allowed", reason="not_your_ship", ship=other.id, ships=[ship.id for ship in fleet])
    raise OrderError("unknown_character", name=selector)


def assign(state: GameState, fleet: Sequence[Ship], orders: Iterable[Order],
           can_order: Callable[[Ship], bool]) -> list[tuple[Ship, Order]]:
    """Each order with its ship (ship part dropped), all or nothing; a ship named twice is refused."""
    able = [ship for ship in fleet if can_order(ship)]
    pairs: list[tuple[Ship, Order]] = []
    for order in orders:
        ship = ship_for(state, fleet, order.ship, able)
        if any(ship.id == taken.id for taken, _ in pairs):
            raise OrderError("not_allowed", reason="ship_twice", ship=ship.id)
        pairs.append((ship, order.for_ship(None)))
    return pairs
