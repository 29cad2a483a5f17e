"""The move clock (HexArena, Arkeon): the player to move has so long; they are reminded at half
time; at the end the game masters are alerted and may extend or award — or, when the game was
created with ``timeout:forfeit``, the game is lost on time at once.

Both moments are timers in the database, moved each time the player to move changes, and each
firing is claimed, so a reminder is sent once and a game is forfeited once across processes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from bot.drivers import TimerHandler, TurnHooks, plays_as
from bot.drivers.seated import SeatWaitingDriver
from bot.outbox import GM_ALERT, announce, post_of
from bot.service import away
from bot.service.commands import Option
from bot.service.core import Applied, GameService
from bot.service.dms import route
from bot.service.effects import Effects
from bot.service.pings import members_for, mentions
from bot.service.replies import Message, Reply, discord_time
from bot.store.repo import AlreadyClaimed, GameRecord
from bot.store.timer_rows import TimerPlan
from bot.store.timers import TimerRecord, game_timers
from engine import registry
from engine.core.errors import OrderError

CLOCK, HALF = "clock", "clock_half"
#: a GM's extension of the running clock (`/gm clock extend:`): a bookkeeping change of the log
EXTEND = "clock_extend"
#: hexarena.md (bot flow): 72 h unless the GM sets the clock; arkeon.md: the clock works as in HexArena
DEFAULT_CLOCK_HOURS = 72
#: changes after which the player to move gets a whole clock again (the pause or the undo stopped it)
FRESH_CLOCK = frozenset({"resume", "undo"})


class ClockDriver(SeatWaitingDriver):
    name = "clock"
    commands = "bot.drivers.clock_commands"
    create_options = (
        Option("clock_hours", "integer", min_value=1, max_value=720, describe="opt.clock.clock_hours"),
        Option("timeout", choices=("alert", "forfeit"), describe="opt.clock.timeout"),
    )

    def missing(self, rules: Any) -> list[str]:
        """The clock ends a turn with the game's `timeout_input` (the side to move loses on time)."""
        return [] if rules.timeout_input in rules.input_kinds else ["timeout_input"]

    def turn_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
        return {"clock_hours": opts.get("clock_hours", DEFAULT_CLOCK_HOURS), "timeout": opts.get("timeout", "alert")}

    def info(self, game: GameRecord) -> list[Message]:
        return [Message("game.info.clock", {"hours": clock_hours(game),
                                            "timeout": Message(f"word.timeout.{game.options.get('timeout', 'alert')}")})]

    def next_moment(self, svc: GameService, game: GameRecord, now: dt.datetime) -> Message | None:
        timer = next((t for t in game_timers(svc.store, game.id) if t.kind == CLOCK), None)
        if timer is None:
            return None
        return Message("status.next_clock", {"actor": mover_words(game, timer.payload.get("actor")),
                                             "when": discord_time(timer.due_at)})

    def effects(self, svc: GameService, change: Applied) -> Effects:
        """The clock restarts for whoever is to move now and stops when nobody is (paused, ended);
        after a resume or an undo the player to move gets a whole clock again. A clock started for
        another player than the stopped or running one hands them the turn: they are told at once
        (`Effects.turn`), once — a player's several inputs in one move, or a computer's, keep it.
        A player away (`bot.service.away`) has their clock start when they are back, and one
        running for them as they declare it ends that many days later."""
        game, rules, state = change.game, change.rules, change.outcome.state
        movers = rules.waiting_on(state) if game.status == "running" else ()
        current = next((t for t in game_timers(svc.store, game.id) if t.kind == CLOCK), None)
        if not movers:
            return Effects(timers=self.stopped()) if current is not None else Effects()
        if change.kind in (away.DECLARE, away.SET_BUDGET):  # the same player's clock, waiting if theirs
            mover_away = change.kind == away.DECLARE and plays_as(rules, state, change.payload["seat"], movers[0])
            if current is None or current.payload.get("actor") != movers[0] or not mover_away:
                return Effects()
            due = current.due_at + dt.timedelta(days=change.payload["days"])
            return Effects(timers=self.started(svc, movers[0], due, dt.datetime.fromisoformat(change.payload["until"])))
        if current is not None:
            handed = current.payload.get("actor") != movers[0]
        else:  # no clock runs: a start, a resume... or theirs ran out, and their turn goes on
            handed = not self.still_theirs(svc, change, movers[0])
        if change.kind == EXTEND:  # the GM's new end of the same player's clock
            return Effects(timers=self.started(svc, movers[0], dt.datetime.fromisoformat(change.payload["until"])))
        if handed or change.kind in FRESH_CLOCK or current is None:
            return Effects(timers=self.whole(svc, game, rules, state, movers[0]), turn=(movers[0],) if handed else ())
        return Effects()

    @staticmethod
    def still_theirs(svc: GameService, change: Applied, mover: str) -> bool:
        """Whether `mover` was to move already before this input of the running game although no clock
        runs: theirs ran out and the GMs were alerted — their next input of the same turn (an Arkeon
        placement of three) gives them a clock again but hands them no turn to be told of."""
        if change.kind not in change.rules.input_kinds:
            return False
        before = svc.store.get_game(change.game.id)  # the record as it stands until this change commits
        if before is None or before.status != "running":
            return False
        return mover in change.rules.waiting_on(change.rules.from_json(before.state))

    def whole(self, svc: GameService, game: GameRecord, rules: Any, state: Any, actor: str) -> tuple[TimerPlan, ...]:
        """A whole clock for `actor`, from now or from when they are back from away days."""
        start = away.start_of(game, rules, state, (actor,), svc.clock())
        return self.started(svc, actor, start + dt.timedelta(hours=clock_hours(game)), start)

    def started(self, svc: GameService, actor: str, due: dt.datetime,
                start: dt.datetime | None = None) -> tuple[TimerPlan, ...]:
        """The clock of `actor` until `due`, with its half-time reminder halfway from `start` (now,
        or when the player is back from away days)."""
        start = max(start or svc.clock(), svc.clock())
        half = start + (due - start) / 2
        return (TimerPlan(CLOCK, due, {"actor": actor}), TimerPlan(HALF, half, {"actor": actor, "ends": due.isoformat()}))

    @staticmethod
    def stopped() -> tuple[TimerPlan, ...]:
        return TimerPlan.cancel(CLOCK), TimerPlan.cancel(HALF)

    def created_timers(self, svc: GameService, game: GameRecord) -> tuple[TimerPlan, ...]:
        """A game running from its creation (an import mid-play, a position): its player to move
        gets a whole clock."""
        rules = registry.get(game.kind)
        state = rules.from_json(game.state)
        movers = rules.waiting_on(state) if game.status == "running" else ()
        return self.whole(svc, game, rules, state, movers[0]) if movers else ()

    def forfeit(self, svc: GameService, game: GameRecord, actor: str, *, claim: str | None,
                post: bool = False) -> Reply | None:
        """The game's ``timeout`` input for `actor`, as the bot: None when another process did it.
        With `post` (the clock ran out, no command) its channel post is written to the outbox with it."""
        try:
            timeout = registry.get(game.kind).timeout_input or ""
            applied = svc.apply_input(None, game, timeout, None, {"actor": actor}, claims=[claim] if claim else (),
                                      post=post)
        except AlreadyClaimed:
            return None
        return svc.describe(applied)

    def timer_handlers(self, svc: GameService, hooks: TurnHooks) -> dict[str, TimerHandler]:
        def mover_seats(game: GameRecord, actor: str, now: dt.datetime) -> tuple[int, ...]:
            rules = registry.get(game.kind)
            return members_for(svc.store, game, rules, rules.from_json(game.state), (actor,),
                               away=away.away_seats(game, now))

        def on_half(timer: TimerRecord, now: dt.datetime) -> None:
            game = svc.store.get_game(timer.game_id)
            if game is None or game.status != "running":
                return
            when = discord_time(dt.datetime.fromisoformat(timer.payload["ends"]))

            def line(users: tuple[int, ...]) -> Message:
                return Message("turn.clock_half", {"actor": mover_words(game, timer.payload["actor"]),
                                                   "users": mentions(users), "when": when})

            routed = route(svc.store, game, mover_seats(game, timer.payload["actor"], now),
                           Message("dm.clock_half", {"when": when}), line)
            post = post_of(game, Reply((line(routed.channel),), mentions=routed.channel))
            if svc.store.claim(timer.claim_key, game_id=game.id, outbox=[post, *routed.dms]):
                announce(svc.store, hooks)

        def on_timeout(timer: TimerRecord, now: dt.datetime) -> None:
            game = svc.store.get_game(timer.game_id)
            if game is None or game.status != "running":
                return
            actor = timer.payload["actor"]
            if game.options.get("timeout") == "forfeit":
                try:
                    posted = self.forfeit(svc, game, actor, claim=timer.claim_key, post=True)
                except OrderError:  # the player moved meanwhile: their clock was already moved on
                    return
                if posted is not None:
                    announce(svc.store, hooks)
                return
            alert = post_of(game, Reply((Message("turn.clock_out", {"name": game.name,
                                                                    "actor": mover_words(game, actor)}),)), GM_ALERT)
            if svc.store.claim(timer.claim_key, game_id=game.id, outbox=[alert]):
                announce(svc.store, hooks)

        return {CLOCK: on_timeout, HALF: on_half}


def mover_words(game: GameRecord, actor: Any) -> Any:
    """The player to move as the reader names it: a side ("red") in its words ("Rouge"), as the
    game's presenter says it."""
    from bot.games import presenter_for  # the game list imports the drivers

    return presenter_for(game.kind).actor_name(registry.get(game.kind), actor) if isinstance(actor, str) else actor


def clock_hours(game: GameRecord) -> int:
    return int(game.options.get("clock_hours", DEFAULT_CLOCK_HOURS))


CLOCK_DRIVER = ClockDriver()
