"""The lottery as a turn driver: its options of a new game (SC-31's time limit, where draws come
from), its lines of `/game info` and of the status header, and the catch-up of a resumed game."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from bot.drivers import TurnDriver
from bot.lottery.apply import applier_for
from bot.service.commands import Option
from bot.service.core import GameService
from bot.service.replies import Message, Reply, ServiceError
from bot.service.status import discord_time
from bot.store.repo import GameRecord
from draws.calendar import next_expected_draw


class LotteryDriver(TurnDriver):
    name = "lottery"
    commands = "bot.lottery.commands"
    create_options = (
        Option("draws", choices=("auto", "manual")),
        Option("limit_draws", "integer", min_value=1, max_value=999),
        Option("end_date", max_length=10),
    )

    def game_options(self, svc: GameService, opts: Mapping[str, Any]) -> dict[str, Any]:
        """Where its draws come from and its time limit (SC-31). An end date before today (the draw
        calendar's date) is refused: no draw could reach it, so the game would silently have no
        time limit. Today itself is fine (tonight's draw ends it)."""
        today = applier_for(svc).schedule.local_date(dt.datetime.now(dt.UTC))
        options = {key: opts[key] for key in ("draws", "limit_draws") if key in opts}
        if "end_date" in opts:
            try:
                end = dt.date.fromisoformat(opts["end_date"])
            except ValueError:
                raise ServiceError("error.draw_bad_date", text=opts["end_date"]) from None
            if end < today:
                raise ServiceError("error.end_date_past", date=end.isoformat(), today=today.isoformat())
            options["end_date"] = end.isoformat()
        return options

    def info(self, game: GameRecord) -> list[Message]:
        if not game.options:
            return []
        return [Message("game.info.options", {"draws": game.options.get("draws", "auto"),
                                              "limit": game.options.get("limit_draws"),
                                              "end": game.options.get("end_date")})]

    def next_moment(self, svc: GameService, game: GameRecord, now: dt.datetime) -> Message | None:
        return Message("status.next_draw", {"next": discord_time(next_expected_draw(now, applier_for(svc).schedule))})

    def on_resume(self, svc: GameService, game: GameRecord) -> list[Reply]:
        """The draws published during the pause, applied now in order, each with its turn post."""
        return [post.reply for post in applier_for(svc).catch_up(game.id, deliver=False)]


LOTTERY = LotteryDriver()
