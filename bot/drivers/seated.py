"""What every turn driver whose games wait on their seats (the move clock, the deadline) shares: a
seat's away days (`bot.service.away`) — the ``away_days`` budget its ``new`` takes and stores, and the
``/game away`` periods an imported game's options hold, checked as such. One place, so a driver
waiting on seats cannot forget them nor word them its own way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.drivers import TurnDriver
from bot.service import away
from bot.service.core import GameService


class SeatWaitingDriver(TurnDriver):
    """A driver whose games wait on their seats; its subclasses give their own options in
    `create_options` and `turn_options`, the away days are added here."""

    waits_on_seats = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if away.AWAY_OPTION not in cls.create_options:
            cls.create_options = (*cls.create_options, away.AWAY_OPTION)

    def game_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
        return {**self.turn_options(svc, opts), **({away.BUDGET: opts[away.BUDGET]} if away.BUDGET in opts else {})}

    def turn_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
        """The driver's own stored options from `new`'s (the away budget aside)."""
        return {}

    def option_fault(self, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """The away periods are the `/game away` declarations: checked as such, the rest as declared."""
        return super().option_fault({k: v for k, v in options.items() if k != away.AWAY}) or away.option_fault(options)
