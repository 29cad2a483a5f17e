"""Time jump (SB-17): after every order is revealed, its holder changes one token, then the turn resolves.

The turn's ``resolve`` finds a time jump among the orders and stops short: the orders are shown
to each holder privately (``time_jump_offer``), the game waits on them (`waiting_on`). A holder
answers with ``time_jump`` (its new order: one token swapped, removed or added, within the turn's
limits) or ``ready`` (no change); the next ``resolve`` — the bot sends it once nobody is awaited,
or at the short deadline the GM set — plays the turn with the orders as they then stand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError
from engine.core.protocol import Audience, Outcome
from engine.spaceblast.checks import check_counts, check_holdings, check_mine, check_powers
from engine.spaceblast.events import event
from engine.spaceblast.fleets import assign
from engine.spaceblast.orders import KINDS, NO_ORDER, Order, format_order, parse_orders
from engine.spaceblast.state import JUMP, GameState, Ship
from engine.spaceblast.tokens import holdings, settle
from engine.spaceblast.variants import limits_for


def holders(state: GameState) -> list[str]:
    """Ships on the arena whose order this turn plays a time jump."""
    return [s.id for s in state.on_board() if state.orders.get(s.id, NO_ORDER).has("timejump")]


def open_jump(state: GameState, jumpers: list[str]) -> Outcome[GameState]:
    """The turn waits; each holder's owner is shown every order, privately."""
    orders = {s.id: state.orders.get(s.id, NO_ORDER).tokens() for s in state.on_board()}
    events = [event("time_jump_wait", ships=jumpers)]
    events += [event("time_jump_offer", Audience.actor(ship.owner), ship=ship.id, orders=orders)
               for ship in state.ships if ship.id in jumpers]
    return Outcome(replace(state, phase=JUMP, jumpers=tuple(jumpers), ready=frozenset()), tuple(events))


def one_change(old: Order, new: Order) -> bool:
    """At most one token taken out and at most one put in: a swap, a removal or an addition."""
    removed = sum(max(0, old.count(kind) - new.count(kind)) for kind in KINDS)
    added = sum(max(0, new.count(kind) - old.count(kind)) for kind in KINDS)
    return removed <= 1 and added <= 1


def time_jump(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    """The holder's changed order (a player with two ships may name the holder, SB-15). The powers
    it played stay as they were (they may be left out of the text)."""
    holding = [s for s in state.fleet(str(actor)) if s.id in state.jumpers and s.id not in state.ready]
    if state.phase != JUMP or not holding:
        raise OrderError("not_allowed", reason="no_time_jump", input="time_jump")
    pairs = assign(state, holding, parse_orders(str(payload.get("text", ""))), lambda ship: True)
    orders = dict(state.orders)
    events = []
    for ship, given in pairs:
        new = _changed(state, ship, orders.get(ship.id, NO_ORDER), given)
        orders[ship.id] = new
        events += [
            event("time_jumped", ship=ship.id),
            event("orders_set", Audience.actor(ship.owner), ship=ship.id, tokens=new.tokens(),
                  text=format_order(new), left=holdings(settle(ship, new)[0])),
        ]
    ready = state.ready | {ship.id for ship, _ in pairs}
    return Outcome(replace(state, orders=orders, ready=ready), tuple(events))


def _changed(state: GameState, ship: Ship, old: Order, new: Order) -> Order:
    """`new` as the holder's order, once it passes: its powers kept, one token changed, held."""
    if new.powers and new.powers != old.powers:
        raise OrderError("not_allowed", reason="powers_fixed", powers=list(old.powers))
    new = replace(new, powers=old.powers)
    check_counts(new, limits_for(state.variants))
    if not one_change(old, new):
        raise OrderError("not_allowed", reason="one_change", was=format_order(old))
    check_holdings(ship, new)
    check_powers(new)
    check_mine(state, ship, new)
    return new
