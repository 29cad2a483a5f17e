"""Firing the durable timers of `bot.store.timers`: a runner that calls each due timer's handler, and an
APScheduler job that runs it when the next timer falls due.

Nothing is persisted in APScheduler: several processes may share one database and APScheduler forbids
sharing a job store, so each process keeps one in-memory job, "timers-next", at the soonest due time
read from the database (one task sleeping until the next timer), plus a coarse poll that notices timers
set by other processes. At start the first tick runs at once: what fell due while the bot was down
fires then. Any number of processes may fire the same timer: its handler claims the effect
(`TimerRecord.claim_key`), so exactly one of them performs it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.store.repo import Store
from bot.store.timers import TimerRecord, due_timers, finish_timer, get_timer, next_due

log = logging.getLogger("spacechess.timers")

#: What a timer of one kind does when it falls due, called with the timer and the current time. It
#: takes the timer's claim with its effect, and raises only for a failure worth retrying.
TimerHandler = Callable[[TimerRecord, dt.datetime], None]

NEXT_JOB = "timers-next"
POLL_JOB = "timers-poll"
#: A late tick (the machine slept, the loop was busy) still runs, once. Several instances are allowed
#: because a job placed at "now" by the ending tick may be due before APScheduler has counted that tick
#: as finished: with one instance allowed it would be skipped, and a skipped date job is gone. The
#: ticks themselves never overlap (`TimerScheduler.tick` lets only one run at a time).
JOB_OPTIONS: dict[str, Any] = {"misfire_grace_time": None, "coalesce": True, "max_instances": 1000}
#: Passes of one tick while timers keep falling due during its own run; then it backs off.
MAX_PASSES = 10


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class TimerRun:
    """What one pass over the due timers did."""

    #: handled (or found already done by another process) and finished
    fired: list[TimerRecord] = field(default_factory=list)
    #: still due: their handler raised, no handler knows their kind, or finishing them failed
    failed: list[TimerRecord] = field(default_factory=list)


class TimerRunner:
    """Calls the handler of each due timer, then finishes it. One failure never stops the others, and a
    timer whose handler failed stays, to be tried again by a later run."""

    def __init__(
        self,
        store: Store,
        handlers: Mapping[str, TimerHandler],
        clock: Callable[[], dt.datetime] = utc_now,
    ) -> None:
        self.store = store
        self.handlers = handlers
        self.clock = clock

    def run_due(self, now: dt.datetime | None = None) -> list[TimerRecord]:
        """Fire every timer due at `now` (default: the clock), oldest first; the ones fired."""
        return self.run(now).fired

    def run(self, now: dt.datetime | None = None) -> TimerRun:
        now = self.clock() if now is None else now
        result = TimerRun()
        for listed in due_timers(self.store, now):
            try:
                timer = self._fire(listed, now)
            except Exception:
                log.exception("timer %s failed: kept for the next run", listed.claim_key)
                result.failed.append(listed)
                continue
            if timer is None:
                continue
            if timer.kind in self.handlers:
                result.fired.append(timer)
            else:  # logged by _fire and left in place: a newer version of the bot may know it
                result.failed.append(timer)
        return result

    def _fire(self, listed: TimerRecord, now: dt.datetime) -> TimerRecord | None:
        """The timer as fired; None if it was moved or cancelled since it was listed: earlier handlers of
        this run take time, and a moved timer must not fire at its old moment."""
        timer = get_timer(self.store, listed.game_id, listed.kind)
        if timer is None or timer.generation != listed.generation or timer.due_at > now:
            return None
        handler = self.handlers.get(timer.kind)
        if handler is None:
            log.error("no handler for timer kind %r (game %s): left in place", timer.kind, timer.game_id)
            return timer
        handler(timer, now)
        finish_timer(self.store, timer)
        return timer


class TimerScheduler:
    """Runs `runner` in APScheduler's executor whenever the next timer falls due.

    Call `start` from inside the running event loop; `wake` from any thread after setting a timer."""

    def __init__(
        self,
        runner: TimerRunner,
        scheduler: AsyncIOScheduler | None = None,
        retry: dt.timedelta = dt.timedelta(minutes=1),
        poll: dt.timedelta = dt.timedelta(minutes=5),
    ) -> None:
        self.runner = runner
        self.scheduler = scheduler if scheduler is not None else AsyncIOScheduler(timezone=dt.UTC)
        self.retry = retry
        self.poll = poll
        self._lock = threading.Lock()
        self._ticking = False  # a tick is between its first read and its last planning
        self._woken = False  # a wake came during that tick: it must look at the database again
        self._stopped = False
        self._owns_scheduler = False

    @property
    def clock(self) -> Callable[[], dt.datetime]:
        return self.runner.clock

    def start(self) -> None:
        """The first tick is due at once, so timers that fell due while the bot was down fire now."""
        self._stopped = False
        self._place(self.clock())
        self.scheduler.add_job(
            self.wake, "interval", seconds=self.poll.total_seconds(), id=POLL_JOB, replace_existing=True,
            **JOB_OPTIONS,
        )
        if not self.scheduler.running:  # a scheduler shared with the draws may be running already
            self.scheduler.start()
            self._owns_scheduler = True

    def shutdown(self) -> None:
        with self._lock:
            self._stopped = True
            for job_id in (NEXT_JOB, POLL_JOB):
                self._remove(job_id)
        if self._owns_scheduler and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
            self._owns_scheduler = False

    def wake(self) -> None:
        """Look at the database now (a timer was set or moved). Safe from any thread: APScheduler hands
        the new job to its event loop with call_soon_threadsafe, as the Discord adapter hands its posts
        over; a tick running in a worker thread at that moment takes one more pass instead."""
        with self._lock:
            if self._ticking:
                self._woken = True
            elif not self._stopped:
                self._place(self.clock())

    def tick(self) -> None:
        """One scheduled run (blocking: APScheduler runs it in a worker thread). It always plans the next
        one, whatever failed: a scheduler that stops planning is silent."""
        with self._lock:
            if self._ticking:  # only in the instant a previous tick hands over: it will look again
                self._woken = True
                return
            self._ticking, self._woken = True, False
        when: dt.datetime | None = None
        try:
            for _ in range(MAX_PASSES):
                when = self._pass()
                with self._lock:
                    if not self._woken and (when is None or when > self.clock()):
                        self._finish(when)
                        return
                    self._woken = False
            log.warning("timers keep falling due during their own run: next run in %s", self.retry)
            when = self.clock() + self.retry
        finally:
            with self._lock:
                if self._ticking:
                    self._finish(when if when is not None else self.clock() + self.retry)

    def _pass(self) -> dt.datetime | None:
        """Fire what is due; when to look again (None: no timer at all, the poll will notice new ones)."""
        try:
            now = self.clock()
            run = self.runner.run(now)
            store = self.runner.store
            if not run.failed:
                return next_due(store)
            # The failed timers are still due: planning at their due time would spin on them. Wait
            # `retry` at most, or less if another timer falls due before; one already due (set during
            # this pass) is run at once.
            stuck = {(t.id, t.generation) for t in run.failed}
            fresh = [t.due_at for t in due_timers(store, self.clock()) if (t.id, t.generation) not in stuck]
            if fresh:
                return min(fresh)
            upcoming = next_due(store, after=now)
            retry_at = now + self.retry
            return retry_at if upcoming is None else min(upcoming, retry_at)
        except Exception:
            log.exception("timer tick failed: next run in %s", self.retry)
            return self.clock() + self.retry

    def _finish(self, when: dt.datetime | None) -> None:
        """Called with the lock held, so no wake falls between the last look and the new plan."""
        self._ticking = False
        if not self._stopped:
            self._place(when)

    def _place(self, when: dt.datetime | None) -> None:
        if when is None:
            self._remove(NEXT_JOB)
            return
        self.scheduler.add_job(
            self.tick, "date", run_date=when, id=NEXT_JOB, replace_existing=True, **JOB_OPTIONS
        )

    def _remove(self, job_id: str) -> None:
        with contextlib.suppress(JobLookupError):  # already run (a date job) or never placed
            self.scheduler.remove_job(job_id)
