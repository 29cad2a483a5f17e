"""Durable timers fired exactly once (PRODUCT.md, Scheduling): the runner (overdue timers, failing
handlers, unknown kinds), the APScheduler job that runs it (first tick at start, wake, retry after a
failure, the poll), and several processes on one database, racing or killed mid-run."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import multiprocessing
import signal
import threading
from collections.abc import AsyncIterator, Callable

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.store import GameRecord, NewEntry, Store
from bot.store.timers import TimerRecord, due_timers, game_timers, get_timer, set_timer
from bot.timers import NEXT_JOB, POLL_JOB, TimerRunner, TimerScheduler
from tests.bot.timer_workers import KINDS, CommitEffect, run_timers

SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter, like a real second bot process
NOON = dt.datetime(2024, 3, 6, 12, 0, tzinfo=dt.UTC)
RETRY = dt.timedelta(minutes=1)


def make_game(store: Store, name: str = "Nébuleuse") -> GameRecord:
    return store.create_game(kind="spaceblast", name=name, guild_id=1, channel_id=2, setup={}, state={},
                             seed=1, created_by=None, status="running", entries=[NewEntry("create", None, None, {})])


class Recorder:
    """A handler that notes what it was called with, and can be told to fail."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[TimerRecord, dt.datetime]] = []
        self.fail = fail
        self.called = threading.Event()

    def __call__(self, timer: TimerRecord, now: dt.datetime) -> None:
        self.calls.append((timer, now))
        self.called.set()
        if self.fail:
            raise RuntimeError("Discord is down")

    @property
    def keys(self) -> list[str]:
        return [timer.claim_key for timer, _ in self.calls]


@pytest.fixture
def sqlite_game(sqlite_store: Store) -> GameRecord:
    return make_game(sqlite_store)


# --- the runner ------------------------------------------------------------------------------------


def test_overdue_timers_fire_oldest_first_then_are_gone(sqlite_store: Store, sqlite_game: GameRecord) -> None:
    """What fell due while the bot was down fires at its first run, in order; the future waits."""
    store, game = sqlite_store, sqlite_game
    late = set_timer(store, game.id, "deadline", NOON - dt.timedelta(hours=1))
    oldest = set_timer(store, game.id, "reminder1", NOON - dt.timedelta(hours=3))
    future = set_timer(store, game.id, "clock", NOON + dt.timedelta(seconds=1))
    recorder = Recorder()
    runner = TimerRunner(store, {"deadline": recorder, "reminder1": recorder, "clock": recorder}, clock=lambda: NOON)
    assert runner.run_due() == [oldest, late]
    assert recorder.calls == [(oldest, NOON), (late, NOON)]
    assert game_timers(store, game.id) == [future]
    assert runner.run_due() == []  # nothing fires twice


def test_a_failing_handler_keeps_its_timer_and_the_others_still_fire(
    sqlite_store: Store, sqlite_game: GameRecord, caplog: pytest.LogCaptureFixture
) -> None:
    store, game = sqlite_store, sqlite_game
    broken = set_timer(store, game.id, "reminder1", NOON - dt.timedelta(hours=2))
    fine = set_timer(store, game.id, "deadline", NOON - dt.timedelta(hours=1))
    failing, working = Recorder(fail=True), Recorder()
    runner = TimerRunner(store, {"reminder1": failing, "deadline": working})
    with caplog.at_level(logging.ERROR, logger="spacechess.timers"):
        run = runner.run(NOON)
    assert (run.fired, run.failed) == ([fine], [broken])
    assert working.calls == [(fine, NOON)]
    [record] = caplog.records
    assert broken.claim_key in record.getMessage() and record.exc_info is not None  # logged with its traceback
    assert game_timers(store, game.id) == [broken]
    failing.fail = False
    assert runner.run_due(NOON) == [broken]  # the next run retries it
    assert game_timers(store, game.id) == []


def test_unknown_kinds_are_logged_and_stay(
    sqlite_store: Store, sqlite_game: GameRecord, caplog: pytest.LogCaptureFixture
) -> None:
    store, game = sqlite_store, sqlite_game
    stranger = set_timer(store, game.id, "from_a_newer_version", NOON)
    known = set_timer(store, game.id, "deadline", NOON)
    runner = TimerRunner(store, {"deadline": Recorder()})
    with caplog.at_level(logging.ERROR, logger="spacechess.timers"):
        run = runner.run(NOON)
    assert (run.fired, run.failed) == ([known], [stranger])
    assert "from_a_newer_version" in caplog.text
    assert game_timers(store, game.id) == [stranger]


def test_a_timer_moved_during_the_run_waits_for_its_new_moment(sqlite_store: Store, sqlite_game: GameRecord) -> None:
    """An earlier handler (or a game master) moves it after it was listed: it must not fire at the old time."""
    store, game = sqlite_store, sqlite_game
    set_timer(store, game.id, "reminder1", NOON - dt.timedelta(hours=2))
    set_timer(store, game.id, "deadline", NOON - dt.timedelta(hours=1))
    deadline = Recorder()

    def postpone(timer: TimerRecord, now: dt.datetime) -> None:
        set_timer(store, game.id, "deadline", NOON + dt.timedelta(hours=1))

    fired = TimerRunner(store, {"reminder1": postpone, "deadline": deadline}).run_due(NOON)
    assert [timer.kind for timer in fired] == ["reminder1"] and deadline.calls == []
    moved = get_timer(store, game.id, "deadline")
    assert moved is not None and (moved.generation, moved.due_at) == (2, NOON + dt.timedelta(hours=1))


# --- the scheduler ---------------------------------------------------------------------------------


class FakeClock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def fake_scheduler(store: Store, handlers: dict, clock: FakeClock) -> TimerScheduler:
    """Never started: the tests call tick() themselves and read the planned jobs."""
    return TimerScheduler(TimerRunner(store, handlers, clock), AsyncIOScheduler(timezone=dt.UTC), retry=RETRY)


def planned(scheduler: TimerScheduler) -> dict[str, dt.datetime]:
    return {job.id: job.trigger.run_date for job in scheduler.scheduler.get_jobs() if job.id == NEXT_JOB}


def test_a_tick_plans_the_next_due_timer_or_nothing(sqlite_store: Store, sqlite_game: GameRecord) -> None:
    store, game = sqlite_store, sqlite_game
    clock = FakeClock(NOON)
    scheduler = fake_scheduler(store, {"deadline": Recorder()}, clock)
    scheduler.tick()
    assert planned(scheduler) == {}
    set_timer(store, game.id, "deadline", NOON + dt.timedelta(hours=5))
    scheduler.tick()
    assert planned(scheduler) == {NEXT_JOB: NOON + dt.timedelta(hours=5)}


def test_after_a_failure_the_next_tick_is_at_most_retry_later(sqlite_store: Store, sqlite_game: GameRecord) -> None:
    store, game = sqlite_store, sqlite_game
    clock = FakeClock(NOON)
    failing = Recorder(fail=True)
    scheduler = fake_scheduler(store, {"deadline": failing, "clock": Recorder()}, clock)
    set_timer(store, game.id, "deadline", NOON - dt.timedelta(minutes=5))
    set_timer(store, game.id, "clock", NOON + dt.timedelta(hours=1))
    scheduler.tick()
    assert planned(scheduler) == {NEXT_JOB: NOON + RETRY}  # not at the failed timer's time: no spinning
    set_timer(store, game.id, "clock", NOON + dt.timedelta(seconds=20))
    scheduler.tick()
    assert planned(scheduler) == {NEXT_JOB: NOON + dt.timedelta(seconds=20)}  # the sooner of the two
    clock.now = NOON + RETRY
    failing.fail = False
    scheduler.tick()
    assert len(failing.calls) == 3 and [t.kind for t in game_timers(store, game.id)] == []


def test_a_broken_database_still_plans_a_retry(sqlite_store: Store, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(NOON)
    scheduler = fake_scheduler(sqlite_store, {}, clock)

    def broken(now: dt.datetime | None = None) -> None:
        raise OSError("connection refused")

    scheduler.runner.run = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="spacechess.timers"):
        scheduler.tick()
    assert planned(scheduler) == {NEXT_JOB: NOON + RETRY}
    assert "connection refused" in caplog.text


def test_a_timer_set_during_a_tick_fires_in_that_tick(sqlite_store: Store, sqlite_game: GameRecord) -> None:
    """A resolution plans the next deadline and wakes the scheduler while the tick is still running."""
    store, game = sqlite_store, sqlite_game
    clock = FakeClock(NOON)
    reminder = Recorder()
    scheduler: TimerScheduler

    def deadline(timer: TimerRecord, now: dt.datetime) -> None:
        set_timer(store, game.id, "reminder1", now)  # due at once (in real life: its hours already passed)
        scheduler.wake()

    scheduler = fake_scheduler(store, {"deadline": deadline, "reminder1": reminder}, clock)
    set_timer(store, game.id, "deadline", NOON)
    scheduler.tick()
    assert reminder.keys == [f"timer:{game.id}:reminder1:1"]
    assert planned(scheduler) == {} and due_timers(store, NOON) == []


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.fixture
async def running() -> AsyncIterator[list[TimerScheduler]]:
    """The schedulers a test started, shut down while their event loop still runs."""
    started: list[TimerScheduler] = []
    yield started
    for scheduler in started:
        scheduler.shutdown()
    await asyncio.sleep(0)


async def test_start_fires_what_fell_due_while_down_then_sleeps_until_the_next(
    sqlite_store: Store, sqlite_game: GameRecord, running: list[TimerScheduler]
) -> None:
    store, game = sqlite_store, sqlite_game
    now = dt.datetime.now(dt.UTC)
    overdue = set_timer(store, game.id, "deadline", now - dt.timedelta(days=2))
    later = set_timer(store, game.id, "clock", now + dt.timedelta(hours=3))
    recorder = Recorder()
    scheduler = TimerScheduler(TimerRunner(store, {"deadline": recorder, "clock": recorder}), retry=RETRY)
    scheduler.start()
    running.append(scheduler)
    await until(lambda: scheduler.scheduler.get_job(NEXT_JOB) is not None and recorder.calls != []
                and scheduler.scheduler.get_job(NEXT_JOB).next_run_time == later.due_at)
    assert recorder.keys == [overdue.claim_key]
    assert {job.id for job in scheduler.scheduler.get_jobs()} == {NEXT_JOB, POLL_JOB}


async def test_a_timer_set_then_woken_fires_on_time(
    sqlite_store: Store, sqlite_game: GameRecord, running: list[TimerScheduler]
) -> None:
    store, game = sqlite_store, sqlite_game
    recorder = Recorder()
    scheduler = TimerScheduler(TimerRunner(store, {"deadline": recorder}), retry=RETRY)
    scheduler.start()
    running.append(scheduler)
    await asyncio.sleep(0.1)  # the first tick found nothing and planned nothing
    due = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=0.3)
    timer = set_timer(store, game.id, "deadline", due)
    waker = threading.Thread(target=scheduler.wake)  # from a worker thread, as the service calls it
    waker.start()
    waker.join()
    await until(lambda: recorder.calls != [])
    [(fired, now)] = recorder.calls
    assert fired == timer and now >= due
    await until(lambda: get_timer(store, game.id, "deadline") is None)


async def test_a_failing_handler_is_retried_by_the_running_scheduler(
    sqlite_store: Store, sqlite_game: GameRecord, running: list[TimerScheduler]
) -> None:
    store, game = sqlite_store, sqlite_game
    recorder = Recorder(fail=True)
    set_timer(store, game.id, "deadline", dt.datetime.now(dt.UTC))
    scheduler = TimerScheduler(TimerRunner(store, {"deadline": recorder}), retry=dt.timedelta(seconds=0.2))
    scheduler.start()
    running.append(scheduler)
    await until(lambda: len(recorder.calls) >= 2)
    recorder.fail = False
    await until(lambda: get_timer(store, game.id, "deadline") is None)
    assert 3 <= len(recorder.calls) <= 20  # retried every 0.2 s, never a busy loop


async def test_the_poll_notices_a_timer_another_process_set(
    sqlite_url: str, running: list[TimerScheduler]
) -> None:
    store, other_process = Store(sqlite_url), Store(sqlite_url, migrate=False)
    try:
        game = make_game(store)
        recorder = Recorder()
        scheduler = TimerScheduler(TimerRunner(store, {"deadline": recorder}), poll=dt.timedelta(seconds=0.2))
        scheduler.start()
        running.append(scheduler)
        await asyncio.sleep(0.1)
        set_timer(other_process, game.id, "deadline", dt.datetime.now(dt.UTC))  # no wake in this process
        await until(lambda: recorder.calls != [])
    finally:
        other_process.close()
        store.close()


# --- several processes -----------------------------------------------------------------------------


def due_setup(store: Store, games: int = 4) -> list[GameRecord]:
    """20 due timers: every kind of worker timer in each of 4 games, so processes also race on versions."""
    made = [make_game(store, f"game {number}") for number in range(games)]
    past = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=10)
    for offset, (game, kind) in enumerate((game, kind) for game in made for kind in KINDS):
        set_timer(store, game.id, kind, past + dt.timedelta(seconds=offset))
    return made


def assert_each_effect_once(store: Store, games: list[GameRecord]) -> None:
    for game in games:
        effects = sorted(entry.payload["kind"] for entry in store.log(game.id) if entry.kind == "timer")
        assert effects == sorted(KINDS), f"game {game.id}"
        fresh = store.get_game(game.id)
        assert fresh is not None and fresh.state["fired"] == dict.fromkeys(KINDS, 1)
        assert all(store.is_claimed(f"timer:{game.id}:{kind}:1") for kind in KINDS)
    assert due_timers(store, dt.datetime.now(dt.UTC)) == []


@pytest.mark.postgres
def test_two_processes_racing_on_postgresql_fire_each_timer_once(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        games = due_setup(store)
        barrier = SPAWN.Barrier(2)
        children = [SPAWN.Process(target=run_timers, args=(postgres_url, 0, barrier)) for _ in range(2)]
        for child in children:
            child.start()
        for child in children:
            child.join(120)
        assert [child.exitcode for child in children] == [0, 0]
        assert_each_effect_once(store, games)
    finally:
        store.close()


def test_a_process_killed_mid_run_is_finished_by_the_restart(database_url: str) -> None:
    """Killed right after its 7th effect was committed, before that timer was finished: the restart
    finds 14 timers still due, one of them already done (its claim is taken), and does the 13 others."""
    store = Store(database_url)
    try:
        games = due_setup(store)
        child = SPAWN.Process(target=run_timers, args=(database_url, 7))
        child.start()
        child.join(120)
        assert child.exitcode == -signal.SIGKILL
        assert sum(1 for g in games for e in store.log(g.id) if e.kind == "timer") == 7
        assert len(due_timers(store, dt.datetime.now(dt.UTC))) == 14
        effect = CommitEffect(store)
        fired = TimerRunner(store, dict.fromkeys(KINDS, effect)).run_due()  # the restarted bot
        assert (len(fired), effect.effects) == (14, 13)
        assert_each_effect_once(store, games)
    finally:
        store.close()

