"""`/gm clock`: see or extend the move clock of a clock-driven game, or award it on time."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.drivers.clock import CLOCK, CLOCK_DRIVER, EXTEND, ClockDriver, mover_words
from bot.games import driver_of
from bot.service.commands import Option, command
from bot.service.confirm import confirmation, confirmed
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Message, Reply, ServiceError, Visibility, discord_time
from bot.store.timers import game_timers
from engine import registry


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
    rules = registry.get(game.kind)
    movers = rules.waiting_on(rules.from_json(game.state))
    if not movers:
        raise ServiceError("error.no_clock_running")
    actor = movers[0]
    # after a `timeout:alert` clock ran out, its timer is gone but the player is still to move: the
    # remedies the alert recommends (extend, award) are exactly what the GM needs then
    clock = next((t for t in game_timers(svc.store, game.id) if t.kind == CLOCK and t.payload.get("actor") == actor),
                 None)
    if opts.get("award"):
        if not confirmed(game, opts):
            return confirmation(game, "award_clock", "gm clock", {"award": True}, name=game.name,
                                actor=mover_words(game, actor))
        post = CLOCK_DRIVER.forfeit(svc, game, actor, claim=clock.claim_key if clock else None)
        return post if post is not None else Reply.private("gm.clock_already")
    if "extend" in opts:
        due = max(clock.due_at if clock else svc.clock(), svc.clock()) + dt.timedelta(minutes=opts["extend"])
        # through the one path of changes: logged, refused if the game moved meanwhile, and the
        # driver writes the clock's new end in the change's own transaction
        svc.apply_input(ctx, game, EXTEND, None, {"actor": actor, "minutes": opts["extend"], "until": due.isoformat()},
                        stale="error.conflict")
        return Reply.say("gm.clock_extended", actor=mover_words(game, actor), when=discord_time(due))
    if clock is None:
        return Reply((Message("gm.clock_ran_out", {"actor": mover_words(game, actor)}),), visibility=Visibility.PRIVATE)
    return Reply((Message("gm.clock", {"actor": mover_words(game, actor), "when": discord_time(clock.due_at)}),),
                 visibility=Visibility.PRIVATE)
