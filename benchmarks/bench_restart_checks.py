"""What the checks that walk every running game cost (issue 28, point 3): at start, and at every draw
tick while an evening's draw is overdue, the draw tick (the draw pass, then the game masters' alerts)
and the status resume's search for games without a status message.

Each size runs on a fresh SQLite file of N running Space Chess games of 14 characters with a seated
player each (and a status message for one in two), which got Monday's draw and wait for Wednesday's,
given up on 6 hours ago. Timed and counted (SQL statements sent): the first tick (it claims and
writes one alert a game), a later tick (nothing to write: what each tick costs until the draw comes)
and the status resume's read. The goal: statements a page of games, not a game; the time of a later
tick a few milliseconds per hundred games.

Run: python benchmarks/bench_restart_checks.py [sizes...]   (default: 100 1000)
"""

from __future__ import annotations

import datetime as dt
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy import event

from bot.compose import game_service
from bot.discord_adapter.status import UNDER_WAY, StatusBoard
from bot.lottery.apply import DrawApplier
from bot.lottery.poll import DrawPoller
from bot.lottery.scheduler import DrawScheduler
from bot.outbox import RateLimiter
from bot.store import GameRecord, Store
from bot.store.discord_state import keep_status_message
from bot.store.draws import save_draws

# The games are the test suite's (one setup document for tests and benchmark): make tests/ importable.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.bot.draws.games import GUILD, draw, make_running_game  # noqa: E402

#: Wednesday 2024-03-06's draw (19:35 UTC) never came; given up on after 6 hours, an hour ago
LATE = dt.datetime(2024, 3, 6, 19, 35, tzinfo=dt.UTC) + dt.timedelta(hours=7)


class WakingHooks:
    """The adapter's hooks as the draw tick sees them: posts written to the outbox wake its sender."""

    def outbox_ready(self) -> None:
        pass

    def on_turn_post(self, game: GameRecord, reply: object) -> None:
        raise AssertionError("no turn post expected: the draw is missing")

    def on_gm_alert(self, game: GameRecord, reply: object) -> None:
        raise AssertionError("alerts go through the outbox")


def measured(store: Store, work: Callable[[], object]) -> tuple[float, int]:
    """(milliseconds, SQL statements) of `work()`."""
    sent = [0]

    def count(*_args: Any) -> None:
        sent[0] += 1

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        started = time.perf_counter()
        work()
        return (time.perf_counter() - started) * 1000, sent[0]
    finally:
        event.remove(store.engine, "before_cursor_execute", count)


def run(size: int, folder: Path) -> list[tuple[str, float, int]]:
    store = Store(f"sqlite:///{folder / f'bench-{size}.sqlite'}")
    try:
        service = game_service(store)
        for channel in range(1, size + 1):
            game = make_running_game(store, channel)
            if channel % 2:
                keep_status_message(store, game.id, channel, 10_000 + channel, dt.datetime.now(dt.UTC))
        save_draws(store, [draw("2024-03-04")])
        DrawApplier(service).apply_all()

        def tick() -> None:
            poller = DrawPoller(DrawApplier(service, hooks=WakingHooks()), None, give_up=dt.timedelta(hours=6))
            DrawScheduler(poller, retry=dt.timedelta(minutes=10), scheduler=AsyncIOScheduler(timezone=dt.UTC),
                          clock=lambda: LATE).tick()

        board = StatusBoard(SimpleNamespace(guilds=[]), service, 1.0, RateLimiter(45.0))  # type: ignore[arg-type]
        owed: set[int] = set()
        rows = [("draw tick, alerts written", *measured(store, tick)),
                ("draw tick, each later one", *measured(store, tick)),
                ("status resume, unposted", *measured(store, lambda: owed.update(board._unposted({GUILD}))))]
        if len(owed) != size // 2 or not UNDER_WAY:
            raise SystemExit(f"{size} games: {len(owed)} without a status message, expected {size // 2}")
        return rows
    finally:
        store.close()


def main(argv: list[str]) -> int:
    sizes = [int(arg) for arg in argv] or [100, 1000]
    print(f"{'check':<28} {'games':>6} {'statements':>11} {'ms':>9} {'ms/100 games':>13}")
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            for label, elapsed, statements in run(size, Path(folder)):
                print(f"{label:<28} {size:>6} {statements:>11} {elapsed:>9.1f} {elapsed * 100 / size:>13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
