"""Arkeon player commands: place or swap a piece (each builds the order text `/ak order` takes),
and resign. The game's `new`, `join`, `order` and `challenge` come from the shared declaration."""

from __future__ import annotations

from typing import Any

from bot.games.arkeon import ARKEON_PRESENTER
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.gm import confirmation, confirmed
from bot.service.orders import order_handler, require_running
from bot.service.replies import Reply, ServiceError

KIND = ARKEON_PRESENTER.kind
KINDS = ("basic", "triple", "pacifier", "cw", "ccw", "repulsor")
DIRECTIONS = ("e", "ne", "nw", "w", "sw", "se")


def _text(*words: str | None) -> str:
    return " ".join(word for word in words if word)


@command("ak place", Option("kind", required=True, choices=KINDS), Option("cell", required=True, max_length=4),
         Option("direction", choices=DIRECTIONS))
def ak_place(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """A piece from the reserve (AK-11/AK-12); basic and triple pieces take a direction."""
    text = _text("place", opts["kind"], opts["cell"], opts.get("direction", "").upper() or None)
    return order_handler(KIND)(svc, ctx, {"text": text})


@command("ak swap", Option("cell", required=True, max_length=4), Option("kind", required=True, choices=KINDS),
         Option("direction", choices=DIRECTIONS))
def ak_swap(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """One's piece on `cell` for another of the reserve (basic ↔ advanced, AK-11)."""
    text = _text("swap", opts["cell"], opts["kind"], opts.get("direction", "").upper() or None)
    return order_handler(KIND)(svc, ctx, {"text": text})


@command("ak resign", Option("confirm", "integer"))
def ak_resign(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Give the game up, after a confirmation."""
    game = svc.channel_game(ctx)
    if game.kind != KIND:
        raise ServiceError("error.wrong_game_kind", kind=game.kind)
    actor = svc.actor_of(ctx, game)
    if not confirmed(game, opts):
        return confirmation(game, "resign", "ak resign", {}, name=game.name)
    return svc.describe(svc.apply_input(ctx, game, "resign", actor, {}, check=require_running), ctx)
