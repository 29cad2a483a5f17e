"""SpaceBlast player commands: orders by token options, and "ready".

`/sb order text:` (the compact order language) comes from the shared declaration; `/sb orders`
builds the same text from options, so the log holds what a person could have typed. A player with
two ships (SB-15) picks one with `ship:` (suggested from its ships still flying), which becomes the
text's ship part (``Ann 2: brake``); its Ready covers both ships. Both answer
privately (the orders are secret until the turn resolves) with the tokens left and a "ready" button.
"""

from __future__ import annotations

from typing import Any

from bot.games.spaceblast import SPACEBLAST_PRESENTER
from bot.service.commands import Option, command, completer
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.orders import legal_values, order_handler, require_running
from bot.service.replies import Reply, ServiceError

KIND = SPACEBLAST_PRESENTER.kind


def _sb_game(svc: GameService, ctx: Context) -> Any:
    game = svc.channel_game(ctx)
    if game.kind != KIND:
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    return game


@command("sb orders", Option("turn", choices=("left", "right")), Option("brake", "boolean"),
         Option("missile", "integer", min_value=0, max_value=3), Option("mine", "boolean"), Option("power", max_length=20),
         Option("ship", max_length=40, autocomplete=True))
def sb_orders(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """This turn's tokens as options (none given: no token, the ship flies straight on), for the
    ship named (needed by a player commanding two)."""
    _sb_game(svc, ctx)
    tokens = [opts["turn"]] if "turn" in opts else []
    if opts.get("brake"):
        tokens.append("brake")
    tokens += ["missile"] * opts.get("missile", 0)
    if opts.get("mine"):
        tokens.append("mine")
    if "power" in opts:  # a power named in words ("super virage", "réserve d'énergie") is one word of the order
        tokens.append(f"power {'-'.join(opts['power'].replace(chr(39), '').replace('’', '').split())}")
    text = " ".join(tokens) or "none"
    return order_handler(KIND)(svc, ctx, {"text": f"{opts['ship']}: {text}" if "ship" in opts else text})


#: the caller's ships that may take an order now: those its legal orders name (none for a lone ship)
completer("sb orders", "ship")(legal_values(KIND, lambda order: [order.ship] if order.ship else []))


@command("sb ready")
def sb_ready(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """My orders are final (SB-19): the turn resolves once every living ship is ready."""
    game = _sb_game(svc, ctx)
    actor = svc.actor_of(ctx, game)
    return svc.describe(svc.apply_input(ctx, game, "ready", actor, {}, check=require_running), ctx)


@command("sb timejump", Option("text", required=True, max_length=60))
def sb_timejump(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A time jump's holder, shown everyone's orders (in their sheet), changes its own (SB-17)."""
    game = _sb_game(svc, ctx)
    actor = svc.actor_of(ctx, game)
    applied = svc.apply_input(ctx, game, "time_jump", actor, {"text": opts["text"]}, check=require_running)
    return svc.describe(applied, ctx)
