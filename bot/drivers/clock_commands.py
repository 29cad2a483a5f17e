"""`/gm clock`: see or extend the move clock of a clock-driven game, or award it on time."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.drivers import driver_of
from bot.drivers.clock import CLOCK, CLOCK_DRIVER, ClockDriver
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.gm import confirmation, confirmed
from bot.service.replies import Message, Reply, ServiceError, Visibility
from bot.service.status import discord_time
from bot.store.timers import game_timers


@command("gm clock", Option("extend", "integer", min_value=1, max_value=43_200), Option("award", "boolean"),
         Option("confirm", "integer"), gm_only=True)
def gm_clock(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Without options, whose clock runs and until when; `extend` (minutes) gives the player to move
    more time; `award` rules the game lost on time by the player to move, after a confirmation."""
    game = svc.channel_game(ctx)
    if not isinstance(driver_of(game.kind), ClockDriver):
        raise ServiceError("error.no_clock", kind=game.kind)
    if game.status != "running":
        raise ServiceError("error.not_running", status=Message(f"status.value.{game.status}"))
    clock = next((t for t in game_timers(svc.store, game.id) if t.kind == CLOCK), None)
    if clock is None:
        raise ServiceError("error.no_clock_running")
    actor = clock.payload["actor"]
    if opts.get("award"):
        if not confirmed(game, opts):
            return confirmation(game, "award_clock", "gm clock", {"award": True}, name=game.name, actor=actor)
        post = CLOCK_DRIVER.forfeit(svc, game, actor, claim=clock.claim_key)
        return post if post is not None else Reply.private("gm.clock_already")
    if "extend" in opts:
        due = max(clock.due_at, svc.clock()) + dt.timedelta(minutes=opts["extend"])
        CLOCK_DRIVER.start(svc, game, actor, due)
        return Reply.say("gm.clock_extended", actor=actor, when=discord_time(due))
    return Reply((Message("gm.clock", {"actor": actor, "when": discord_time(clock.due_at)}),),
                 visibility=Visibility.PRIVATE)
