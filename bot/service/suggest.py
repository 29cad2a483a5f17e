"""Autocomplete from the rules: option suggestions read off the caller's legal orders.

A game's commands that build an order from options (``/ak place kind: cell: direction:``) suggest,
for each option, the values some legal order of the caller has there — given the options already
filled — so the menu offers nothing the order would refuse, and the rules stay the one source of
"what can I do" (`GameRules.legal_orders`). Any game with listable orders can use it: a completer
passes a function reading one option's value off an order (None for an order that does not fit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from bot.service.commands import MAX_CHOICES, folded
from engine import registry

if TYPE_CHECKING:
    from bot.service.context import Context
    from bot.service.core import GameService

#: reads the suggested value off one legal order; None leaves the order out
Pick = Callable[[Any], "str | None"]


def legal_orders_here(svc: GameService, ctx: Context, kind: str) -> Iterator[Any]:
    """The caller's legal orders in this channel's running game of `kind` (lazily); none when the
    channel's game is another, is not running, or the caller plays nobody to move."""
    game = svc.channel_game(ctx)
    if game.kind != kind or game.status != "running":
        return iter(())
    rules = registry.get(kind)
    return iter(rules.legal_orders(rules.from_json(game.state), svc.actor_of(ctx, game)))


def suggest(svc: GameService, ctx: Context, kind: str, current: str, pick: Pick) -> list[str]:
    """The distinct values `pick` reads off the caller's legal orders, in the rules' order, those
    starting with what was typed (without case or accents: ``de`` offers ``Dée``), at most as many
    as Discord shows: the orders are read only until the menu is full, so a game with thousands of
    turns stays quick."""
    typed = folded(current)
    seen: dict[str, None] = {}
    for order in legal_orders_here(svc, ctx, kind):
        value = pick(order)
        if value is None or value in seen or not folded(value).startswith(typed):
            continue
        seen[value] = None
        if len(seen) == MAX_CHOICES:
            break
    return list(seen)
