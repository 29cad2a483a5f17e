"""Code run in child processes (spawn start method): a bot process firing the sealed test game's
deadlines with the deadline driver's real handlers, as `spacechess run` does."""

from __future__ import annotations

import datetime as dt
import os
import signal
from typing import Any

from bot.compose import serve_games
from bot.drivers import timer_handlers
from bot.games import games
from bot.service import GameService, Reply
from bot.store import Store
from bot.store.repo import GameRecord
from bot.timers import TimerRunner
from tests.support.tally_bot import TEST_GAMES_SPEC


class KillingHooks:
    """The channel; with `kill_after`, the process dies (SIGKILL: no cleanup) right after its n-th post
    of a resolved turn (reminders, due earlier, are posted too)."""

    def __init__(self, kill_after: int = 0) -> None:
        self.kill_after = kill_after
        self.posts = 0

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        if not any(message.key == "event.sealed.resolved" for message in reply.messages):
            return
        self.posts += 1
        if self.posts == self.kill_after:
            os.kill(os.getpid(), signal.SIGKILL)

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        """Deadlines alert nobody."""


def serve_sealed_game() -> None:
    if "sealed" not in {entry.kind for entry in games()}:
        serve_games(TEST_GAMES_SPEC)


def fire_deadlines(url: str, moment: dt.datetime, kill_after: int = 0, barrier: Any = None) -> None:
    """One bot process firing every timer due at `moment` (after `barrier`, so racers start together)."""
    serve_sealed_game()
    store = Store(url, migrate=False)
    try:
        service = GameService(store, clock=lambda: moment)
        runner = TimerRunner(store, timer_handlers(service, KillingHooks(kill_after)), clock=lambda: moment)
        store.list_games()  # connected before the barrier
        if barrier is not None:
            barrier.wait()
        runner.run_due(moment)
    finally:
        store.close()
