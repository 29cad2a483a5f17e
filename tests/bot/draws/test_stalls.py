"""Issue 23: nothing holds stored draws back from the games — neither a fetch in flight (a poll never
waits on another one; 23.9) nor a busy game (a deferred draw is retried within minutes; 23.10)."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest

from bot.cli import main
from bot.drivers import timer_handlers
from bot.lottery.apply import DRAW_RETRY, DrawApplier, retry_delay
from bot.lottery.poll import PollReport
from bot.service import GameService, Reply
from bot.store import GameRecord, Store
from bot.store.draws import applied_evenings, save_draws
from bot.store.timers import TimerRecord, game_timers
from bot.timers import TimerRunner
from draws import FetchMemo, FetchResult
from tests.bot.draws.games import RecordingHooks, draw, make_running_game
from tests.bot.draws.test_apply import ATTEMPTS, interfere
from tests.bot.draws.test_cli import database, stored  # noqa: F401 — the CLI tests' database fixture
from tests.bot.draws.test_poll_and_scheduler import poller
from tests.draws.test_sources import Drip, Loopback, loopback  # noqa: F401 — the loopback HTTP server

#: generous bound for a thread that should end at once: only a broken fix ever waits for it
STUCK = 20


class HeldSource:
    """A fetch that stays in flight until the test lets it end (a download from a dripping server)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def fetch(self, previous: FetchMemo | None = None) -> FetchResult:
        self.calls += 1
        self.entered.set()
        self.release.wait(STUCK)
        return FetchResult([], FetchMemo(sha256="held"), False, "held")


def test_a_poll_finding_a_fetch_in_flight_applies_the_stored_draws_without_waiting(sqlite_store: Store) -> None:
    """The retry poll used to queue behind a stalled fetch while draws already stored (imported, or
    stored by another process) never reached the games."""
    game = make_running_game(sqlite_store)
    source = HeldSource()
    polling = poller(sqlite_store, source)
    first = threading.Thread(target=polling.poll, daemon=True)
    first.start()
    try:
        assert source.entered.wait(STUCK)
        save_draws(sqlite_store, [draw("2024-03-06")])  # `spacechess draws import` meanwhile
        reports = []
        second = threading.Thread(target=lambda: reports.append(polling.poll()), daemon=True)
        second.start()
        second.join(STUCK)
        assert not second.is_alive(), "the second poll waited for the fetch in flight"
        [report] = reports
        assert [(p.game.id, p.draw.date.isoformat()) for p in report.posts] == [(game.id, "2024-03-06")]
        assert source.calls == 1 and report.error is None
    finally:
        source.release.set()
        first.join(STUCK)
    assert [d.isoformat() for d, _ in applied_evenings(sqlite_store, game.id)] == ["2024-03-06"]


class HeldHooks(RecordingHooks):
    """Turn posts held at the first one until the test lets the pass go on."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        super().on_turn_post(game, reply)
        self.entered.set()
        self.release.wait(STUCK)


def test_a_poll_during_a_pass_over_the_games_hands_its_draws_to_that_pass(sqlite_store: Store) -> None:
    """It does not wait for the pass, nor run a second one beside it (they would fight over every
    game's version): the running pass takes one more, which finds the draw stored meanwhile."""
    game = make_running_game(sqlite_store)
    save_draws(sqlite_store, [draw("2024-03-06")])
    hooks = HeldHooks()
    polling = poller(sqlite_store, None, hooks)
    reports: list[PollReport] = []
    first = threading.Thread(target=lambda: reports.append(polling.poll()), daemon=True)
    first.start()
    try:
        assert hooks.entered.wait(STUCK)
        save_draws(sqlite_store, [draw("2024-03-09")])
        assert polling.poll().posts == []  # returns at once: the running pass has it
    finally:
        hooks.release.set()
        first.join(STUCK)
    assert [p.draw.date.isoformat() for p in reports[0].posts] == ["2024-03-06", "2024-03-09"]
    assert [d.isoformat() for d, _ in applied_evenings(sqlite_store, game.id)] == ["2024-03-06", "2024-03-09"]


def test_cli_fetch_from_a_dripping_server_ends_at_its_deadline_with_one_line(
        database: str, loopback: Loopback, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    """`spacechess draws fetch` used to stay busy as long as the server kept sending a byte in time."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    drip = Drip(loopback)
    loopback.routes["/loto"] = drip
    config = tmp_path / "bot.toml"
    config.write_text(f'[draws]\nurls = ["{loopback.url("/loto")}"]\ntimeout_seconds = 5\n'
                      "fetch_deadline_seconds = 0.3\n", encoding="utf-8")
    assert main(["draws", "fetch", "--config", str(config)]) == 1
    assert drip.sent < drip.budget
    assert capsys.readouterr().err.strip() == (f"spacechess: the draw source failed: {loopback.url('/loto')}: "
                                               "deadline: the download did not finish within 0.3 s")
    assert stored(database) == []


# -- 23.10: a draw deferred by a busy game is retried within minutes -----------------------------

def fire_retry(store: Store, now: dt.datetime, hooks: RecordingHooks) -> list[TimerRecord]:
    """The retry timers due at `now` fired as a freshly started process would: a new service and timer
    runner over the same database (nothing is kept in memory between two firings)."""
    service = GameService(store, clock=lambda: now)
    return TimerRunner(store, timer_handlers(service, hooks), clock=service.clock).run_due(now)


def test_a_draw_deferred_by_a_busy_game_is_retried_with_back_off_until_it_lands(
        sqlite_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """It used to wait for the next poll, the next draw evening (up to 3 days): now a durable timer
    retries it 1, then 2, then 4 minutes later... until it lands, then goes."""
    store = sqlite_store
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])
    polled = dt.datetime(2024, 3, 6, 20, 0, tzinfo=dt.UTC)
    # players' orders win every race of the poll's pass and of the first two retries
    interfere(store, monkeypatch, "draw", times=3 * ATTEMPTS)
    hooks = RecordingHooks()
    assert DrawApplier(GameService(store, clock=lambda: polled), hooks=hooks).apply_all() == []
    moments, due = [], polled
    while applied_evenings(store, game.id) == []:
        [timer] = game_timers(store, game.id)
        assert timer.kind == DRAW_RETRY and timer.due_at > due
        moments.append(timer.due_at - due)
        due = timer.due_at
        assert fire_retry(store, due, hooks) == [timer]
        assert len(moments) < 5, "the draw never landed"
    assert moments == [dt.timedelta(minutes=minutes) for minutes in (1, 2, 4)]
    assert game_timers(store, game.id) == []  # landed: nothing left to retry
    assert [d.isoformat() for d, _ in applied_evenings(store, game.id)] == ["2024-03-06"]
    assert [game_id for game_id, _ in hooks.posts] == [game.id]  # its turn post, once


def test_the_retry_back_off_doubles_up_to_half_an_hour() -> None:
    assert [retry_delay(attempt) for attempt in range(8)] == [
        dt.timedelta(minutes=minutes) for minutes in (1, 2, 4, 8, 16, 30, 30, 30)]


def test_a_retry_finding_the_game_paused_leaves_it_to_the_resume(sqlite_store: Store,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    store = sqlite_store
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06")])
    polled = dt.datetime(2024, 3, 6, 20, 0, tzinfo=dt.UTC)
    interfere(store, monkeypatch, "draw", times=ATTEMPTS)
    DrawApplier(GameService(store, clock=lambda: polled)).apply_all()
    [timer] = game_timers(store, game.id)
    paused = store.get_game(game.id)
    assert paused is not None
    store.commit(game.id, paused.version, state=paused.state, status="paused", entries=[])
    hooks = RecordingHooks()
    assert fire_retry(store, timer.due_at, hooks) == [timer]
    assert (game_timers(store, game.id), applied_evenings(store, game.id), hooks.posts) == ([], [], [])
