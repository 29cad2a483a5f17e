"""The deadline driver (SpaceBlast, SB-19): a turn resolves at its deadline, or as soon as every
living seat is ready; reminders at the game master's offsets before it ping only those not ready.

The deadline and its reminders are timers in the database (`bot.store.timers`): every process
rebuilds its schedule from them, and each firing is claimed, so a turn resolves once whatever the
number of processes and restarts. The game's ``resolve`` input (its first `reveal_kinds`) is what
a resolution applies (`GameRules.deadline_input`: SpaceBlast first opens a time jump's wait when a
power asks for one); seats without orders get the game's own default (SB-6: straight ahead).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from typing import Any

from bot.drivers import TimerHandler, TurnHooks, plays_as
from bot.drivers.seated import SeatWaitingDriver
from bot.outbox import announce, post_of
from bot.service import away
from bot.service.commands import Option
from bot.service.core import Applied, GameService
from bot.service.dms import route
from bot.service.effects import Effects, FollowUp
from bot.service.pings import members_for, mentions
from bot.service.replies import Message, Reply, ServiceError, discord_time
from bot.store.repo import AlreadyClaimed, GameRecord
from bot.store.timer_rows import TimerPlan
from bot.store.timers import TimerRecord, game_timers
from engine import registry

log = logging.getLogger("spacechess.deadlines")

DEADLINE = "deadline"
#: a GM's new deadline for the turn (`/gm deadline extend:|at:`): a bookkeeping change of the log
MOVE = "deadline_move"
MAX_REMINDERS = 3
DEFAULT_TURN_HOURS = 24
DEFAULT_REMINDERS = (2,)
DEFAULT_INTERLUDE_MINUTES = 60
#: changes after which the turn gets its whole length again (the pause or the undo stopped it)
FRESH_TURN = frozenset({"resume", "undo"})


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


class DeadlineDriver(SeatWaitingDriver):
    name = "deadline"
    commands = "bot.drivers.deadline_commands"
    create_options = (
        Option("turn_hours", "integer", min_value=1, max_value=336, describe="opt.deadline.turn_hours"),
        Option("reminders", max_length=20, describe="opt.deadline.reminders"),
        Option("interlude_minutes", "integer", min_value=5, max_value=1440, describe="opt.deadline.interlude_minutes"),
    )

    def missing(self, rules: Any) -> list[str]:
        """A deadline gives the game's `deadline_input`: one of its reveals (or `deadline_kinds`)."""
        return [] if rules.reveal_kinds and rules.reveal_kinds <= rules.input_kinds else ["reveal_kinds"]

    def turn_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
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

    def created_timers(self, svc: GameService, game: GameRecord) -> tuple[TimerPlan, ...]:
        """A game running from its creation: its first turn's deadline and reminders."""
        return self.planned(game, svc.clock()) if game.status == "running" else ()

    def effects(self, svc: GameService, change: Applied) -> Effects:
        """The first deadline when the game starts running; the next one after each resolution (a
        short one when the resolution stopped for an interlude: a time jump's answer); a whole turn
        again after a resume or an undo (the pause or the undo stopped the turn's clock); the
        resolution as a follow-up when nobody is left to wait for; nothing left once it ends. A turn
        waiting on a player who declares away days (`bot.service.away`) waits that many days more,
        and a turn begun while one is away runs from their return."""
        game, rules, state = change.game, change.rules, change.outcome.state
        timers = game_timers(svc.store, game.id)
        if game.status == "finished":
            return Effects(timers=tuple(TimerPlan.cancel(t.kind) for t in timers))
        if game.status != "running":
            return Effects()
        if change.kind == MOVE:  # the same turn, its deadline and reminders where the GM put them
            return Effects(timers=self.planned(game, svc.clock(), due=dt.datetime.fromisoformat(change.payload["until"])))
        deadline = next((t for t in timers if t.kind == DEADLINE), None)
        if change.kind in (away.DECLARE, away.SET_BUDGET):
            waited = change.kind == away.DECLARE and any(
                plays_as(rules, state, change.payload["seat"], actor) for actor in rules.waiting_on(state))
            if deadline is None or not waited:
                return Effects()
            return Effects(timers=self.planned(game, svc.clock(),
                                               due=deadline.due_at + dt.timedelta(days=change.payload["days"])))
        turn_step = change.kind in rules.deadline_kinds | rules.reveal_kinds | FRESH_TURN
        if turn_step or deadline is None:
            now = svc.clock()
            start = away.start_of(game, rules, state, rules.waiting_on(state), now)
            short = now + dt.timedelta(minutes=interlude_minutes(game)) if rules.interlude(state) else None
            plans = self.planned(game, now, short or start + dt.timedelta(hours=turn_hours(game)))
            # a wait too short for any reminder (a time jump's, a turn within the reminders' hours) is
            # near its deadline from the start: those it waits on are told now, the reminders' one ping
            reminded = any(p.kind != DEADLINE and p.due_at is not None for p in plans)
            return Effects(timers=plans, turn=() if reminded else rules.waiting_on(state))
        if not rules.waiting_on(state):
            return Effects(follow_ups=(FollowUp(rules.deadline_input(state)),))
        return Effects()

    def planned(self, game: GameRecord, now: dt.datetime, due: dt.datetime | None = None) -> tuple[TimerPlan, ...]:
        """The turn's deadline (now + the turn's length unless `due` is given) and its reminders."""
        due = due or now + dt.timedelta(hours=turn_hours(game))
        plans = [TimerPlan(DEADLINE, due)]
        reminders = game.options.get("reminders", [])
        for number in range(1, MAX_REMINDERS + 1):
            if number <= len(reminders) and due - dt.timedelta(hours=reminders[number - 1]) > now:
                plans.append(TimerPlan(reminder_kind(number), due - dt.timedelta(hours=reminders[number - 1]),
                                       {"hours": reminders[number - 1]}))
            else:
                plans.append(TimerPlan.cancel(reminder_kind(number)))
        return tuple(plans)

    def resolve(self, svc: GameService, game: GameRecord, *, claim: str | None, post: bool = False) -> Reply | None:
        """Apply the game's resolution now (as the bot), once: the next deadline comes with it
        (`effects`). None when another process already did it. With `post` (a deadline, not a
        player's input) its channel post is written to the outbox with it."""
        rules = registry.get(game.kind)
        kind = rules.deadline_input(rules.from_json(game.state))
        try:
            applied = svc.apply_input(None, game, kind, None, {}, claims=[claim] if claim else (), post=post)
        except AlreadyClaimed:
            return None
        return svc.describe(applied)

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
            state = rules.from_json(game.state)
            hours = timer.payload.get("hours")

            def line(users: tuple[int, ...]) -> Message:
                return Message("turn.deadline_reminder", {"hours": hours, "users": mentions(users)})

            routed = route(svc.store, game, members_for(svc.store, game, rules, state, rules.waiting_on(state),
                                                        away=away.away_seats(game, now)),
                           Message("dm.deadline_reminder", {"hours": hours}), line)
            posts = [post_of(game, Reply((line(routed.channel),), mentions=routed.channel))] if routed.channel else []
            posts += routed.dms
            if svc.store.claim(timer.claim_key, game_id=game.id, outbox=posts) and posts:
                announce(svc.store, hooks)

        return {DEADLINE: on_deadline, **{reminder_kind(n): on_reminder for n in range(1, MAX_REMINDERS + 1)}}


def turn_hours(game: GameRecord) -> int:
    return int(game.options.get("turn_hours", DEFAULT_TURN_HOURS))


def interlude_minutes(game: GameRecord) -> int:
    return int(game.options.get("interlude_minutes", DEFAULT_INTERLUDE_MINUTES))


DEADLINE_DRIVER = DeadlineDriver()
