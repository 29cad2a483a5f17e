"""Line-of-fire throughput on the standard Space Chess map (SC-21).

Shoots from every floor cell at every floor cell within a weapon's range (bolter 7, heavy bolter
10, sniper 20), obstacles blocking, and prints how many line-of-fire tests run per second and how
many lines are clear. The first row empties the per-displacement cache to show the cold cost;
the ordered crossing list is what perforating shots (SC-22) use.

Run: python benchmarks/bench_line_of_fire.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.core import squaregrid
from engine.core.squaregrid import Cell, distance, line_is_clear, ordered_crossing
from engine.spacechess.maps import standard_map

RANGES = (7, 10, 20)


def timed(label: str, pairs: list[tuple[Cell, Cell]], check: Callable[[Cell, Cell], object]) -> None:
    started = time.perf_counter()
    results = [check(a, b) for a, b in pairs]
    elapsed = time.perf_counter() - started
    clear = sum(1 for result in results if result is True)
    share = f"{clear / len(pairs):.1%}" if clear else "-"
    print(f"{label:<38} {len(pairs):>9,} {share:>7} {elapsed:>8.3f} {len(pairs) / elapsed:>13,.0f}")


def main() -> None:
    game_map = standard_map()
    floor = [
        Cell(x, y)
        for y in range(game_map.height)
        for x in range(game_map.width)
        if game_map.is_floor(Cell(x, y))
    ]
    obstacles = game_map.obstacles

    def blocked(cell: Cell) -> bool:
        return cell in obstacles

    def clear(a: Cell, b: Cell) -> bool:
        return line_is_clear(a, b, blocked)

    print(f"standard map: {len(floor)} floor cells, {len(obstacles)} obstacles")
    print(f"{'test':<38} {'pairs':>9} {'clear':>7} {'seconds':>8} {'tests/second':>13}")
    pairs_within = {
        reach: [(a, b) for a in floor for b in floor if 0 < distance(a, b) <= reach] for reach in RANGES
    }
    # Cold: the first row pays for computing every displacement once.
    squaregrid._crossed_offsets.cache_clear()
    for reach, pairs in pairs_within.items():
        timed(f"line_is_clear, range <= {reach}", pairs, clear)
    longest = max(RANGES)
    timed(f"line_is_clear, range <= {longest}, warm", pairs_within[longest], clear)
    timed(f"ordered_crossing, range <= {longest}, warm", pairs_within[longest], ordered_crossing)


if __name__ == "__main__":
    main()
