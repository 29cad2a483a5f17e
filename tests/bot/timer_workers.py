"""Code run in child processes by the timer tests (importable by the spawn start method): a bot process
firing due timers whose effect is a game commit, claimed with the commit."""

from __future__ import annotations

import datetime as dt
import os
import signal
from typing import Any

from bot.store import AlreadyClaimed, NewEntry, StaleWrite, Store
from bot.store.timers import TimerRecord, due_timers
from bot.timers import TimerRunner

KINDS = tuple(f"k{number}" for number in range(5))


class CommitEffect:
    """The effect of a timer: one log entry in its game. Retried on fresh data while other writers win
    the game's version; AlreadyClaimed means another process did it. With `kill_after`, the process is
    killed (SIGKILL: no cleanup, no finish_timer) right after its n-th effect is committed."""

    def __init__(self, store: Store, kill_after: int = 0) -> None:
        self.store = store
        self.kill_after = kill_after
        self.effects = 0

    def __call__(self, timer: TimerRecord, now: dt.datetime) -> None:
        for _attempt in range(200):
            game = self.store.get_game(timer.game_id)
            assert game is not None
            fired = {**game.state.get("fired", {}), timer.kind: game.state.get("fired", {}).get(timer.kind, 0) + 1}
            entry = NewEntry("timer", None, None, {"kind": timer.kind, "generation": timer.generation,
                                                   "pid": os.getpid()})
            try:
                self.store.commit(game.id, game.version, state={**game.state, "fired": fired}, entries=[entry],
                                  claims=[timer.claim_key])
            except AlreadyClaimed:
                return
            except StaleWrite:  # another writer took the version (or the key, racing): read again
                continue
            self.effects += 1
            if self.effects == self.kill_after:
                os.kill(os.getpid(), signal.SIGKILL)
            return
        raise RuntimeError(f"timer {timer.claim_key}: never committed")


def run_timers(url: str, kill_after: int = 0, barrier: Any = None) -> None:
    """One bot process running every due timer once (after `barrier`, so racing processes start together)."""
    store = Store(url, migrate=False)
    try:
        effect = CommitEffect(store, kill_after)
        runner = TimerRunner(store, dict.fromkeys(KINDS, effect))
        due_timers(store, dt.datetime.now(dt.UTC))  # connected before the barrier, so both start level
        if barrier is not None:
            barrier.wait()
        runner.run_due()
    finally:
        store.close()
