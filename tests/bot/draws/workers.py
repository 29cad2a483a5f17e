"""Code run in child processes by the crash and multi-process tests (importable by the spawn start method)."""

from __future__ import annotations

import os
from typing import Any

from bot.lottery.apply import DrawApplier
from bot.service import GameService, Reply
from bot.store import GameRecord, Store

CRASH_EXIT = 17


class CrashingHooks:
    """Dies like a killed process (no cleanup, no rollback of what was committed) at the n-th post."""

    def __init__(self, crash_at: int) -> None:
        self.crash_at = crash_at
        self.count = 0

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self.count += 1
        if self.count == self.crash_at:
            os._exit(CRASH_EXIT)

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        raise AssertionError("no alert expected")


def poll_once(url: str, crash_at: int = 0, barrier: Any = None) -> None:
    """One bot process applying every pending draw (after `barrier`, so racing processes start together)."""
    store = Store(url, migrate=False)
    try:
        if barrier is not None:
            barrier.wait()
        DrawApplier(GameService(store), hooks=CrashingHooks(crash_at) if crash_at else None).apply_all()
    finally:
        store.close()
