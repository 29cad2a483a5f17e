"""Orders in the games' own text language, by the player who holds the character or side."""

from __future__ import annotations

from typing import Any

from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Reply, ServiceError
from bot.store.repo import GameRecord

ORDER_MAX = 400


def order_handler(kind: str):  # noqa: ANN201 - returns a command handler
    """The text-order command of the game `kind` (``/sc order`` for Space Chess...)."""

    def handle(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
        game = svc.channel_game(ctx)
        if game.kind != kind:
            raise ServiceError("error.wrong_game_kind", kind=game.kind)
        actor = svc.actor_of(ctx, game)
        applied = svc.apply_input(ctx, game, "order", actor, {"text": opts["text"]}, check=require_running)
        return svc.describe(applied, ctx)

    return handle


def require_running(game: GameRecord) -> None:
    if game.status == "paused":
        raise ServiceError("error.game_paused")
    if game.status == "finished":
        raise ServiceError("error.game_over")


def register_order_command(group: str, kind: str) -> None:
    command(f"{group} order", Option("text", required=True, max_length=ORDER_MAX))(order_handler(kind))

