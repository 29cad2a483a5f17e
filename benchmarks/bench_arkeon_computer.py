"""Arkeon's computer: its search speed (nodes per second, the depth each level reaches on its node
budget) on seeded positions, then its levels in seeded matches (engine only), as `spacechess
selfplay` plays them: easy against a random mover (issue 12: ≥ 90 %), normal and hard against easy
(hard: ≥ 75 %), seats alternating, each move within its thinking time.

    python benchmarks/bench_arkeon_computer.py [--games 20] [--think 2.0] [--budget 1.0] [--positions 5] [--json]

`--budget` scales the levels' node budgets (the test suite plays hard on 0.05 of its own).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from bot.games.arkeon import computer
from bot.selfplay import run_matches
from engine import registry
from engine.core.search import random_order

RULES = registry.get("arkeon")
MATCHES = (("easy", "random"), ("normal", "easy"), ("hard", "easy"))


def positions(count: int, plies: int = 8) -> list[Any]:
    """Seeded mid-game positions: the standard opening, then random moves."""
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        state = RULES.setup({"to_move": "blue"}, seed)
        for _ in range(plies):
            if RULES.result(state).finished:
                break
            side = state.to_move
            state = RULES.play(state, side, [random_order(RULES, state, side, rng)]).state
        if not RULES.result(state).finished:
            found.append(state)
    return found


def search_speed(level: str, think: float, budget: float, states: list[Any]) -> dict[str, Any]:
    """Nodes searched, CPU time and the deepest finished iteration per move at `level`, as the bot's
    computer searches (bot/games/arkeon/computer.py), within `think` seconds a move."""
    nodes, seconds, depths, slowest = 0, 0.0, [], 0.0
    for state in states:
        deadline = time.monotonic() + think
        started = time.process_time()
        _, stats = computer.search(RULES, state, state.to_move, level, seed=1, budget=budget,
                                   stop=lambda end=deadline: time.monotonic() >= end)
        spent = time.process_time() - started
        seconds, slowest = seconds + spent, max(slowest, spent)
        nodes += stats.nodes
        depths.append(stats.depth)
    return {"level": level, "positions": len(states), "nodes": nodes, "cpu_s": round(seconds, 2),
            "slowest_s": round(slowest, 2), "nodes_per_second": round(nodes / seconds) if seconds else 0,
            "mean_depth": round(sum(depths) / len(depths), 2) if depths else 0,
            "max_depth": computer.DEPTHS[level], "max_nodes": round(computer.MAX_NODES[level] * budget)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    states = positions(args.positions)
    speed = [search_speed(level, args.think, args.budget, states) for level in computer.LEVELS]
    rows = []
    for a, b in MATCHES:
        started = time.perf_counter()
        results = run_matches("arkeon", a, b, args.games, seed=100, think=args.think, budget=args.budget)
        results["seconds"] = round(time.perf_counter() - started, 1)
        rows.append(results)
    if args.json:
        print(json.dumps({"search": speed, "matches": rows}))
        return
    print(f"{'level':<8} {'positions':>9} {'nodes':>8} {'cpu s':>7} {'slowest':>7} {'nodes/s':>8} {'depth':>6} "
          f"{'of':>3} {'budget':>7}")
    for s in speed:
        print(f"{s['level']:<8} {s['positions']:>9} {s['nodes']:>8} {s['cpu_s']:>7} {s['slowest_s']:>7} "
              f"{s['nodes_per_second']:>8} {s['mean_depth']:>6} {s['max_depth']:>3} {s['max_nodes']:>7}")
    print()
    print(f"{'match':<18} {'games':>5} {'a wins':>7} {'b wins':>7} {'draws':>6} {'a score':>8} {'s':>7}")
    for r in rows:
        print(f"{r['a'] + ' v ' + r['b']:<18} {r['games']:>5} {r['a_wins']:>7} {r['b_wins']:>7} {r['draws']:>6} "
              f"{r['a_score']:>8.0%} {r['seconds']:>7}")


if __name__ == "__main__":
    main()
