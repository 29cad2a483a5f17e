"""The six general powers (SC-26): air strike, encouragement, intimidation, hacking, heal, teleport."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError
from engine.core.protocol import Event
from engine.core.squaregrid import Cell, distance, format_cell
from engine.spacechess.actions import Result, check_destination, target_of
from engine.spacechess.combat import airstrike_area, characters_in, check_on_board, hit
from engine.spacechess.events import event
from engine.spacechess.orders import Order
from engine.spacechess.state import Character, GameState


def logistics_helper(state: GameState, general: Character) -> Character | None:
    """SC-26: the living teammate holding the logistics tool who stands next to `general` (the first
    by name when several do: the discount is not cumulative), None when nobody does."""
    if general.at is None:
        return None
    helpers = [c for c in state.living() if c.team == general.team and c.id != general.id and c.has("logistics")
               and c.at is not None and distance(c.at, general.at) == 1]
    return min(helpers, key=lambda c: c.id) if helpers else None


def power_cost(state: GameState, general: Character, power: str) -> int:
    """SC-26: the table cost, minus the logistics discount while a living teammate holding the
    logistics tool stands adjacent (not cumulative: one discount however many helpers)."""
    cost = state.rules.power(power, "cost")
    assert general.at is not None
    if logistics_helper(state, general) is None:
        return cost
    return max(0, cost - state.rules.item("logistics", "discount"))


def _teammate_adjacent(state: GameState, general: Character, name: str) -> Character:
    target = target_of(state, name)
    if target.id == general.id:
        raise OrderError("not_allowed", reason="self")
    if target.team != general.team:
        raise OrderError("not_allowed", reason="not_teammate", target=target.id)
    assert general.at is not None and target.at is not None
    if distance(general.at, target.at) != 1:
        raise OrderError("not_adjacent", target=target.id)
    return target


#: A checked power: the details for its event, and the effect to run once the AP are paid.
Plan = tuple[dict[str, Any], Callable[[GameState], tuple[GameState, list[Event]]]]


def _no_events(
    change: Callable[[GameState], GameState],
) -> Callable[[GameState], tuple[GameState, list[Event]]]:
    return lambda state: (change(state), [])


def _airstrike(state: GameState, general: Character, order: Order) -> Plan:
    assert order.cell is not None and order.direction is not None
    area = airstrike_area(order.cell, order.direction, state.rules.power("airstrike", "length"))
    check_on_board(state, area, order.cell)
    victims = [c.id for c in characters_in(state, area)]
    details = {
        "cell": format_cell(order.cell),
        "direction": order.direction,
        "area": [format_cell(c) for c in area],
        "hits": victims,
    }
    damage = state.rules.power("airstrike", "damage")
    return details, lambda paid: hit(paid, victims, damage, "airstrike", general.id)


def _pending(field: str) -> Callable[[GameState, Character, Order], Plan]:
    """Encouragement and hacking act at the next draw: they only mark the general's team."""

    def check(state: GameState, general: Character, order: Order) -> Plan:
        teams: frozenset[int] = getattr(state, field)
        if general.team in teams:
            raise OrderError("already_used", reason="power", power=order.verb, id=general.id)
        return {"team": general.team}, _no_events(
            lambda paid: replace(paid, **{field: teams | {general.team}})
        )

    return check


def _relocation(state: GameState, target: Character, cell: Cell) -> Plan:
    assert target.at is not None
    if cell == target.at:
        raise OrderError("same_cell", cell=format_cell(cell))
    check_destination(state, cell, target.id)
    details = {"target": target.id, "from": format_cell(target.at), "to": format_cell(cell)}
    return details, _no_events(lambda paid: paid.with_character(replace(target, at=cell)))


def _intimidate(state: GameState, general: Character, order: Order) -> Plan:
    assert order.target is not None and order.cell is not None and general.at is not None
    target = target_of(state, order.target)
    if target.team == general.team or target.is_general:
        raise OrderError("not_allowed", reason="not_enemy_soldier", target=target.id)
    assert target.at is not None
    radius = state.rules.power("intimidate", "radius")
    if distance(general.at, target.at) > radius:
        raise OrderError(
            "out_of_range", target=target.id, distance=distance(general.at, target.at), range=radius
        )
    if target.has("psycho_brain"):
        raise OrderError("immune", target=target.id, item="psycho_brain")
    shift = state.rules.power("intimidate", "shift")
    if state.game_map.in_bounds(order.cell) and distance(target.at, order.cell) > shift:
        raise OrderError(
            "out_of_range",
            cell=format_cell(order.cell),
            distance=distance(target.at, order.cell),
            range=shift,
        )
    return _relocation(state, target, order.cell)


def _heal(state: GameState, general: Character, order: Order) -> Plan:
    assert order.target is not None
    target = _teammate_adjacent(state, general, order.target)
    if target.hp >= target.max_hp:
        raise OrderError("full_hp", target=target.id)
    hp = min(target.max_hp, target.hp + state.rules.power("heal", "amount"))
    details = {"target": target.id, "healed": hp - target.hp, "hp": hp}
    return details, _no_events(lambda paid: paid.with_character(replace(target, hp=hp)))


def _teleport(state: GameState, general: Character, order: Order) -> Plan:
    assert order.target is not None and order.cell is not None
    return _relocation(state, _teammate_adjacent(state, general, order.target), order.cell)


_POWERS: dict[str, Callable[[GameState, Character, Order], Plan]] = {
    "airstrike": _airstrike,
    "encourage": _pending("encouraging"),
    "intimidate": _intimidate,
    "hack": _pending("hacking"),
    "heal": _heal,
    "teleport": _teleport,
}


def do_power(state: GameState, general: Character, order: Order) -> Result:
    """Check the power's own conditions, then the AP (so the reason given is the most specific),
    pay, then run the effect (an air strike may hit the general who called it)."""
    if not general.is_general:
        raise OrderError("not_allowed", reason="general_only", power=order.verb)
    details, effect = _POWERS[order.verb](state, general, order)
    cost = power_cost(state, general, order.verb)
    if general.ap < cost:
        raise OrderError("not_enough_ap", need=cost, have=general.ap)
    state = state.with_character(replace(general, ap=general.ap - cost))
    kind = "airstrike" if order.verb == "airstrike" else "power"
    helper = logistics_helper(state, general)
    if helper is not None and cost < state.rules.power(order.verb, "cost"):  # told, so the price is explained
        details = {**details, "full_cost": state.rules.power(order.verb, "cost"), "helper": helper.id}
    announced = event(kind, id=general.id, power=order.verb, cost=cost, ap=general.ap - cost, **details)
    state, events = effect(state)
    return state, [announced, *events]
