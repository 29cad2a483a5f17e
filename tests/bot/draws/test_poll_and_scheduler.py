"""Polling and scheduling (PRODUCT.md, Scheduling): a poll after each expected draw, retries until the draw
appears or the give-up time, then one GM alert per game; recovery after a restart from the database alone."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.config import DrawSettings
from bot.i18n import Day
from bot.lottery.apply import DrawApplier
from bot.lottery.poll import DrawPoller, schedule_from, source_from
from bot.lottery.scheduler import NEXT_JOB, RETRY_JOB, DrawScheduler
from bot.service import GameService
from bot.store import NewEntry, Store
from bot.store.draws import save_draws
from draws import FDJ_LOTO, Draw, DrawSourceError, FdjSource, FetchMemo, FetchResult, FileSource, parse_path
from tests.bot.draws.games import RecordingHooks, draw, make_running_game
from tests.support.clock import Clock

SLICE = Path(__file__).resolve().parents[2] / "draws" / "data" / "loto_2019_numero7_slice.csv"
GIVE_UP = dt.timedelta(hours=6)
RETRY = dt.timedelta(minutes=10)
#: Wednesday 2024-03-06: results expected at 20:35 Paris = 19:35 UTC.
WEDNESDAY_DRAW = dt.datetime(2024, 3, 6, 19, 35, tzinfo=dt.UTC)


class ListSource:
    """A source answering with fixed draws, or failing like the network does."""

    def __init__(self, draws: Sequence[Draw] = (), error: DrawSourceError | None = None) -> None:
        self.draws = list(draws)
        self.error = error

    def fetch(self, previous: FetchMemo | None = None) -> FetchResult:
        if self.error is not None:
            raise self.error
        return FetchResult(list(self.draws), FetchMemo(sha256=str(len(self.draws))), False, "test")


def poller(store: Store, source: object = None, hooks: RecordingHooks | None = None) -> DrawPoller:
    applier = DrawApplier(GameService(store), hooks=hooks)
    return DrawPoller(applier, source, give_up=GIVE_UP)  # type: ignore[arg-type]


def draw_dates(store: Store, game_id: int) -> list[str]:
    return [entry.payload["draw"]["date"] for entry in store.log(game_id) if entry.kind == "draw"]


def test_poll_of_a_real_fdj_file_stores_then_applies_in_date_order(store: Store) -> None:
    """SC-13 on real FDJ rows: every draw of the file is stored, the game gets those after its start."""
    published = parse_path(SLICE)
    start = dt.datetime.combine(max(d.date for d in published) - dt.timedelta(days=9), dt.time(12), dt.UTC)
    game = make_running_game(store, started=start)
    hooks = RecordingHooks()
    polling = poller(store, FileSource(SLICE), hooks)
    report = polling.poll()
    assert (report.new_draws, report.error) == (len(published), None)
    expected = sorted(d.date.isoformat() for d in published if d.index == 1 and FDJ_LOTO.at(d.date) > start)
    assert expected and draw_dates(store, game.id) == expected
    assert [post.draw.date.isoformat() for post in report.posts] == expected
    again = polling.poll()  # the same file: unchanged, nothing parsed, nothing applied twice
    assert (again.new_draws, again.posts) == (0, [])
    assert draw_dates(store, game.id) == expected


def test_a_failed_fetch_is_reported_and_draws_stored_meanwhile_still_apply(store: Store) -> None:
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])  # e.g. `spacechess draws import` while FDJ is down
    report = poller(store, FileSource("/nonexistent/loto.zip")).poll()
    assert report.error is not None and report.error.code == "unreadable"
    assert report.new_draws == 0
    assert draw_dates(store, game.id) == ["2024-03-06"]


def test_a_fetched_draw_is_out_when_the_bots_clock_says_so(store: Store) -> None:
    """The poll judges whether a fetched draw's results are out by the bot's clock (the service's, as
    the scheduler's ticks and `/gm draw` read it), not by the machine's: fetched before its result
    time, the answer is refused whole; the same answer is stored and applied once the time has come."""
    game = make_running_game(store)
    clock = Clock(WEDNESDAY_DRAW - dt.timedelta(minutes=1))
    polling = DrawPoller(DrawApplier(GameService(store, clock=clock)), ListSource([draw("2024-03-06")]), give_up=GIVE_UP)
    early = polling.poll()
    assert (early.new_draws, early.error and early.error.code) == (0, "future_draw")
    assert draw_dates(store, game.id) == []
    clock.now = WEDNESDAY_DRAW
    assert (polling.poll().new_draws, draw_dates(store, game.id)) == (1, ["2024-03-06"])


def test_missing_draws_wait_then_are_given_up_after_the_configured_hours(store: Store) -> None:
    make_running_game(store)
    save_draws(store, [draw("2024-03-02"), draw("2024-03-04")])  # the week before is complete
    polling = poller(store)
    soon = WEDNESDAY_DRAW + dt.timedelta(hours=1)
    assert (polling.waiting(soon), polling.overdue(soon)) == ([WEDNESDAY_DRAW], [])
    late = WEDNESDAY_DRAW + GIVE_UP
    assert (polling.waiting(late), polling.overdue(late)) == ([], [WEDNESDAY_DRAW])
    save_draws(store, [draw("2024-03-06")])
    assert polling.missing(late) == []


def test_give_up_alerts_each_affected_game_once(store: Store) -> None:
    """Only running games that should have had the draw and did not get it by hand; once, however many
    times (or processes) the scheduler looks."""
    owed = make_running_game(store, 1)
    later = make_running_game(store, 2, started=WEDNESDAY_DRAW + dt.timedelta(minutes=5))
    entered = make_running_game(store, 3)
    paused = make_running_game(store, 4)
    store.commit(paused.id, paused.version, state=paused.state, status="paused", entries=[NewEntry("pause", None, 1, {})])
    manual = draw("2024-03-06", (1, 2, 3, 4, 5), source="manual")
    save_draws(store, [draw("2024-03-04"), manual])
    hooks = RecordingHooks()
    polling = poller(store, hooks=hooks)
    polling.applier.apply_pending(entered, [manual])
    late = WEDNESDAY_DRAW + GIVE_UP + dt.timedelta(minutes=1)
    sent = polling.alert_overdue(late)
    assert [(game.id, day.isoformat()) for game, day in sent] == [(owed.id, "2024-03-06")]
    assert poller(store, hooks=hooks).alert_overdue(late) == []  # another process, later: nothing twice
    [(game_id, alert)] = hooks.alerts
    assert game_id == owed.id
    assert alert.messages[0].key == "turn.draw_missing"
    assert alert.messages[0].params == {"name": owed.name, "day": Day(dt.date(2024, 3, 6)), "date": "2024-03-06",
                                        "hours": 6}
    assert later.id not in [g for g, _ in hooks.alerts]


def make_scheduler(store: Store, now: dt.datetime, source: object = None,
                   hooks: RecordingHooks | None = None) -> DrawScheduler:
    return DrawScheduler(poller(store, source, hooks), retry=RETRY, scheduler=AsyncIOScheduler(timezone=dt.UTC),
                         clock=lambda: now)


def test_tick_plans_a_retry_while_the_draw_is_awaited_and_the_next_draw_always(store: Store) -> None:
    make_running_game(store)
    save_draws(store, [draw("2024-03-02"), draw("2024-03-04")])
    now = WEDNESDAY_DRAW + dt.timedelta(minutes=30)
    scheduler = make_scheduler(store, now, ListSource())
    scheduler.tick()
    jobs = {job.id: job.trigger.run_date for job in scheduler.scheduler.get_jobs()}
    saturday = dt.datetime(2024, 3, 9, 19, 35, tzinfo=dt.UTC)
    assert jobs == {NEXT_JOB: saturday, RETRY_JOB: now + RETRY}
    scheduler.poller.source = ListSource([draw("2024-03-06")])  # FDJ publishes
    scheduler.tick()
    assert {job.id for job in scheduler.scheduler.get_jobs()} == {NEXT_JOB}


class BrokenSource:
    def fetch(self, previous: FetchMemo | None = None) -> FetchResult:
        raise RuntimeError("database or network gone in an unforeseen way")


def test_a_failing_tick_still_plans_its_retry_and_the_next_draw(store: Store) -> None:
    now = dt.datetime(2024, 3, 7, 10, 0, tzinfo=dt.UTC)
    scheduler = make_scheduler(store, now, BrokenSource())
    scheduler.tick()
    jobs = {job.id: job.trigger.run_date for job in scheduler.scheduler.get_jobs()}
    assert jobs == {NEXT_JOB: dt.datetime(2024, 3, 9, 19, 35, tzinfo=dt.UTC), RETRY_JOB: now + RETRY}


def test_restart_applies_what_was_published_while_down_in_date_order(store: Store) -> None:
    """The scheduler keeps nothing of its own: a new one over the same database finds the draws the
    previous process never applied and applies them, oldest first, then plans the next poll."""
    game = make_running_game(store)
    now = dt.datetime(2024, 3, 12, 8, 0, tzinfo=dt.UTC)
    published = [draw("2024-03-11"), draw("2024-03-06"), draw("2024-03-09")]
    hooks = RecordingHooks()
    scheduler = make_scheduler(store, now, ListSource(published), hooks)
    scheduler.tick()
    assert draw_dates(store, game.id) == ["2024-03-06", "2024-03-09", "2024-03-11"]
    assert len(hooks.posts) == 3 and hooks.alerts == []
    assert [job.id for job in scheduler.scheduler.get_jobs()] == [NEXT_JOB]
    make_scheduler(store, now, ListSource(published), hooks).tick()  # and a second restart changes nothing
    assert len(hooks.posts) == 3


async def test_start_queues_an_immediate_recovery_tick(sqlite_store: Store) -> None:
    now = dt.datetime.now(dt.UTC)
    scheduler = make_scheduler(sqlite_store, now)
    scheduler.start()
    try:
        [job] = scheduler.scheduler.get_jobs()
        assert (job.id, job.next_run_time) == (NEXT_JOB, now)
    finally:
        scheduler.shutdown()  # before the loop runs again: the job never starts


def test_settings_choose_the_source_and_the_calendar(tmp_path: Path) -> None:
    assert isinstance(source_from(DrawSettings()), FdjSource)
    assert isinstance(source_from(DrawSettings(source="file", file=tmp_path / "loto.zip")), FileSource)
    assert source_from(DrawSettings(source="manual")) is None
    tuesday = schedule_from(DrawSettings(draw_days=["tuesday"], draw_time=dt.time(21, 0)))
    assert tuesday.next_after(WEDNESDAY_DRAW) == dt.datetime(2024, 3, 12, 20, 0, tzinfo=dt.UTC)
