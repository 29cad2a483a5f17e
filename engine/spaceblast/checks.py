"""The checks an order passes when it is submitted (SB-5, SB-8, SB-17, SB-18), in the pinned order.

Order of the checks (spaceblast.md, corner cases): syntax (the parser), more tokens than the turn
allows (``too_many_tokens``), a kind repeated (``duplicate_token``), a token the ship no longer has
(``no_token``), then the ship gone (``dead``) and the game over (``game_over``). Then what depends
on the moment (the game not started, orders already revealed: ``not_allowed``) and on the arena
(a mine on a cell that holds one: ``occupied``). An unknown ship is named before its tokens are
counted; a power combination that cannot work is ``not_allowed`` just after the token count.
"""

from __future__ import annotations

from engine.core.errors import OrderError
from engine.spaceblast.orders import KINDS, Order
from engine.spaceblast.state import FINISHED, JUMP, SETUP, GameState, Ship
from engine.spaceblast.tokens import counted, needed, super_turn_group
from engine.spaceblast.variants import OrderLimits, limits_for


def check_counts(order: Order, limits: OrderLimits) -> None:
    """``too_many_tokens`` then ``duplicate_token``: what the variant allows in one turn."""
    if limits.tokens is not None and counted(order) > limits.tokens:
        raise OrderError("too_many_tokens", count=counted(order), maximum=limits.tokens)
    if len(set(order.powers)) < len(order.powers):
        raise OrderError("duplicate_token", kind="power")
    if order.missile > limits.missiles:
        raise OrderError("duplicate_token", kind="missile", maximum=limits.missiles)
    if order.mine > 1:  # SB-18: still one mine per cell, so one per ship and turn
        raise OrderError("duplicate_token", kind="mine", maximum=1)
    if limits.repeats:
        return
    if order.turn_tokens > 1 and not super_turn_group(order):
        raise OrderError("duplicate_token", kind="turn", maximum=1)
    for kind in KINDS[2:]:
        if order.count(kind) > 1:
            raise OrderError("duplicate_token", kind=kind, maximum=1)


def check_holdings(ship: Ship, order: Order) -> None:
    """``no_token``: the ship holds every token and power the order plays."""
    for kind, need in needed(order).items():
        have = getattr(ship, kind)
        if need > have:
            raise OrderError("no_token", kind=kind, need=need, have=have)
    for power in order.powers:
        if power not in ship.powers:
            raise OrderError("no_token", kind="power", power=power)


def check_powers(order: Order) -> None:
    """SB-17 combinations: a side slip shows exactly one turn token (its side), and not with a super turn."""
    if order.has("slip") and (order.turn_tokens != 1 or order.has("superturn")):
        raise OrderError("not_allowed", reason="slip_side", turns=order.turn_tokens)


def check_moment(state: GameState, ship: Ship) -> None:
    if not ship.alive:
        raise OrderError("dead", name=ship.id)
    if state.status == FINISHED:
        raise OrderError("game_over", winner=state.winner)
    if state.status == SETUP:
        raise OrderError("not_allowed", reason="not_started", input="order", status=state.status)
    if state.phase == JUMP:
        raise OrderError("not_allowed", reason="revealed", input="order")


def check_mine(state: GameState, ship: Ship, order: Order) -> None:
    """SB-8 **D**: one mine per cell, refused at submission."""
    if order.mine and ship.at is not None and state.mine_at(ship.at) is not None:
        raise OrderError("occupied", cell=state.cell(ship.at), reason="mine")


def acting_ship(state: GameState, actor: str) -> Ship:
    ship = state.find(actor)
    if ship is None:
        raise OrderError("unknown_character", name=actor)
    return ship


def check_order(state: GameState, actor: str, order: Order) -> Ship:
    """Every check of a submitted order, in the pinned order; the ship when it passes."""
    check_counts(order, limits_for(state.variants))
    ship = acting_ship(state, actor)
    check_holdings(ship, order)
    check_powers(order)
    check_moment(state, ship)
    check_mine(state, ship, order)
    return ship
