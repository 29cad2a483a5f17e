"""How long Arkeon takes to list every legal turn and to apply one.

Prints one table: for the standard opening and for positions reached by seeded random games (a
fixed seed, so the positions are the same on every run), how many turns are legal, the median
time to list them all (``ARKEON.legal_orders``), to find the first one (what AK-17 asks after
every turn), and to apply one (``ARKEON.play``: checks, resolution and the end of the turn);
then the time of a perft count to depth 2 from the opening. Listing resolves every aggressive
candidate on a copy (AK-12's "destroyed at once"), so it is the costly part; the goal is a
listing well under 50 ms, fast enough for autocomplete and a simple computer player. Nothing is
asserted: timings depend on the machine.

Run: python benchmarks/bench_arkeon_moves.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.arkeon import ARKEON
from engine.arkeon.state import ArkeonState

REPEAT = 15


def median_ms(action: Callable[[], Any], repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def walk(seed: int, turns: int) -> ArkeonState:
    """The position after `turns` random legal turns from the opening (or the last one still running)."""
    rng = random.Random(seed)
    state = ARKEON.setup({"to_move": "blue"})
    for _ in range(turns):
        orders = list(ARKEON.legal_orders(state, str(state.to_move)))
        following = ARKEON.play(state, str(state.to_move), [rng.choice(orders)]).state
        if following.to_move is None:
            break
        state = following
    return state


def perft(state: ArkeonState, depth: int) -> int:
    orders = list(ARKEON.legal_orders(state, str(state.to_move)))
    if depth == 1:
        return len(orders)
    total = 0
    for order in orders:
        child = ARKEON.play(state, str(state.to_move), [order]).state
        total += 1 if child.to_move is None else perft(child, depth - 1)
    return total


def main() -> None:
    positions = [("opening", ARKEON.setup({"to_move": "blue"}))]
    positions += [(f"seed {seed}, {turns} turns", walk(seed, turns)) for seed, turns in ((1, 10), (2, 25), (3, 40))]
    print(f"{'position':<22} {'pieces':>6} {'legal':>6} {'list ms':>8} {'first ms':>9} {'apply ms':>9}")
    for name, state in positions:
        side = str(state.to_move)
        orders = list(ARKEON.legal_orders(state, side))
        listing = median_ms(lambda s=state, a=side: list(ARKEON.legal_orders(s, a)))
        first = median_ms(lambda s=state, a=side: next(iter(ARKEON.legal_orders(s, a))))
        sample = orders[:: max(1, len(orders) // 20)]
        apply = statistics.median(
            median_ms(lambda s=state, a=side, o=order: ARKEON.play(s, a, [o]), repeat=5) for order in sample
        )
        print(f"{name:<22} {len(state.cells):>6} {len(orders):>6} {listing:>8.2f} {first:>9.3f} {apply:>9.3f}")
    start = time.perf_counter()
    count = perft(positions[0][1], 2)
    print(f"perft(2) from the opening: {count} leaves in {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
