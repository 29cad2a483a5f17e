"""Arkeon's computer levels in seeded matches (engine only), as `spacechess selfplay` plays them:
easy against a random mover, hard against easy, each move within its thinking time.

    python benchmarks/bench_arkeon_computer.py [--games 20] [--think 0.5] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from bot.selfplay import run_matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for a, b in (("easy", "random"), ("normal", "easy"), ("hard", "easy")):
        started = time.perf_counter()
        results = run_matches("arkeon", a, b, args.games, seed=100, think=args.think)
        results["seconds"] = round(time.perf_counter() - started, 1)
        rows.append(results)
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'match':<18} {'games':>5} {'a wins':>7} {'b wins':>7} {'draws':>6} {'a score':>8} {'s':>7}")
    for r in rows:
        print(f"{r['a'] + ' v ' + r['b']:<18} {r['games']:>5} {r['a_wins']:>7} {r['b_wins']:>7} {r['draws']:>6} "
              f"{r['a_score']:>8.0%} {r['seconds']:>7}")


if __name__ == "__main__":
    main()
