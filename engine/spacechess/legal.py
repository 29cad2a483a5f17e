"""Every order a character may give now, and the bot's hints drawn from them (SC-17..SC-27, SC-33).

``legal_orders`` is the one source of "what can I do": autocomplete, the reach overlay and any
computer player read it instead of re-deriving the rules, so they cannot drift from ``play``.

How each kind is listed: its parameters range over a finite set fixed by the rules' geometry (the
cells a move reaches, the characters in play, the cells within a grenade's or a power's reach).
Where that set is small, each candidate goes through the very check or handler ``play`` runs, so
a listed order is accepted by construction. Three kinds have about a thousand candidates each
(moves, teleport, air strike) and would be slow that way: moves come from the one breadth-first
search that also prices them, and teleport and air strike from their rule's geometry after the
checks that do not depend on the cell (role, AP) have passed once. The tests hold all of them to
``play``, both ways.

Pure: no I/O, no clock, no randomness; the order of the orders is fixed (kind, then board order).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

from engine.core.errors import OrderError
from engine.core.squaregrid import Cell, distance, format_cell
from engine.spacechess.actions import do_ability, do_friendship
from engine.spacechess.combat import check_grenade, check_shot
from engine.spacechess.movement import reachable_cells
from engine.spacechess.orders import DIRECTIONS, Order
from engine.spacechess.powers import do_power, power_cost
from engine.spacechess.state import RUNNING, Character, GameState


def _accepted(check: Callable[[], object]) -> bool:
    """Whether the engine's own check lets a candidate through (it raises OrderError otherwise)."""
    try:
        check()
    except OrderError:
        return False
    return True


def _acting(state: GameState, actor: str) -> Character | None:
    """The character `actor` names if it may act now: the game running and it alive on the board
    (SC-28: the dead do not act; before the start and after the end nobody does)."""
    if state.status != RUNNING:
        return None
    character = state.find(actor)
    if character is None or not character.alive or character.at is None:
        return None
    return character


# -- moves (SC-17..SC-19, SC-33) -------------------------------------------------------------------
def _drops(state: GameState, mover: Character, cell: Cell) -> Iterator[str]:
    """What the mover may name to leave behind for the pickup at `cell` (SC-33). Nothing for the
    general (takes no pickup), nor for AP and HP pickups (nothing to trade). A weapon pickup
    other than the mover's weapon takes the weapon in exchange; an item the mover lacks takes
    either held item, except for a colonel, who never holds another item (SC-27)."""
    pickup = state.pickup_at(cell)
    if pickup is None or mover.is_general:
        return
    if pickup.kind == "weapon":
        if mover.weapon is not None and pickup.name != mover.weapon:
            yield mover.weapon
    elif pickup.kind == "item" and not mover.is_colonel and not mover.has(pickup.name or ""):
        yield from mover.items


def _moves(state: GameState, mover: Character) -> Iterator[Order]:
    """Each affordable destination, then its ``drop`` variants; the plain move is always there, the
    pickup being left where it lies when nothing is dropped."""
    for cell in sorted(reachable_cells(state, mover)):
        yield Order("move", cell=cell)
        for item in _drops(state, mover, cell):
            yield Order("move", cell=cell, drop=item)


# -- shots and grenades (SC-20..SC-23) ---------------------------------------------------------------
def _shots(state: GameState, shooter: Character) -> Iterator[Order]:
    """Any other living character, allies included (SC-20), in seat order."""
    if shooter.weapon is None:
        return
    for target in state.living():
        if target.id != shooter.id and _accepted(lambda t=target: check_shot(state, shooter, t)):
            yield Order("shoot", target=target.id)


def _grenades(state: GameState, thrower: Character) -> Iterator[Order]:
    """The named cell is a corner of the 2x2 square, every cell of which is within reach, so the
    candidates are the board cells at most reach + 1 away; `check_grenade` keeps the right ones."""
    if not thrower.has("grenades"):
        return
    assert thrower.at is not None
    span = state.rules.item("grenades", "reach") + 1
    game_map = state.game_map
    for x in range(max(0, thrower.at.x - span), min(game_map.width, thrower.at.x + span + 1)):
        for y in range(max(0, thrower.at.y - span), min(game_map.height, thrower.at.y + span + 1)):
            cell = Cell(x, y)
            if _accepted(lambda c=cell: check_grenade(state, thrower, c)):
                yield Order("grenade", cell=cell)


# -- abilities (SC-25) --------------------------------------------------------------------------------
def _ability(verb: str) -> Callable[[GameState, Character], Iterator[Order]]:
    def listed(state: GameState, soldier: Character) -> Iterator[Order]:
        order = Order(verb)
        if _accepted(lambda: do_ability(state, soldier, order)):
            yield order

    return listed


def _friendships(state: GameState, giver: Character) -> Iterator[Order]:
    if giver.ability != "friendship":
        return
    for receiver in state.living():
        order = Order("friendship", target=receiver.id)
        if _accepted(lambda o=order: do_friendship(state, giver, o)):
            yield order


# -- general powers (SC-26) ---------------------------------------------------------------------------
def _affordable(state: GameState, general: Character, power: str) -> bool:
    """The checks of a power that do not depend on its target or cell: a general, with the AP."""
    return general.is_general and power_cost(state, general, power) <= general.ap


def _simple_power(verb: str) -> Callable[[GameState, Character], Iterator[Order]]:
    """Encouragement and hacking: no parameter, one candidate through the power's handler."""

    def listed(state: GameState, general: Character) -> Iterator[Order]:
        order = Order(verb)
        if _affordable(state, general, verb) and _accepted(lambda: do_power(state, general, order)):
            yield order

    return listed


def _heals(state: GameState, general: Character) -> Iterator[Order]:
    if not _affordable(state, general, "heal"):
        return
    for target in state.living():
        order = Order("heal", target=target.id)
        if _accepted(lambda o=order: do_power(state, general, o)):
            yield order


def _intimidations(state: GameState, general: Character) -> Iterator[Order]:
    """An enemy soldier within the radius, to a cell within the shift of where it stands: the
    candidates are each living character and the board cells within the shift of it."""
    if not _affordable(state, general, "intimidate"):
        return
    shift = state.rules.power("intimidate", "shift")
    game_map = state.game_map
    for target in state.living():
        assert target.at is not None
        for x in range(max(0, target.at.x - shift), min(game_map.width, target.at.x + shift + 1)):
            for y in range(max(0, target.at.y - shift), min(game_map.height, target.at.y + shift + 1)):
                order = Order("intimidate", target=target.id, cell=Cell(x, y))
                if _accepted(lambda o=order: do_power(state, general, o)):
                    yield order


def _teleports(state: GameState, general: Character) -> Iterator[Order]:
    """An adjacent living teammate to any free floor cell (its own excepted: it is not free)."""
    if not _affordable(state, general, "teleport"):
        return
    assert general.at is not None
    game_map = state.game_map
    taken = state.occupied_cells()
    free = [
        cell
        for x in range(game_map.width)
        for y in range(game_map.height)
        if (cell := Cell(x, y)) not in game_map.obstacles and cell not in taken
    ]
    for target in state.living():
        assert target.at is not None
        if target.id == general.id or target.team != general.team or distance(general.at, target.at) != 1:
            continue
        for cell in free:
            yield Order("teleport", target=target.id, cell=cell)


def _airstrikes(state: GameState, general: Character) -> Iterator[Order]:
    """Anywhere on the map, in any of the 8 directions, with all the strike's cells on the board:
    the line is on the board when its first and last cells are."""
    if not _affordable(state, general, "airstrike"):
        return
    reach = max(0, state.rules.power("airstrike", "length") - 1)
    width, height = state.game_map.width, state.game_map.height
    for x in range(width):
        for y in range(height):
            for direction, (dx, dy) in DIRECTIONS.items():
                if 0 <= x + reach * dx < width and 0 <= y + reach * dy < height:
                    yield Order("airstrike", cell=Cell(x, y), direction=direction)


#: one generator per order kind of the language (orders.GRAMMAR), in the grammar's order
_KINDS: dict[str, Callable[[GameState, Character], Iterator[Order]]] = {
    "move": _moves,
    "shoot": _shots,
    "grenade": _grenades,
    "vehicle": _ability("vehicle"),
    "rage": _ability("rage"),
    "friendship": _friendships,
    "airstrike": _airstrikes,
    "encourage": _simple_power("encourage"),
    "intimidate": _intimidations,
    "hack": _simple_power("hack"),
    "heal": _heals,
    "teleport": _teleports,
}


def legal_orders(state: GameState, actor: str, verbs: Collection[str] | None = None) -> Iterator[Order]:
    """Every order `actor` may give now, each accepted alone by ``SPACECHESS.play``; `verbs`
    restricts the listing to those kinds, so a hint that needs one kind skips the costly others."""
    me = _acting(state, actor)
    if me is None:
        return
    for verb, listed in _KINDS.items():
        if verbs is None or verb in verbs:
            yield from listed(state, me)


# -- the bot's hints -------------------------------------------------------------------------------------
def reach(state: GameState, actor: str) -> dict[str, int]:
    """Cell name -> AP cost of each legal move (the reach overlay). The cells are those of the
    legal moves; the price is the one the same breadth-first search gives the move."""
    mover = _acting(state, actor)
    if mover is None:
        return {}
    costs = reachable_cells(state, mover)
    return {
        format_cell(order.cell): costs[order.cell][1]
        for order in legal_orders(state, actor, ("move",))
        if order.cell is not None and order.drop is None
    }


def shot_targets(state: GameState, actor: str) -> list[str]:
    """Ids of the characters `actor` may shoot now, in seat order (the target autocomplete)."""
    return [order.target for order in legal_orders(state, actor, ("shoot",)) if order.target is not None]
