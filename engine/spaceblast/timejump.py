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
from engine.spaceblast.orders import KINDS, NO_ORDER, Order, format_order, parse_order
from engine.spaceblast.state import JUMP, GameState
from engine.spaceblast.tokens import holdings, settle
from engine.spaceblast.variants import limits_for


def holders(state: GameState) -> list[str]:
    """Ships on the arena whose order this turn plays a time jump."""
    return [s.id for s in state.on_board() if state.orders.get(s.id, NO_ORDER).has("timejump")]


def open_jump(state: GameState, jumpers: list[str]) -> Outcome[GameState]:
    orders = {s.id: state.orders.get(s.id, NO_ORDER).tokens() for s in state.on_board()}
    events = [event("time_jump_wait", ships=jumpers)]
    events += [event("time_jump_offer", Audience.actor(ident), ship=ident, orders=orders) for ident in jumpers]
    return Outcome(replace(state, phase=JUMP, jumpers=tuple(jumpers), ready=frozenset()), tuple(events))


def one_change(old: Order, new: Order) -> bool:
    """At most one token taken out and at most one put in: a swap, a removal or an addition."""
    removed = sum(max(0, old.count(kind) - new.count(kind)) for kind in KINDS)
    added = sum(max(0, new.count(kind) - old.count(kind)) for kind in KINDS)
    return removed <= 1 and added <= 1


def time_jump(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    """The holder's changed order. The powers it played stay as they were (they may be left out of the text)."""
    if state.phase != JUMP or actor not in state.jumpers or actor in state.ready:
        raise OrderError("not_allowed", reason="no_time_jump", input="time_jump")
    old = state.orders.get(actor, NO_ORDER)
    new = parse_order(str(payload.get("text", "")))
    if new.powers and new.powers != old.powers:
        raise OrderError("not_allowed", reason="powers_fixed", powers=list(old.powers))
    new = replace(new, powers=old.powers)
    check_counts(new, limits_for(state.variants))
    if not one_change(old, new):
        raise OrderError("not_allowed", reason="one_change", was=format_order(old))
    ship = state.ship(actor)
    if ship is None:  # a jumper is a ship on the arena: only a corrupt state gets here
        raise OrderError("unknown_character", name=actor)
    check_holdings(ship, new)
    check_powers(new)
    check_mine(state, ship, new)
    state = replace(state, orders={**state.orders, actor: new}, ready=state.ready | {actor})
    return Outcome(state, (
        event("time_jumped", ship=actor),
        event("orders_set", Audience.actor(actor), ship=actor, tokens=new.tokens(), text=format_order(new),
              left=holdings(settle(ship, new)[0])),
    ))
