"""Orders in the games' own text language, by the player who holds the character or side."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import islice
from typing import Any

from bot.games import presenter_for
from bot.service.commands import MAX_CHOICES, Option, command, completer
from bot.service.confirm import confirmation, confirmed
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Reply, ServiceError
from bot.store.repo import GameRecord
from engine import registry

ORDER_MAX = 400


def order_handler(kind: str):  # noqa: ANN201 - returns a command handler
    """The text-order command of the game `kind` (``/sc order`` for Space Chess...)."""

    def handle(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        game = svc.channel_game(ctx)
        if game.kind != kind:
            raise ServiceError("error.wrong_game_kind", kind=game.kind)
        actor = svc.actor_of(ctx, game)
        text = presenter_for(kind).read_orders(registry.get(kind), opts["text"])
        applied = svc.apply_input(ctx, game, "order", actor, {"text": text}, check=require_running)
        reply = svc.describe(applied, ctx)
        buttons = presenter_for(kind).order_buttons(applied.rules, applied.outcome.state, actor)
        return replace(reply, buttons=reply.buttons + buttons) if buttons else reply

    return handle


def resign_handler(kind: str, path: str):  # noqa: ANN201 - returns a command handler
    """The resign command `path` of the game `kind` (``/hx resign``): the caller's side gives the
    game up once they press the confirmation button, which names the game's version it was shown for."""

    def handle(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        game = svc.channel_game(ctx)
        if game.kind != kind:
            raise ServiceError("error.wrong_game_kind", kind=game.kind)
        actor = svc.actor_of(ctx, game)
        if not confirmed(game, opts):
            return confirmation(game, "resign", path, {}, name=game.name)
        resign = registry.get(kind).resign_input or ""
        return svc.describe(svc.apply_input(ctx, game, resign, actor, {}, check=require_running), ctx)

    return handle


def require_running(game: GameRecord) -> None:
    if game.status == "paused":
        raise ServiceError("error.game_paused")
    if game.status == "finished":
        raise ServiceError("error.game_over")


def register_order_command(group: str, kind: str) -> None:
    """`/<group> order text:` for the game `kind`, its text suggested from the game's legal orders."""
    command(f"{group} order", Option("text", required=True, max_length=ORDER_MAX, autocomplete=True))(
        order_handler(kind))
    completer(f"{group} order", "text")(order_completer(kind))


def legal_values(kind: str, pick: Callable[[Any], Iterable[str]],
                 orders: Callable[[Any, Any, str], Iterable[Any]] | None = None):  # noqa: ANN201 - a completer
    """A completer for one option of a game's own command (a ship's cell, a target): the values
    `pick` reads off each legal order of the caller, once each, in the order found. `orders` says
    which legal orders to read (the game's `legal_orders` by default; a game whose turns are many
    may pass a cheaper source of some of them, drawn from the same rules)."""

    def complete(svc: GameService, ctx: Context, current: str) -> list[str]:
        game = svc.channel_game(ctx)
        if game.kind != kind or game.status != "running":
            return []
        rules = registry.get(kind)
        state, actor = rules.from_json(game.state), svc.actor_of(ctx, game)
        found = orders(rules, state, actor) if orders else rules.legal_orders(state, actor)
        typed = current.strip().lower()
        values = dict.fromkeys(value for order in found for value in pick(order) if value.lower().startswith(typed))
        return list(islice(values, MAX_CHOICES))

    return complete


def order_completer(kind: str):  # noqa: ANN201 - returns a completer
    """What the caller may order now, in the game's text as its reader writes it (`legal_orders` →
    the presenter's `order_suggestions`)."""

    def complete(svc: GameService, ctx: Context, current: str) -> list[str]:
        game = svc.channel_game(ctx)
        if game.kind != kind or game.status != "running":
            return []
        rules = registry.get(kind)
        orders = rules.legal_orders(rules.from_json(game.state), svc.actor_of(ctx, game))
        texts = presenter_for(kind).order_suggestions(rules, orders, svc.language(ctx), current)
        return list(islice(texts, MAX_CHOICES))

    return complete

