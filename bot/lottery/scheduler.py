"""The draw scheduler: APScheduler 3's AsyncIOScheduler with jobs derived from the database and the
calendar, never persisted.

APScheduler's documentation forbids sharing a job store between schedulers, and several bot processes
may run against one database, so no job store is shared: each process keeps its jobs in memory and
rebuilds them at start from the truth (stored draws, claims, the draw calendar). Each run of `tick`:
1. polls (fetch, store, apply pending draws to every running game — at start this applies, in date
   order, whatever was published while the bot was down);
2. alerts the game masters of every draw still missing `give_up_hours` after its expected time;
3. plans a retry in `poll_retry_minutes` while an expected draw is missing and not yet given up, and
   always the regular poll at the next expected draw.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.config import DrawSettings
from bot.drivers import TurnHooks
from bot.lottery.apply import DrawApplier
from bot.lottery.poll import DrawPoller, schedule_from, source_from
from bot.service.core import GameService

log = logging.getLogger("spacechess.scheduler")

NEXT_JOB = "draws-next"
#: A late poll (the machine slept, the loop was busy) still runs, once, however late it is.
JOB_OPTIONS: dict[str, Any] = {"misfire_grace_time": None, "coalesce": True}
RETRY_JOB = "draws-retry"


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class DrawScheduler:
    def __init__(
        self,
        poller: DrawPoller,
        *,
        retry: dt.timedelta,
        scheduler: AsyncIOScheduler | None = None,
        clock: Callable[[], dt.datetime] = utc_now,
    ) -> None:
        self.poller = poller
        self.retry = retry
        self.scheduler = scheduler if scheduler is not None else AsyncIOScheduler(timezone=dt.UTC)
        self.clock = clock

    @classmethod
    def from_settings(cls, service: GameService, settings: DrawSettings, hooks: TurnHooks | None) -> DrawScheduler:
        """What `spacechess run` starts: the configured calendar, source and delays."""
        applier = DrawApplier(service, schedule=schedule_from(settings), hooks=hooks)
        poller = DrawPoller(applier, source_from(settings), give_up=dt.timedelta(hours=settings.give_up_hours))
        return cls(poller, retry=dt.timedelta(minutes=settings.poll_retry_minutes))

    def start(self) -> None:
        """Call from inside the running event loop: the first tick runs at once (recovery after a restart),
        in the loop's executor like every later one, so a slow download never blocks the bot."""
        self._add(NEXT_JOB, self.clock())
        self.scheduler.start()

    def shutdown(self) -> None:
        self.scheduler.shutdown(wait=False)

    def tick(self) -> None:
        """One scheduled run (blocking: APScheduler runs it in a worker thread). Whatever fails (the
        database unreachable...), the next runs are planned: a scheduler that stops planning is silent."""
        try:
            self.poller.poll()
            self.poller.alert_overdue(self.clock())
        except Exception:
            log.exception("draw tick failed: retry in %s", self.retry)
            now = self.clock()
            self._add(NEXT_JOB, self.poller.applier.schedule.next_after(now))
            self._add(RETRY_JOB, now + self.retry)
            return
        self.plan(self.clock())

    def _add(self, job_id: str, when: dt.datetime) -> None:
        self.scheduler.add_job(self.tick, "date", run_date=when, id=job_id, replace_existing=True, **JOB_OPTIONS)

    def plan(self, now: dt.datetime) -> None:
        """(Re)place the in-memory jobs: the next expected draw, and a retry while one is awaited."""
        self._add(NEXT_JOB, self.poller.applier.schedule.next_after(now))
        waiting = self.poller.waiting(now)
        if waiting:
            self._add(RETRY_JOB, now + self.retry)
            log.info("draw of %s not found yet: retry in %s", waiting[0].isoformat(), self.retry)
        elif self.scheduler.get_job(RETRY_JOB) is not None:
            self.scheduler.remove_job(RETRY_JOB)
