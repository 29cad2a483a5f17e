"""What each soldier order does: move (with pickups), shoot, grenade, abilities (SC-17..SC-25, SC-33).

Each handler checks everything first and raises OrderError before building the new state, and
every state is immutable, so a refused order can never leave anything half-done.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.errors import OrderError
from engine.core.protocol import Event
from engine.core.squaregrid import Cell, distance, format_cell
from engine.spacechess.combat import characters_in, check_grenade, check_shot, hit
from engine.spacechess.events import event
from engine.spacechess.movement import move_cost, shortest_path
from engine.spacechess.orders import Order
from engine.spacechess.state import Character, GameState, Pickup

Result = tuple[GameState, list[Event]]


def target_of(state: GameState, name: str) -> Character:
    """A living character named in an order."""
    target = state.find(name)
    if target is None:
        raise OrderError("unknown_character", name=name)
    if not target.alive:
        raise OrderError("dead", name=target.id)
    return target


def check_destination(state: GameState, cell: Cell, mover_id: str) -> None:
    """A cell a character can be put on: on the board, floor, free (SC-3)."""
    if not state.game_map.in_bounds(cell):
        raise OrderError("bad_cell", cell=format_cell(cell))
    if not state.game_map.is_floor(cell):
        raise OrderError("path_blocked", cell=format_cell(cell), reason="obstacle")
    occupant = state.occupant(cell)
    if occupant is not None and occupant.id != mover_id:
        raise OrderError("occupied", cell=format_cell(cell), by=occupant.id)


# -- move and pickups --------------------------------------------------------------------------
def _take_pickup(state: GameState, mover: Character, drop: str | None) -> Result:
    """SC-33 when a move ends on a pickup; `mover` is already on the cell. A general takes nothing,
    a colonel no item (SC-27); a weapon, AP or HP pickup is no item card."""
    assert mover.at is not None
    pickup = state.pickup_at(mover.at)
    if pickup is None:
        if drop is not None:
            raise OrderError("bad_drop", drop=drop, reason="no_pickup")
        return state, []
    described = pickup.to_json()
    where = format_cell(mover.at)

    def left(reason: str) -> Result:
        if drop is not None:
            raise OrderError("bad_drop", drop=drop, reason=reason)
        return state, [event("pickup_left", id=mover.id, at=where, pickup=described, reason=reason)]

    if mover.is_general:
        return left("general")
    remaining = tuple(p for p in state.pickups if p is not pickup)
    rules = state.rules
    gained: int | None = None
    events: list[Event] = []
    dropped_pickup: Pickup | None = None
    if pickup.kind in ("ap", "hp") and drop is not None:
        raise OrderError("bad_drop", drop=drop, reason="no_swap")  # AP and HP are taken, never swapped
    if pickup.kind == "ap":
        assert pickup.amount is not None
        total = mover.ap + pickup.amount
        gained = min(rules.ap_cap, total) - mover.ap
        if total > rules.ap_cap:
            events.append(event("ap_overflow", id=mover.id, lost=total - rules.ap_cap, source="pickup"))
        taker = replace(mover, ap=mover.ap + gained)
    elif pickup.kind == "hp":
        assert pickup.amount is not None
        gained = min(mover.max_hp, mover.hp + pickup.amount) - mover.hp
        taker = replace(mover, hp=mover.hp + gained)
    elif pickup.kind == "weapon":
        if pickup.name == mover.weapon:
            return left("same_weapon")
        if drop is None:
            return left("needs_drop")
        if drop != mover.weapon:
            raise OrderError("bad_drop", drop=drop, reason="not_held")
        taker = replace(mover, weapon=pickup.name)
        dropped_pickup = Pickup(mover.at, "weapon", name=drop)
    else:
        assert pickup.name is not None
        if mover.is_colonel:
            # SC-27: « toutes vos autres cartes objets sont détruites » lasts all game long
            if drop is not None:
                raise OrderError("bad_drop", drop=drop, reason="colonel")
            return state, [event("pickup_left_colonel", id=mover.id, at=where, pickup=described)]
        if mover.has(pickup.name):
            return left("already_held")
        if drop is None:  # a soldier's hands are full (SC-6: two items); only a colonel had a free one
            return left("full_hands")
        elif not mover.has(drop):
            raise OrderError("bad_drop", drop=drop, reason="not_held")
        else:
            items = tuple(pickup.name if item == drop else item for item in mover.items)
            grade = None if drop == "grade" else mover.grade
            taker = replace(mover, items=items, grade=grade)
            dropped_pickup = Pickup(mover.at, "item", name=drop)
    if dropped_pickup is not None:
        remaining = (*remaining, dropped_pickup)
    events.insert(
        0, event("pickup_taken", id=mover.id, at=where, pickup=described, gained=gained, dropped=drop)
    )
    return replace(state.with_character(taker), pickups=remaining), events


def plan_move(state: GameState, mover: Character, goal: Cell) -> tuple[list[Cell], int]:
    """SC-17..SC-19: the shortest legal path to `goal` and its AP cost, whatever the mover holds."""
    if goal == mover.at:
        raise OrderError("same_cell", cell=format_cell(goal))
    check_destination(state, goal, mover.id)
    path = shortest_path(state, mover, goal)
    if path is None:
        raise OrderError("path_blocked", cell=format_cell(goal), reason="no_path")
    return path, move_cost(mover, state.rules, len(path))


def do_move(state: GameState, mover: Character, order: Order) -> Result:
    assert order.cell is not None and mover.at is not None
    goal = order.cell
    path, cost = plan_move(state, mover, goal)
    if cost > mover.ap:
        raise OrderError("not_enough_ap", need=cost, have=mover.ap, cells=len(path))
    moved = replace(mover, at=goal, ap=mover.ap - cost)
    start = format_cell(mover.at)
    events = [
        event(
            "moved",
            id=mover.id,
            to=format_cell(goal),
            path=[format_cell(c) for c in path],
            cells=len(path),
            cost=cost,
            ap=moved.ap,
            **{"from": start},
        )
    ]
    state, taken = _take_pickup(state.with_character(moved), moved, order.drop)
    return state, events + taken


# -- shots ----------------------------------------------------------------------------------------
def do_shoot(state: GameState, shooter: Character, order: Order) -> Result:
    assert order.target is not None and shooter.weapon is not None and shooter.at is not None
    target = target_of(state, order.target)
    line = check_shot(state, shooter, target)
    victims = [*line.passed, target.id]
    spent = replace(
        shooter, ap=shooter.ap - state.rules.shot_cost, shots_this_turn=shooter.shots_this_turn + 1
    )
    state = state.with_character(spent)
    shot = event(
        "shot",
        id=shooter.id,
        target=target.id,
        weapon=shooter.weapon,
        damage=state.rules.weapons[shooter.weapon].damage,
        to=format_cell(target.at),
        line=[format_cell(c) for c in line.crossed],
        hits=victims,
        ap=spent.ap,
        **{"from": format_cell(shooter.at)},
    )
    state, damage = hit(state, victims, state.rules.weapons[shooter.weapon].damage, "shot", shooter.id)
    return state, [shot, *damage]


def do_grenade(state: GameState, thrower: Character, order: Order) -> Result:
    assert order.cell is not None
    area = check_grenade(state, thrower, order.cell)
    rules = state.rules
    cost = rules.item("grenades", "cost")
    victims = [c.id for c in characters_in(state, area)]
    spent = replace(
        thrower,
        ap=thrower.ap - cost,
        grenades_this_turn=thrower.grenades_this_turn + 1,
    )
    state = state.with_character(spent)
    thrown = event(
        "grenade",
        id=thrower.id,
        cell=format_cell(order.cell),
        area=[format_cell(c) for c in area],
        hits=victims,
        cost=cost,
        ap=spent.ap,
    )
    state, damage = hit(state, victims, rules.item("grenades", "damage"), "grenade", thrower.id)
    return state, [thrown, *damage]


# -- abilities (SC-25) -----------------------------------------------------------------------------
def _check_ability(soldier: Character, ability: str) -> None:
    if soldier.ability != ability:
        raise OrderError("not_allowed", reason="no_ability", ability=ability)
    if soldier.ability_used is not None:
        raise OrderError("already_used", reason="ability", ability=ability, id=soldier.id)


def do_ability(state: GameState, soldier: Character, order: Order) -> Result:
    """Vehicle or rage: active until the next draw, which the soldier then skips (SC-15)."""
    _check_ability(soldier, order.verb)
    state = state.with_character(replace(soldier, ability_used=order.verb))
    return state, [event("ability", id=soldier.id, ability=order.verb)]


def do_friendship(state: GameState, giver: Character, order: Order) -> Result:
    assert order.target is not None and giver.at is not None
    _check_ability(giver, "friendship")
    receiver = target_of(state, order.target)
    if receiver.id == giver.id:
        raise OrderError("not_allowed", reason="self")
    if receiver.team != giver.team or receiver.is_general:
        raise OrderError("not_allowed", reason="not_soldier_ally", target=receiver.id)
    assert receiver.at is not None
    if distance(giver.at, receiver.at) != 1:
        raise OrderError("not_adjacent", target=receiver.id)
    if giver.ap == 0:
        raise OrderError("not_enough_ap", need=1, have=0)
    cap = state.rules.ap_cap
    total = receiver.ap + giver.ap
    received = min(cap, total) - receiver.ap
    lost = total - min(cap, total)
    state = state.with_character(replace(giver, ap=0, ability_used="friendship"))
    state = state.with_character(replace(receiver, ap=receiver.ap + received))
    events = [
        event("friendship", id=giver.id, target=receiver.id, given=giver.ap, received=received, lost=lost)
    ]
    if lost:
        events.append(event("ap_overflow", id=receiver.id, lost=lost, source="friendship"))
    return state, events
