"""The deadline driver (SpaceBlast, SB-19): a turn resolves at its deadline, or as soon as every
living seat is ready; reminders at the game master's offsets before it ping only those not ready.

The deadline and its reminders are timers in the database (`bot.store.timers`): every process
rebuilds its schedule from them, and each firing is claimed, so a turn resolves once whatever the
number of processes and restarts. The game's ``resolve`` input (its first `reveal_kinds`) is what
a resolution applies; seats without orders get the game's own default (SB-6: straight ahead).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from typing import Any

from bot.drivers import TimerHandler, TurnDriver, TurnHooks, plays_as
from bot.outbox import announce, follow_up, outbox_of, post_of
from bot.service.commands import Option
from bot.service.core import Applied, GameService
from bot.service.replies import Message, Reply, ServiceError
from bot.service.status import discord_time
from bot.store.repo import AlreadyClaimed, GameRecord
from bot.store.timers import TimerRecord, cancel_timer, game_timers, set_timer
from engine import registry

log = logging.getLogger("spacechess.deadlines")

DEADLINE = "deadline"
MAX_REMINDERS = 3
DEFAULT_TURN_HOURS = 24
DEFAULT_REMINDERS = (2,)
DEFAULT_INTERLUDE_MINUTES = 60


def reminder_kind(number: int) -> str:
    return f"reminder{number}"


def parse_reminders(text: str, turn_hours: int) -> tuple[int, ...]:
    """``"6,1"``: hours before the deadline, each under the turn's length, at most three."""
    try:
        hours = sorted({int(part) for part in text.replace(" ", "").split(",") if part}, reverse=True)
    except ValueError:
        raise ServiceError("error.bad_reminders", text=text) from None
    if len(hours) > MAX_REMINDERS or any(not 1 <= h < turn_hours for h in hours):
        raise ServiceError("error.bad_reminders", text=text)
    return tuple(hours)


class DeadlineDriver(TurnDriver):
    name = "deadline"
    commands = "bot.drivers.deadline_commands"
    create_options = (
        Option("turn_hours", "integer", min_value=1, max_value=336),
        Option("reminders", max_length=20),
        Option("interlude_minutes", "integer", min_value=5, max_value=1440),
    )

    def game_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
        turn = opts.get("turn_hours", DEFAULT_TURN_HOURS)
        reminders = parse_reminders(opts["reminders"], turn) if "reminders" in opts else tuple(
            h for h in DEFAULT_REMINDERS if h < turn)
        return {"turn_hours": turn, "reminders": list(reminders),
                "interlude_minutes": opts.get("interlude_minutes", DEFAULT_INTERLUDE_MINUTES)}

    def option_fault(self, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """Stored reminders are the list `new` made of the text option: checked as such."""
        fault = super().option_fault({k: v for k, v in options.items() if k != "reminders"})
        if fault is not None:
            return fault
        reminders = options.get("reminders", [])
        turn = options.get("turn_hours", DEFAULT_TURN_HOURS)
        if not isinstance(reminders, list) or len(reminders) > MAX_REMINDERS or any(
                type(h) is not int or not 1 <= h < turn for h in reminders):
            return "reminders", "bad_option"
        return None

    def info(self, game: GameRecord) -> list[Message]:
        return [Message("game.info.deadline", {"hours": turn_hours(game),
                                               "reminders": game.options.get("reminders", []),
                                               "interlude": interlude_minutes(game)})]

    def next_moment(self, svc: GameService, game: GameRecord, now: dt.datetime) -> Message | None:
        timer = next((t for t in game_timers(svc.store, game.id) if t.kind == DEADLINE), None)
        return Message("status.next_deadline", {"when": discord_time(timer.due_at)}) if timer else None

    def on_created(self, svc: GameService, game: GameRecord) -> None:
        if game.status == "running":
            self.plan(svc, game, svc.clock())

    def after_commit(self, svc: GameService, applied: Applied) -> list[Reply]:
        """The first deadline when the game starts running; the next one after each resolution (a
        short one when the resolution stopped for an interlude: a time jump's answer); a resolution
        at once when nobody is left to wait for; nothing left once it ends."""
        game, rules, state = applied.game, applied.rules, applied.outcome.state
        if game.status == "finished":
            self.clear(svc, game)
            return []
        if game.status != "running":
            return []
        resolved = applied.kind in rules.reveal_kinds
        has_deadline = any(t.kind == DEADLINE for t in game_timers(svc.store, game.id))
        if not has_deadline or resolved:
            now = svc.clock()
            short = now + dt.timedelta(minutes=interlude_minutes(game)) if rules.interlude(state) else None
            self.plan(svc, game, now, short)
            return []
        if not rules.waiting_on(state):
            post = self.resolve(svc, game, claim=None)
            return [post] if post is not None else []
        return []

    def plan(self, svc: GameService, game: GameRecord, now: dt.datetime, due: dt.datetime | None = None) -> None:
        """The turn's deadline (now + the turn's length unless `due` is given) and its reminders."""
        due = due or now + dt.timedelta(hours=turn_hours(game))
        set_timer(svc.store, game.id, DEADLINE, due)
        reminders = game.options.get("reminders", [])
        for number in range(1, MAX_REMINDERS + 1):
            if number <= len(reminders) and due - dt.timedelta(hours=reminders[number - 1]) > now:
                set_timer(svc.store, game.id, reminder_kind(number), due - dt.timedelta(hours=reminders[number - 1]),
                          {"hours": reminders[number - 1]})
            else:
                cancel_timer(svc.store, game.id, reminder_kind(number))
        svc.timers_changed()

    def clear(self, svc: GameService, game: GameRecord) -> None:
        for timer in game_timers(svc.store, game.id):
            cancel_timer(svc.store, game.id, timer.kind)
        svc.timers_changed()

    def resolve(self, svc: GameService, game: GameRecord, *, claim: str | None, post: bool = False) -> Reply | None:
        """Apply the game's resolution now (as the bot), once: the next deadline is planned by
        `after_commit` of that input. None when another process already did it. With `post` (a
        deadline, not a player's input) its channel post is written to the outbox with it."""
        rules = registry.get(game.kind)
        kind = sorted(rules.reveal_kinds)[0]
        try:
            applied = svc.apply_input(None, game, kind, None, {}, claims=[claim] if claim else (),
                                      outbox=outbox_of(svc) if post else None)
        except AlreadyClaimed:
            return None
        if post:
            follow_up(svc, applied)
        return svc.describe(applied)

    def on_resume(self, svc: GameService, game: GameRecord) -> list[Reply]:
        """The turn gets its whole length again: the pause stopped its clock."""
        fresh = svc.store.get_game(game.id) or game
        self.plan(svc, fresh, svc.clock())
        return []

    def timer_handlers(self, svc: GameService, hooks: TurnHooks) -> dict[str, TimerHandler]:
        def on_deadline(timer: TimerRecord, now: dt.datetime) -> None:
            game = svc.store.get_game(timer.game_id)
            if game is None or game.status != "running":
                return  # paused: resuming plans a fresh deadline; ended: nothing to resolve
            if self.resolve(svc, game, claim=timer.claim_key, post=True) is not None:
                announce(svc.store, hooks)

        def on_reminder(timer: TimerRecord, now: dt.datetime) -> None:
            game = svc.store.get_game(timer.game_id)
            if game is None or game.status != "running":
                return
            rules = registry.get(game.kind)
            late = set(rules.waiting_on(rules.from_json(game.state)))
            state = rules.from_json(game.state)
            users = [seat.user_id for seat in svc.store.seats(game.id) if not seat.mute_pings
                     and any(plays_as(rules, state, seat.actor, actor) for actor in late)]
            posts = [post_of(game, Reply((Message("turn.deadline_reminder", {
                "hours": timer.payload.get("hours"), "users": " ".join(f"<@{u}>" for u in users)}),),
                mentions=tuple(users)))] if users else []
            if svc.store.claim(timer.claim_key, game_id=game.id, outbox=posts) and posts:
                announce(svc.store, hooks)

        return {DEADLINE: on_deadline, **{reminder_kind(n): on_reminder for n in range(1, MAX_REMINDERS + 1)}}


def turn_hours(game: GameRecord) -> int:
    return int(game.options.get("turn_hours", DEFAULT_TURN_HOURS))


def interlude_minutes(game: GameRecord) -> int:
    return int(game.options.get("interlude_minutes", DEFAULT_INTERLUDE_MINUTES))


DEADLINE_DRIVER = DeadlineDriver()
