"""`/gm deadline`: see, move or force the turn's deadline of a deadline-driven game."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.drivers.deadline import DEADLINE, DEADLINE_DRIVER, MOVE, DeadlineDriver
from bot.games import driver_of
from bot.service.commands import Option, command
from bot.service.confirm import confirmation, confirmed
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Message, Reply, ServiceError, Visibility, discord_time
from bot.store.timers import game_timers


def parse_moment(text: str) -> dt.datetime:
    """``2026-12-01T20:00`` (UTC unless an offset is given)."""
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError("error.bad_moment", text=text) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


@command("gm deadline", Option("extend", "integer", min_value=1, max_value=20_160), Option("at", max_length=32),
         Option("force", "boolean"), Option("confirm", "integer"), gm_only=True)
def gm_deadline(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """Without options, the deadline and reminders; `extend` (minutes) or `at` moves them; `force`
    resolves the turn now, after a confirmation."""
    game = svc.channel_game(ctx)
    if not isinstance(driver_of(game.kind), DeadlineDriver):
        raise ServiceError("error.no_deadline", kind=game.kind)
    if game.status != "running":
        raise ServiceError("error.not_running", status=Message(f"status.value.{game.status}"))
    timers = game_timers(svc.store, game.id)
    deadline = next((t for t in timers if t.kind == DEADLINE), None)
    now = svc.clock()
    if opts.get("force"):
        if not confirmed(game, opts):
            return confirmation(game, "force_deadline", "gm deadline", {"force": True}, name=game.name)
        post = DEADLINE_DRIVER.resolve(svc, game, claim=None)
        return post if post is not None else Reply.private("gm.deadline_already")
    if "extend" in opts or "at" in opts:
        if "at" in opts:
            due = parse_moment(opts["at"])
        else:
            due = (deadline.due_at if deadline else now) + dt.timedelta(minutes=opts["extend"])
        if due <= now:
            raise ServiceError("error.moment_past", when=discord_time(due))
        # through the one path of changes: logged, refused if the game moved meanwhile, and the
        # driver writes the deadline and its reminders in the change's own transaction
        svc.apply_input(ctx, game, MOVE, None, {"until": due.isoformat()}, stale="error.conflict")
        return Reply.say("gm.deadline_moved", name=game.name, when=discord_time(due))
    lines = [Message("gm.deadline", {"name": game.name, "when": discord_time(deadline.due_at) if deadline else None})]
    lines += [Message("gm.deadline_reminder", {"when": discord_time(t.due_at), "hours": t.payload.get("hours")})
              for t in timers if t.kind != DEADLINE]
    return Reply(tuple(lines), visibility=Visibility.PRIVATE)
