"""Turn drivers: what advances a game between its players' inputs.

Each game names its driver in `bot.games.GAMES`: the lottery (Space Chess: every Loto draw is a
turn), a deadline (SpaceBlast: a turn resolves at a time, or once every living seat is ready), or a
move clock (HexArena, Arkeon: the player to move has so long). A driver adds its own options to
the game's ``new`` command, its lines to `/game info` and the status message, turns every change
into its effects as data (timer plans, follow-up inputs: `TurnDriver.effects`), and catches a
resumed game up. The service calls these hooks and knows no driver.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from bot.service.effects import ChangePost, Effects
from bot.service.replies import Message, Reply

if TYPE_CHECKING:
    from bot.service.commands import Option
    from bot.service.core import Applied, GameService
    from bot.store.repo import GameRecord, LogRecord
    from bot.store.timer_rows import TimerPlan
    from bot.store.timers import TimerRecord

#: what a timer does when it falls due (`bot.timers.TimerRunner` calls it with the current time)
TimerHandler = Callable[["TimerRecord", dt.datetime], None]


class TurnHooks(Protocol):
    """Implemented by each adapter. Called from a scheduler's thread: an asyncio adapter hands the
    reply over to its loop (``asyncio.run_coroutine_threadsafe``) rather than sending it here."""

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        """Post `reply` in the game's channel and refresh its pinned status message."""

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        """Tell the game's game masters something needs them (a draw that never came, a clock run out)."""


class TurnDriver:
    """The defaults: a game that only moves when its players act."""

    name: ClassVar[str] = ""
    #: options every ``new`` command of the games it drives takes (stored in the game's options)
    create_options: ClassVar[tuple[Option, ...]] = ()
    #: the module declaring its game masters' commands (``/gm draw``...), if it has any
    commands: ClassVar[str | None] = None
    #: whether its games wait on their seats (a deadline, a move clock): a seat may then never be left
    #: without a member or a computer
    waits_on_seats: ClassVar[bool] = False

    def missing(self, rules: Any) -> list[str]:
        """What this driver needs of a game's rules class that `rules` lacks, by name (checked when
        the bot starts: a game missing one is refused then, not stalled later)."""
        return []

    def game_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
        """The driver's settings of a new game from its ``new`` options, checked; refused with a ServiceError."""
        return {opt.name: opts[opt.name] for opt in self.create_options if opt.name in opts}

    def info(self, game: GameRecord) -> list[Message]:
        """Lines of `/game info` about how the game advances."""
        return []

    def next_moment(self, svc: GameService, game: GameRecord, now: dt.datetime) -> Message | None:
        """What comes next and when (the next draw, the deadline, the clock), for the status header."""
        return None

    def created_timers(self, svc: GameService, game: GameRecord) -> tuple[TimerPlan, ...]:
        """What a new game (created or imported) waits for from the start, as data: written in the
        transaction that creates it (`Store.create_game`), as a change's timers are with the change."""
        return ()

    def effects(self, svc: GameService, change: Applied) -> Effects:
        """What a change is about to cause, as data (`change.game` is the record as the commit will
        leave it): the timers it sets, moves or cancels, written in its transaction, and the inputs
        the bot gives after it (a turn resolved because every seat is ready). Every change comes
        here, the GMs' (pause, resume, undo, kick...) as much as the players'."""
        return Effects()

    def change_post(self, svc: GameService, change: Applied, *, later: bool) -> ChangePost | None:
        """The channel post of a change this driver words itself (a lottery draw's turn post), made
        before the commit from the change as it will be committed (its `within` inputs applied);
        None: the pipeline's (`GameService.describe` and the turn's pings). `later`: the post goes
        to the outbox with the commit, so its board may be a drawing made when it is sent; else it
        answers a command now, its pictures drawn now. Its direct messages are committed either way."""
        return None

    def catch_up(self, svc: GameService, applied: Applied) -> list[Reply]:
        """After a committed change: what happened meanwhile that the game gets now (the draws of a
        pause, on resume), each as a channel post."""
        return []

    def timer_handlers(self, svc: GameService, hooks: TurnHooks) -> dict[str, TimerHandler]:
        """What each kind of this driver's timers does when it falls due."""
        return {}

    def option_fault(self, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """The first stored option (an imported game's) that `new` could not have set, as
        (option, reason: an ``export.<reason>`` catalog word); None when all are fine."""
        declared = {opt.name: opt for opt in self.create_options}
        for key, value in options.items():
            opt = declared.get(key)
            if opt is None:
                return key, "unknown_option"
            if not _accepts(opt, value):
                return key, "bad_option"
        return None

    def claims_of_log(self, game_id: int, log: Sequence[LogRecord]) -> list[str]:
        """The effects this driver had done once for a game, by its log, as the claim keys of game
        `game_id`: an imported game takes them so it never gets them again. Raises `LogFault`
        naming the entry it cannot read."""
        return []


class LogFault(ValueError):
    """An imported log's entry a driver refuses: where it is (``log[3].payload.draw``) and why
    (an ``export.<reason>`` catalog word)."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


def _accepts(opt: Option, value: Any) -> bool:
    """Whether a stored value is one the option could have given (an export is a way in too)."""
    if opt.type == "integer":
        return type(value) is int and (opt.min_value is None or value >= opt.min_value) and (
            opt.max_value is None or value <= opt.max_value)
    if opt.type == "boolean":
        return type(value) is bool
    return isinstance(value, str) and (not opt.choices or value in opt.choices) and (
        opt.max_length is None or len(value) <= opt.max_length)


def plays_as(rules: Any, state: Any, seated: str, actor: str) -> bool:
    """Whether the member seated as `seated` (the name they joined with) plays `actor`: the same
    name, or the side that name holds (Arkeon's and HexArena's players are their sides)."""
    return seated == actor or rules.side_of(state, seated) == actor


#: every driver by name, as "module:attribute" so that only the drivers in use are imported
DRIVERS: dict[str, str] = {
    "none": "bot.drivers:NO_DRIVER",
    "lottery": "bot.lottery.driver:LOTTERY",
    "deadline": "bot.drivers.deadline:DEADLINE_DRIVER",
    "clock": "bot.drivers.clock:CLOCK_DRIVER",
}

NO_DRIVER = TurnDriver()


def driver_named(name: str) -> TurnDriver:
    module, _, attribute = DRIVERS[name].partition(":")
    driver: TurnDriver = getattr(importlib.import_module(module), attribute)
    return driver


#: the timer handlers of what is not a driver (a computer's turn), added by the composition root
_OTHER_TIMERS: list[Callable[[GameService, TurnHooks], dict[str, TimerHandler]]] = []


def add_timer_handlers(source: Callable[[GameService, TurnHooks], dict[str, TimerHandler]]) -> None:
    """Have `timer_handlers` include `source`'s (called by `bot.compose`, which nothing imports)."""
    if source not in _OTHER_TIMERS:
        _OTHER_TIMERS.append(source)


def timer_handlers(svc: GameService, hooks: TurnHooks) -> dict[str, TimerHandler]:
    """Every timer handler, by timer kind — every driver's and those the composition root added:
    what a process's timer runner dispatches to."""
    handlers: dict[str, TimerHandler] = {}
    for name in DRIVERS:
        handlers.update(driver_named(name).timer_handlers(svc, hooks))
    for source in _OTHER_TIMERS:
        handlers.update(source(svc, hooks))
    return handlers
