"""Turn drivers: what advances a game between its players' inputs.

Each game names its driver in `bot.games.GAMES`: the lottery (Space Chess: every Loto draw is a
turn), a deadline (SpaceBlast: a turn resolves at a time, or once every living seat is ready), or a
move clock (HexArena, Arkeon: the player to move has so long). A driver adds its own options to
the game's ``new`` command, its lines to `/game info` and the status message, plans its timers
after every input, and catches a resumed game up. The service calls these hooks and knows no driver.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from bot.service.replies import Message, Reply

if TYPE_CHECKING:
    from bot.service.commands import Option
    from bot.service.core import Applied, GameService
    from bot.store.repo import GameRecord


class TurnDriver:
    """The defaults: a game that only moves when its players act."""

    name: ClassVar[str] = ""
    #: options every ``new`` command of the games it drives takes (stored in the game's options)
    create_options: ClassVar[tuple[Option, ...]] = ()
    #: the module declaring its game masters' commands (``/gm draw``...), if it has any
    commands: ClassVar[str | None] = None

    def game_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
        """The driver's settings of a new game from its ``new`` options, checked; refused with a ServiceError."""
        return {opt.name: opts[opt.name] for opt in self.create_options if opt.name in opts}

    def info(self, game: GameRecord) -> list[Message]:
        """Lines of `/game info` about how the game advances."""
        return []

    def next_moment(self, svc: GameService, game: GameRecord, now: dt.datetime) -> Message | None:
        """What comes next and when (the next draw, the deadline, the clock), for the status header."""
        return None

    def after_commit(self, svc: GameService, applied: Applied) -> list[Reply]:
        """Plan, move or cancel the game's timers after an accepted input; what else it caused
        (a turn resolved because every seat is ready) comes back as replies for the channel."""
        return []

    def on_resume(self, svc: GameService, game: GameRecord) -> list[Reply]:
        """A paused game resumes: catch up what happened meanwhile, each as a channel post."""
        return []


#: every driver by name, as "module:attribute" so that only the drivers in use are imported
DRIVERS: dict[str, str] = {
    "none": "bot.drivers:NO_DRIVER",
    "lottery": "bot.lottery.driver:LOTTERY",
    "deadline": "bot.drivers.deadline:DEADLINE",
    "clock": "bot.drivers.clock:CLOCK",
}

NO_DRIVER = TurnDriver()


def driver_named(name: str) -> TurnDriver:
    module, _, attribute = DRIVERS[name].partition(":")
    driver: TurnDriver = getattr(importlib.import_module(module), attribute)
    return driver


def driver_of(kind: str) -> TurnDriver:
    """The driver of a game kind (from the static game list)."""
    from bot.games import entry_for

    return driver_named(entry_for(kind).driver)
