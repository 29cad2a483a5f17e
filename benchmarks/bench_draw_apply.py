"""How fast one draw reaches every running game: claim + engine + commit + turn post (board image included).

Goal: >= 50 games per second on one core, and a cost linear in the number of games (the time per game
stays flat from 100 to 1,000 games). Each size runs on a fresh SQLite database of N running Space Chess
games of 14 characters with a seated player each; only `DrawApplier.apply_all()` is timed.

Run: python benchmarks/bench_draw_apply.py [sizes...]   (default: 100 300 1000)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from bot.lottery.apply import DrawApplier
from bot.service import GameService, Reply
from bot.store import GameRecord, Store
from bot.store.draws import save_draws

# The games are the test suite's (one setup document for tests and benchmark): make tests/ importable.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.bot.draws.games import draw, make_running_game  # noqa: E402

GOAL_GAMES_PER_SECOND = 50


class CountingHooks:
    """Stands in for the adapter: the reply (with its PNG) is built, only not sent anywhere."""

    def __init__(self) -> None:
        self.posts = 0
        self.image_bytes = 0

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self.posts += 1
        self.image_bytes += sum(len(file.data) for file in reply.files)

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        raise AssertionError("no alert expected")


def run(size: int, folder: Path) -> tuple[float, CountingHooks]:
    store = Store(f"sqlite:///{folder / f'bench-{size}.sqlite'}")
    try:
        for channel in range(size):
            make_running_game(store, channel)
        save_draws(store, [draw("2024-03-06")])
        hooks = CountingHooks()
        applier = DrawApplier(GameService(store), hooks=hooks)
        started = time.perf_counter()
        posts = applier.apply_all()
        elapsed = time.perf_counter() - started
        if len(posts) != size or hooks.posts != size:
            raise SystemExit(f"{size} games: {len(posts)} posts — the draw did not reach every game")
        return elapsed, hooks
    finally:
        store.close()


def main(argv: list[str]) -> int:
    sizes = [int(arg) for arg in argv] or [100, 300, 1000]
    print(f"{'games':>6} {'seconds':>8} {'games/s':>8} {'ms/game':>8} {'vs first':>8} {'KB image':>9}")
    first_ms = None
    worst = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            elapsed, hooks = run(size, Path(folder))
            per_game = elapsed * 1000 / size
            first_ms = first_ms or per_game
            rate = size / elapsed
            worst = min(worst, rate)
            print(f"{size:>6} {elapsed:>8.2f} {rate:>8.1f} {per_game:>8.2f} {per_game / first_ms:>7.2f}x "
                  f"{hooks.image_bytes / hooks.posts / 1024:>9.1f}")
    verdict = "meets" if worst >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"slowest: {worst:.1f} games/s — {verdict} the goal of {GOAL_GAMES_PER_SECOND} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
