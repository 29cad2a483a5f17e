"""How long the end-of-game recap and the replay GIF take, and how big they are.

The demo campaign (bot/demo/campaign.txt, 10 replay frames) is played once in the console; then the
recap (replaying the log, computing the numbers, drawing the charts) and the replay (replaying the
log, one captioned board per draw or action, the bounded GIF) are timed on it. A long game is
simulated by repeating the campaign's frames, up to the frame cap and past it.

Goals: the recap well under a second; the replay of a long game within a few seconds (the Discord
adapter defers first) and under the 8 MiB attachment limit.

Run: python benchmarks/bench_recap_replay.py [repetitions] [--json]
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bot.demo
from bot.compose import game_service
from bot.console import Console
from bot.demo import script_lines
from bot.games import presenter_for
from bot.games.spacechess import boards
from bot.service.scene import Scene, scene_of
from bot.store.repo import Store
from engine import registry


def median_ms(run: Callable[[], object], repetitions: int) -> float:
    times = []
    for _ in range(repetitions):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main(repetitions: int, as_json: bool) -> None:
    rows: list[tuple[str, float, int, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        console = Console(game_service(store), out_dir=Path(folder) / "out", stream=io.StringIO(), language="en",
                          base_dir=Path(bot.demo.__file__).parent)
        console.run_lines(script_lines())
        console.user = "gm"
        svc = console.service
        game = svc.channel_game(console.context())
        rules = registry.get(game.kind)
        presenter = presenter_for(game.kind)
        recap = presenter.recap(rules, scene_of(svc, game, "en"))
        rules_ms = median_ms(lambda: presenter.recap(rules, scene_of(svc, game, "en")), repetitions)
        rows.append(("recap, demo campaign (log replayed, charts drawn)", rules_ms, len(recap.files[0].data),
                     "well under 1 s"))
        replay = presenter.replay(rules, scene_of(svc, game, "en"))
        replay_ms = median_ms(lambda: presenter.replay(rules, scene_of(svc, game, "en")), max(1, repetitions // 4))
        rows.append((f"replay, demo campaign ({replay.messages[0].params['frames']} frames)", replay_ms,
                     len(replay.files[0].data), "under 1 s"))
        history = scene_of(svc, game, "en").history()
        for factor in (6, 16):
            long_game = Scene(game.name, "en", "", lambda factor=factor: tuple(history) * factor)
            made = boards.replay_gif(rules, long_game, lambda events: presenter.describe(rules, events))
            assert made is not None
            picture, held = made
            ms = median_ms(lambda long_game=long_game: boards.replay_gif(
                rules, long_game, lambda events: presenter.describe(rules, events)), 1)
            rows.append((f"replay, long game ({held['steps']} moments, {held['frames']} frames kept, "
                         f"{held['scale']}% size)", ms, len(picture.data), "a few seconds, < 8 MiB"))
        store.close()
    if as_json:
        print(json.dumps([{"measure": n, "median_ms": round(ms, 1), "bytes": size, "goal": goal}
                          for n, ms, size, goal in rows], indent=1))
        return
    width = max(len(row[0]) for row in rows)
    print(f"{'measure':<{width}}  {'median ms':>10}  {'bytes':>10}  goal")
    for name, ms, size, goal in rows:
        print(f"{name:<{width}}  {ms:>10.1f}  {size:>10,}  {goal}")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--json"]
    main(int(arguments[0]) if arguments else 5, "--json" in sys.argv[1:])
