"""Computers think after the answer, and in a process of their own (issue 28, point 5): a hard
search of 2 s must hold up neither the player who moved nor the bot's other players. A computer's
turn is a timer of the change that makes it due; the Discord adapter gives the service a
`ThinkingPool`, whose worker process runs the search from plain data. (On SQLite alone: nothing
here is the database's, and a worker process takes seconds to start.)"""

from __future__ import annotations

import os
import signal
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.drivers import timer_handlers
from bot.service import Context, GameService
from bot.service.computers import COMPUTER, ThinkingPool, choose
from bot.store.timers import game_timers
from bot.timers import TimerRunner
from engine import registry
from tests.support.computers import Owed

GUILD, CHANNEL = 10, 91
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)


@pytest.fixture(scope="module")
def pool():
    thinking = ThinkingPool()
    yield thinking
    thinking.shutdown(cancel_futures=True)


def against_the_computer(svc: GameService) -> int:
    """An Arkeon game of Ann against the easy computer, started; the game's id."""
    assert svc.handle(GM, "ak new", {"name": "Duel"}).ok
    assert svc.handle(ANN, "ak join", {"name": "Ann"}).ok
    assert svc.handle(ANN, "ak challenge", {"level": "easy"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    return svc.store.game_in_channel(GUILD, CHANNEL).id


def computer_due(svc: GameService, game_id: int) -> bool:
    return COMPUTER in [t.kind for t in game_timers(svc.store, game_id)]


def play_until_the_computer_is_due(svc: GameService, game_id: int) -> None:
    while not computer_due(svc, game_id):
        text = svc.complete(ANN, "ak order", "text", "")[0]
        assert svc.handle(ANN, "ak order", {"text": text}).ok


class Recording(Executor):
    """The pool, with the functions it was given to run, in order."""

    def __init__(self, pool: Executor) -> None:
        self.pool, self.ran = pool, []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.ran.append(fn)
        return self.pool.submit(fn, *args, **kwargs)


def test_the_search_runs_in_the_thinking_process_and_chooses_as_it_would_here(sqlite_store, pool) -> None:
    svc = GameService(sqlite_store, seed_source=lambda: 3)
    svc.thinking = recording = Recording(pool)
    game_id = against_the_computer(svc)
    play_until_the_computer_is_due(svc, game_id)
    game = svc.store.get_game(game_id)
    seats = game.options["computers"]
    [(_seat, level)] = seats.items()
    rules = registry.get(game.kind)
    side = rules.waiting_on(rules.from_json(game.state))[0]
    here = choose(game.kind, game.state, side, level, game.seed + game.version, 2.0)
    runner = TimerRunner(svc.store, timer_handlers(svc, Owed()), clock=svc.clock)
    assert [t.kind for t in runner.run_due()] == [COMPUTER]
    assert recording.ran == [choose]  # the search went to the pool
    workers = list(pool._pool._processes.values())
    assert workers and all(w.pid != os.getpid() and w.is_alive() for w in workers)
    given = [(e.kind, e.payload) for e in svc.store.log(game_id) if e.user_id is None and e.actor == side][-len(here):]
    assert given == [(kind, payload) for kind, payload in here]  # the same choice, made over there


def test_a_thinking_process_that_died_is_replaced_at_the_next_turn(sqlite_store, pool) -> None:
    svc = GameService(sqlite_store, seed_source=lambda: 3)
    svc.thinking = pool
    game_id = against_the_computer(svc)
    play_until_the_computer_is_due(svc, game_id)
    pool.submit(os.getpid).result()  # the worker is up
    for worker in list(pool._pool._processes.values()):
        os.kill(worker.pid, signal.SIGKILL)
        worker.join()
    version = svc.store.get_game(game_id).version
    runner = TimerRunner(svc.store, timer_handlers(svc, Owed()), clock=svc.clock)
    first = runner.run()
    if not first.fired:  # the pool learnt of the death only from this search: the turn was kept
        assert [t.kind for t in first.failed] == [COMPUTER] and computer_due(svc, game_id)
        assert svc.store.get_game(game_id).version == version
        first = runner.run()
    assert [t.kind for t in first.fired] == [COMPUTER]  # a new worker played it
    assert svc.store.get_game(game_id).version > version


class Dying(Executor):
    """A thinking pool whose worker dies in the middle of every search."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        future.set_exception(BrokenProcessPool("the worker died"))
        return future


def test_a_turn_whose_worker_died_mid_search_stays_for_the_next_run(sqlite_store) -> None:
    svc = GameService(sqlite_store, seed_source=lambda: 3)
    game_id = against_the_computer(svc)
    play_until_the_computer_is_due(svc, game_id)
    version = svc.store.get_game(game_id).version
    runner = TimerRunner(svc.store, timer_handlers(svc, Owed()), clock=svc.clock)
    svc.thinking = Dying()
    assert [t.kind for t in runner.run().failed] == [COMPUTER]  # kept, not given up
    assert computer_due(svc, game_id) and svc.store.get_game(game_id).version == version
    svc.thinking = None  # the next run thinks again, and plays
    assert [t.kind for t in runner.run_due()] == [COMPUTER]
    assert svc.store.get_game(game_id).version > version


class Interrupted(Executor):
    """A search during which a GM pauses and resumes the game: it moved on while the computer thought."""

    def __init__(self, svc: GameService) -> None:
        self.svc, self.interrupted = svc, False

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if not self.interrupted:
            self.interrupted = True
            assert self.svc.handle(GM, "gm pause", {}).ok and self.svc.handle(GM, "gm resume", {}).ok
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_a_game_that_moved_on_while_the_computer_thought_gets_its_turn_from_the_newer_change(
        sqlite_store, caplog: pytest.LogCaptureFixture) -> None:
    svc = GameService(sqlite_store, seed_source=lambda: 3)
    game_id = against_the_computer(svc)
    play_until_the_computer_is_due(svc, game_id)
    svc.thinking = Interrupted(svc)
    runner = TimerRunner(svc.store, timer_handlers(svc, Owed()), clock=svc.clock)
    runner.run()  # its choice refused: the game is two versions on (the pause, the resume)
    resumed = svc.store.get_game(game_id)
    assert [e.kind for e in svc.store.log(game_id)][-2:] == ["pause", "resume"] and computer_due(svc, game_id)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # a race, not a failure
    assert [t.kind for t in runner.run_due()] == [COMPUTER]  # the resume's turn: played
    assert svc.store.get_game(game_id).version > resumed.version
