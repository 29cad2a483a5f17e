"""`/game recap` and `/game replay`: the story of a game so far, as charts and as an animation.

Both are drawn from the game's log, replayed (`bot.service.scene.history_of`), by the game's
presenter: a game without a recap or a replay says so. Anyone in the channel may ask; what they
get is public, as the board is: the replay shows public views and public events only.
"""

from __future__ import annotations

from typing import Any

from bot.games import presenter_for
from bot.service.commands import command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.progress import progress_line
from bot.service.replies import Reply
from bot.service.scene import scene_of
from engine import registry


@command("game recap")
def game_recap(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The game so far in charts: AP earned per draw, HP over the turns, damage, the decisive moments."""
    game = svc.channel_game(ctx)
    return presenter_for(game.kind).recap(registry.get(game.kind), scene_of(svc, game, svc.channel_language(ctx)))


@command("game replay")
def game_replay(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The whole game so far as an animated GIF, within Discord's attachment size. Rendering many
    frames takes seconds: the Discord adapter defers (the "thinking…" the member sees) first, and
    the frames drawn so far are shown as they come (`ctx.progress`)."""
    game = svc.channel_game(ctx)
    progress = progress_line(ctx.progress, "game.replay.progress", name=game.name)
    return presenter_for(game.kind).replay(registry.get(game.kind), scene_of(svc, game, svc.channel_language(ctx)),
                                           progress=progress)
