"""The lottery as a turn driver: its options of a new game (SC-31's time limit, where draws come
from), its lines of `/game info` and of the status header, what a draw causes (the end at the time
limit, within the draw's change) and its turn post, and the catch-up of a resumed game."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from bot.drivers import LogFault, TimerHandler, TurnDriver, TurnHooks
from bot.i18n import Count, Day
from bot.lottery.apply import DRAW_RETRY, DrawApplier, applier_for, limit_payload, turn_post_of
from bot.lottery.turn_post import limit_reached, what_comes_next
from bot.service.commands import Option
from bot.service.core import Applied, GameService
from bot.service.effects import ChangePost, Effects, FollowUp
from bot.service.replies import Message, Reply, ServiceError
from bot.store.draws import draw_claim_key
from bot.store.repo import GameRecord, LogRecord
from bot.store.timers import TimerRecord
from engine import registry


class LotteryDriver(TurnDriver):
    name = "lottery"
    commands = "bot.lottery.commands"
    create_options = (
        Option("draws", choices=("auto", "manual"), describe="opt.lottery.draws"),
        Option("limit_draws", "integer", min_value=1, max_value=999, describe="opt.lottery.limit_draws"),
        Option("end_date", max_length=10, describe="opt.lottery.end_date"),
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
                raise ServiceError("error.end_date_past", date=Day(end), today=Day(today))
            options["end_date"] = end.isoformat()
        return options

    def option_fault(self, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """As `new` checks them, each fault said in its own words (the source, the limit, the date)."""
        fault = super().option_fault(options)
        if fault is not None and fault[1] == "bad_option":
            fault = (fault[0], {"draws": "draws", "limit_draws": "limit_draws"}.get(fault[0], "time"))
        if fault is None and "end_date" in options:
            try:
                dt.date.fromisoformat(options["end_date"])
            except ValueError:
                fault = ("end_date", "time")
        return fault

    def claims_of_log(self, game_id: int, log: Sequence[LogRecord]) -> list[str]:
        """The evenings whose draws the log holds (undone ones too: the game had them once, and its
        claims in the game it came from say so)."""
        claims = []
        for entry in log:
            if entry.kind != "draw":
                continue
            draw = entry.payload.get("draw")
            if draw is None:  # an input given as a draw without the record of which one (tests, scenarios)
                continue
            try:
                day, index = dt.date.fromisoformat(draw["date"]), int(draw.get("index", 1))
            except (TypeError, KeyError, ValueError, AttributeError):
                raise LogFault(f"log[{entry.seq - 1}].payload.draw", "draw") from None
            key = draw_claim_key(game_id, day, index)
            if key in claims:
                raise LogFault(f"log[{entry.seq - 1}].payload.draw", "draw_twice")
            claims.append(key)
        return claims

    def info(self, game: GameRecord) -> list[Message]:
        if not game.options:
            return []
        limit, end = game.options.get("limit_draws"), game.options.get("end_date")
        return [Message("game.info.options", {"draws": Message(f"word.draws.{game.options.get('draws', 'auto')}"),
                                              "limit": Count(limit, "word.draw_count") if limit else
                                              Message("sc.info.no_limit"),
                                              "end": Day(dt.date.fromisoformat(end)) if end else
                                              Message("sc.info.no_end")})]

    def next_moment(self, svc: GameService, game: GameRecord, now: dt.datetime) -> Message | None:
        turn = 0
        if "limit_draws" in game.options:  # the progress towards it needs the draws played so far
            rules = registry.get(game.kind)
            turn = rules.turn_number(rules.from_json(game.state))
        return what_comes_next(applier_for(svc).schedule, game.options, turn, now)

    def effects(self, svc: GameService, change: Applied) -> Effects:
        """SC-31: the draw that reaches the game's limit (a number of draws, or its end date) ends it
        on the living characters' HP in its own change (`Effects.within`): logged as `limit_reached`
        right after the draw, in the draw's commit, and its turn post shows the verdict. A draw that
        ended the game by itself needs no end."""
        if change.kind != "draw" or change.game.status != "running":
            return Effects()
        turn = change.rules.turn_number(change.outcome.state)
        record = change.payload.get("draw")
        day = dt.date.fromisoformat(record["date"]) if isinstance(record, Mapping) else None
        if not limit_reached(change.game.options, turn, day):
            return Effects()
        payload = limit_payload(turn, day) if day is not None else {"turn": turn, "draw": None}
        return Effects(within=(FollowUp("limit_reached", None, payload),))

    def change_post(self, svc: GameService, change: Applied, *, later: bool) -> ChangePost | None:
        """A draw's turn post (`bot.lottery.turn_post`): its draw, each character's gains, the pings by
        the server's policy, what comes next; the pipeline's post for any other change."""
        return turn_post_of(svc, change, later=later) if change.kind == "draw" else None

    def timer_handlers(self, svc: GameService, hooks: TurnHooks) -> dict[str, TimerHandler]:
        """A deferred draw's retry: the game's pending draws, each with its turn post through the outbox.
        Deferred again, it plans the next retry itself; its draws' claims make each land once, whatever
        the number of processes firing it. A game paused meanwhile gets them when it resumes."""
        def retry(timer: TimerRecord, now: dt.datetime) -> None:
            applier = applier_for(svc)
            if applier.hooks is None:  # only the scheduler's applier posts: one that would post nothing
                applier = DrawApplier(svc, schedule=applier.schedule, hooks=hooks, source=applier.source)
            applier.catch_up(timer.game_id)

        return {DRAW_RETRY: retry}

    def catch_up(self, svc: GameService, applied: Applied) -> list[Reply]:
        """On resume: the draws published during the pause, applied now in order, each with its turn post."""
        if applied.kind != "resume" or applied.game.status != "running":
            return []
        return [post.reply for post in applier_for(svc).catch_up(applied.game.id, deliver=False)]


LOTTERY = LotteryDriver()
