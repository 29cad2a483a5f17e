"""HexArena's computer (reconstructed rules): nodes per second of its search in each variant, then
its levels in seeded matches (engine only), as `spacechess selfplay hexarena` plays them — easy
against a random mover, normal and hard against easy, seats alternating, each move within its
thinking time — in the base game and, with --variants, in Alpha and Omega.

    python benchmarks/bench_hexarena_computer.py [--games 20] [--think 2.0] [--budget 1.0]
        [--variants base,alpha,omega] [--json]

`--budget` scales the levels' node budgets (the test suite plays hard on 0.05 of its own).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from functools import partial

from bot.games.hexarena import computer
from bot.selfplay import run_matches
from engine import registry
from engine.core.search import random_order

RULES = registry.get("hexarena")
MATCHES = (("easy", "random"), ("normal", "easy"), ("hard", "easy"))


def search_speed(variant: str, level: str, think: float, budget: float) -> dict[str, object]:
    """One search from a position ten random turns in, as the bot runs it: nodes, depth, speed."""
    rng = random.Random(5)
    state = RULES.setup({"variant": variant}, 5)
    for _ in range(10):
        state = RULES.play(state, state.to_move, [random_order(RULES, state, state.to_move, rng)]).state
    deadline = time.monotonic() + think
    started = time.process_time()
    _, stats = computer.search(RULES, state, state.to_move, level, seed=1, budget=budget,
                               stop=partial(lambda d: time.monotonic() >= d, deadline))
    seconds = time.process_time() - started
    return {"variant": variant, "level": level, "nodes": stats.nodes, "depth": stats.depth,
            "cpu_s": round(seconds, 2), "nodes_per_s": round(stats.nodes / seconds) if seconds else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--variants", default="base", help="comma-separated: base, alpha, omega, blitz")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    speeds = [search_speed(variant, level, args.think, args.budget) for variant in ("base", "alpha", "omega")
              for level in computer.LEVELS]
    matches = []
    for variant in variants:
        for a, b in MATCHES:
            started = time.perf_counter()
            results = run_matches("hexarena", a, b, args.games, seed=100, think=args.think, budget=args.budget,
                                  variant=None if variant == "base" else variant)
            results["variant"], results["seconds"] = variant, round(time.perf_counter() - started, 1)
            matches.append(results)
    if args.json:
        print(json.dumps({"search": speeds, "matches": matches}))
        return
    print(f"{'variant':<8} {'level':<7} {'nodes':>7} {'depth':>5} {'cpu s':>6} {'nodes/s':>8}")
    for s in speeds:
        print(f"{s['variant']:<8} {s['level']:<7} {s['nodes']:>7} {s['depth']:>5} {s['cpu_s']:>6} "
              f"{s['nodes_per_s']:>8}")
    print()
    print(f"{'variant':<8} {'match':<18} {'games':>5} {'a wins':>7} {'b wins':>7} {'draws':>6} {'a score':>8} "
          f"{'s':>7}")
    for r in matches:
        print(f"{r['variant']:<8} {r['a'] + ' v ' + r['b']:<18} {r['games']:>5} {r['a_wins']:>7} {r['b_wins']:>7} "
              f"{r['draws']:>6} {r['a_score']:>8.0%} {r['seconds']:>7}")


if __name__ == "__main__":
    main()
